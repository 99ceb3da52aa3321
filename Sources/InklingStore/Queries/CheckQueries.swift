// What `check` (InklingArchive's Archive+Check.swift) reads: SQLite's own checks, the rows
// that break an invariant of the schema, and the facts that name where a problem is. Each
// query returns the rows that are wrong (never "all rows", so a healthy archive costs one pass
// over its tables and nothing more); Archive+Check words the problems.

import InklingFormats

/// A row whose reference names a row that does not exist (PRAGMA foreign_key_check).
package struct MissingReference: Sendable {
  package var table: String
  package var rowID: Int64
  /// The table it refers to, and the referring column.
  package var parent: String
  package var column: String
}

/// A draft whose counters (0001: version_count, latest_saved_ms, latest_version_id) do not
/// follow its versions.
package struct DraftCounterMismatch: Sendable {
  package var name: String
  package var versionCount: Int
  package var actualVersionCount: Int
  /// Whether latest_version_id names one of the draft's own versions.
  package var newestIsItsOwn: Bool
}

/// A draft whose columns of 0008 differ from what its versions and newest drawing give.
package struct NewestDrawingMismatch: Sendable {
  package var name: String
  package var strokes: Bool
  package var inks: Bool
  package var importTimes: Bool
}

/// A blob that breaks invariant 3 of 0001 (delta chains), as stored: `encoding` is the stored
/// number, which a damaged row may hold outside BlobEncoding.
package struct DeltaChainProblem: Sendable {
  package var id: Int64
  package var sha256: [UInt8]
  package var encoding: Int
  package var baseID: Int64?
  package var depth: Int
  /// The base's depth; nil when the base row does not exist.
  package var baseDepth: Int?
}

/// An envelope whose drawing offset lies outside its text, or whose base64 style and verbatim
/// text disagree; `base64Style` is the stored number.
package struct EnvelopeProblem: Sendable {
  package var id: Int64
  package var drawingOffset: Int
  package var textLength: Int
  package var base64Style: Int
}

/// How many rows the archive holds, and how many of them nothing uses.
package struct ArchiveCounts: Sendable {
  package var drafts = 0
  package var versions = 0
  package var blobs = 0
  package var envelopes = 0
  package var unusedBlobs = 0
  package var unusedEnvelopes = 0
}

/// A version's file as imported: what its rebuilt file must hash to.
package struct VersionFile: Sendable {
  package var versionID: Int64
  package var envelopeID: Int64
  package var fileSHA256: [UInt8]
  package var fileSize: Int64
}

/// A revert that breaks invariant 2 of 0012, and how.
package struct RevertProblem: Sendable {
  package enum Kind: Sendable {
    /// It reverts to a version of another draft.
    case otherDraft
    /// It reverts to a version with another file.
    case otherFile
    /// It reverts to a version that is itself a revert.
    case revertOfRevert
  }
  package var versionID: Int64
  package var kind: Kind
}

