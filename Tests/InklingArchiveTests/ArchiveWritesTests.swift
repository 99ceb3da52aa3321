// ArchiveWrites: the count moves with every write to the archive's files, and only theirs,
// and is never trusted again once the folder is gone.

import Foundation
import InklingArchive
import InklingCorpus
import InklingTestSupport
import Testing

@Suite struct ArchiveWritesTests {
  @Test func theCountMovesWithTheArchivesWritesOnly() throws {
    let folder = try TemporaryFolder("writes")
    let path = folder.path("archive.sqlite")
    let archive = try Archive(path: path)
    let writes = try #require(ArchiveWrites(archivePath: path))
    let start = writes.count
    #expect(writes.count == start)

    // Another file in the folder is not the archive's.
    try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path("notes.txt")))
    #expect(writes.count == start)

    // A commit (to the write-ahead log) is seen as soon as it returns.
    try writeCorpus(CorpusSpec(drafts: 1, versionsPerDraft: 1...1, seed: 3), to: URL(fileURLWithPath: folder.path("d")))
    _ = try archive.importFiles(at: [folder.path("d")])
    let afterCommit = writes.count
    #expect(afterCommit != start)
    #expect(writes.count == afterCommit)

    // So is another file renamed over the archive, and the log removed.
    try Data("y".utf8).write(to: URL(fileURLWithPath: folder.path("other.sqlite")))
    #expect(rename(folder.path("other.sqlite"), path) == 0)
    let afterRename = writes.count
    #expect(afterRename != afterCommit)
    unlink(path + "-wal")
    #expect(writes.count != afterRename)
  }

  @Test func aLinkIsFollowedToTheFolderWritten() throws {
    let folder = try TemporaryFolder("writes-link")
    try FileManager.default.createDirectory(atPath: folder.path("real"), withIntermediateDirectories: true)
    let path = folder.path("real/archive.sqlite")
    _ = try Archive(path: path)
    #expect(symlink(path, folder.path("link.sqlite")) == 0)
    let writes = try #require(ArchiveWrites(archivePath: folder.path("link.sqlite")))
    let start = writes.count
    try writeCorpus(CorpusSpec(drafts: 1, versionsPerDraft: 1...1, seed: 3), to: URL(fileURLWithPath: folder.path("d")))
    _ = try Archive(path: path).importFiles(at: [folder.path("d")])
    #expect(writes.count != start)
  }

  @Test func aFolderGoneLeavesNoCountToTrust() throws {
    let folder = try TemporaryFolder("writes-gone")
    try FileManager.default.createDirectory(atPath: folder.path("inner"), withIntermediateDirectories: true)
    let path = folder.path("inner/archive.sqlite")
    _ = try Archive(path: path)
    let writes = try #require(ArchiveWrites(archivePath: path))
    try FileManager.default.removeItem(atPath: folder.path("inner"))
    let first = writes.count
    #expect(writes.count != first)
    #expect(ArchiveWrites(archivePath: path) == nil)
  }
}
