// Draft and version rows: writing a new version (and keeping the draft's denormalised
// counters right in the same transaction), and reading versions back.

import InklingFormats

/// Where a version's save time came from (`version.saved_source`).
package enum SavedSource: String, Sendable {
  /// The stamp in the file name (`Name-2025-10-05T14:03:12Z.inkling`).
  case fileName = "stamp"
  /// The file's modification time: the name has no usable stamp.
  case modificationTime = "mtime"
}

/// A version as the archive holds it.
package struct VersionRow: Sendable {
  package let id: Int64
  package let draftID: Int64
  package let draftName: String
  package let savedMilliseconds: Int64
  package let savedSource: SavedSource
  package let importedMilliseconds: Int64
  package let fileName: String
  package let fileSHA256: [UInt8]
  package let fileSize: Int64
  package let fileModificationNanoseconds: Int64
  package let blobID: Int64
  package let envelopeID: Int64
  package let background: RGBA
  /// The version this one reverts to (migration 0012), nil for an imported file.
  package let revertsVersionID: Int64?
}

extension VersionRow {
  /// The row that `VersionRecords.insert(version)` made as `id`, in the draft called
  /// `draftName`, without reading it back.
  package init(_ version: NewVersion, id: Int64, draftName: String) {
    self.init(
      id: id, draftID: version.draftID, draftName: draftName, savedMilliseconds: version.savedMilliseconds,
      savedSource: version.savedSource, importedMilliseconds: version.importedMilliseconds,
      fileName: version.fileName, fileSHA256: version.fileSHA256, fileSize: version.fileSize,
      fileModificationNanoseconds: version.fileModificationNanoseconds, blobID: version.blobID,
      envelopeID: version.envelopeID, background: version.background, revertsVersionID: version.revertsVersionID)
  }
}

/// The newest version of a draft, with what its thumbnail needs (`contact-sheet`, warming).
package struct NewestVersion: Sendable {
  package var name: String
  /// Its number: the draft's version count.
  package var number: Int
  package var savedMilliseconds: Int64
  package var blobID: Int64
  package var background: RGBA
  /// What the drawing index says of its drawing; nil when the drawing is not indexed.
  package var status: DrawingFacts.Status?
  package var contentHash: [UInt8]?
  package var draftID: Int64
}

/// A new version to insert.
package struct NewVersion {
  package var draftID: Int64
  package var savedMilliseconds: Int64
  package var savedSource: SavedSource
  package var importedMilliseconds: Int64
  package var fileName: String
  package var fileSHA256: [UInt8]
  package var fileSize: Int64
  package var fileModificationNanoseconds: Int64
  package var blobID: Int64
  package var envelopeID: Int64
  package var background: RGBA
  /// Set for a version made by `revert`: the version whose file it repeats.
  package var revertsVersionID: Int64?

  package init(
    draftID: Int64, savedMilliseconds: Int64, savedSource: SavedSource, importedMilliseconds: Int64,
    fileName: String, fileSHA256: [UInt8], fileSize: Int64, fileModificationNanoseconds: Int64,
    blobID: Int64, envelopeID: Int64, background: RGBA, revertsVersionID: Int64? = nil
  ) {
    self.draftID = draftID
    self.savedMilliseconds = savedMilliseconds
    self.savedSource = savedSource
    self.importedMilliseconds = importedMilliseconds
    self.fileName = fileName
    self.fileSHA256 = fileSHA256
    self.fileSize = fileSize
    self.fileModificationNanoseconds = fileModificationNanoseconds
    self.blobID = blobID
    self.envelopeID = envelopeID
    self.background = background
    self.revertsVersionID = revertsVersionID
  }
}

/// What `history` shows of a version's blob: its hash and size, and from the drawing index
/// (when the blob has a row there) its status, visible strokes and content hash.
package struct BlobSummary: Sendable {
  package var sha256: [UInt8]
  package var size: Int64
  /// Nil when the blob is not indexed.
  package var status: DrawingFacts.Status?
  package var visibleStrokes: Int?
  package var contentHash: [UInt8]?
}

