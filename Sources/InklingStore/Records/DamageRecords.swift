// The versions `check --full` found damaged (migrations/0018_damaged_versions.sql): written
// by a full check, read by an import, so that a file of one of them repairs it without the
// import reading any stored drawing of the versions it finds archived.

/// What repairing a damaged version replaces: its blob, by id and hash, and what its file
/// must hash to once rebuilt.
package struct DamagedVersionTarget: Sendable {
  package let blobID: Int64
  package let blobSHA256: [UInt8]
  package let envelopeID: Int64
  package let fileSHA256: [UInt8]
}

package enum DamageRecords {
  /// The versions marked damaged (empty in a healthy archive).
  ///
  /// - Throws: `StoreError`.
  package static func versionIDs(in db: Database) throws -> Set<Int64> {
    Set(try db.fetchAll("SELECT version_id FROM damaged_version") { $0.int64(0) })
  }

  /// Marks `versionIDs` damaged at `milliseconds`; with `replacing`, the marks of every other
  /// version go (what a full check that read every version found).
  package static func mark(_ versionIDs: Set<Int64>, at milliseconds: Int64, replacing: Bool, in db: Database) throws {
    if replacing { try db.execute("DELETE FROM damaged_version") }
    for id in versionIDs.sorted() {
      try db.execute(
        "INSERT INTO damaged_version(version_id, found_ms) SELECT id, ? FROM version WHERE id = ? ON CONFLICT DO NOTHING",
        [milliseconds, id])
    }
  }

  /// Removes the mark of version `versionID` (repaired).
  package static func clear(versionID: Int64, in db: Database) throws {
    try db.execute("DELETE FROM damaged_version WHERE version_id = ?", [versionID])
  }

  /// The marked versions whose drawing is one of `blobIDs`.
  package static func versionIDs(usingBlobs blobIDs: [Int64], in db: Database) throws -> [Int64] {
    guard !blobIDs.isEmpty else { return [] }
    return try db.fetchAll(
      """
      SELECT d.version_id FROM damaged_version AS d JOIN version AS v ON v.id = d.version_id
      WHERE v.blob_id IN (SELECT value FROM json_each(?)) ORDER BY d.version_id
      """, ["[" + blobIDs.map(String.init).joined(separator: ",") + "]"]
    ) { $0.int64(0) }
  }

  /// What repairing version `versionID` replaces, nil when there is no such version or its
  /// blob row is missing.
  package static func target(ofVersion versionID: Int64, in db: Database) throws -> DamagedVersionTarget? {
    try db.fetchOne(
      """
      SELECT v.blob_id, b.sha256, v.envelope_id, v.file_sha256 FROM version AS v JOIN blob AS b ON b.id = v.blob_id
      WHERE v.id = ?
      """, [versionID]
    ) {
      DamagedVersionTarget(
        blobID: $0.int64(0), blobSHA256: $0.bytes(1), envelopeID: $0.int64(2), fileSHA256: $0.bytes(3))
    }
  }

  /// The paths version `versionID`'s files had where its sources delivered them, oldest first:
  /// the files that can repair it.
  package static func sourcePaths(ofVersion versionID: Int64, in db: Database) throws -> [String] {
    try db.fetchAll(
      "SELECT path FROM version_source WHERE version_id = ? ORDER BY run_id, source_id", [versionID]
    ) { $0.string(0) }
  }
}
