// What people said about drafts (migration 0019: stars, tags, notes, version labels), read
// and written row by row to carry it from one archive to another (a merge, an export's
// manifest imported). Rows read from
// another archive are its values as stored, in any storage class: that archive is input, and
// the caller validates every value before anything of it is written here. Each function is
// one step of an operation that InklingArchive runs inside its own transaction; none begins
// or commits one.

/// A live draft of another archive that has stars, tags, notes or labels, as stored there.
package struct ForeignDraftMarks: Sendable {
  /// Its row id there.
  package let draftID: Int64
  /// Its stars column as stored (NULL when not starred; anything else to be checked).
  package let stars: DatabaseValue
  /// The names of its tags as stored; NULL for a draft_tag row whose tag is missing.
  package var tags: [DatabaseValue] = []
  package var notes: [ForeignNote] = []
  package var labels: [ForeignLabel] = []

  package init(
    draftID: Int64, stars: DatabaseValue, tags: [DatabaseValue] = [], notes: [ForeignNote] = [],
    labels: [ForeignLabel] = []
  ) {
    self.draftID = draftID
    self.stars = stars
    self.tags = tags
    self.notes = notes
    self.labels = labels
  }
}

/// A note of another archive's draft, as stored there.
package struct ForeignNote: Sendable {
  /// The id of its version there, NULL for a note on the draft.
  package let versionID: DatabaseValue
  package let text: DatabaseValue
  package let writtenMilliseconds: DatabaseValue

  package init(versionID: DatabaseValue, text: DatabaseValue, writtenMilliseconds: DatabaseValue) {
    self.versionID = versionID
    self.text = text
    self.writtenMilliseconds = writtenMilliseconds
  }
}

/// A version label of another archive's draft, as stored there.
package struct ForeignLabel: Sendable {
  /// The id of the version it names there.
  package let versionID: DatabaseValue
  package let name: DatabaseValue

  package init(versionID: DatabaseValue, name: DatabaseValue) {
    self.versionID = versionID
    self.name = name
  }
}

package enum OrganisingRows {
  /// The longest note, in characters (the CHECK of 0019).
  package static let maximumNoteLength = 65536

  // MARK: - Another archive's rows

  /// The live drafts after row id `afterID` that have stars, a tag, a note or a label, in
  /// row id order, at most `limit`, each with all of its rows.
  package static func markedDrafts(afterID: Int64, limit: Int, in db: Database) throws -> [ForeignDraftMarks] {
    var drafts = try db.fetchAll(
      """
      SELECT d.id, d.stars FROM draft AS d WHERE d.id > ? AND d.deleted_ms IS NULL
        AND (d.stars IS NOT NULL OR EXISTS (SELECT 1 FROM draft_tag AS dt WHERE dt.draft_id = d.id)
          OR EXISTS (SELECT 1 FROM note AS n WHERE n.draft_id = d.id)
          OR EXISTS (SELECT 1 FROM version_label AS l WHERE l.draft_id = d.id))
      ORDER BY d.id LIMIT ?
      """, [afterID, limit]
    ) { ForeignDraftMarks(draftID: $0.int64(0), stars: $0.value(1)) }
    let tags = try db.makeStatement(
      "SELECT t.name FROM draft_tag AS dt LEFT JOIN tag AS t ON t.id = dt.tag_id WHERE dt.draft_id = ? ORDER BY dt.tag_id"
    )
    let notes = try db.makeStatement("SELECT version_id, text, written_ms FROM note WHERE draft_id = ? ORDER BY id")
    let labels = try db.makeStatement("SELECT version_id, name FROM version_label WHERE draft_id = ? ORDER BY id")
    for index in drafts.indices {
      let id = drafts[index].draftID
      try tags.forEach([id]) { drafts[index].tags.append($0.value(0)) }
      try notes.forEach([id]) {
        drafts[index].notes.append(
          ForeignNote(versionID: $0.value(0), text: $0.value(1), writtenMilliseconds: $0.value(2)))
      }
      try labels.forEach([id]) { drafts[index].labels.append(ForeignLabel(versionID: $0.value(0), name: $0.value(1))) }
    }
    return drafts
  }

  // MARK: - This archive's rows

  /// The draft of version `versionID`.
  package static func draftID(ofVersion versionID: Int64, in db: Database) throws -> Int64? {
    try db.fetchOne("SELECT draft_id FROM version WHERE id = ?", [versionID]) { $0.int64(0) }
  }

  /// The draft's notes, oldest first: on version `versionID`, or on the draft when nil.
  package static func notes(ofDraft draftID: Int64, in db: Database) throws -> [(
    versionID: Int64?, text: String, writtenMilliseconds: Int64
  )] {
    try db.fetchAll("SELECT version_id, text, written_ms FROM note WHERE draft_id = ? ORDER BY id", [draftID]) {
      (versionID: $0.isNull(0) ? nil : $0.int64(0), text: $0.string(1), writtenMilliseconds: $0.int64(2))
    }
  }

  /// The draft's labels, by the version each names, in the order they were given.
  package static func labels(ofDraft draftID: Int64, in db: Database) throws -> [(versionID: Int64, name: String)] {
    try db.fetchAll("SELECT version_id, name FROM version_label WHERE draft_id = ? ORDER BY id", [draftID]) {
      (versionID: $0.int64(0), name: $0.string(1))
    }
  }

  /// The draft's stars, nil when not starred.
  package static func stars(ofDraft draftID: Int64, in db: Database) throws -> Int? {
    try db.fetchOne("SELECT stars FROM draft WHERE id = ? AND stars IS NOT NULL", [draftID]) { $0.int(0) }
  }

  /// Whether the draft has this note already (on version `versionID`, or on the draft when
  /// nil), written at that time.
  package static func hasNote(
    draftID: Int64, versionID: Int64?, text: String, writtenMilliseconds: Int64, in db: Database
  ) throws -> Bool {
    try db.fetchOne(
      """
      SELECT 1 FROM note INDEXED BY note_by_draft
      WHERE draft_id = ? AND version_id IS ? AND written_ms = ? AND text = ?
      """, [draftID, versionID, writtenMilliseconds, text]
    ) { _ in true } ?? false
  }

  /// Adds a note to the draft, on version `versionID` (which must be one of its versions) or
  /// on the draft when nil.
  package static func insertNote(
    draftID: Int64, versionID: Int64?, text: String, writtenMilliseconds: Int64, in db: Database
  ) throws {
    try db.execute(
      "INSERT INTO note(draft_id, version_id, text, written_ms) VALUES (?, ?, ?, ?)",
      [draftID, versionID, text, writtenMilliseconds])
  }

  /// The version of the draft that the label folding as `name` does names, if any.
  package static func labelledVersion(draftID: Int64, name: String, in db: Database) throws -> Int64? {
    try db.fetchOne(
      "SELECT version_id FROM version_label WHERE draft_id = ? AND name_folded = inkling_fold(?)", [draftID, name]
    ) { $0.int64(0) }
  }

  /// Names version `versionID` of draft `draftID` `name` (no label of that fold in the draft).
  package static func insertLabel(_ name: String, versionID: Int64, draftID: Int64, in db: Database) throws {
    try db.execute(
      "INSERT INTO version_label(version_id, draft_id, name) VALUES (?, ?, ?)", [versionID, draftID, name])
  }
}