/// What versions inserted into one draft change in its row (`VersionRecords.add`): their
/// number, the newest by save time (the later insert on a tie), and the extremes of their save
/// and import times.
package struct DraftTally: Sendable, Equatable {
  package let draftID: Int64
  package private(set) var count = 0
  package private(set) var latestSavedMilliseconds = Int64.min
  package private(set) var latestVersionID: Int64 = 0
  package private(set) var firstSavedMilliseconds = Int64.max
  package private(set) var firstImportedMilliseconds = Int64.max
  package private(set) var latestImportedMilliseconds = Int64.min

  package init(draftID: Int64) { self.draftID = draftID }

  /// Counts version `versionID`, inserted after every version counted so far.
  package mutating func add(versionID: Int64, savedMilliseconds: Int64, importedMilliseconds: Int64) {
    count += 1
    if savedMilliseconds >= latestSavedMilliseconds {
      latestSavedMilliseconds = savedMilliseconds
      latestVersionID = versionID
    }
    firstSavedMilliseconds = min(firstSavedMilliseconds, savedMilliseconds)
    firstImportedMilliseconds = min(firstImportedMilliseconds, importedMilliseconds)
    latestImportedMilliseconds = max(latestImportedMilliseconds, importedMilliseconds)
  }
}

package enum VersionRecords {
  /// The id of the draft called exactly `name` (NFC), if there is one.
  ///
  /// - Throws: `StoreError`.
  package static func draftID(named name: String, in db: Database) throws -> Int64? {
    try db.fetchOne("SELECT id FROM draft WHERE name = ?", [name]) { $0.int64(0) }
  }

  /// The id of the draft called `name`, creating it when new; for a draft in the trash, also
  /// the save time of its newest version (`Int64.min` when it has none).
  package static func draftID(named name: String, createdMilliseconds: Int64, in db: Database) throws -> (
    id: Int64, created: Bool, trashedNewestSave: Int64?
  ) {
    let found = try db.fetchOne(
      "SELECT id, deleted_ms IS NOT NULL, latest_saved_ms FROM draft WHERE name = ?", [name]
    ) { row in (id: row.int64(0), trashed: row.int(1) == 1, newest: row.isNull(2) ? Int64.min : row.int64(2)) }
    if let found { return (found.id, false, found.trashed ? found.newest : nil) }
    try db.execute("INSERT INTO draft(name, created_ms) VALUES (?, ?)", [name, createdMilliseconds])
    return (db.lastInsertRowID, true, nil)
  }

  /// Inserts a version and updates its draft's row; returns its id, or nil when the draft
  /// already has a version with this save time and file content (invariant 4: importing a
  /// file again is a no-op).
  package static func insert(_ version: NewVersion, in db: Database) throws -> Int64? {
    guard let id = try insertLeavingDraft(version, in: db) else { return nil }
    var tally = DraftTally(draftID: version.draftID)
    tally.add(
      versionID: id, savedMilliseconds: version.savedMilliseconds, importedMilliseconds: version.importedMilliseconds)
    try add(tally, in: db)
    return id
  }

  /// Inserts a version's row only, as `insert` does, leaving its draft's row to the caller:
  /// the versions of one draft written together update it once (`add`), before the
  /// transaction commits (migration 0015).
  package static func insertLeavingDraft(_ version: NewVersion, in db: Database) throws -> Int64? {
    // An imported file names only the columns of 0001, as it always did (tests write archives
    // of older schemas through here); a revert names its original too (0012).
    let reverts = version.revertsVersionID.map { (column: ", reverts_version_id", value: ", ?", id: $0) }
    try db.execute(
      """
      INSERT INTO version(draft_id, saved_ms, saved_source, imported_ms, file_name, file_sha256,
        file_size, file_mtime_ns, blob_id, envelope_id, background_r, background_g, background_b, background_a\(reverts?.column ?? ""))
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?\(reverts?.value ?? ""))
      ON CONFLICT(draft_id, saved_ms, file_sha256) DO NOTHING
      """,
      [
        version.draftID, version.savedMilliseconds, version.savedSource.rawValue, version.importedMilliseconds,
        version.fileName, version.fileSHA256, version.fileSize, version.fileModificationNanoseconds,
        version.blobID, version.envelopeID, version.background.red, version.background.green,
        version.background.blue, version.background.alpha,
      ] + (reverts.map { [$0.id] } ?? []))
    guard db.changes > 0 else { return nil }
    return db.lastInsertRowID
  }

  /// Updates the row of `tally.draftID` for the versions `tally` counted, in one statement:
  /// the same row as updating it after each of them, in order.
  package static func add(_ tally: DraftTally, in db: Database) throws {
    guard tally.count > 0 else { return }
    // Every expression reads the row as it was (SQLite's UPDATE), so
    // the newest version is chosen against the old latest_saved_ms. Ties on the save time go
    // to the later insert, as the newest file wins in the app; the tally's newest is already
    // its latest insert of the highest save time, and it comes after the row's.
    try db.execute(
      """
      UPDATE draft SET version_count = version_count + ?1,
        latest_version_id = CASE WHEN latest_saved_ms IS NULL OR ?2 >= latest_saved_ms THEN ?3 ELSE latest_version_id END,
        latest_saved_ms = max(coalesce(latest_saved_ms, ?2), ?2),
        first_saved_ms = min(coalesce(first_saved_ms, ?4), ?4),
        first_imported_ms = min(coalesce(first_imported_ms, ?5), ?5),
        latest_imported_ms = max(coalesce(latest_imported_ms, ?6), ?6)
      WHERE id = ?7
      """,
      [
        tally.count, tally.latestSavedMilliseconds, tally.latestVersionID, tally.firstSavedMilliseconds,
        tally.firstImportedMilliseconds, tally.latestImportedMilliseconds, tally.draftID,
      ])
  }

  /// The id of the version of draft `draftID` saved at `savedMilliseconds` with this content.
  package static func id(draftID: Int64, savedMilliseconds: Int64, fileSHA256: [UInt8], in db: Database) throws
    -> Int64?
  {
    try db.fetchOne(
      "SELECT id FROM version WHERE draft_id = ? AND saved_ms = ? AND file_sha256 = ?",
      [draftID, savedMilliseconds, fileSHA256]
    ) { $0.int64(0) }
  }

  /// The number `history` gives version `versionID` of draft `draftID` (saved at
  /// `savedMilliseconds`): its place among the draft's versions by save time, then id.
  package static func number(ofVersion versionID: Int64, draftID: Int64, savedMilliseconds: Int64, in db: Database)
    throws -> Int
  {
    try db.fetchOne(
      """
      SELECT count(*) FROM version INDEXED BY version_by_draft
      WHERE draft_id = ?1 AND (saved_ms < ?2 OR (saved_ms = ?2 AND id <= ?3))
      """, [draftID, savedMilliseconds, versionID]
    ) { $0.int(0) } ?? 0
  }

  /// Up to `limit` live drafts (not in the trash) named after `name` (all from the first when
  /// nil), in name order (SQLite's: the bytes of the UTF-8), with their number of versions and
  /// the bytes of their files: a walk through every draft in pages, each page one range of the
  /// names' unique index, so that walks through several archives meet each name together.
  package static func drafts(afterName name: String?, limit: Int, in db: Database) throws -> [(
    id: Int64, name: String, versions: Int, bytes: Int64
  )] {
    // Two statements rather than `?1 IS NULL OR name > ?1`, which no index range serves.
    try db.fetchAll(
      """
      SELECT d.id, d.name, count(v.id), total(v.file_size)
      FROM (SELECT id, name FROM draft WHERE \(name == nil ? "" : "name > ?2 AND ")deleted_ms IS NULL
        ORDER BY name LIMIT ?1) AS d
        LEFT JOIN version AS v ON v.draft_id = d.id
      GROUP BY d.name ORDER BY d.name
      """, name.map { [limit, $0] } ?? [limit]
    ) { (id: $0.int64(0), name: $0.string(1), versions: $0.int(2), bytes: $0.int64Clamping(3)) }
  }

  static let columns = """
    version.id, version.draft_id, draft.name, version.saved_ms, version.saved_source, version.imported_ms,
    version.file_name, version.file_sha256, version.file_size, version.file_mtime_ns, version.blob_id,
    version.envelope_id, version.background_r, version.background_g, version.background_b, version.background_a,
    version.reverts_version_id
    """

  static func row(_ row: Row) -> VersionRow {
    VersionRow(
      id: row.int64(0), draftID: row.int64(1), draftName: row.string(2), savedMilliseconds: row.int64(3),
      // The column's CHECK admits only the two sources.
      savedSource: SavedSource(rawValue: row.string(4)) ?? .modificationTime, importedMilliseconds: row.int64(5),
      fileName: row.string(6),
      fileSHA256: row.bytes(7), fileSize: row.int64(8), fileModificationNanoseconds: row.int64(9),
      blobID: row.int64(10), envelopeID: row.int64(11),
      background: RGBA(red: row.double(12), green: row.double(13), blue: row.double(14), alpha: row.double(15)),
      revertsVersionID: row.isNull(16) ? nil : row.int64(16))
  }

  /// Every version of a draft, oldest first; version numbers are positions in this list.
  package static func versions(ofDraft draftID: Int64, in db: Database) throws -> [VersionRow] {
    try db.fetchAll(
      """
      SELECT \(columns) FROM version JOIN draft ON draft.id = version.draft_id
      WHERE version.draft_id = ? ORDER BY version.saved_ms, version.id
      """, [draftID], row)
  }

  /// The version that holds this file, if the archive has it already, and the name of its
  /// draft now: the version of the draft called `name` with this save time and file content
  /// (invariant 4 of 0001: at most one), else the first archived of another draft's with the
  /// same save time, content and file name (the draft it came to was renamed or merged since:
  /// importing the Drafts folder again must not bring the old name back, and a source that
  /// delivers the file again is recorded on that version).
  package static func archivedFile(
    draftNamed name: String, savedMilliseconds: Int64, fileSHA256: [UInt8], fileName: String, in db: Database
  ) throws -> (versionID: Int64, draftName: String, fileName: String)? {
    // Two statements, the second only when the first finds nothing: most files found are
    // found by their draft's name, and a compound SELECT ordered to prefer that match would
    // run both halves every time.
    if let found = try db.fetchOne(
      """
      SELECT version.id, version.file_name FROM version JOIN draft ON draft.id = version.draft_id
      WHERE draft.name = ? AND version.saved_ms = ? AND version.file_sha256 = ?
      """, [name, savedMilliseconds, fileSHA256], { (id: $0.int64(0), fileName: $0.string(1)) })
    {
      return (found.id, name, found.fileName)
    }
    return try db.fetchOne(
      """
      SELECT version.id, draft.name FROM version INDEXED BY version_by_saved_draft
        JOIN draft ON draft.id = version.draft_id
      WHERE version.saved_ms = ? AND version.file_sha256 = ? AND version.file_name = ? ORDER BY version.id LIMIT 1
      """, [savedMilliseconds, fileSHA256, fileName]
    ) { (versionID: $0.int64(0), draftName: $0.string(1), fileName: fileName) }
  }

  /// The file name of version `versionID`.
  package static func fileName(ofVersion versionID: Int64, in db: Database) throws -> String? {
    try db.fetchOne("SELECT file_name FROM version WHERE id = ?", [versionID]) { $0.string(0) }
  }

  /// Gives version `versionID` the file name `fileName` (the app's own name, found on another
  /// file holding the same version).
  package static func setFileName(_ fileName: String, ofVersion versionID: Int64, in db: Database) throws {
    try db.execute("UPDATE version SET file_name = ? WHERE id = ?", [fileName, versionID])
  }

  /// The blob of the draft's version saved last at or before `savedMilliseconds`, else of its
  /// version saved soonest after: the natural base of a delta for a version saved then.
  ///
  /// - Throws: `StoreError`.
  package static func nearestBlob(ofDraftNamed name: String, before savedMilliseconds: Int64, in db: Database) throws
    -> Int64?
  {
    try db.fetchOne(
      """
      SELECT version.blob_id FROM version JOIN draft ON draft.id = version.draft_id
      WHERE draft.name = ? ORDER BY version.saved_ms <= ? DESC, abs(version.saved_ms - ?) LIMIT 1
      """, [name, savedMilliseconds, savedMilliseconds]
    ) { $0.int64(0) }
  }

  /// Every draft's id, in id order.
  package static func draftIDs(in db: Database) throws -> [Int64] {
    try db.fetchAll("SELECT id FROM draft ORDER BY id") { $0.int64(0) }
  }

  /// The blobs of the draft's versions, newest save first (later rows first on a tie).
  package static func blobIDsNewestFirst(ofDraft draftID: Int64, in db: Database) throws -> [Int64] {
    try db.fetchAll("SELECT blob_id FROM version WHERE draft_id = ? ORDER BY saved_ms DESC, id DESC", [draftID]) {
      $0.int64(0)
    }
  }

  /// Every version of a draft as `versions(ofDraft:)` gives them, each with the summary of
  /// its blob (nil only for a blob that is missing, which `check` reports), in one
  /// statement: one snapshot of the history, and one statement fewer for every command that
  /// reads a draft's versions.
  package static func history(ofDraft draftID: Int64, in db: Database) throws -> [(
    version: VersionRow, blob: BlobSummary?
  )] {
    try db.fetchAll(
      """
      SELECT \(columns), \(VersionLookupRecords.blobSummaryColumns)
      FROM version JOIN draft ON draft.id = version.draft_id
        LEFT JOIN blob ON blob.id = version.blob_id LEFT JOIN drawing ON drawing.blob_id = version.blob_id
      WHERE version.draft_id = ? ORDER BY version.saved_ms, version.id
      """, [draftID]
    ) { row in
      (Self.row(row), row.isNull(17) ? nil : VersionLookupRecords.blobSummary(row, from: 17))
    }
  }

  /// The newest version of at most `limit` live drafts with versions whose id is above
  /// `draftID`, by id: every live draft a page at a time, each page one range of the primary
  /// key, continuing after the last draft of the page before. Ties on the save time go to the
  /// later row, as `latest_version_id` does.
  ///
  /// - Throws: `StoreError`.
  package static func newestVersions(afterDraftID draftID: Int64, limit: Int, in db: Database) throws
    -> [NewestVersion]
  {
    try db.fetchAll(
      newestVersionSQL + """
        WHERE draft.id > ? AND draft.version_count > 0 AND draft.deleted_ms IS NULL ORDER BY draft.id LIMIT ?
        """, [draftID, limit], newestVersion)
  }

  /// The newest version of the draft called exactly `name` (NFC), in the trash or not, as
  /// `newestVersions` gives it; nil when there is no such draft or it has no versions. One
  /// lookup through the name's index, whatever the archive's size.
  ///
  /// - Throws: `StoreError`.
  package static func newestVersion(ofDraftNamed name: String, in db: Database) throws -> NewestVersion? {
    try db.fetchOne(newestVersionSQL + "WHERE draft.name = ? AND draft.version_count > 0", [name], newestVersion)
  }

  private static let newestVersionSQL = newestVersionSQL(from: "draft")

  /// The columns `newestVersion` reads, of the drafts of `tables` (which name `draft`).
  static func newestVersionSQL(from tables: String) -> String {
    """
    SELECT draft.name, draft.version_count, v.saved_ms, v.blob_id, v.background_r, v.background_g,
      v.background_b, v.background_a, d.status, d.content_hash, draft.id
    FROM \(tables)
    JOIN version v ON v.id = (SELECT id FROM version WHERE draft_id = draft.id ORDER BY saved_ms DESC, id DESC LIMIT 1)
    LEFT JOIN drawing d ON d.blob_id = v.blob_id

    """
  }

  static func newestVersion(_ row: Row) -> NewestVersion {
    NewestVersion(
      name: row.string(0), number: row.int(1), savedMilliseconds: row.int64(2), blobID: row.int64(3),
      background: RGBA(red: row.double(4), green: row.double(5), blue: row.double(6), alpha: row.double(7)),
      // An unknown status (a damaged row) reads as damaged, as DrawingIndexRecords reads it.
      status: row.isNull(8) ? nil : DrawingFacts.Status(rawValue: row.int(8)) ?? .damaged,
      contentHash: row.isNull(9) ? nil : row.bytes(9), draftID: row.int64(10))
  }
}
