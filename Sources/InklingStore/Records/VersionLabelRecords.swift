// Labels: names people give versions ("final", "sent to printer"), which every `--version`
// option accepts (migration 0019, invariant 5: one version per folded name in a draft, and a
// label is not a whole number). Each function is one step of an operation that
// InklingArchive runs inside its own transaction (or read snapshot); none begins or commits one.

/// A label and the version it names.
package struct VersionLabelRow: Sendable, Equatable {
  package let versionID: Int64
  /// As first written.
  package let name: String
}

package enum VersionLabelRecords {
  /// The longest label, in characters (the CHECK of 0019).
  package static let maximumLength = 256

  /// The label of draft `draftID` that folds as `name` does (version_label_by_draft).
  package static func label(_ name: String, ofDraft draftID: Int64, in db: Database) throws -> VersionLabelRow? {
    try db.fetchOne(
      "SELECT version_id, name FROM version_label WHERE draft_id = ? AND name_folded = inkling_fold(?)",
      [draftID, name]
    ) { VersionLabelRow(versionID: $0.int64(0), name: $0.string(1)) }
  }

  /// Names version `versionID` of draft `draftID` `name` (NFC, not a whole number). The
  /// caller has checked that no version of the draft has the name.
  package static func add(_ name: String, version versionID: Int64, draft draftID: Int64, in db: Database) throws {
    try db.execute(
      "INSERT INTO version_label(version_id, draft_id, name) VALUES (?, ?, ?)", [versionID, draftID, name])
  }

  /// Removes the label of draft `draftID` that folds as `name` does; returns whether there was one.
  package static func remove(_ name: String, ofDraft draftID: Int64, in db: Database) throws -> Bool {
    try db.execute("DELETE FROM version_label WHERE draft_id = ? AND name_folded = inkling_fold(?)", [draftID, name])
    return db.changes > 0
  }

  /// Every label of draft `draftID`, sorted by fold (version_label_by_draft).
  package static func labels(ofDraft draftID: Int64, in db: Database) throws -> [VersionLabelRow] {
    try db.fetchAll(
      "SELECT version_id, name FROM version_label WHERE draft_id = ? ORDER BY name_folded", [draftID]
    ) { VersionLabelRow(versionID: $0.int64(0), name: $0.string(1)) }
  }

  /// The labels of version `versionID`, as written, sorted by fold (version_label_by_version).
  package static func labels(ofVersion versionID: Int64, in db: Database) throws -> [String] {
    try db.fetchAll(
      "SELECT name FROM version_label INDEXED BY version_label_by_version WHERE version_id = ? ORDER BY name_folded",
      [versionID]
    ) { $0.string(0) }
  }
}
