// Where versions came from (migrations/0013_sources.sql): source labels, the rows that tie a
// version to each source that delivered it (the `source:` search's SQL is in Queries/).
//
// A version delivered again by a source it already has keeps its first row (invariant 3 of
// 0013): the path and run stay those of the first delivery, so importing again changes
// nothing.

import InklingFormats

/// One source a version came from, as recorded.
package struct VersionSourceRow: Sendable, Equatable {
  package var label: String
  /// The file's path when it was imported, or as the merged archive recorded it.
  package var path: String
  /// The import run of this archive that recorded it.
  package var runID: Int64
  /// When that run started, milliseconds since 1970.
  package var runStartedMilliseconds: Int64
}

/// A source to record for a version: a label and the path the file had there.
package struct SourceMark: Sendable, Hashable {
  package var label: String
  package var path: String

  package init(label: String, path: String) {
    self.label = label
    self.path = path
  }
}

/// A version an import knows by its file's path, size and modification time.
package struct KnownFile: Sendable, Equatable {
  package var versionID: Int64
  /// The draft that holds it now (it may have been renamed since the file was imported).
  package var draftName: String
  package var savedMilliseconds: Int64
  package var fileSHA256: [UInt8]
  package var fileName: String
}

package enum SourceRecords {
  /// The id of the source labelled `label` (NFC), inserting it when new.
  package static func id(label: String, in db: Database) throws -> Int64 {
    let label = DraftFileName.canonicalName(label)
    if let id = try db.fetchOne("SELECT id FROM source WHERE label = ?", [label], { $0.int64(0) }) { return id }
    try db.execute("INSERT INTO source(label) VALUES (?)", [label])
    return db.lastInsertRowID
  }

  /// Records that version `versionID`, the file saved at `savedMilliseconds` with content
  /// `fileSHA256`, came from source `sourceID` at `path`, unless that source is recorded for
  /// it already. Returns whether a row was added.
  ///
  /// Nothing is recorded when `versionID` is no longer that file's version: an id found on
  /// another connection, before this transaction began, may name a version removed since
  /// (purged, or dropped as its twin by a merging rename) or, ids being reused, one added after.
  @discardableResult
  package static func record(
    versionID: Int64, savedMilliseconds: Int64, fileSHA256: [UInt8], sourceID: Int64, path: String, runID: Int64,
    in db: Database
  ) throws -> Bool {
    try db.execute(
      """
      INSERT INTO version_source(version_id, source_id, path, run_id)
      SELECT id, ?, ?, ? FROM version WHERE id = ? AND saved_ms = ? AND file_sha256 = ?
      ON CONFLICT(version_id, source_id) DO NOTHING
      """, [sourceID, path, runID, versionID, savedMilliseconds, fileSHA256])
    return db.changes > 0
  }

  /// The version a source delivered from `path` when the file there had `size` bytes and was
  /// modified at `modificationNanoseconds`, if any: one probe of `version_source_by_path`
  /// (migration 0020), the oldest such version when several match.
  package static func knownFile(path: String, size: Int64, modificationNanoseconds: Int64, in db: Database) throws
    -> KnownFile?
  {
    try db.fetchOne(
      """
      SELECT v.id, d.name, v.saved_ms, v.file_sha256, v.file_name
      FROM version_source AS vs INDEXED BY version_source_by_path
        JOIN version AS v ON v.id = vs.version_id JOIN draft AS d ON d.id = v.draft_id
      WHERE vs.path = ? AND v.file_size = ? AND v.file_mtime_ns = ? ORDER BY v.id LIMIT 1
      """, [path, size, modificationNanoseconds]
    ) {
      KnownFile(
        versionID: $0.int64(0), draftName: $0.string(1), savedMilliseconds: $0.int64(2), fileSHA256: $0.bytes(3),
        fileName: $0.string(4))
    }
  }

  /// The sources of every version of a draft, by version id, each version's oldest first.
  package static func sources(ofDraft draftID: Int64, in db: Database) throws -> [Int64: [VersionSourceRow]] {
    var result: [Int64: [VersionSourceRow]] = [:]
    try db.statement(
      """
      SELECT vs.version_id, s.label, vs.path, vs.run_id, r.started_ms
      FROM version AS v JOIN version_source AS vs ON vs.version_id = v.id JOIN source AS s ON s.id = vs.source_id
        JOIN import_run AS r ON r.id = vs.run_id
      WHERE v.draft_id = ? ORDER BY vs.version_id, vs.run_id, vs.source_id
      """
    ).forEach([draftID]) { row in
      result[row.int64(0), default: []].append(
        VersionSourceRow(
          label: row.string(1), path: row.string(2), runID: row.int64(3), runStartedMilliseconds: row.int64(4)))
    }
    return result
  }
}