package enum CheckQueries {
  // MARK: - SQLite's checks

  /// PRAGMA integrity_check's messages, at most `limit`; empty when SQLite finds nothing.
  package static func integrityProblems(limit: Int, in db: Database) throws -> [String] {
    try messages(of: "integrity_check", limit: limit, in: db)
  }

  /// PRAGMA quick_check's messages, at most `limit`; empty when SQLite finds nothing. The
  /// b-tree checks of integrity_check without matching each index to its table: what SQLite
  /// advises before using a database file from elsewhere, at a fraction of the cost.
  package static func quickCheckProblems(limit: Int, in db: Database) throws -> [String] {
    try messages(of: "quick_check", limit: limit, in: db)
  }

  private static func messages(of pragma: String, limit: Int, in db: Database) throws -> [String] {
    var messages: [String] = []
    try db.statement("PRAGMA \(pragma)(\(limit))").forEach { row in
      let message = row.string(0)
      if message != "ok" { messages.append(message) }
    }
    return messages
  }

  /// Every reference to a row that does not exist (PRAGMA foreign_key_check), with its column.
  package static func missingReferences(in db: Database) throws -> [MissingReference] {
    var found: [MissingReference] = []
    var columns: [String: String] = [:]
    let rows = try db.fetchAll("PRAGMA foreign_key_check") { ($0.string(0), $0.int64(1), $0.string(2), $0.int64(3)) }
    for (table, rowID, parent, key) in rows {
      let columnKey = "\(table).\(key)"
      if columns[columnKey] == nil {
        columns[columnKey] =
          try db.fetchOne(#"SELECT "from" FROM pragma_foreign_key_list(?) WHERE id = ?"#, [table, key]) {
            $0.string(0)
          } ?? "a column"
      }
      found.append(MissingReference(table: table, rowID: rowID, parent: parent, column: columns[columnKey]!))
    }
    return found
  }

  // MARK: - Invariants

  /// Drafts whose counters do not follow their versions (0001).
  package static func draftCounterMismatches(in db: Database) throws -> [DraftCounterMismatch] {
    try db.fetchAll(
      """
      SELECT d.name, d.version_count, coalesce(c.n, 0),
             (SELECT saved_ms FROM version WHERE id = d.latest_version_id AND draft_id = d.id) IS NOT NULL
      FROM draft d LEFT JOIN (SELECT draft_id, count(*) AS n, max(saved_ms) AS newest FROM version GROUP BY draft_id) c
        ON c.draft_id = d.id
      WHERE d.version_count <> coalesce(c.n, 0) OR d.latest_saved_ms IS NOT c.newest
         OR (c.n > 0 AND (SELECT saved_ms FROM version WHERE id = d.latest_version_id AND draft_id = d.id) IS NOT c.newest)
      """
    ) {
      DraftCounterMismatch(
        name: $0.string(0), versionCount: $0.int(1), actualVersionCount: $0.int(2), newestIsItsOwn: $0.int(3) != 0)
    }
  }

  /// Drafts whose newest-drawing and import-time columns (0008) are out of date: compared with
  /// version_drawing_summary, the view that defines the first two (0011).
  package static func newestDrawingMismatches(in db: Database) throws -> [NewestDrawingMismatch] {
    try db.fetchAll(
      """
      SELECT * FROM (SELECT d.name, d.latest_strokes IS NOT s.visible_strokes AS strokes,
        d.latest_inks IS NOT coalesce(s.ink_bits, 0) AS inks,
        d.first_imported_ms IS NOT c.first OR d.latest_imported_ms IS NOT c.latest AS imports
      FROM draft AS d LEFT JOIN version_drawing_summary AS s ON s.version_id = d.latest_version_id
      LEFT JOIN (SELECT draft_id, min(imported_ms) AS first, max(imported_ms) AS latest FROM version
        GROUP BY draft_id) AS c ON c.draft_id = d.id)
      WHERE strokes OR inks OR imports
      """
    ) {
      NewestDrawingMismatch(
        name: $0.string(0), strokes: $0.int(1) != 0, inks: $0.int(2) != 0, importTimes: $0.int(3) != 0)
    }
  }

  /// Blobs that break invariant 3 of 0001: a delta's base is another blob, depth = base
  /// depth + 1 ≤ BlobStore.maxChainDepth; a full blob has depth 0 and no base.
  package static func deltaChainProblems(in db: Database) throws -> [DeltaChainProblem] {
    let delta = BlobEncoding.delta.rawValue
    return try db.fetchAll(
      """
      SELECT b.id, b.sha256, b.encoding, b.base_id, b.depth, base.id IS NOT NULL, base.depth
      FROM blob b LEFT JOIN blob base ON base.id = b.base_id
      WHERE (b.base_id IS NULL AND (b.depth <> 0 OR b.encoding = \(delta)))
         OR (b.base_id IS NOT NULL AND (b.encoding <> \(delta) OR b.base_id = b.id OR base.id IS NULL
                                        OR b.depth <> base.depth + 1 OR b.depth > \(BlobStore.maxChainDepth)))
      """
    ) { row in
      DeltaChainProblem(
        id: row.int64(0), sha256: row.bytes(1), encoding: row.int(2), baseID: row.isNull(3) ? nil : row.int64(3),
        depth: row.int(4), baseDepth: row.int(5) != 0 ? row.int(6) : nil)
    }
  }

  /// Envelopes whose drawing offset lies outside their text, or whose base64 style is not one
  /// of EnvelopeTemplate.Base64Spelling's or disagrees with their verbatim text.
  package static func envelopeProblems(in db: Database) throws -> [EnvelopeProblem] {
    let styles = EnvelopeTemplate.Base64Spelling.allCases.map { "\($0.rawValue)" }.joined(separator: ", ")
    let verbatim = EnvelopeTemplate.Base64Spelling.verbatim.rawValue
    return try db.fetchAll(
      """
      SELECT id, drawing_offset, length(CAST(text AS BLOB)), base64_style FROM envelope
      WHERE drawing_offset < 0 OR drawing_offset > length(CAST(text AS BLOB))
         OR base64_style NOT IN (\(styles)) OR (base64_style = \(verbatim)) <> (base64_text IS NOT NULL)
      """
    ) { EnvelopeProblem(id: $0.int64(0), drawingOffset: $0.int(1), textLength: $0.int(2), base64Style: $0.int(3)) }
  }

  /// Invariant 4 of 0001, broken: (first version id, rows) for each (draft, save time, file
  /// content) stored more than once.
  package static func duplicateVersions(in db: Database) throws -> [(firstID: Int64, count: Int)] {
    try db.fetchAll(
      "SELECT min(id), count(*) FROM version GROUP BY draft_id, saved_ms, file_sha256 HAVING count(*) > 1"
    ) { ($0.int64(0), $0.int(1)) }
  }

  /// Versions whose file name no folder can hold as one entry (a slash, NUL, `.`, `..`,
  /// empty, over 255 bytes, not text), with the name.
  package static func unusableFileNames(in db: Database) throws -> [(versionID: Int64, fileName: String)] {
    try db.fetchAll(
      """
      SELECT id, file_name FROM version
      WHERE typeof(file_name) <> 'text' OR instr(file_name, '/') > 0 OR file_name IN ('', '.', '..')
         OR length(CAST(file_name AS BLOB)) > 255 OR instr(CAST(file_name AS BLOB), x'00') > 0
      """
    ) { ($0.int64(0), $0.string(1)) }
  }

  /// Invariant 2 of 0012, broken: reverts whose version is of another draft, has another file,
  /// or is itself a revert. A revert whose version is missing is the foreign key check's.
  package static func revertProblems(in db: Database) throws -> [RevertProblem] {
    try db.fetchAll(
      """
      SELECT v.id, r.draft_id <> v.draft_id, r.file_sha256 <> v.file_sha256
      FROM version AS v INDEXED BY version_by_reverted JOIN version AS r ON r.id = v.reverts_version_id
      WHERE v.reverts_version_id IS NOT NULL
        AND (r.draft_id <> v.draft_id OR r.file_sha256 <> v.file_sha256 OR r.reverts_version_id IS NOT NULL)
      """
    ) { row in
      RevertProblem(
        versionID: row.int64(0),
        kind: row.int(1) != 0 ? .otherDraft : row.int(2) != 0 ? .otherFile : .revertOfRevert)
    }
  }

  /// Invariants 2, 4 and 5 of 0019, broken: tags no draft has (as written), and the notes and
  /// labels of a version whose draft_id is not that version's draft (version ids). A row whose
  /// draft or version is missing is the foreign key check's.
  package static func organisingProblems(in db: Database) throws -> (unusedTags: [String], otherDraft: [Int64]) {
    let unused = try db.fetchAll(
      "SELECT name FROM tag WHERE NOT EXISTS (SELECT 1 FROM draft_tag WHERE tag_id = tag.id) ORDER BY name_folded"
    ) { $0.string(0) }
    let otherDraft = try db.fetchAll(
      """
      SELECT n.version_id FROM note AS n JOIN version AS v ON v.id = n.version_id WHERE v.draft_id <> n.draft_id
      UNION SELECT l.version_id FROM version_label AS l JOIN version AS v ON v.id = l.version_id
      WHERE v.draft_id <> l.draft_id ORDER BY 1
      """
    ) { $0.int64(0) }
    return (unused, otherDraft)
  }

  /// Invariants 1, 5 and 6 of 0019: each tag, label and saved search's name as stored and
  /// whether its stored fold is still `inkling_fold` of it (a generated STORED column is not
  /// computed again when the fold changes), for the caller to check the names' form.
  package static func organisingNames(in db: Database) throws -> [(kind: String, name: String, foldIsCurrent: Bool)] {
    try db.fetchAll(
      """
      SELECT 'tag', name, name_folded = inkling_fold(name) FROM tag
      UNION ALL SELECT 'label', name, name_folded = inkling_fold(name) FROM version_label
      UNION ALL SELECT 'saved search', name, name_folded = inkling_fold(name) FROM saved_search
      """
    ) { (kind: $0.string(0), name: $0.string(1), foldIsCurrent: $0.int(2) != 0) }
  }

  /// The rows of each kind, and those nothing uses (`gc` removes them).
  package static func counts(in db: Database) throws -> ArchiveCounts {
    try db.fetchOne(
      """
      SELECT (SELECT count(*) FROM draft), (SELECT count(*) FROM version), (SELECT count(*) FROM blob),
             (SELECT count(*) FROM envelope),
             (SELECT count(*) FROM blob b WHERE NOT EXISTS (SELECT 1 FROM version WHERE blob_id = b.id)
                                            AND NOT EXISTS (SELECT 1 FROM blob c WHERE c.base_id = b.id)),
             (SELECT count(*) FROM envelope e WHERE NOT EXISTS (SELECT 1 FROM version WHERE envelope_id = e.id))
      """
    ) { row in
      ArchiveCounts(
        drafts: row.int(0), versions: row.int(1), blobs: row.int(2), envelopes: row.int(3), unusedBlobs: row.int(4),
        unusedEnvelopes: row.int(5))
    } ?? ArchiveCounts()
  }

  // MARK: - Every blob (the full check)

  /// Calls `body` with the id, hash and size of every blob, in id order (delta bases before
  /// the deltas over them, mostly, so BlobStore's cache serves them). Its own statement: `body`
  /// may run others on the connection.
  package static func forEachBlob(in db: Database, _ body: (Int64, [UInt8], Int) throws -> Void) throws {
    try db.makeStatement("SELECT id, sha256, size FROM blob ORDER BY id").forEach { row in
      try body(row.int64(0), row.bytes(1), row.int(2))
    }
  }

  /// The versions whose drawing is blob `blobID`, in id order.
  package static func versionFiles(ofBlob blobID: Int64, in db: Database) throws -> [VersionFile] {
    try db.fetchAll(
      "SELECT id, envelope_id, file_sha256, file_size FROM version WHERE blob_id = ? ORDER BY id", [blobID]
    ) { VersionFile(versionID: $0.int64(0), envelopeID: $0.int64(1), fileSHA256: $0.bytes(2), fileSize: $0.int64(3)) }
  }

  /// What the drawing index says of blob `blobID`, as stored (a damaged row may hold a status
  /// outside DrawingFacts.Status); nil when it is not indexed.
  package static func indexRow(ofBlob blobID: Int64, in db: Database) throws -> (
    status: Int, strokes: Int, hidden: Int, points: Int, contentHash: [UInt8]?
  )? {
    try db.fetchOne(
      "SELECT status, stroke_count, hidden_count, point_count, content_hash FROM drawing WHERE blob_id = ?", [blobID]
    ) { ($0.int(0), $0.int(1), $0.int(2), $0.int(3), $0.isNull(4) ? nil : $0.bytes(4)) }
  }

  // MARK: - Where a problem is

  /// The draft's name and the version's number (1 = oldest) of version row `id`; the name is
  /// nil when the draft row is missing; nil when there is no such version.
  package static func versionPlace(_ id: Int64, in db: Database) throws -> (draftName: String?, number: Int)? {
    try db.fetchOne(
      """
      SELECT draft.name,
        (SELECT count(*) FROM version w WHERE w.draft_id = v.draft_id
           AND (w.saved_ms < v.saved_ms OR (w.saved_ms = v.saved_ms AND w.id <= v.id)))
      FROM version v LEFT JOIN draft ON draft.id = v.draft_id WHERE v.id = ?
      """, [id]
    ) { ($0.isNull(0) ? nil : $0.string(0), $0.int(1)) }
  }

  /// The hash of blob `id`, if there is such a row.
  package static func blobSHA256(_ id: Int64, in db: Database) throws -> [UInt8]? {
    try db.fetchOne("SELECT sha256 FROM blob WHERE id = ?", [id]) { $0.bytes(0) }
  }

  /// The name of draft `id`, if there is such a row.
  package static func draftName(_ id: Int64, in db: Database) throws -> String? {
    try db.fetchOne("SELECT name FROM draft WHERE id = ?", [id]) { $0.string(0) }
  }
}
