import Foundation
import InklingCorpus
import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

@Suite struct BackupTests {
  let folder: TemporaryFolder
  let archivePath: String

  init() throws {
    folder = try TemporaryFolder("backup")
    archivePath = folder.path("archive.sqlite")
    for index in 0..<12 {
      try folder.write(
        "Drafts/Draft \(index % 4)-2025-10-\(String(format: "%02d", 1 + index))T10:00:00Z.inkling",
        inklingFile(drawing: SeededRandom.bytes(3_000 + 10 * index, seed: UInt64(index))))
    }
    _ = try Archive(path: archivePath).importFiles(at: [folder.path("Drafts")])
  }

  /// Files in the test folder whose names mark them as temporary.
  func leftovers() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix(".tmp") || $0.contains(".backup-")
    }
  }

  @Test func copiesACheckedArchive() throws {
    let archive = try Archive(path: archivePath, mode: .readOnly)
    let report = try archive.backup(to: folder.path("copy.sqlite"), fullCheck: true)
    #expect(report.path == folder.path("copy.sqlite"))
    #expect(report.check.isHealthy)
    #expect(report.check.counts.filesVerified == 12)
    // A single self-contained file: no WAL beside it, and it reads like the original.
    #expect(!FileManager.default.fileExists(atPath: folder.path("copy.sqlite-wal")))
    let copy = try Archive(path: folder.path("copy.sqlite"), mode: .readOnly)
    #expect(try copy.drafts() == archive.drafts())
    #expect(try copy.check(full: true).isHealthy)
    #expect(try leftovers().isEmpty)
  }

  @Test func refusesToReplaceAFileOrTheArchiveItself() throws {
    let archive = try Archive(path: archivePath, mode: .readOnly)
    try folder.write("taken.sqlite", Array("precious".utf8))
    #expect {
      try archive.backup(to: folder.path("taken.sqlite"))
    } throws: { error in
      (error as? ArchiveError) == .destinationExists(path: folder.path("taken.sqlite"))
    }
    #expect(try folder.read("taken.sqlite") == Array("precious".utf8))
    #expect {
      try archive.backup(to: archivePath, overwrite: true)
    } throws: { error in
      (error as? ArchiveError) == .backupIsArchive(path: archivePath)
    }
    let replaced = try archive.backup(to: folder.path("taken.sqlite"), overwrite: true)
    #expect(replaced.check.isHealthy)
    #expect(try Archive(path: folder.path("taken.sqlite"), mode: .readOnly).drafts().count == 4)
    #expect(try leftovers().isEmpty)
  }

  @Test func intoAFolderUnderTheArchiveName() throws {
    try FileManager.default.createDirectory(atPath: folder.path("Backups"), withIntermediateDirectories: false)
    let report = try Archive(path: archivePath, mode: .readOnly).backup(to: folder.path("Backups"))
    #expect(report.path == folder.path("Backups/archive.sqlite"))
  }

  @Test func aDamagedArchiveIsNotBackedUpAsIfItWereFine() throws {
    let db = try Database(path: archivePath, mode: .readWrite)
    try db.execute("UPDATE draft SET version_count = 9 WHERE id = 1")
    db.close()
    #expect {
      try Archive(path: archivePath, mode: .readOnly).backup(to: folder.path("copy.sqlite"))
    } throws: { error in
      guard case .backupFailedCheck(_, 1, let first)? = error as? ArchiveError else { return false }
      return first?.hasPrefix("draft 'Draft ") == true
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path("copy.sqlite")))
    #expect(try leftovers().isEmpty)
  }

  @Test func backsUpWhileAnImportRuns() throws {
    for index in 0..<300 {
      try folder.write(
        "More/Other \(index % 15)-2025-11-\(String(format: "%02d", 1 + index / 15))T10:00:00Z.inkling",
        inklingFile(drawing: SeededRandom.bytes(4_000 + index, seed: UInt64(1_000 + index))))
    }
    let path = archivePath
    let more = folder.path("More")
    let importer = Thread {
      _ = try? Archive(path: path).importFiles(at: [more])
    }
    importer.start()
    var copies = 0
    repeat {
      let report = try Archive(path: archivePath, mode: .readOnly).backup(
        to: folder.path("copy-\(copies).sqlite"), fullCheck: true)
      #expect(report.check.isHealthy)
      #expect(report.check.counts.versions >= 12)
      copies += 1
    } while !importer.isFinished && copies < 40
    while !importer.isFinished { usleep(10_000) }
    let last = try Archive(path: archivePath, mode: .readOnly).backup(to: folder.path("final.sqlite"))
    #expect(last.check.counts.versions == 312)
  }
}
