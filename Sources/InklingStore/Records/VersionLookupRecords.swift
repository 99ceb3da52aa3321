// One version of a draft read on its own (InklingArchive's VersionLookup): by its number in
// the draft's history, as the version current before a moment, or the newest; and the facts
// of its history entry (its number, its blob's summary, the earlier version with the same
// drawing, the version it reverts to, its sources). Each is an indexed query on that version
// alone (version_by_draft), so that restoring or drawing one version of a long history does
// not read the whole of it.
//
// Numbers are positions by save time, then id, as VersionRecords.versions(ofDraft:) lists
// them. The caller reads in one transaction, so that the answers agree with each other.

/// Which version of a draft to read.
package enum VersionPick: Sendable, Equatable {
  /// The newest: the last by save time, then id.
  case newest
  /// Version N, 1 being the oldest.
  case number(Int)
  /// The newest saved before this moment (milliseconds since 1970).
  case savedBefore(Int64)
}

/// How many versions a draft has, when the first was saved, and the draft's name.
package struct DraftExtent: Sendable {
  package var name: String
  package var versionCount: Int
  /// Nil when the draft has no versions.
  package var firstSavedMilliseconds: Int64?
}

package enum VersionLookupRecords {
  /// The version of draft `draftID` that `pick` names, nil when there is none.
  ///
  /// - Throws: `StoreError`.
  package static func version(ofDraft draftID: Int64, _ pick: VersionPick, in db: Database) throws -> VersionRow? {
    let from = """
      SELECT \(VersionRecords.columns) FROM version JOIN draft ON draft.id = version.draft_id
      WHERE version.draft_id = ?1
      """
    switch pick {
    case .newest:
      return try db.fetchOne(
        from + " ORDER BY version.saved_ms DESC, version.id DESC LIMIT 1", [draftID], VersionRecords.row)
    case .number(let number):
      guard number >= 1 else { return nil }
      return try db.fetchOne(
        from + " ORDER BY version.saved_ms, version.id LIMIT 1 OFFSET ?2", [draftID, number - 1],
        VersionRecords.row)
    case .savedBefore(let end):
      return try db.fetchOne(
        from + " AND version.saved_ms < ?2 ORDER BY version.saved_ms DESC, version.id DESC LIMIT 1",
        [draftID, end], VersionRecords.row)
    }
  }

  /// Draft `draftID`'s name, number of versions and first save time; nil when there is no
  /// such draft.
  ///
  /// - Throws: `StoreError`.
  package static func extent(ofDraft draftID: Int64, in db: Database) throws -> DraftExtent? {
    try db.fetchOne(
      """
      SELECT draft.name, count(version.id), min(version.saved_ms)
      FROM draft LEFT JOIN version ON version.draft_id = draft.id WHERE draft.id = ? GROUP BY draft.id
      """, [draftID]
    ) {
      DraftExtent(name: $0.string(0), versionCount: $0.int(1), firstSavedMilliseconds: $0.isNull(2) ? nil : $0.int64(2))
    }
  }

  /// What `history` shows of blob `blobID`; nil when the blob is missing (`check` reports it).
  ///
  /// - Throws: `StoreError`.
  package static func blobSummary(_ blobID: Int64, in db: Database) throws -> BlobSummary? {
    try db.fetchOne(
      """
      SELECT \(blobSummaryColumns) FROM blob LEFT JOIN drawing ON drawing.blob_id = blob.id WHERE blob.id = ?
      """, [blobID]
    ) { blobSummary($0, from: 0) }
  }

  /// The number of the first version of `row`'s draft, saved before `row` (by save time, then
  /// id), whose drawing has the content hash `contentHash`; nil when there is none.
  ///
  /// - Throws: `StoreError`.
  package static func firstNumber(withContent contentHash: [UInt8], before row: VersionRow, in db: Database) throws
    -> Int?
  {
    let first = try db.fetchOne(
      """
      SELECT version.id, version.saved_ms FROM version JOIN blob ON blob.id = version.blob_id
        JOIN drawing ON drawing.blob_id = version.blob_id
      WHERE version.draft_id = ?1 AND drawing.content_hash = ?2
        AND (version.saved_ms < ?3 OR (version.saved_ms = ?3 AND version.id < ?4))
      ORDER BY version.saved_ms, version.id LIMIT 1
      """, [row.draftID, contentHash, row.savedMilliseconds, row.id]
    ) { (id: $0.int64(0), saved: $0.int64(1)) }
    guard let first else { return nil }
    return try VersionRecords.number(
      ofVersion: first.id, draftID: row.draftID, savedMilliseconds: first.saved, in: db)
  }

  /// The number of version `versionID` in draft `draftID`; nil when it is not one of the
  /// draft's versions (any more).
  ///
  /// - Throws: `StoreError`.
  package static func number(ofVersion versionID: Int64, inDraft draftID: Int64, in db: Database) throws -> Int? {
    let saved = try db.fetchOne(
      "SELECT saved_ms FROM version WHERE id = ? AND draft_id = ?", [versionID, draftID]
    ) { $0.int64(0) }
    guard let saved else { return nil }
    return try VersionRecords.number(ofVersion: versionID, draftID: draftID, savedMilliseconds: saved, in: db)
  }

  /// The sources of version `versionID`, in the order `SourceRecords.sources(ofDraft:)` gives them.
  ///
  /// - Throws: `StoreError`.
  package static func sources(ofVersion versionID: Int64, in db: Database) throws -> [VersionSourceRow] {
    try db.fetchAll(
      """
      SELECT s.label, vs.path, vs.run_id, r.started_ms
      FROM version_source AS vs JOIN source AS s ON s.id = vs.source_id JOIN import_run AS r ON r.id = vs.run_id
      WHERE vs.version_id = ? ORDER BY vs.run_id, vs.source_id
      """, [versionID]
    ) {
      VersionSourceRow(label: $0.string(0), path: $0.string(1), runID: $0.int64(2), runStartedMilliseconds: $0.int64(3))
    }
  }

  /// The columns `blobSummary(_:from:)` reads, of `blob` and `drawing`.
  static let blobSummaryColumns = """
    blob.sha256, blob.size, drawing.status, drawing.stroke_count - drawing.hidden_count, drawing.content_hash
    """

  /// The summary in `blobSummaryColumns` from column `first` on.
  static func blobSummary(_ row: Row, from first: Int32) -> BlobSummary {
    BlobSummary(
      sha256: row.bytes(first), size: row.int64(first + 1),
      // An unknown status (a damaged row) reads as damaged, as DrawingIndexRecords reads it.
      status: row.isNull(first + 2) ? nil : DrawingFacts.Status(rawValue: row.int(first + 2)) ?? .damaged,
      visibleStrokes: row.isNull(first + 3) ? nil : row.int(first + 3),
      contentHash: row.isNull(first + 4) ? nil : row.bytes(first + 4))
  }
}
