// What `stats` counts: sums over the archive's tables and its pages by table. The blobs'
// own figures are BlobStore.statistics, the thumbnails' ThumbnailRecords.size.

package enum StatisticsQueries {
  /// Drafts with versions, and their versions.
  ///
  /// - Throws: `StoreError`.
  package static func draftsAndVersions(in db: Database) throws -> (drafts: Int, versions: Int) {
    try db.fetchOne("SELECT count(*), total(version_count) FROM draft WHERE version_count > 0") {
      ($0.int(0), $0.int(1))
    } ?? (0, 0)
  }

  /// The bytes of the files imported, each version counted once.
  ///
  /// - Throws: `StoreError`.
  package static func importedFileBytes(in db: Database) throws -> Int64 {
    try db.fetchOne("SELECT total(file_size) FROM version") { $0.int64(0) } ?? 0
  }

  /// The bytes of the envelopes: their text and verbatim base64.
  ///
  /// - Throws: `StoreError`.
  package static func envelopeBytes(in db: Database) throws -> Int64 {
    try db.fetchOne("SELECT total(length(text)) + total(length(base64_text)) FROM envelope") { $0.int64(0) } ?? 0
  }

  /// Bytes of pages per table, its indexes counted with it, from SQLite's `dbstat` table.
  /// Empty when this SQLite was built without it. `aggregate` makes dbstat sum each b-tree
  /// as it walks it instead of making a row of every page, which is most of its cost.
  package static func pageBytesByTable(in db: Database) -> [String: Int64] {
    let rows = try? db.fetchAll(
      """
      SELECT coalesce(m.tbl_name, s.name), sum(s.pgsize) FROM dbstat AS s
      LEFT JOIN sqlite_schema AS m ON m.name = s.name WHERE s.aggregate = TRUE GROUP BY 1
      """
    ) { ($0.string(0), $0.int64(1)) }
    return Dictionary(rows ?? [], uniquingKeysWith: +)
  }
}
