import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Files and archives built to hurt: every one is refused or kept as opaque bytes with a
/// one-line reason, without a crash, a hang, or more than 256 MiB of memory, and restores
/// never write outside the folder they were given.
@Suite(.serialized) struct HostileInputTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }
  var archive: String { runner.archive }
  static let memoryBound = 256 << 20
  static let stamp = "2025-10-05T14:03:20Z"

  init() throws {
    runner = try BinaryRunner(fresh: "hostile")
  }

  /// Runs the binary with a deadline and the child's own peak memory.
  func run(_ arguments: [String], timeout: Double = 120) throws -> (ChildProcess, ChildProcess.Outcome) {
    let child = try BinaryRunner.start(["--archive", archive] + arguments, outputFolder: folder)
    let outcome = child.wait(timeout: timeout)
    #expect(!outcome.timedOut, "\(arguments) hung")
    #expect(outcome.signal == nil, "\(arguments) died of signal \(outcome.signal ?? 0)")
    #expect(outcome.maxResidentBytes < Self.memoryBound, "\(arguments) used \(outcome.maxResidentBytes >> 20) MiB")
    return (child, outcome)
  }

  // MARK: - Drawing bytes crafted against the reader

  static func varint(_ value: UInt64) -> [UInt8] {
    var value = value
    var bytes: [UInt8] = []
    repeat {
      bytes.append(UInt8(value & 0x7F) | (value > 0x7F ? 0x80 : 0))
      value >>= 7
    } while value > 0
    return bytes
  }

  static func field(_ number: UInt64, _ bytes: [UInt8]) -> [UInt8] {
    varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes
  }

  static func varintField(_ number: UInt64, _ value: UInt64) -> [UInt8] { varint(number << 3) + varint(value) }

  static func float(_ number: UInt64, _ bits: UInt32) -> [UInt8] {
    varint(number << 3 | 5) + withUnsafeBytes(of: bits.littleEndian) { Array($0) }
  }

  static let header: [UInt8] = [0x77, 0x72, 0x64, 0xF0, 1, 0, 8, 0]
  static let strokeID = field(3, varintField(1, 1) + varintField(2, 0))
  static let ink = field(
    4, field(1, float(1, 0x3F80_0000) + float(4, 0x3F80_0000)) + field(2, Array("com.apple.ink.pen".utf8)))
  static let uuid = field(8, [UInt8](repeating: 7, count: 16))

  /// The crafted drawings, by what they attack.
  static func craftedDrawings(smallGzip: [UInt8]) -> [(String, [UInt8])] {
    let points = field(7, [UInt8](repeating: 0, count: 24))
    var nested: [UInt8] = strokeID
    for _ in 0..<5_000 { nested = field(11, nested) }
    let nan: UInt32 = 0x7FC0_0000
    let infinity: UInt32 = 0x7F80_0000
    return [
      ("Length past the end", header + [0x2A] + varint(0xFFFF_FFFF) + [1, 2, 3]),
      ("Stroke length past the end", header + ink + [0x2A, 0x7F] + strokeID),
      ("Eleven-byte varint", header + [0x2A] + [UInt8](repeating: 0xFF, count: 10) + [0x01] + [0, 0]),
      ("Varint cut off", header + [0x2A, 0xFF, 0xFF]),
      (
        "Point count overflow",
        header + ink
          + field(
            5, strokeID + varintField(4, 0) + field(5, varintField(3, UInt64(1) << 62) + varintField(4, 0x7FF) + points)
          )
      ),
      (
        "Point count times stride",
        header + ink
          + field(
            5,
            strokeID + varintField(4, 0) + field(5, varintField(3, UInt64.max / 12 + 2) + varintField(4, 0x3) + points))
      ),
      ("Substrokes 5000 deep", header + ink + field(5, strokeID + nested)),
      (
        "NaN and infinity",
        header + ink
          + field(
            5,
            strokeID + varintField(4, 0)
              + field(6, float(1, nan) + float(2, infinity) + float(3, 0xFF80_0000) + float(4, nan))
              + field(
                5,
                varintField(3, 2) + varintField(4, 0x1)
                  + field(7, (0..<4).flatMap { _ in withUnsafeBytes(of: nan.littleEndian) { Array($0) } })))
          + uuid
      ),
      (
        "Empty masks",
        header + ink
          + field(
            5,
            strokeID + varintField(4, 0) + field(10, []) + field(10, [])
              + field(5, varintField(3, 3) + varintField(4, 0))) + uuid
      ),
      ("Ink index out of range", header + field(5, strokeID + varintField(4, 99)) + uuid),
      ("Gzip of zeros", smallGzip),
      ("Gzip cut off", Array(smallGzip.prefix(100))),
      ("Gzip with trailing bytes", smallGzip + [1, 2, 3]),
      ("Wrong wire type", header + [0x28, 0x05] + uuid),
      ("Huge format version", [0x77, 0x72, 0x64, 0xF0, 200, 0, 8, 0] + uuid),
      ("Header length past the end", [0x77, 0x72, 0x64, 0xF0, 1, 0, 0xFF, 0xFF]),
      ("Only the magic", [0x77, 0x72, 0x64, 0xF0]),
      ("Empty drawing data", []),
    ]
  }

  /// `megabytes` MiB of zeros, gzipped by the system's gzip (about a thousandth of that).
  static func gzippedZeros(megabytes: Int, in folder: String) throws -> [UInt8] {
    let path = folder + "/zeros.gz"
    _ = try ChildProcess.run(["/bin/sh", "-c", "head -c \(megabytes << 20) /dev/zero | gzip -1 > '\(path)'"])
    defer { try? FileManager.default.removeItem(atPath: path) }
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  static func envelope(_ drawing: [UInt8]) -> [UInt8] {
    let base64 = Data(drawing).base64EncodedString().replacingOccurrences(of: "/", with: "\\/")
    return Array(#"{"drawingData":"\#(base64)","color":{"r":1,"g":1,"b":1,"a":1}}"#.utf8)
  }

  @Test func badFilesAreRefusedOrKeptOpaqueWithOneLineEach() throws {
    let bad = folder + "/Bad"
    let entries = try writeBadInputs(to: URL(fileURLWithPath: bad))
    let crafted = Self.craftedDrawings(smallGzip: try Self.gzippedZeros(megabytes: 1, in: folder))
    for (name, drawing) in crafted {
      try Data(Self.envelope(drawing)).write(to: URL(fileURLWithPath: bad + "/\(name)-\(Self.stamp).inkling"))
    }
    // Envelopes built against the JSON reader and file names built against the folder walk.
    let text: [(String, String)] = [
      (
        "Nested arrays",
        #"{"drawingData":"","color":{"r":1,"g":1,"b":1,"a":1},"x":"# + String(repeating: "[", count: 200_000)
      ),
      ("Nested objects", String(repeating: #"{"a":"#, count: 100_000)),
      (
        "Long number",
        #"{"drawingData":"","color":{"r":1"# + String(repeating: "0", count: 500_000) + #","g":1,"b":1,"a":1}}"#
      ),
      (
        "Escapes",
        #"{"drawingData":""# + String(repeating: #"\u0041"#, count: 100_000) + #"","color":{"r":1,"g":1,"b":1,"a":1}}"#
      ),
      ("Bad surrogate", #"{"drawingData":"\ud800","color":{"r":1,"g":1,"b":1,"a":1}}"#),
      ("Line\nbreak and \u{1B}[31mescape", #"{"drawingData":"","color":{"r":1,"g":1,"b":1,"a":1}}"#),
      (String(repeating: "n", count: 220), #"{"drawingData":"","color":{"r":1,"g":1,"b":1,"a":1}}"#),
      ("..", #"{"drawingData":"","color":{"r":1,"g":1,"b":1,"a":1}}"#),
    ]
    for (name, content) in text {
      try Data(content.utf8).write(to: URL(fileURLWithPath: bad + "/\(name)-\(Self.stamp).inkling"))
    }
    try Data(repeating: 0x20, count: 3 << 20).write(to: URL(fileURLWithPath: bad + "/Too big-\(Self.stamp).inkling"))

    let (child, _) = try run(["import", "--max-file-size", "2M", bad])
    let imported = child.outcome!
    #expect(imported.status == 1, "\(child.stderr)")
    let summary = child.stdout
    let rejected = Int(summary.components(separatedBy: " rejected").first?.split(separator: " ").last ?? "") ?? -1
    // One line per rejected file, each naming a file in the folder; notes are the other lines.
    let lines = child.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    let problems = lines.filter { !$0.contains(": note: ") }
    #expect(problems.count == rejected, "\(summary)\n\(child.stderr)")
    // A name with a line break or an escape is quoted on its one line.
    for line in lines {
      #expect(line.hasPrefix(bad + "/") || line.hasPrefix("\"" + bad + "/"), "a line that names no file: \(line)")
      #expect(!line.contains("\u{1B}"))
    }
    #expect(rejected >= entries.filter { !$0.isGood }.count - 4, "\(summary)")

    // The crafted drawings were archived as opaque bytes, each with a one-line reason in the
    // drawing index, or decoded (NaN coordinates and empty masks are data, not damage).
    let statuses = try sqlite3(
      archive,
      """
      SELECT draft.name || ' | ' || drawing.status || ' | ' || coalesce(drawing.problem, '') FROM version
      JOIN draft ON draft.id = version.draft_id JOIN drawing ON drawing.blob_id = version.blob_id ORDER BY draft.name
      """)
    print(statuses)
    #expect(
      try sqlite3(
        archive,
        "SELECT count(*) FROM drawing WHERE status <> 0 AND (problem IS NULL OR problem = '' OR instr(problem, char(10)) > 0)"
      ) == "0")
    #expect(Int(try sqlite3(archive, "SELECT count(*) FROM drawing WHERE status <> 0")) ?? 0 >= crafted.count - 4)

    // Whatever was archived checks out in full, drawings and all, within the same bounds.
    let (check, _) = try run(["check", "--full"])
    #expect(check.outcome?.status == 0, "\(check.stdout)")
    #expect(check.stdout.contains("kept as opaque bytes"))

    // Every archived draft restores inside the folder asked for.
    let restoreRoot = folder + "/Restored"
    let names = try sqlite3(archive, "SELECT hex(name) FROM draft").split(separator: "\n").map { hex -> String in
      var bytes: [UInt8] = []
      var index = hex.startIndex
      while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        bytes.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    #expect(names.count >= crafted.count)
    for (index, name) in names.enumerated() {
      let (restore, _) = try run(["--quiet", "restore", name, "--all-versions", "--to", restoreRoot + "/\(index)"])
      #expect(restore.outcome?.status == 0, "\(name): \(restore.stderr)")
    }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter { !$0.hasPrefix(".") }
        == ["Bad", "Restored", "archive.sqlite", "archive.sqlite-shm", "archive.sqlite-wal"].filter { name in
          FileManager.default.fileExists(atPath: folder + "/" + name)
        })
    print(
      "hostile inputs: \(lines.count) lines for \(rejected) rejected files; \(names.count) drafts archived; peak memory \(imported.maxResidentBytes >> 20) MiB (import), \(check.outcome!.maxResidentBytes >> 20) MiB (check --full)"
    )
  }

  /// A gzip bomb: 320 MiB of zeros in a 2 MB file, more than `DrawingLimits.maxBytes`.
  @Test func aGzipBombIsRefusedWithinBounds() throws {
    let bad = folder + "/Bomb"
    try FileManager.default.createDirectory(atPath: bad, withIntermediateDirectories: true)
    let bomb = try Self.gzippedZeros(megabytes: 320, in: folder)
    try Data(Self.envelope(bomb)).write(to: URL(fileURLWithPath: bad + "/Gzip bomb-\(Self.stamp).inkling"))
    // Unpacking stops at DrawingLimits.maxInflatedBytes (32 MiB): archived as damaged.
    let child = try BinaryRunner.start(["--archive", archive, "import", bad], outputFolder: folder)
    let outcome = child.wait(timeout: 30)
    #expect(!outcome.timedOut, "the import hung")
    #expect(outcome.status == 0, "\(child.stderr)")
    #expect(outcome.maxResidentBytes < Self.memoryBound, "\(outcome.maxResidentBytes >> 20) MiB")
  }

  // MARK: - Names built to escape the restore folder

  @Test func restoresStayInsideTheirFolder() throws {
    var corpus = TestCorpus(root: folder + "/Drafts", seed: 3)
    let escape = "escape-\(UUID().uuidString.prefix(8))"
    let names: [String] = [
      "../\(escape).inkling", "../../\(escape).inkling", "/tmp/\(escape).inkling",
      String(repeating: "x", count: 292) + ".inkling",
      "a\nb\u{1B}[2J.inkling", "", ".", "..", "sub/../../\(escape).inkling", "\u{7F}",
    ]
    for index in names.indices { try corpus.save("D\(index)") }
    #expect(try runner.run(["import", folder + "/Drafts"]).status == 0)
    for (index, name) in names.enumerated() {
      let quoted = "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
      _ = try sqlite3(
        archive,
        "UPDATE version SET file_name = \(quoted) WHERE draft_id = (SELECT id FROM draft WHERE name = 'D\(index)')")
    }
    // (Draft names come from file names and cannot hold '/'; when a file name is unusable,
    // the restore falls back to the draft's name, which FileOutput makes safe the same way.)

    let check = try runner.run(["check"])
    #expect(check.status == 3)
    // All but the two with control characters, which a Linux folder can hold.
    #expect(
      check.stdout.components(separatedBy: "is not a plain file name").count - 1 == names.count - 2, "\(check.stdout)")

    for index in names.indices {
      let draft = "D\(index)"
      let target = folder + "/Restored/\(index)"
      let (restore, _) = try run(["restore", draft, "--all-versions", "--to", target])
      #expect(restore.outcome?.status == 0, "\(draft): \(restore.stderr)")
      let written = filesUnder(target)
      #expect(written.count == 1, "\(draft): \(written)")
      #expect(
        written.allSatisfy {
          !$0.contains("/") && $0.utf8.count <= 255 && !$0.unicodeScalars.contains { $0.value < 0x20 }
        })
    }
    for place in [
      folder + "/\(escape).inkling", folder + "/Restored/\(escape).inkling", "/tmp/\(escape).inkling",
      folder + "/\(escape)",
    ] {
      #expect(!FileManager.default.fileExists(atPath: place), "\(place) was written")
    }
    #expect(filesUnder(folder + "/Restored").count == names.count)
  }

  // MARK: - Archives that are not, or no longer, archives

  func expectUnusable(
    _ arguments: [String] = ["list"], _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let (child, outcome) = try run(arguments)
    #expect(outcome.status == 3, "\(arguments): \(child.stderr)", sourceLocation: sourceLocation)
    #expect(child.stderr.hasPrefix("Error: "), sourceLocation: sourceLocation)
    #expect(child.stderr.filter { $0 == "\n" }.count == 1, "one line: \(child.stderr)", sourceLocation: sourceLocation)
    #expect(child.stderr.contains(fragment), "\(child.stderr)", sourceLocation: sourceLocation)
  }

  func freshArchive() throws {
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: archive + suffix) }
    var corpus = TestCorpus(root: folder + "/Drafts-\(UUID().uuidString.prefix(4))", seed: 9)
    for index in 0..<40 { try corpus.save("D\(index % 8)", growth: 4_000) }
    #expect(try runner.run(["import", corpus.root]).status == 0)
  }

  @Test func hiddenSchemaObjectsAreRefusedInTheArchiveAndInOneMerged() throws {
    // A trigger that shares its name with an index, and one under a statistics table's name
    // through writable_schema: each would zero every stored drawing at the next import.
    let zero = "BEGIN UPDATE blob SET data = zeroblob(length(data)); END"
    let hidings = [
      ("trigger version_by_draft", "CREATE TRIGGER version_by_draft AFTER INSERT ON version \(zero)"),
      (
        "trigger sqlite_stat1",
        "PRAGMA writable_schema = ON; INSERT INTO sqlite_master(type, name, tbl_name, rootpage, sql) "
          + "VALUES ('trigger', 'sqlite_stat1', 'version', 0, "
          + "'CREATE TRIGGER sqlite_stat1 AFTER INSERT ON version \(zero)')"
      ),
    ]
    for (object, sql) in hidings {
      try freshArchive()
      let before = try sqlite3(archive, "SELECT sum(length(data)) FROM blob WHERE data != zeroblob(length(data))")
      #expect(try sqlite3(archive, sql).isEmpty)
      let reason = "\(object) is not part of the archive's schema"
      try expectUnusable(["list"], reason)
      var more = TestCorpus(root: folder + "/More-\(UUID().uuidString.prefix(4))", seed: 11)
      try more.save("New", growth: 2_000)
      try expectUnusable(["import", more.root], reason)
      let check = try runner.run(["check"])
      #expect(check.status == 3)
      #expect(check.stdout.contains("schema: \(reason)\n"), "\(check.stdout)")
      #expect(!check.stdout.contains("No problems found"))
      #expect(
        try sqlite3(archive, "SELECT sum(length(data)) FROM blob WHERE data != zeroblob(length(data))") == before)

      // The same archive handed to someone else, who merges it: refused before anything is read.
      let mine = folder + "/mine-\(UUID().uuidString.prefix(4)).sqlite"
      let merge = try ChildProcess.run(
        [BinaryRunner.binFolder + "/inkling-archive", "--archive", mine, "import", archive],
        environment: BinaryRunner.environment, workingDirectory: folder)
      #expect(merge.status == 3, "\(merge.stderr)")
      #expect(merge.stderr.contains(reason), "\(merge.stderr)")
      if FileManager.default.fileExists(atPath: mine) {
        #expect(try sqlite3(mine, "SELECT count(*) FROM version") == "0")
      }
    }
  }

  @Test func unusableArchivesExitThreeWithOneClearLine() throws {
    // Not an archive at all.
    try Data("name,date\nCat,2025\n".utf8).write(to: URL(fileURLWithPath: archive))
    try expectUnusable(["list"], "is not an inkling archive (it is not a SQLite database)")
    try expectUnusable(["check", "--full"], "is not an inkling archive")
    try Data([UInt8](repeating: 0xA5, count: 8192)).write(to: URL(fileURLWithPath: archive))
    try expectUnusable(["history", "X"], "is not an inkling archive")

    // From a newer build.
    try freshArchive()
    _ = try sqlite3(archive, "PRAGMA user_version = 99")
    try expectUnusable(["list"], "was written by a newer inkling-archive (schema 99")
    try expectUnusable(["import", folder], "newer")
    try expectUnusable(["check"], "newer")

    // Truncated (a copy cut short, with no WAL to make up for it).
    try freshArchive()
    let size = (try FileManager.default.attributesOfItem(atPath: archive)[.size] as? Int) ?? 0
    #expect(size > 16_384)
    #expect(truncate(archive, off_t(size / 2)) == 0)
    try expectUnusable(["list"], "is damaged (the file is truncated: its header says")
    try expectUnusable(["check", "--full"], "truncated")
    try expectUnusable(["backup", folder + "/copy.sqlite"], "truncated")
    #expect(!FileManager.default.fileExists(atPath: folder + "/copy.sqlite"))

    // A schema changed behind our back: refused everywhere but in check, which lists it.
    try freshArchive()
    _ = try sqlite3(archive, "DROP INDEX version_by_draft; CREATE VIEW everything AS SELECT * FROM version")
    try expectUnusable(
      ["list"],
      "was changed outside inkling-archive: its schema differs from the one this build creates "
        + "(index version_by_draft is missing; view everything is not part of the archive's schema)")
    try expectUnusable(["import", folder + "/Drafts"], "its schema differs")
    let check = try runner.run(["check"])
    #expect(check.status == 3)
    #expect(
      check.stdout.hasPrefix(
        "schema: index version_by_draft is missing\nschema: view everything is not part of the archive's schema\n"))

    // A schema rewritten into something SQLite cannot parse.
    try freshArchive()
    _ = try sqlite3(
      archive,
      "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = 'CREATE TABLE version(' WHERE name = 'version'")
    try expectUnusable(["list"], "is damaged")
    try expectUnusable(["check"], "is too damaged to be checked further")

    // Damage inside the file: pages of the version table overwritten with noise.
    try freshArchive()
    let pages = try sqlite3(archive, "SELECT rootpage FROM sqlite_master WHERE name = 'version'")
    let pageSize = Int(try sqlite3(archive, "PRAGMA page_size")) ?? 4096
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: archive))
    try handle.seek(toOffset: UInt64(((Int(pages) ?? 2) - 1) * pageSize))
    handle.write(Data([UInt8](repeating: 0xEE, count: pageSize)))
    try handle.close()
    let (damaged, outcome) = try run(["check"])
    #expect(outcome.status == 3)
    #expect(damaged.stdout.contains("sqlite: "), "\(damaged.stdout)\(damaged.stderr)")
    try expectUnusable(["history", "D1"], "is damaged")
  }
}
