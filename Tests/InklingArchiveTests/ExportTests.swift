import Foundation
import InklingCorpus
import InklingFormats
import InklingRendering
import InklingStore
import InklingTestSupport
import Synchronization
import Testing

@testable import InklingArchive

/// `export` through the library: byte for byte with names and modification times, distinct
/// names by FolderNaming's rule, nothing outside the folder, re-exports that write nothing, a
/// manifest that lists the folder, and the salvage of a damaged archive.
@Suite struct ExportTests {
  static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

  static func names(_ folder: String) throws -> [String] {
    // Not the temporary files of writes in progress (there should be none left).
    try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".stderr") }.sorted()
  }

  static func manifest(_ folder: String) throws -> [[String: Any]] {
    let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/inkling-export.json"))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    #expect(object?["manifest"] as? String == "inkling-archive export")
    return object?["files"] as? [[String: Any]] ?? []
  }

  static func modified(_ path: String) throws -> Date? {
    try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
  }

  /// Three drafts, seven files, each with its own modification time.
  static func sample(_ folder: TemporaryFolder) throws -> Archive {
    let files = [
      "Plan-B-2025-10-01T10:00:00Z.inkling", "Plan-B-2025-10-02T10:00:00Z.inkling",
      "Plan-B-2025-10-03T10:00:00Z.inkling",
      "Café-2025-09-01T08:00:00Z.inkling", "Café-2025-09-05T08:00:00Z.inkling", "🐱 cat-2025-08-01T00:00:00Z.inkling",
      "🐱 cat-2025-08-02T00:00:00Z.inkling",
    ]
    for (index, name) in files.enumerated() {
      try folder.write(
        "Drafts/\(name)", inklingFile(drawing: SeededRandom.bytes(800 + index, seed: UInt64(index))),
        modified: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 1000.25))
    }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    #expect(try archive.importFiles(at: [folder.path("Drafts")]).versionsImported == 7)
    return archive
  }

  @Test func theNewestOrEveryVersionByteForByteWithItsTimeAndAManifest() throws {
    let folder = try TemporaryFolder("export")
    let archive = try Self.sample(folder)
    let newest = try archive.export(to: folder.path("newest"))
    #expect(newest.drafts == 3 && newest.versions == 3 && newest.filesWritten == 3 && newest.isComplete)
    #expect(newest.manifestWritten)
    #expect(
      try Self.names(folder.path("newest")) == [
        "Café-2025-09-05T08:00:00Z.inkling", "Plan-B-2025-10-03T10:00:00Z.inkling", "inkling-export.json",
        "🐱 cat-2025-08-02T00:00:00Z.inkling",
      ])

    let all = try archive.export(to: folder.path("all"), options: ExportOptions(allVersions: true))
    #expect(all.versions == 7 && all.filesWritten == 7 && all.problems.isEmpty && all.renamed.isEmpty)
    for name in try Self.names(folder.path("Drafts")) {
      #expect(try Self.bytes(folder.path("all/\(name)")) == Self.bytes(folder.path("Drafts/\(name)")), "\(name)")
      #expect(try Self.modified(folder.path("all/\(name)")) == Self.modified(folder.path("Drafts/\(name)")), "\(name)")
    }
    // The manifest: every file, draft by draft, oldest first, with what a script checks.
    let entries = try Self.manifest(folder.path("all"))
    #expect(entries.count == 7)
    let drafts = entries.compactMap { $0["draft"] as? String }
    #expect(Set(drafts) == ["Plan-B", "Café", "🐱 cat"])
    for draft in Set(drafts) {
      let own = entries.filter { $0["draft"] as? String == draft }
      #expect(own.map { $0["version"] as? Int } == Array(1...own.count).map { $0 }, "\(draft)")
      #expect(drafts.firstIndex(of: draft)! + own.count - 1 == drafts.lastIndex(of: draft)!, "draft by draft")
    }
    #expect(
      entries.first { $0["file"] as? String == "Plan-B-2025-10-01T10:00:00Z.inkling" }?["saved"] as? String
        == "2025-10-01T10:00:00Z")
    for entry in entries {
      let file = try Self.bytes(folder.path("all/\(entry["file"] as? String ?? "")"))
      #expect(entry["size"] as? Int == file.count)
      #expect(entry["sha256"] as? String == hexString(SHA256.hash(file)))
      #expect(entry["kind"] as? String == "inkling")
      #expect(entry["renamedFrom"] is NSNull)
    }
    // The temporary tables are gone with the export.
    #expect(try archive.database.fetchOne("SELECT count(*) FROM temp.sqlite_master") { $0.int(0) } == 0)

    // Filters and queries: the drafts list and search would show.
    let query = try archive.export(
      matching: DraftQuery(search: "name:cat or name:café"), to: folder.path("q"),
      options: ExportOptions(allVersions: true))
    #expect(query.drafts == 2 && query.versions == 4)
    #expect(throws: ArchiveError.noMatchingDrafts) {
      try archive.export(matching: DraftQuery(name: "nothing"), to: folder.path("none"))
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path("none")))
  }

  @Test func aReExportWritesNothingAndOtherFilesAreLeftAlone() throws {
    let folder = try TemporaryFolder("reexport")
    let archive = try Self.sample(folder)
    let out = folder.path("out")
    let options = ExportOptions(allVersions: true)
    _ = try archive.export(to: out, options: options)
    let manifestTime = try Self.modified(out + "/inkling-export.json")
    let again = try archive.export(to: out, options: options)
    #expect(again.wroteNothing && again.isComplete)
    #expect(again.filesUnchanged == 7 && again.filesWritten == 0 && !again.manifestWritten)
    #expect(try Self.modified(out + "/inkling-export.json") == manifestTime)

    // A file with other bytes, and a link to a file outside the folder, are left alone.
    let changed = out + "/Plan-B-2025-10-02T10:00:00Z.inkling"
    try Data("mine".utf8).write(to: URL(fileURLWithPath: changed))
    let outside = folder.path("outside.txt")
    try Data("outside".utf8).write(to: URL(fileURLWithPath: outside))
    let linked = out + "/Café-2025-09-01T08:00:00Z.inkling"
    try FileManager.default.removeItem(atPath: linked)
    try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: outside)
    let blocked = try archive.export(to: out, options: options)
    #expect(!blocked.isComplete)
    let kinds = { (report: ExportReport) in Dictionary(uniqueKeysWithValues: report.problems.map { ($0.path, $0.kind) })
    }
    #expect(kinds(blocked) == [changed: .exists, linked: .notAFile])
    #expect(blocked.filesUnchanged == 5)
    #expect(try Self.bytes(changed) == Array("mine".utf8))
    #expect(try Self.manifest(out).count == 5)

    // --force replaces the file with other bytes, and only it: a link is neither written
    // through nor replaced.
    let forced = try archive.export(to: out, options: ExportOptions(allVersions: true, overwrite: true))
    #expect(!forced.isComplete && forced.filesReplaced == 1 && forced.filesWritten == 1)
    #expect(kinds(forced) == [linked: .notAFile])
    #expect(try Self.bytes(changed) == Self.bytes(folder.path("Drafts/Plan-B-2025-10-02T10:00:00Z.inkling")))
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: linked)) == outside)
    #expect(try Self.bytes(outside) == Array("outside".utf8))
    #expect(try Self.manifest(out).count == 6)
  }

  /// A stop asked for part way (Ctrl-C in the command line): the versions reached are in the
  /// folder, whole, with a manifest that lists them and no temporary file; exporting again
  /// writes the rest, and the folder ends as an export that was never stopped leaves it.
  @Test func aStoppedExportLeavesWhatItWroteListed() throws {
    let folder = try TemporaryFolder("stopped")
    let archive = try Self.sample(folder)
    let out = folder.path("out")
    let asked = Mutex(0)
    // Asked before each version: the fifth time, four are written.
    let stopping = ExportOptions(
      allVersions: true,
      shouldStop: {
        asked.withLock {
          $0 += 1
          return $0 > 4
        }
      })
    let stopped = try archive.export(to: out, options: stopping)
    #expect(stopped.stopped && !stopped.isComplete && stopped.problems.isEmpty)
    #expect(stopped.versions == 7 && stopped.filesWritten == 4 && stopped.manifestWritten)
    let written = try Self.names(out).filter { $0 != "inkling-export.json" }
    #expect(written.count == 4, "\(written)")
    #expect(Set(try Self.manifest(out).compactMap { $0["file"] as? String }) == Set(written))
    for name in written {
      #expect(try Self.bytes(out + "/" + name) == Self.bytes(folder.path("Drafts/\(name)")), "\(name)")
    }

    let again = try archive.export(to: out, options: ExportOptions(allVersions: true))
    #expect(!again.stopped && again.isComplete)
    #expect(again.filesWritten == 3 && again.filesUnchanged == 4 && again.earlierFilesListed == 0)
    _ = try archive.export(to: folder.path("whole"), options: ExportOptions(allVersions: true))
    #expect(try Self.names(out) == Self.names(folder.path("whole")))
    #expect(try Self.bytes(out + "/inkling-export.json") == Self.bytes(folder.path("whole/inkling-export.json")))

    // Stopped before the first version, into an earlier export's folder: nothing is written,
    // and the manifest still lists the earlier files.
    let none = try archive.export(to: out, options: ExportOptions(allVersions: true, shouldStop: { true }))
    #expect(none.stopped && none.filesWritten == 0 && none.filesUnchanged == 0 && none.earlierFilesListed == 7)
    #expect(try !none.manifestWritten && Self.manifest(out).count == 7)
  }

  @Test func namesThatCollideGetDistinctOnesInTheOrderArchived() throws {
    let folder = try TemporaryFolder("collide")
    let stamp = "2025-10-01T10:00:00Z"
    // The same file name from two devices; "cat" and "Cat"; "Café" in NFC and in NFD.
    let files = [
      ("iPad/Dup-\(stamp).inkling", 1), ("iPhone/Dup-\(stamp).inkling", 2), ("cat-\(stamp).inkling", 3),
      ("x/Cat-\(stamp).inkling", 4), ("Café-\(stamp).inkling", 5), ("y/Cafe\u{301}-\(stamp).inkling", 6),
      ("a-b-\(stamp).inkling", 7), ("z/other-\(stamp).inkling", 8),
    ]
    let archive = try Archive(path: folder.path("archive.sqlite"))
    var sources: [[UInt8]] = []
    for (path, seed) in files {
      let bytes = inklingFile(drawing: SeededRandom.bytes(500, seed: UInt64(seed)))
      sources.append(bytes)
      try folder.write("Drafts/\(path)", bytes)
      // One import per file: the order they were archived is the order of this list.
      _ = try archive.importFiles(at: [folder.path("Drafts/\(path)")])
    }
    // A draft called "a/b" (an archive from elsewhere may hold one): its files are named a-b.
    try archive.database.execute("UPDATE draft SET name = 'a/b' WHERE name = 'other'")
    let report = try archive.export(to: folder.path("out"), options: ExportOptions(allVersions: true))
    #expect(report.isComplete && report.filesWritten == 8)
    #expect(
      try Self.names(folder.path("out"))
        == [
          "Cafe\u{301}-\(stamp) (2).inkling".precomposedStringWithCanonicalMapping, "Café-\(stamp).inkling",
          "Cat-\(stamp) (2).inkling", "Dup-\(stamp) (2).inkling", "Dup-\(stamp).inkling", "a-b-\(stamp) (2).inkling",
          "a-b-\(stamp).inkling", "cat-\(stamp).inkling", "inkling-export.json",
        ].sorted())
    #expect(
      report.renamed.map { ($0.path as NSString).lastPathComponent.precomposedStringWithCanonicalMapping }.sorted()
        == [
          "Café-\(stamp) (2).inkling", "Cat-\(stamp) (2).inkling", "Dup-\(stamp) (2).inkling",
          "a-b-\(stamp) (2).inkling",
        ].sorted())
    #expect(report.renamed.allSatisfy { $0.change == .sharedName })
    // Every source file is in the folder, byte for byte, once.
    let written = try Self.names(folder.path("out")).filter { $0.hasSuffix(".inkling") }
    let contents = try written.map { try Self.bytes(folder.path("out/\($0)")) }
    #expect(Set(contents) == Set(sources) && contents.count == sources.count)
    // The first keeps its name: the NFD file, archived after the NFC one, is the one renamed.
    #expect(try Self.bytes(folder.path("out/Café-\(stamp).inkling")) == sources[4])
    // And imported again, every file finds its draft and save time, the file of "a/b" too:
    // the manifest says which draft each file is.
    let back = try archive.importFiles(at: [folder.path("out")])
    #expect(back.alreadyArchived == 8 && back.versionsImported == 0)
  }

  /// A second export into a folder describes the whole folder, and knows its own earlier files:
  /// the newest version exported first, then every version, leaves each version in the folder
  /// once.
  @Test func anExportIntoAnEarlierOnesFolderDescribesTheWholeFolder() throws {
    let folder = try TemporaryFolder("earlier")
    let stamp = "2025-10-01T10:00:00Z"
    let archive = try Archive(path: folder.path("archive.sqlite"))
    var dups: [[UInt8]] = []
    for (device, seed) in [("iPad", 1), ("iPhone", 2)] {
      let bytes = inklingFile(drawing: SeededRandom.bytes(500, seed: UInt64(seed)))
      dups.append(bytes)
      try folder.write("Devices/\(device)/Dup-\(stamp).inkling", bytes)
      _ = try archive.importFiles(at: [folder.path("Devices/\(device)")])
    }
    try folder.write("Devices/Cat-\(stamp).inkling", inklingFile(drawing: SeededRandom.bytes(400, seed: 3)))
    _ = try archive.importFiles(at: [folder.path("Devices/Cat-\(stamp).inkling")])
    let out = folder.path("out")

    // One draft, then another: the manifest lists both.
    _ = try archive.export(matching: DraftQuery(name: "Dup"), to: out)
    #expect(try Self.bytes(out + "/Dup-\(stamp).inkling") == dups[1])
    let cat = try archive.export(matching: DraftQuery(name: "Cat"), to: out)
    #expect(cat.filesWritten == 1 && cat.earlierFilesListed == 1 && cat.isComplete)
    #expect(
      try Self.manifest(out).compactMap { $0["file"] as? String } == ["Cat-\(stamp).inkling", "Dup-\(stamp).inkling"])

    // Every version now: the newest keeps the name it was given, the older one takes the
    // next; nothing is reported as someone else's file.
    let all = try archive.export(to: out, options: ExportOptions(allVersions: true))
    #expect(all.isComplete && all.problems.isEmpty)
    #expect(all.filesWritten == 1 && all.filesUnchanged == 2 && all.earlierFilesListed == 0)
    #expect(try Self.bytes(out + "/Dup-\(stamp).inkling") == dups[1])
    #expect(try Self.bytes(out + "/Dup-\(stamp) (2).inkling") == dups[0])
    let entries = try Self.manifest(out)
    #expect(entries.count == 3)
    #expect(
      Set(entries.map { "\($0["file"] as? String ?? "") #\($0["version"] as? Int ?? 0)" }) == [
        "Dup-\(stamp).inkling #2", "Dup-\(stamp) (2).inkling #1", "Cat-\(stamp).inkling #1",
      ])
    // Exported again, nothing changes; an earlier file changed by hand is not listed.
    #expect(try archive.export(to: out, options: ExportOptions(allVersions: true)).wroteNothing)
    try Data("mine".utf8).write(to: URL(fileURLWithPath: out + "/Cat-\(stamp).inkling"))
    let dupOnly = try archive.export(matching: DraftQuery(name: "Dup"), to: out)
    #expect(dupOnly.earlierFilesListed == 1)
    #expect(
      try Self.manifest(out).compactMap { $0["file"] as? String }.sorted() == [
        "Dup-\(stamp) (2).inkling", "Dup-\(stamp).inkling",
      ])
  }

  /// A folder exported and imported again gives back the same drafts, save times and file
  /// names, into the same archive (nothing new) or a new one, even for names the export had to
  /// change.
  @Test func anExportFolderImportsBackAsItWas() throws {
    let folder = try TemporaryFolder("roundtrip")
    let archive = try Archive(path: folder.path("archive.sqlite"))
    let names = [
      "New\nline-2025-10-01T10:00:00Z.inkling", "New\nline-2025-10-01T11:00:00Z.inkling",
      "Long-2025-10-02T10:00:00Z.inkling", "Slash-2025-10-03T10:00:00Z.inkling",
      "Plain-2025-10-04T10:00:00.250Z.inkling",
    ]
    for (index, name) in names.enumerated() {
      try folder.write("Drafts/\(name)", inklingFile(drawing: SeededRandom.bytes(300 + index, seed: UInt64(index))))
    }
    #expect(try archive.importFiles(at: [folder.path("Drafts")]).versionsImported == 5)
    // Names an archive from elsewhere may hold: too long for a file name, and with a slash.
    let long = String(repeating: "ł", count: 125)
    try archive.database.execute("UPDATE draft SET name = '\(long)' WHERE name = 'Long'")
    try archive.database.execute("UPDATE draft SET name = 'a/b' WHERE name = 'Slash'")
    let out = folder.path("out")
    let report = try archive.export(to: out, options: ExportOptions(allVersions: true))
    #expect(report.isComplete && report.filesWritten == 5 && report.renamed.count == 3)

    let again = try archive.importFiles(at: [out])
    #expect(again.versionsImported == 0 && again.alreadyArchived == 5 && again.draftsCreated == 0)
    #expect(again.ignored == 0)

    let fresh = try Archive(path: folder.path("fresh.sqlite"))
    #expect(try fresh.importFiles(at: [out]).versionsImported == 5)
    func histories(_ archive: Archive) throws -> [String] {
      try archive.drafts().flatMap { draft in
        try archive.history(of: draft.name).map {
          "\($0.draftName) \($0.saved.timeIntervalSince1970) \($0.savedFromFileName) \($0.fileName) \($0.fileSHA256)"
        }
      }.sorted()
    }
    #expect(try histories(fresh) == histories(archive))
    #expect(try fresh.drafts().map(\.name).sorted() == ["New\nline", "Plain", "a/b", long].sorted())

    // A file changed after the export is what its own name says.
    let changed =
      out + "/" + (report.renamed.first { $0.renamedFrom.hasPrefix("New") }!.path as NSString).lastPathComponent
    try Data(inklingFile(drawing: SeededRandom.bytes(333, seed: 99))).write(to: URL(fileURLWithPath: changed))
    let edited = try archive.importFiles(at: [out])
    #expect(edited.versionsImported == 1 && edited.draftsCreated == 1)
    #expect(try archive.drafts().contains { $0.name == "New_line" })
  }

  @Test func hostileNamesStayInsideTheFolder() throws {
    let folder = try TemporaryFolder("hostile")
    let archive = try Archive(path: folder.path("archive.sqlite"))
    for index in 0..<7 {
      try folder.write(
        "Drafts/d\(index)-2025-10-0\(index + 1)T10:00:00Z.inkling",
        inklingFile(drawing: SeededRandom.bytes(300, seed: 9)))
    }
    _ = try archive.importFiles(at: [folder.path("Drafts")])
    // Names that files may bring (or an archive of an older build, whose `rename` took any
    // name), and file names put in the archive by hand.
    let renames = [
      ("d0", ".."), ("d1", "New\nline\u{1B}[31mRED"), ("d2", String(repeating: "é", count: 300)),
      ("d3", "../../etc/passwd"),
    ]
    for (old, new) in renames {
      let draft = try #require(try DraftRecords.draft(named: old, in: archive.database))
      try archive.database.transaction { try DraftRecords.rename(draft.id, to: new, in: archive.database) }
    }
    for (draft, fileName) in [("d4", ".."), ("d5", "../escape.inkling"), ("d6", String(repeating: "a", count: 300))] {
      try archive.database.execute(
        "UPDATE version SET file_name = ? WHERE draft_id = (SELECT id FROM draft WHERE name = ?)", [fileName, draft])
    }
    let out = folder.path("deep/out")
    let report = try archive.export(to: out)
    #expect(report.isComplete && report.filesWritten == 7)
    let names = try Self.names(out)
    #expect(names.count == 8)
    for name in names {
      #expect(name.utf8.count <= 255, "\(name)")
      #expect(!name.unicodeScalars.contains { $0.value < 0x20 || $0 == "/" }, "\(name)")
      #expect(name != "." && name != "..")
    }
    #expect(names.contains("..-2025-10-01T10:00:00Z.inkling"))
    #expect(names.contains("New_line_[31mRED-2025-10-02T10:00:00Z.inkling"))
    #expect(names.contains("..-..-etc-passwd-2025-10-04T10:00:00Z.inkling"))
    #expect(names.contains("escape.inkling"))
    // Nothing next to the folder or above it.
    #expect(try Self.names(folder.path("deep")) == ["out"])
    #expect(
      Set(try Self.names(folder.path(""))).subtracting(["archive.sqlite-shm", "archive.sqlite-wal"]) == [
        "Drafts", "archive.sqlite", "deep",
      ])
    // Renamed as not safe: the control characters, the 300-byte names, "..", "../escape".
    #expect(report.renamed.count == 5 && report.renamed.allSatisfy { $0.change == .unsafeName })
    for entry in try Self.manifest(out) {
      let file = try Self.bytes(out + "/" + (entry["file"] as? String ?? ""))
      #expect(entry["sha256"] as? String == hexString(SHA256.hash(file)))
    }
    // Names in the manifest are escaped as the command line's JSON escapes them.
    let manifest = String(decoding: try Self.bytes(out + "/inkling-export.json"), as: UTF8.self)
    #expect(manifest.contains(#""draft":"New\nline\u001b[31mRED","#))
  }

  @Test func fromADamagedArchiveWhatVerifiesIsSaved() throws {
    let folder = try TemporaryFolder("salvage")
    let archive = try Self.sample(folder)
    // Café's first version no longer rebuilds its file; the cat's newest drawing is garbage.
    try archive.database.execute(
      "UPDATE version SET file_sha256 = zeroblob(32) WHERE file_name = 'Café-2025-09-01T08:00:00Z.inkling'")
    try archive.database.execute(
      """
      UPDATE blob SET data = x'28b52ffd00' WHERE id =
        (SELECT blob_id FROM version WHERE file_name = '🐱 cat-2025-08-02T00:00:00Z.inkling')
      """)
    let report = try archive.export(to: folder.path("out"), options: ExportOptions(allVersions: true))
    #expect(!report.isComplete)
    #expect(report.problems.map(\.kind) == [.damaged, .damaged])
    // Drafts are written in the order they were made, which the import's walk decides.
    #expect(Set(report.problems.map { "\($0.draft) \($0.version)" }) == ["Café 1", "🐱 cat 2"])
    #expect(report.filesWritten == 5)
    let names = try Self.names(folder.path("out"))
    #expect(!names.contains("Café-2025-09-01T08:00:00Z.inkling"))
    #expect(!names.contains("🐱 cat-2025-08-02T00:00:00Z.inkling"))
    #expect(try Self.manifest(folder.path("out")).count == 5)
    for name in names where name.hasSuffix(".inkling") {
      #expect(try Self.bytes(folder.path("out/\(name)")) == Self.bytes(folder.path("Drafts/\(name)")))
    }
  }

  @Test func picturesBesideTheirFiles() throws {
    let folder = try TemporaryFolder("pictures")
    _ = try writeCorpus(
      CorpusSpec(drafts: 2, versionsPerDraft: 2...2, seed: 5, strokesPerVersion: 1...2),
      to: URL(fileURLWithPath: folder.path("Drafts")))
    // A file whose drawing is not PencilKit: archived, exported, and its picture is
    // the placeholder a thumbnail of it shows.
    try folder.write(
      "Drafts/Opaque-2025-10-01T10:00:00Z.inkling", inklingFile(drawing: SeededRandom.bytes(200, seed: 3)))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("Drafts")])
    let options = ExportOptions(allVersions: true, pictures: [.png], pictureScale: 0.5)
    let report = try archive.export(to: folder.path("out"), options: options)
    #expect(report.isComplete)
    #expect(report.filesWritten == 5 && report.picturesWritten == 5)
    #expect(report.problems.map(\.kind) == [.placeholderPicture])
    let names = try Self.names(folder.path("out"))
    let placeholder = try PNG.decode(Self.bytes(folder.path("out/Opaque-2025-10-01T10:00:00Z.png")))
    #expect(placeholder.width == 128 && placeholder.height == 128)
    #expect(Array(placeholder.rgba.prefix(4)) == [255, 255, 255, 255])
    for name in names where name.hasSuffix(".inkling") {
      let picture = String(name.dropLast(".inkling".count)) + ".png"
      #expect(names.contains(picture))
      #expect(try Self.bytes(folder.path("out/\(picture)")).starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
    let entries = try Self.manifest(folder.path("out"))
    let pictures = entries.filter { $0["kind"] as? String == "png" }
    #expect(pictures.count == 5)
    // Each picture is its own version's share image, whether its drawing came with the file
    // just written or is read for the picture alone (the file was there already).
    func expectRendered() throws {
      for entry in pictures where entry["draft"] as? String != "Opaque" {
        let draft = try #require(entry["draft"] as? String)
        let version = try #require(entry["version"] as? Int)
        let file = try #require(entry["file"] as? String)
        #expect(
          try Self.bytes(folder.path("out/\(file)"))
            == archive.render(draft: draft, version: .number(version), scale: 0.5), "\(file)")
      }
    }
    try expectRendered()
    let again = try archive.export(to: folder.path("out"), options: options)
    #expect(again.wroteNothing && again.picturesUnchanged == 5)
    for entry in pictures { try FileManager.default.removeItem(atPath: folder.path("out/\(entry["file"] ?? "")")) }
    let picturesAlone = try archive.export(to: folder.path("out"), options: options)
    #expect(picturesAlone.filesUnchanged == 5 && picturesAlone.picturesWritten == 5)
    try expectRendered()
  }

  /// A version's number in the manifest is its number in `history`: the place among all of
  /// its draft's versions by save time, then by the order archived, whichever versions are
  /// exported. Saves that share a second (copies, ` (2)`) and versions archived out of save
  /// order are the ties a numbering of its own could get wrong.
  @Test func versionNumbersAreHistorysWithTiesAndOutOfOrderImports() throws {
    let folder = try TemporaryFolder("export-numbers")
    let count = 240
    for index in 0..<count {
      // Every fourth save is a copy saved in the same second as the one before it.
      let copy = index % 4 == 3
      let second = copy ? index - 1 : index
      let stamp = "2025-10-01T10:\(two(second / 60)):\(two(second % 60))Z"
      // The later half, and the copies of the earlier half, are archived first.
      let run = index >= count / 2 || copy ? "first" : "second"
      try folder.write(
        "\(run)/Long-\(stamp)\(copy ? " (2)" : "").inkling",
        inklingFile(drawing: SeededRandom.bytes(64, seed: UInt64(index))))
    }
    for index in 0..<3 {
      try folder.write(
        "first/Other-2025-09-0\(index + 1)T10:00:00Z.inkling",
        inklingFile(drawing: SeededRandom.bytes(64, seed: 1000 + UInt64(index))))
    }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("first")])
    _ = try archive.importFiles(at: [folder.path("second")])
    var numbers: [String: (draft: String, number: Int)] = [:]
    for draft in ["Long", "Other"] {
      for version in try archive.history(of: draft) { numbers[version.fileSHA256] = (draft, version.number) }
    }
    #expect(numbers.count == count + 3)

    _ = try archive.export(to: folder.path("all"), options: ExportOptions(allVersions: true))
    let all = try Self.manifest(folder.path("all"))
    #expect(all.count == count + 3)
    for entry in all {
      let expected = numbers[entry["sha256"] as? String ?? ""]
      #expect(entry["draft"] as? String == expected?.draft)
      #expect(entry["version"] as? Int == expected?.number, "\(entry["file"] ?? "")")
    }
    // The newest alone is still numbered among every version of its draft.
    _ = try archive.export(matching: DraftQuery(name: "Long"), to: folder.path("newest"))
    #expect(try Self.manifest(folder.path("newest")).map { $0["version"] as? Int } == [count])
  }

  /// More files than one batch holds (FileBatch.files): batches commit while the next is
  /// written, and the manifest still lists every file in the export's order.
  @Test func manyBatches() throws {
    let folder = try TemporaryFolder("batches")
    let count = FileBatch.files * 2 + 77
    for index in 0..<count {
      let day = 1 + index % 28
      let name = "Draft \(index / 4)-2025-10-\(day < 10 ? "0" : "")\(day)T10:00:\(index % 4 + 10)Z.inkling"
      try folder.write("Drafts/\(name)", inklingFile(drawing: SeededRandom.bytes(64, seed: UInt64(index))))
    }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    #expect(try archive.importFiles(at: [folder.path("Drafts")]).versionsImported == count)
    let report = try archive.export(to: folder.path("out"), options: ExportOptions(allVersions: true))
    #expect(report.filesWritten == count && report.isComplete)
    let entries = try Self.manifest(folder.path("out"))
    #expect(entries.count == count)
    #expect(Set(entries.compactMap { $0["file"] as? String }) == Set(try Self.names(folder.path("Drafts"))))
    #expect(try Self.names(folder.path("out")).count == count + 1)
    let again = try archive.export(to: folder.path("out"), options: ExportOptions(allVersions: true))
    #expect(again.wroteNothing && again.filesUnchanged == count)
  }
}

/// Two digits, zero first.
private func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
