// Fuzzes archives from elsewhere, as `fuzz/` does drawings and NetworkFuzzTests requests: a
// real archive (real drawings, delta chains, thumbnails, the drawing index), copied and
// mutated as a classmate handing it over or a failing disk would (row values at the edges of
// their types, blob bytes, delta bases, thumbnails of another size, stroke lists, schema rows
// through writable_schema, whole pages of noise), then read by the real binary: merged into a
// fresh archive (with and without --salvage), `check`, `check --full`, `list`, `show`,
// `history`, `thumbnail`, `contact-sheet`, and `serve` asked for its pages and pictures.
//
// A run passes when no process dies of a signal or a trap, hangs, or goes past the memory
// bound, and every exit status is one the tool documents. The run is seeded
// (ARCHIVE_FUZZ_SEED) so that a failure replays, and lasts ARCHIVE_FUZZ_SECONDS (a few
// seconds in the test suite; scripts/fuzz-archive runs longer and prints the figures).

import Foundation
import InklingCorpus
import InklingRendering
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.serialized) struct ArchiveFuzzTests {
  static let memoryBound = 512 << 20
  static let minimumRuns = 4
  static let token = "archive-fuzz-token"

  @Test func mutatedArchivesNeverCrashHangOrGrow() throws {
    let environment = ProcessInfo.processInfo.environment
    let seconds = Double(environment["ARCHIVE_FUZZ_SECONDS"] ?? "") ?? 10
    let seed = UInt64(environment["ARCHIVE_FUZZ_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
    let served = try ServedArchive(spec: CorpusSpec(drafts: 6, versionsPerDraft: 2...4, seed: 41), hostile: false)
    served.server.stop(grace: 0)
    let seedArchive = served.folder + "/seed.sqlite"
    try prepareSeed(from: served.archivePath, to: seedArchive)
    let columns = try Self.columns(of: seedArchive)
    var random = SeededRandom(seed: seed)

    let deadline = Date().addingTimeInterval(seconds)
    var runs = 0
    var commands = 0
    var peak = 0
    var statuses: [Int32: Int] = [:]
    var problems: [String] = []
    while Date() < deadline || runs < Self.minimumRuns {
      runs += 1
      let work = served.folder + "/run-\(runs)"
      try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: work) }
      let mutated = work + "/other.sqlite"
      try FileManager.default.copyItem(atPath: seedArchive, toPath: mutated)
      let mutation = try Self.mutate(mutated, columns: columns, random: &random)
      let replay = "seed \(seed), run \(runs) (\(mutation))"
      let names = (try? sqlite3(mutated, "SELECT name FROM draft LIMIT 2"))?.split(separator: "\n").map(String.init)
      let name = names?.first ?? "Draft 1"
      for arguments in Self.commands(name: name, work: work, archive: mutated) {
        let outcome = try Self.run(arguments, in: work)
        commands += 1
        peak = max(peak, outcome.maxResidentBytes)
        statuses[outcome.status ?? -1, default: 0] += 1
        if let problem = Self.problem(outcome) {
          problems.append("\(replay): \(arguments.joined(separator: " ")) \(problem)")
        }
      }
      problems += try Self.serve(mutated, work: work, replay: replay, peak: &peak)
      if problems.count >= 10 { break }
    }
    print(
      "archive fuzz: seed \(seed), \(runs) archives, \(commands) commands, statuses \(statuses.sorted { $0.key < $1.key }), "
        + "peak RSS \(peak >> 20) MiB")
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  // MARK: - The seed archive

  /// A copy of `archive` in one file (its WAL checkpointed), with cached thumbnails.
  private func prepareSeed(from archive: String, to seedArchive: String) throws {
    for size in ["128", "256"] {
      let sheet = try ChildProcess.run(
        [Binary.path, "--archive", archive, "contact-sheet", "--size", size, "--force", "-o", archive + ".sheet.png"],
        timeout: 120
      )
      #expect(sheet.status == 0, "\(sheet.stderr)")
    }
    _ = try sqlite3(archive, "PRAGMA wal_checkpoint(TRUNCATE)")
    try FileManager.default.copyItem(atPath: archive, toPath: seedArchive)
  }

  /// Every table of the archive with its columns.
  static func columns(of archive: String) throws -> [(table: String, column: String)] {
    let rows = try sqlite3(
      archive,
      "SELECT m.name || '|' || p.name FROM sqlite_master m, pragma_table_info(m.name) p "
        + "WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite%' ORDER BY 1")
    return rows.split(separator: "\n").compactMap { line in
      let parts = line.split(separator: "|", maxSplits: 1).map(String.init)
      return parts.count == 2 ? (parts[0], parts[1]) : nil
    }
  }

  // MARK: - Mutations

  /// Values at the edges of SQLite's storage classes and of what the tool converts them to.
  static let edgeValues = [
    "9223372036854775807", "-9223372036854775808", "0", "-1", "4294967296", "9007199254740993", "1e308", "-1e308",
    "NULL", "'\u{1B}[31mred\u{202E}'", "x''", "x'00'", "x'ffffffffffffffff'", "2147483648", "253402300800000",
  ]

  /// Applies one mutation to the archive at `path`; what it did, for the replay line.
  static func mutate(
    _ path: String, columns: [(table: String, column: String)], random: inout SeededRandom
  ) throws -> String {
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    func hex(_ count: Int) -> String { (0..<count).map { _ in String(format: "%02x", random.next() & 0xFF) }.joined() }
    func row(_ table: String) -> String {
      "rowid = (SELECT rowid FROM \(table) LIMIT 1 OFFSET \(random.next() % 16) % max(1, (SELECT count(*) FROM \(table))))"
    }
    let sql: String
    switch random.next() % 8 {
    case 0, 1:
      let (table, column) = pick(columns)
      let value = random.next() % 4 == 0 ? "x'\(hex(Int(random.next() % 64)))'" : pick(edgeValues)
      sql = "UPDATE \(table) SET \(column) = \(value) WHERE \(row(table))"
    case 2:
      // Noise over part of a stored drawing.
      let at = random.next() % 64 + 1
      sql =
        "UPDATE blob SET data = substr(data, 1, \(at)) || x'\(hex(8))' || substr(data, \(at + 9)) WHERE \(row("blob"))"
    case 3:
      // Another blob as the delta base, or a base that claims another drawing's hash.
      sql =
        random.next() % 2 == 0
        ? "UPDATE blob SET base_id = (SELECT id FROM blob LIMIT 1 OFFSET \(random.next() % 8)) WHERE \(row("blob"))"
        : "UPDATE blob SET sha256 = (SELECT sha256 FROM blob b2 WHERE b2.id != blob.id LIMIT 1) WHERE \(row("blob"))"
    case 4:
      // A thumbnail whose PNG is not the size its row says.
      let sizes = [(128, 4096), (4096, 128), (1, 1), (16384, 16384)]
      let (width, height) = pick(sizes)
      let png = try PNG.encode(
        RenderedImage(
          width: min(width, 512), height: min(height, 512),
          rgba: .init(repeating: 0x7F, count: min(width, 512) * min(height, 512) * 4)))
      var header = png
      // The header claims the full size; the pixels are what they are (a bomb, or a lie).
      for (offset, value) in [(16, width), (20, height)] {
        for byte in 0..<4 { header[offset + byte] = UInt8((value >> (24 - 8 * byte)) & 0xFF) }
      }
      let bytes = random.next() % 2 == 0 ? png : header
      sql =
        "UPDATE thumbnail SET png = x'\(bytes.map { String(format: "%02x", $0) }.joined())' WHERE \(row("thumbnail"))"
    case 5:
      // Stroke lists and counts of the drawing index.
      sql =
        random.next() % 2 == 0
        ? "UPDATE drawing SET strokes = x'\(hex(Int(random.next() % 48)))ffffffffffffff7f' WHERE \(row("drawing"))"
        : "UPDATE drawing SET stroke_count = \(pick(edgeValues)) WHERE \(row("drawing"))"
    case 6:
      // Schema rows, through writable_schema.
      let zero = "BEGIN UPDATE blob SET data = x''; END"
      sql = pick([
        "PRAGMA writable_schema = ON; INSERT INTO sqlite_master VALUES ('trigger', 'sqlite_stat1', 'version', 0, "
          + "'CREATE TRIGGER sqlite_stat1 AFTER INSERT ON version \(zero)')",
        "CREATE TRIGGER version_by_draft AFTER INSERT ON version \(zero)",
        "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = replace(sql, 'NOT NULL', '') WHERE name = 'version'",
        "PRAGMA writable_schema = ON; UPDATE sqlite_master SET rootpage = rootpage + 1 WHERE type = 'index' AND \(row("sqlite_master"))",
      ])
    default:
      // A whole page of noise, anywhere but the header's first page.
      let pageSize = Int(try sqlite3(path, "PRAGMA page_size")) ?? 4096
      let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
      let pages = max(2, size / pageSize)
      let page = 1 + Int(random.next() % UInt64(pages - 1))
      let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
      try handle.seek(toOffset: UInt64(page * pageSize))
      let noise = (0..<pageSize).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      try handle.write(contentsOf: noise)
      try handle.close()
      return "page \(page + 1) overwritten with noise"
    }
    // CHECK constraints stand in the way of a hostile writer no more than of this one.
    let result = try sqlite3(path, "PRAGMA ignore_check_constraints = ON; " + sql)
    return sql.count > 160 ? String(sql.prefix(157)) + "…" + (result.isEmpty ? "" : " [\(result.prefix(80))]") : sql
  }

  // MARK: - What reads the archive

  static func commands(name: String, work: String, archive: String) -> [[String]] {
    let mine = work + "/mine.sqlite"
    return [
      ["--archive", mine, "import", archive],
      ["--archive", work + "/salvaged.sqlite", "import", "--salvage", archive],
      ["--archive", archive, "check"],
      ["--archive", archive, "check", "--full"],
      ["--archive", archive, "list"],
      ["--archive", archive, "show", name],
      ["--archive", archive, "history", name],
      ["--archive", archive, "thumbnail", name, "-o", work + "/thumbnail.png"],
      ["--archive", archive, "contact-sheet", "-o", work + "/sheet.png"],
      ["--archive", mine, "contact-sheet", "-o", work + "/sheet-mine.png"],
      ["--archive", mine, "check", "--full"],
    ]
  }

  static func run(_ arguments: [String], in work: String) throws -> ChildProcess.Outcome {
    let child = try ChildProcess([Binary.path] + arguments, workingDirectory: work, outputFolder: work)
    return child.wait(timeout: 120)
  }

  /// What is wrong with how a command ended, or nil: a signal, a trap (132, 134, 139), a
  /// hang, more memory than the bound, or a status the tool does not document.
  static func problem(_ outcome: ChildProcess.Outcome) -> String? {
    if outcome.timedOut { return "hung" }
    if let signal = outcome.signal { return "died of signal \(signal)" }
    if outcome.maxResidentBytes > memoryBound { return "used \(outcome.maxResidentBytes >> 20) MiB" }
    guard let status = outcome.status, [0, 1, 2, 3].contains(status) else {
      return "exited with \(outcome.status.map(String.init) ?? "nothing")"
    }
    return nil
  }

  /// Starts `serve` on the mutated archive and asks for its pages and pictures; the problems.
  static func serve(_ archive: String, work: String, replay: String, peak: inout Int) throws -> [String] {
    let child = try ChildProcess(
      [Binary.path, "--archive", archive, "serve", "--port", "0", "--token", token], outputFolder: work)
    defer { if child.poll() == nil { _ = child.killNow() } }
    let started = Date()
    while !child.stdout.contains("\n") && child.poll() == nil && Date().timeIntervalSince(started) < 30 {
      usleep(20_000)
    }
    guard let line = child.stdout.split(separator: "\n").first, let port = URL(string: String(line))?.port else {
      // An archive serve refuses to open is an answer, if it said so and exited as documented.
      let outcome = child.wait(timeout: 30)
      return problem(outcome).map { ["\(replay): serve \($0): \(child.stderr.prefix(200))"] } ?? []
    }
    var problems: [String] = []
    let ids = (try? sqlite3(archive, "SELECT id FROM draft LIMIT 2"))?.split(separator: "\n") ?? []
    let versions = (try? sqlite3(archive, "SELECT id FROM version LIMIT 3"))?.split(separator: "\n") ?? []
    var targets = ["/", "/api/drafts", "/trash", "/api/trash"]
    for id in ids { targets += ["/draft?id=\(id)", "/api/draft?id=\(id)", "/draft/marks?id=\(id)"] }
    for id in versions {
      targets += ["/versions/\(id)/thumbnail.png", "/versions/\(id)/render.png", "/versions/\(id)/file"]
    }
    let headers = [("Authorization", "Bearer \(token)")]
    for target in targets {
      for range in [nil, "bytes=0-0"] {
        do {
          let response = try HTTPClient.get(
            UInt16(port), target, headers: headers + (range.map { [("Range", $0)] } ?? []))
          // A damaged archive or version is a 500 with its sentence; any other 500 is an error
          // no view expected.
          let body = (try? response.decodedBody()).map { String(decoding: $0, as: UTF8.self) } ?? ""
          let said = body.contains("is damaged") || body.contains("cannot be used")
          if response.status == 500 && !said || !(200..<600).contains(response.status) {
            let text = body.range(of: "<main").map { body[$0.lowerBound...] } ?? body[...]
            problems.append("\(replay): serve \(target) answered \(response.status): \(text.prefix(300))")
          }
        } catch {
          problems.append("\(replay): serve \(target): \(error)")
        }
        guard child.poll() == nil else { break }
      }
      guard child.poll() == nil else { break }
    }
    if child.poll() != nil {
      let outcome = child.wait(timeout: 1)
      problems.append("\(replay): serve stopped: \(problem(outcome) ?? "exit \(outcome.status ?? -1)")")
      return problems
    }
    kill(child.pid, SIGTERM)
    let outcome = child.wait(timeout: 30)
    peak = max(peak, outcome.maxResidentBytes)
    if let problem = problem(outcome) { problems.append("\(replay): serve \(problem)") }
    return problems
  }
}

/// `sqlite3` on `path`, its output trimmed (or what it said on failure).
private func sqlite3(_ path: String, _ sql: String) throws -> String {
  let result = try ChildProcess.run(["/usr/bin/sqlite3", "-cmd", ".timeout 10000", path, sql])
  guard result.status == 0 else { return "sqlite3 failed: " + result.stderr }
  return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}
