import Foundation
import InklingTestSupport
import Testing

@testable import InklingArchive

/// FileBatch: names appear at the commit, with their times; a name taken meanwhile is
/// reported and left as it is; no temporary file outlives the batch.
@Suite struct FileBatchTests {
  @Test func namesAppearAtTheCommitAndATakenOneIsLeftAlone() throws {
    let folder = try TemporaryFolder("batch")
    let batch = FileBatch()
    try batch.add(
      [1, 2, 3], to: folder.path("a.inkling"), modificationNanoseconds: 1_700_000_000_123_456_789, overwrite: false)
    try batch.add([4, 5], to: folder.path("b.inkling"), modificationNanoseconds: 0, overwrite: false)
    try folder.write("c.inkling", [9])
    try batch.add([6], to: folder.path("c.inkling"), modificationNanoseconds: 0, overwrite: true)
    #expect(!FileManager.default.fileExists(atPath: folder.path("a.inkling")))
    // Another process takes b's name before the commit.
    try folder.write("b.inkling", [7])
    #expect(try batch.commit() == [.written, .inTheWay, .written])
    #expect(try folder.read("a.inkling") == [1, 2, 3])
    #expect(try folder.read("b.inkling") == [7])
    #expect(try folder.read("c.inkling") == [6])
    var info = stat()
    #expect(stat(folder.path("a.inkling"), &info) == 0)
    #expect(info.st_mtim.tv_sec == 1_700_000_000 && info.st_mtim.tv_nsec == 123_456_789)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path("")).sorted() == [
        "a.inkling", "b.inkling", "c.inkling",
      ])
    #expect(try batch.commit().isEmpty)
  }

  @Test func aReleasedBatchLeavesNoTemporaryFile() throws {
    let folder = try TemporaryFolder("batch-drop")
    do {
      let batch = FileBatch()
      try batch.add([1], to: folder.path("a.inkling"), modificationNanoseconds: 0, overwrite: false)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")).count == 1)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")).isEmpty)
  }
}
