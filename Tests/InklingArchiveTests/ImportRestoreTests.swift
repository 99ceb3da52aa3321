import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

@testable import InklingArchive

@Suite struct ImportRestoreTests {
  @Test func importsFoldersAndRestoresEveryVersionByteForByte() throws {
    let folder = try TemporaryFolder("import")
    var sources: [String: [UInt8]] = [:]
    // Three drafts, versions growing like real saves, in nested folders.
    for (draft, versions) in [("Plan-B", 4), ("Café", 2), ("🐱 cat", 3)] {
      var drawing = SeededRandom.bytes(3_000, seed: UInt64(draft.utf8.count))
      for version in 1...versions {
        drawing += SeededRandom.bytes(500, seed: UInt64(version))
        let name = "\(draft)-2025-10-0\(version)T14:03:12Z.inkling"
        let bytes = inklingFile(drawing: drawing, color: (1.0393, -0.0123, 0.5, 1), escapeSlashes: version % 2 == 0)
        try folder.write("Drafts/\(version % 2 == 0 ? "sub/" : "")\(name)", bytes)
        sources[name] = bytes
      }
    }
    try folder.write("Drafts/notes.txt", Array("not a draft".utf8))

    let archive = try Archive(path: folder.path("archive.sqlite"))
    let summary = try archive.importFiles(at: [folder.path("Drafts")])
    #expect(summary.versionsImported == 9)
    #expect(summary.draftsCreated == 3)
    #expect(summary.ignored == 1)
    #expect(summary.rejected == 0)

    let drafts = try archive.drafts()
    #expect(Set(drafts.map(\.name)) == ["Plan-B", "Café", "🐱 cat"])
    #expect(drafts.first { $0.name == "Plan-B" }?.versionCount == 4)

    for draft in drafts {
      let restored = try archive.restoreAllVersions(draft: draft.name, to: folder.path("Restored")).restored
      #expect(restored.count == draft.versionCount)
      for file in restored {
        let name = (file.path as NSString).lastPathComponent
        #expect(try folder.read("Restored/\(name)") == sources[name], "\(name)")
      }
    }

    let again = try archive.importFiles(at: [folder.path("Drafts")])
    #expect(again.versionsImported == 0)
    #expect(again.alreadyArchived == 9)
  }

  /// As export salvages: every version that verifies is written, the others are named, and
  /// a damaged version before good ones does not stop them.
  @Test func everyVersionThatVerifiesIsRestoredFromADamagedArchive() throws {
    let folder = try TemporaryFolder("restore-salvage")
    var sources: [String] = []
    var drawing = SeededRandom.bytes(3_000, seed: 4)
    for version in 1...4 {
      drawing += SeededRandom.bytes(500, seed: UInt64(version))
      let name = "Cat-2025-10-0\(version)T14:03:12Z.inkling"
      try folder.write("Drafts/\(name)", inklingFile(drawing: drawing))
      sources.append(name)
    }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    #expect(try archive.importFiles(at: [folder.path("Drafts")]).versionsImported == 4)
    // Version 1's drawing (a delta of version 2's: nothing else is built on it) has one byte
    // flipped; version 3 no longer matches its file's SHA-256.
    let (blobID, data) = try #require(
      try archive.database.fetchOne(
        "SELECT b.id, b.data FROM blob b JOIN version v ON v.blob_id = b.id WHERE v.file_name = ?", [sources[0]]
      ) { ($0.int64(0), $0.bytes(1)) })
    var damaged = data
    damaged[damaged.count / 2] ^= 0x40
    try archive.database.execute("UPDATE blob SET data = ? WHERE id = ?", [damaged, blobID])
    try archive.database.execute("UPDATE version SET file_sha256 = zeroblob(32) WHERE file_name = ?", [sources[2]])

