import Foundation
import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

/// The import's checkpoints on their own thread: the writer's automatic checkpoints wait for
/// a larger WAL while it writes and are SQLite's again after, the pages reach the database file, and a request while
/// one waits adds none.
@Suite struct BackgroundCheckpointTests {
  @Test func pagesReachTheFileAndTheWriterGetsItsCheckpointsBack() throws {
    let folder = try TemporaryFolder("checkpoint")
    let path = folder.path("a.sqlite")
    let writer = try ArchiveDatabase.open(path: path, mode: .readWrite)
    defer { writer.close() }
    let automatic = { try writer.fetchOne("PRAGMA wal_autocheckpoint") { $0.int(0) } }
    #expect(try automatic() == 1000)
    let checkpoint = try BackgroundCheckpoint(writer: writer)
    #expect(try automatic() == BackgroundCheckpoint.walPages)
    let run = try writer.transaction { try ImportRunRecords.start(at: 0, in: writer) }
    let before = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    for round in 0..<20 {
      try writer.transaction {
        try writer.execute(
          "INSERT INTO import_problem(run_id, path, reason) VALUES (?, ?, ?)",
          [run, "\(round)", String(repeating: "x", count: 50_000)])
      }
      checkpoint.request()
    }
    checkpoint.finish()
    #expect(try automatic() == 1000)
    // Checkpointed: the database file holds the rows' pages (1 MB), not only the WAL.
    let after = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    #expect(after >= before + 900_000, "database file \(before) → \(after) bytes")
    #expect(try writer.fetchOne("SELECT count(*) FROM import_problem") { $0.int(0) } == 20)
  }

  @Test func aRequestWhileOneWaitsIsNotQueued() {
    let queue = BlockingQueue<Int>(capacity: 1)
    #expect(queue.pushUnlessFull(1))
    #expect(!queue.pushUnlessFull(2))
    #expect(queue.pop() == 1)
    queue.close()
    #expect(!queue.pushUnlessFull(3))
  }
}
