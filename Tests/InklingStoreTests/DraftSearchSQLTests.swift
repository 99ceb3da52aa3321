import InklingTestSupport
import Testing

@testable import InklingStore

@Suite struct DraftSearchSQLTests {
  /// The search's span limits are the thresholds of the schema's span_class column
  /// (migration 0006): a span just below each limit is in its class, one at it in the next.
  @Test func spanClassesHaveTheSearchesLimits() throws {
    let folder = try TemporaryFolder()
    let db = try ArchiveDatabase.open(path: folder.path("a.sqlite"), mode: .readWrite)
    defer { db.close() }
    let limits = DraftSearchSQL.spanLimits.compactMap { $0 }
    #expect(limits.count == DraftSearchSQL.spanLimits.count - 1)
    for (spanClass, limit) in limits.enumerated() {
      for (span, expected) in [(limit - 1, spanClass), (limit, spanClass + 1)] {
        try db.execute(
          "INSERT INTO draft(name, created_ms, latest_saved_ms, first_saved_ms) VALUES (?, 0, ?, 0)",
          ["span \(span)", span])
        let found = try db.fetchOne("SELECT span_class FROM draft WHERE id = ?", [db.lastInsertRowID]) { $0.int(0) }
        #expect(found == expected, "span \(span)")
      }
    }
  }

  /// A searching connection maps a bounded part of the file, whatever its size: each page of
  /// the map it touches stays in the process's resident memory.
  @Test func aSearchingConnectionMapsABoundedPartOfTheFile() throws {
    let folder = try TemporaryFolder()
    let db = try ArchiveDatabase.open(path: folder.path("a.sqlite"), mode: .readWrite)
    defer { db.close() }
    try DraftSearchSQL.prepareForSearching(db)
    let mapped = try db.fetchOne("PRAGMA mmap_size") { $0.int64(0) }
    #expect(mapped == 64 << 20)
  }
}