    let result = try archive.restoreAllVersions(draft: "Cat", to: folder.path("out"))
    #expect(result.restored.map(\.version.number) == [2, 4])
    #expect(result.damaged.map(\.version) == [1, 3])
    #expect(result.damaged.map(\.fileName) == [sources[0], sources[2]])
    #expect(result.damaged.allSatisfy { $0.draft == "Cat" && !$0.detail.isEmpty })
    #expect(result.damaged[1].detail.hasPrefix("the rebuilt file does not match its SHA-256"))
    let written = try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).sorted()
    #expect(written == [sources[1], sources[3]])
    for file in result.restored {
      let name = (file.path as NSString).lastPathComponent
      #expect(try folder.read("out/\(name)") == folder.read("Drafts/\(name)"), "\(name)")
    }
    // One version is restored, or refused, as before.
    #expect(throws: result.damaged[1].error) {
      try archive.restore(draft: "Cat", version: .number(3), to: .folder(folder.path("one")))
    }
  }

  @Test func storesIdenticalDrawingsOnce() throws {
    let folder = try TemporaryFolder("dedupe")
    let drawing = SeededRandom.bytes(10_000, seed: 7)
    try folder.write("A-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: drawing))
    try folder.write("B-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: drawing, color: (0, 0, 0, 1)))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    let summary = try archive.importFiles(at: [folder.path("")])
    #expect(summary.versionsImported == 2)
    let blobs = try archive.database.fetchOne("SELECT count(*) FROM blob") { $0.int(0) }
    #expect(blobs == 1)
  }

  /// The import keeps statement journals in memory (VersionWriter) and gives the connection
  /// back with SQLite's default, for whatever the caller does next with the archive.
  @Test func importLeavesTheConnectionsTemporaryStorageAsItWas() throws {
    let folder = try TemporaryFolder("temp-store")
    try folder.write("A-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: SeededRandom.bytes(10_000, seed: 3)))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    let before = try archive.database.fetchOne("PRAGMA temp_store") { $0.int(0) }
    #expect(try archive.importFiles(at: [folder.path("")]).versionsImported == 1)
    #expect(try archive.database.fetchOne("PRAGMA temp_store") { $0.int(0) } == before)
    #expect(before == 0)
  }

  @Test func reportsBadFilesAndImportsTheRest() throws {
    let folder = try TemporaryFolder("bad")
    try folder.write("good-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: [1, 2, 3]))
    try folder.write("empty-2025-10-01T00:00:00Z.inkling", [])
    try folder.write("truncated-2025-10-01T00:00:00Z.inkling", Array(inklingFile(drawing: [1, 2, 3]).dropLast(5)))
    try folder.write(
      "base64-2025-10-01T00:00:00Z.inkling", Array(#"{"drawingData":"@@@@","color":{"r":1,"g":1,"b":1,"a":1}}"#.utf8))
    try FileManager.default.createDirectory(
      atPath: folder.path("folder-2025-10-01T00:00:00Z.inkling"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: folder.path("loop"), withDestinationPath: folder.path(""))
    try FileManager.default.createSymbolicLink(
      atPath: folder.path("dangling-2025-10-01T00:00:00Z.inkling"), withDestinationPath: folder.path("nowhere"))
    #expect(mkfifo(folder.path("fifo-2025-10-01T00:00:00Z.inkling"), 0o644) == 0)

    let lines = LockedLines()
    let ignored = LockedLines()
    var options = ImportOptions()
    options.onEvent = { event in
      if case .rejected(let path, let problem) = event {
        lines.append("\((path as NSString).lastPathComponent): \(problem)")
      }
      if case .ignored(let path, let reason, _) = event, reason == .alreadySearched {
        ignored.append((path as NSString).lastPathComponent)
      }
    }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    let summary = try archive.importFiles(at: [folder.path("")], options: options)
    #expect(summary.versionsImported == 1)
    #expect(summary.rejected == 6)
    // A link back to a folder already searched: its files are in this import, nothing is wrong.
    #expect(ignored.values == ["loop"])
    let reported = lines.values.sorted()
    #expect(
      reported == [
        "base64-2025-10-01T00:00:00Z.inkling: drawingData is not valid base64",
        "dangling-2025-10-01T00:00:00Z.inkling: a broken symbolic link",
        "empty-2025-10-01T00:00:00Z.inkling: the file is empty",
        "fifo-2025-10-01T00:00:00Z.inkling: not a regular file (a device, FIFO or socket)",
        "folder-2025-10-01T00:00:00Z.inkling: a folder, not a draft file (its contents are searched all the same)",
        "truncated-2025-10-01T00:00:00Z.inkling: the file is incomplete (its JSON stops in the middle, after "
          + "\(inklingFile(drawing: [1, 2, 3]).count - 5) bytes), as a download or copy still in progress leaves it; "
          + "let it finish, then import it again",
      ])
  }

  @Test func restoreNeverOverwritesWithoutForceAndStaysInItsFolder() throws {
    let folder = try TemporaryFolder("restore")
    let file = inklingFile(drawing: [9, 9, 9])
    let saved = Date(timeIntervalSince1970: 1_700_000_000)
    try folder.write("in/Cat-2025-10-05T14:03:12Z.inkling", file, modified: saved)
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("in")])

    let first = try archive.restore(draft: "Cat", to: .folder(folder.path("out")))
    #expect(try folder.read("out/Cat-2025-10-05T14:03:12Z.inkling") == file)
    let attributes = try FileManager.default.attributesOfItem(atPath: first.path)
    #expect((attributes[.modificationDate] as? Date) == saved)

    #expect(throws: ArchiveError.self) { try archive.restore(draft: "Cat", to: .folder(folder.path("out"))) }
    _ = try archive.restore(draft: "Cat", to: .folder(folder.path("out")), overwrite: true)
    #expect(throws: ArchiveError.self) { try archive.restore(draft: "Dog", to: .folder(folder.path("out"))) }
    #expect(throws: ArchiveError.self) {
      try archive.restore(draft: "Cat", version: .number(2), to: .folder(folder.path("out")))
    }

    // A tampered file name cannot escape the target folder.
    try archive.database.execute("UPDATE version SET file_name = '../../escape.inkling'")
    let escaped = try archive.restore(draft: "Cat", to: .folder(folder.path("out2")))
    #expect(escaped.path == folder.path("out2/escape.inkling"))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path("out2"))
    #expect(leftovers == ["escape.inkling"])
  }

  @Test func picksTheVersionCurrentAtADate() throws {
    let folder = try TemporaryFolder("at")
    var files: [Int: [UInt8]] = [:]
    for day in [1, 5, 9] {
      files[day] = inklingFile(drawing: [UInt8(day)])
      try folder.write("Plan-2025-10-0\(day)T12:00:00Z.inkling", files[day]!)
    }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("")])
    let utc = TimeZone(identifier: "UTC")!
    let restored = try archive.restore(
      draft: "Plan", version: .at(try DateExpression.parse("2025-10-06", timeZone: utc)),
      to: .file(folder.path("x.inkling")))
    #expect(restored.version.number == 2)
    #expect(try folder.read("x.inkling") == files[5])
  }
}

/// Lines collected from another thread.
final class LockedLines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func append(_ line: String) {
    lock.lock()
    lines.append(line)
    lock.unlock()
  }
  var values: [String] {
    lock.lock()
    defer { lock.unlock() }
    return lines
  }
}
