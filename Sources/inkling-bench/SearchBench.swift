// Query latency at a million drafts and five million versions, and `find` over 100,000
// `.inkling` files as the baseline (scripts/bench-search; target p50 ≤ 5 ms, p99 ≤ 50 ms).
// Every draft has ten tags (`portfolio`, and nine of ninety `theme-N`, each on a tenth of the
// drafts): `tag:portfolio` is measured in this process and as `search` in new processes
// (target p99 ≤ 10 ms at a million drafts).
//
// The generated archive and the baseline's folder are kept in .build/bench-search/, named
// after what generates them (SearchFixture.swift and the generator, the sizes, the seeds), and
// reused while that is unchanged: building a million drafts takes most of an hour. A kept
// archive of an older schema is upgraded by the migrations when it is opened, as a user's
// would be. Writes a Markdown report (--out) and prints it; the slowest queries of each shape
// and their plans go to standard error.

import Foundation
import InklingArchive
import InklingCorpus
import InklingStore
import InklingTestSupport

enum SearchBench {
  static let benchmark = EntryPoint.Benchmark(
    name: "search", abstract: "Search latency at a million drafts, and find(1) over the files as the baseline.",
    usage:
      "[--drafts N] [--versions A-B | --drafts-only] [--queries N] [--files N] [--archive FILE] [--out FILE] [--shapes A,B] "
      + "[--slowest N] [--cli FILE]",
    flags: ["--drafts-only"], run: run)

  /// Fixed, so that a kept archive and new queries agree on "today".
  static let now: Int64 = 1_795_953_600_000  // 2026-11-29T12:00:00Z
  static let root = PackageFolder.path
  static let cache = root + "/.build/bench-search"

  struct Settings {
    var drafts: Int
    /// How many versions each draft has (1...9 by default).
    var versions: ClosedRange<Int>
    /// Drafts without versions (`buildDraftsOnly`).
    var draftsOnly: Bool
    var files: Int
    var queriesPerShape: Int
    var archivePath: String
    var reportPath: String
    var shapes: [String]?
    var slowestShown: Int
    var cli: String
  }

  static func run(_ arguments: inout BenchArguments) throws -> Int32 {
    let drafts = arguments.int("--drafts", default: 1_000_000)
    let versions = versionRange(arguments.string("--versions") ?? "1-9")
    let draftsOnly = arguments.flag("--drafts-only")
    let spec = archiveSpec(drafts, versions: versions) + (draftsOnly ? "drafts only\n" : "")
    let settings = Settings(
      drafts: drafts, versions: versions, draftsOnly: draftsOnly, files: arguments.int("--files", default: 100_000),
      queriesPerShape: arguments.int("--queries", default: 400),
      archivePath: arguments.string("--archive")
        ?? cache + "/search-\(drafts)-\(digest(spec)).sqlite",
      reportPath: arguments.string("--out") ?? root + "/bench-work/search.md",
      shapes: arguments.string("--shapes").map { $0.split(separator: ",").map(String.init) },
      slowestShown: arguments.int("--slowest", default: 3),
      cli: arguments.string("--cli") ?? root + "/.build/release/inkling-archive")
    arguments.finish()
    try measure(settings)
    return 0
  }

  /// `A-B` (or `A`) of `--versions`.
  static func versionRange(_ text: String) -> ClosedRange<Int> {
    let bounds = text.split(separator: "-").map { Int($0) }
    guard (1...2).contains(bounds.count), let low = bounds.first!, let high = bounds.last!, 1 <= low, low <= high
    else { BenchArguments.fail("--versions takes A-B, 1 <= A <= B, not \"\(text)\"") }
    return low...high
  }

  /// What the archive is generated from; its digest names the kept archive. The tags are
  /// added to a kept archive that has none (`addTags`), so they are not part of it.
  static func archiveSpec(_ drafts: Int, versions: ClosedRange<Int>) -> String {
    let sources = ["Tests/InklingTestSupport/SearchFixture.swift", "Sources/InklingCorpus/SeededRandom.swift"]
    return "drafts \(drafts) versions \(versions) blobs 20000 seed 2025 now \(now)\n"
      + sources.map { (try? String(contentsOfFile: root + "/" + $0, encoding: .utf8)) ?? "" }.joined()
  }

  static func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
  }

  static func log(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  /// The first 12 hex digits of the SHA-256 of `text`.
  static func digest(_ text: String) -> String {
    SHA256.hash(Array(text.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
  }

  /// Builds the archive unless it is kept from an earlier run; returns how long building took.
  /// It is built under a temporary name and renamed when complete, so an interrupted build
  /// is never mistaken for a kept archive.
  static func buildArchive(_ settings: Settings) throws -> String {
    let path = settings.archivePath
    if FileManager.default.fileExists(atPath: path) { return "kept from an earlier run" }
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let building = path + ".building"
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: building + suffix) }
    let clock = ContinuousClock()
    let start = clock.now
    let db = try ArchiveDatabase.open(path: building, mode: .readWrite)
    // 2 GB of page cache while building: the gram index is written in name order, not key order.
    try db.execute("PRAGMA cache_size = -2000000")
    if settings.draftsOnly {
      try buildDraftsOnly(in: db, drafts: settings.drafts)
    } else {
      try SearchFixture.build(
        in: db, drafts: settings.drafts, versions: settings.versions, blobs: 20_000, now: now, seed: 2025,
        keepModels: false, batch: 20_000
      ) { made in
        if made % 100_000 == 0 { log("built \(made) drafts after \(clock.now - start)") }
      }
    }
    try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    try db.execute("PRAGMA journal_mode = DELETE")
    db.close()
    try FileManager.default.moveItem(atPath: building, toPath: path)
    return String(format: "%.0f s", milliseconds(clock.now - start) / 1000)
  }

  /// `--drafts-only`: draft rows `d1`, `d2`, … saved a minute apart, each as if of one version
  /// (the columns `list` and search walks read, set by one INSERT … SELECT per 100,000 drafts;
  /// the name triggers run as at import), without the version rows. Minutes to build instead
  /// of most of an hour, for the terms that read drafts only (`tag:`, names, newest first);
  /// `check` would report the missing versions.
  static func buildDraftsOnly(in db: Database, drafts: Int) throws {
    var made = 0
    while made < drafts {
      let count = min(100_000, drafts - made)
      try db.transaction {
        try db.execute(
          "INSERT INTO draft(name, created_ms, version_count, latest_saved_ms, first_saved_ms, latest_strokes, "
            + "first_imported_ms, latest_imported_ms) "
            + "WITH n(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2) "
            + "SELECT 'd' || i, ?3, 1, ?3 - 60000 * i, ?3 - 60000 * i, 10, ?3, ?3 FROM n",
          [made + 1, made + count, now])
      }
      made += count
      log("built \(made) drafts")
    }
  }

  struct Shape {
    var label: String
    var limit: Int?
    var sort: DraftSort = .newest
    var query: (inout SeededRandom) -> String
  }

  /// The ten tags of every draft: `portfolio`, and `theme-K` for K = (id + 10 j) mod 90,
  /// j = 0...8 (nine distinct themes, each theme on a tenth of the drafts). Written through
  /// the store's records and one INSERT … SELECT, as `tag --query` would leave them; a kept
  /// archive that has tags already is left as it is. Returns how long it took.
  static func addTags(_ path: String) throws -> String {
    let db = try ArchiveDatabase.open(path: path, mode: .readWrite)
    defer { db.close() }
    let tagged = try db.fetchOne("SELECT EXISTS (SELECT 1 FROM draft_tag)") { $0.int(0) }
    if tagged == 1 { return "kept" }
    let clock = ContinuousClock()
    let start = clock.now
    try db.execute("PRAGMA cache_size = -2000000")
    try db.transaction {
      let portfolio = try TagRecords.id(creating: "portfolio", in: db)
      let themes = try (0..<90).map { try TagRecords.id(creating: "theme-\($0)", in: db) }
      guard themes == Array(themes[0]...themes[0] + 89) else { BenchArguments.fail("theme tags not numbered in a row") }
      try db.execute("INSERT INTO draft_tag(draft_id, tag_id) SELECT id, ? FROM draft", [portfolio])
      try db.execute(
        "INSERT INTO draft_tag(draft_id, tag_id) WITH slot(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM slot WHERE j < 8) "
          + "SELECT draft.id, ? + (draft.id + 10 * slot.j) % 90 FROM draft, slot",
        [themes[0]])
    }
    try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    try db.execute("PRAGMA journal_mode = DELETE")
    return String(format: "%.0f s", milliseconds(clock.now - start) / 1000)
  }

  /// `search --paths --limit 50 QUERY` in a new process `runs` times: wall p50 and p99 (start-up
  /// included) and the child's CPU (user + system) p50 and p99, in milliseconds.
  static func cliSearch(_ settings: Settings, _ query: String, runs: Int) throws -> [Double] {
    let clock = ContinuousClock()
    var wall: [Double] = []
    var cpu: [Double] = []
    for _ in 0..<runs {
      let before = childCPU()
      let began = clock.now
      let child = try ChildProcess(
        [settings.cli, "--archive", settings.archivePath, "search", "--paths", "--limit", "50", query])
      let outcome = child.wait()
      wall.append(milliseconds(clock.now - began))
      cpu.append((childCPU() - before) * 1000)
      guard outcome.status == 0 else { BenchArguments.fail("\(settings.cli) search \(query) failed: \(child.stderr)") }
    }
    let (wall50, wall99) = percentiles(wall)
    let (cpu50, cpu99) = percentiles(cpu)
    return [wall50, wall99, cpu50, cpu99]
  }

  /// CPU seconds (user + system) of the children this process has waited for.
  static func childCPU() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  }

  static func measure(_ settings: Settings) throws {
    let buildTime = try buildArchive(settings)
    let path = settings.archivePath
    let clock = ContinuousClock()

    // A kept archive of an older schema is upgraded first (once), as any command would.
    let upgradeStart = clock.now
    _ = try Archive(path: path)  // closed when released, here
    let upgradeTime = milliseconds(clock.now - upgradeStart)
    // After the upgrade, which it would otherwise do itself.
    let tagTime = try addTags(path)
    // Queries on a cold page cache measure the disk, not the plans: read the file once.
    try readThrough(path)

    // Opening and a first query: nothing at start-up may grow with the archive. In a fresh
    // process (`list --limit 50`, the process's own start-up included) and in this one.
    var cliTimes: [Double] = []
    for _ in 0..<5 {
      let began = clock.now
      let child = try ChildProcess([settings.cli, "--archive", path, "list", "--limit", "50"])
      let outcome = child.wait()
      cliTimes.append(milliseconds(clock.now - began))
      guard outcome.status == 0 else { BenchArguments.fail("\(settings.cli) list failed: \(child.stderr)") }
    }
    let openStart = clock.now
    let archive = try Archive(path: path, mode: .readOnly)
    let first = try archive.drafts(limit: 50)
    let openTime = milliseconds(clock.now - openStart)
    guard first.count == 50 else { BenchArguments.fail("the archive has fewer than 50 drafts") }

    let database = try ArchiveDatabase.open(path: path, mode: .readOnly)
    defer { database.close() }
    let counts = try database.fetchOne("SELECT (SELECT count(*) FROM draft), (SELECT count(*) FROM version)") {
      ($0.int(0), $0.int(1))
    }!
    let tagCount = try database.fetchOne("SELECT count(*) FROM draft_tag") { $0.int(0) } ?? 0
    let fileSize = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    let sample = try database.fetchAll("SELECT name FROM draft WHERE id % 97 = 0") { $0.string(0) }

    let nowDate = Date(timeIntervalSince1970: Double(now) / 1000)
    let loadBefore = Clocks.loadAverage()
    var rows: [String] = []
    for (index, shape) in shapes(sample: sample).enumerated()
    where settings.shapes?.contains(where: shape.label.hasPrefix) ?? true {
      var random = SeededRandom(seed: UInt64(100 + index))
      var latencies: [Double] = []
      var cpu: [Double] = []
      var matches: [Int] = []
      var texts: [String] = []
      for _ in 0..<settings.queriesPerShape {
        let text = shape.query(&random)
        texts.append(text)
        let start = clock.now
        let cpuStart = Clocks.threadCPU()
        let query = try DraftQuery(search: text, now: nowDate)
        let found = try archive.drafts(matching: query, sort: shape.sort, limit: shape.limit)
        latencies.append(milliseconds(clock.now - start))
        cpu.append((Clocks.threadCPU() - cpuStart) * 1000)
        matches.append(found.count)
      }
      let (p50, p99) = percentiles(latencies)
      let (cpu50, cpu99) = percentiles(cpu)
      let medianMatches = matches.sorted()[matches.count / 2]
      let figures = [p50, p99, latencies.max()!, cpu50, cpu99].map { String(format: "%.2f", $0) }
      rows.append(
        "| \(shape.label) | \(shape.limit.map(String.init) ?? "none") | \(figures.joined(separator: " | ")) | \(medianMatches) |"
      )
      log(rows.last!)
      // The slowest queries (by CPU) and the plans they ran, for whoever tunes the plans.
      for slow in cpu.indices.sorted(by: { cpu[$0] > cpu[$1] }).prefix(settings.slowestShown) {
        let query = try DraftQuery(search: texts[slow], now: nowDate)
        let plans = try archive.searchPlanSummary(query, sort: shape.sort, limit: shape.limit)
        log(String(format: "    %7.2f ms CPU, %4d found: ", cpu[slow], matches[slow]) + "\(texts[slow])  [\(plans)]")
      }
    }

    // `tag:` as people run it: a new process each time, as the web grid's page of 50.
    var tagLines = ""
    if settings.shapes?.contains(where: "tag on every draft".hasPrefix) ?? true {
      for query in ["tag:portfolio", "tag:theme-7"] {
        let figures = try cliSearch(settings, query, runs: max(100, settings.queriesPerShape))
          .map { String(format: "%.2f", $0) }
        let line =
          "`inkling-archive search --paths --limit 50 '\(query)'` as a new process, "
          + "\(max(100, settings.queriesPerShape)) runs: wall p50 \(figures[0]) ms, p99 \(figures[1]) ms; "
          + "CPU p50 \(figures[2]) ms, p99 \(figures[3]) ms."
        log(line)
        tagLines += line + "\n\n"
      }
    }

    let baseline = try findBaseline(files: settings.files)
    let size = String(format: "%.2f", Double(fileSize) / 1e9)
    let open = String(format: "%.2f", openTime)
    let cores = ProcessInfo.processInfo.activeProcessorCount
    #if DEBUG
      let build = "debug build"
    #else
      let build = "release build"
    #endif
    var report = "## Search at \(counts.0) drafts / \(counts.1) versions\n\n"
    report +=
      settings.draftsOnly
      ? "Archive \(size) GB of drafts only (`--drafts-only`: no versions), built in \(buildTime). "
      : "Archive \(size) GB (tiny drawings; names, dates and indexes at real size), built in \(buildTime). "
    report += "\(settings.queriesPerShape) random queries per shape through `Archive.drafts(matching:sort:limit:)` "
    report += "(parse + plan + SQLite + Swift values), \(build), warm page cache, \(cores) cores shared.\n\n"
    report += "Opening the archive read-only and listing the newest 50: \(open) ms in this process; "
    report += "`inkling-archive list --limit 50` as a new process (start-up included), median of 5: "
    report += "\(String(format: "%.1f", cliTimes.sorted()[2])) ms. "
    report += "Upgrading the kept archive's schema before the run: \(String(format: "%.0f", upgradeTime)) ms. "
    report += "Ten tags on every draft (\(tagCount) rows), added in \(tagTime).\n\n"
    report += "Load average (1, 5, 15 min) before the queries: \(loadBefore); after: \(Clocks.loadAverage()).\n\n"
    report += "| shape | limit | p50 ms | p99 ms | max ms | CPU p50 ms | CPU p99 ms | median matches |\n"
    report += "|---|---|--:|--:|--:|--:|--:|--:|\n"
    report += rows.joined(separator: "\n") + "\n\n" + tagLines + baseline + "\n"
    try FileManager.default.createDirectory(
      atPath: (settings.reportPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try report.write(toFile: settings.reportPath, atomically: true, encoding: .utf8)
    print(report)
  }

  /// The query shapes, each a generator of random queries over names from `sample`.
  static func shapes(sample: [String]) -> [Shape] {
    func piece(_ random: inout SeededRandom) -> String {
      let scalars = Array(sample.randomElement(using: &random)!.unicodeScalars)
      switch Int.random(in: 0..<10, using: &random) {
      case 0...2: return SearchFixture.words.randomElement(using: &random)!
      case 3: return SearchFixture.shortNames.randomElement(using: &random)!
      default:
        let length = min(scalars.count, Int.random(in: 1...8, using: &random))
        let start = Int.random(in: 0...(scalars.count - length), using: &random)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<start + length])
        return String(view)
      }
    }
    func quoted(_ text: String) -> String {
      "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
    func date(_ random: inout SeededRandom) -> String {
      let instant = Int64.random(in: SearchFixture.start...now, using: &random)
      let parts = Calendar(identifier: .gregorian).dateComponents(
        in: .current, from: Date(timeIntervalSince1970: Double(instant) / 1000))
      switch Int.random(in: 0..<4, using: &random) {
      case 0: return String(format: "%04d", parts.year!)
      case 1: return String(format: "%04d-%02d", parts.year!, parts.month!)
      default: return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
      }
    }
    return [
      Shape(label: "name substring", limit: 50) { "name:" + quoted(piece(&$0)) },
      Shape(label: "name substring, every match", limit: nil) { "name:" + quoted(piece(&$0)) },
      Shape(label: "exact name", limit: nil) { "name:=" + quoted(sample.randomElement(using: &$0)!.lowercased()) },
      Shape(label: "glob with a prefix", limit: 50) { "name:" + quoted(String(piece(&$0).prefix(3))) + "*" },
      Shape(label: "date range (year, month or day)", limit: 50) { "saved:" + date(&$0) },
      Shape(label: "date range, every match (one day)", limit: nil) { random in
        var text = date(&random)
        while text.count < 10 { text = date(&random) }
        return "saved:" + text
      },
      Shape(label: "name + date", limit: 50) { "name:" + quoted(piece(&$0)) + " saved:>=" + date(&$0) },
      Shape(label: "newest 50", limit: 50) { _ in "" },
      Shape(label: "first 50 by name", limit: 50, sort: .name) { _ in "" },
      Shape(label: "compound", limit: 50) { random in
        let a = SearchFixture.words.randomElement(using: &random)!
        let b = SearchFixture.words.randomElement(using: &random)!
        let ink = SearchFixture.inks.randomElement(using: &random)!
        return
          "(name:\(quoted(a)) or name:\(quoted(b))) and strokes:>\(Int.random(in: 0...300, using: &random)) and ink:\(ink)"
      },
      Shape(label: "tag on every draft", limit: 50) { _ in "tag:portfolio" },
      Shape(label: "tag on a tenth of the drafts", limit: 50) { "tag:theme-\(Int.random(in: 0..<90, using: &$0))" },
      Shape(label: "tag on a tenth + name", limit: 50) { random in
        "tag:theme-\(Int.random(in: 0..<90, using: &random)) name:" + quoted(piece(&random))
      },
      Shape(label: "background + versions + imported", limit: 50) { random in
        let colour = ["#1a1a1f", "white", "cream", "black"].randomElement(using: &random)!
        let when = ["today", "yesterday", "7d", "2mo", "2025"].randomElement(using: &random)!
        return "background:\(colour) versions:>\(Int.random(in: 1...6, using: &random)) imported:\(when)"
      },
    ]
  }

  /// Reads the whole file (and its write-ahead log), so that it is in the page cache.
  static func readThrough(_ path: String) throws {
    for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
      let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
      defer { try? handle.close() }
      while let chunk = try handle.read(upToCount: 1 << 24), !chunk.isEmpty {}
    }
  }

  /// p50 and p99 by rank: the median element, and the smallest value at or above 99 % of them.
  static func percentiles(_ values: [Double]) -> (Double, Double) {
    let sorted = values.sorted()
    return (sorted[sorted.count / 2], sorted[max(0, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)])
  }

  /// `find DIR -name '*term*'` over a folder of `.inkling` files written by the project's
  /// corpus generator (InklingCorpus, as `inkling-corpus`): real files, one stroke a save
  /// (find reads only names), kept in .build/bench-search/ between runs.
  static func findBaseline(files fileCount: Int) throws -> String {
    let versions = 5
    let spec = CorpusSpec(
      drafts: (fileCount + versions - 1) / versions, versionsPerDraft: versions...versions, seed: 4,
      strokesPerVersion: 1...1)
    let folder = cache + "/corpus-\(fileCount)-\(digest("\(spec)"))"
    let clock = ContinuousClock()
    if !FileManager.default.fileExists(atPath: folder) {
      let start = clock.now
      let building = folder + ".building"
      try? FileManager.default.removeItem(atPath: building)
      try writeCorpus(spec, to: URL(fileURLWithPath: building))
      try FileManager.default.moveItem(atPath: building, toPath: folder)
      log("wrote the corpus in \(clock.now - start)")
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: folder)
    // Terms as people type them: a word of a file's draft name.
    var random = SeededRandom(seed: 99)
    let words = Array(
      Set(
        files.flatMap { file in
          file.dropLast(".inkling".count).split { !$0.isLetter }.map(String.init).filter { $0.count >= 3 }
        })
    )
    .sorted()
    var latencies: [Double] = []
    for _ in 0..<60 {
      let term = words.randomElement(using: &random)!
      let began = clock.now
      let child = try ChildProcess(["/usr/bin/find", folder, "-name", "*\(term)*"])
      _ = child.wait()
      latencies.append(milliseconds(clock.now - began))
    }
    let (p50, p99) = percentiles(latencies)
    return """
      Baseline: `find DIR -name '*word*'` over \(files.count) `.inkling` files in one folder, written by \
      the corpus generator (warm cache, 60 random words of the names, process start included): \
      p50 \(String(format: "%.1f", p50)) ms, p99 \(String(format: "%.1f", p99)) ms. `find` matches case and \
      accents exactly (`cafe` misses `Café`), knows no dates but the file's, and sees one version per file.
      """
  }
}
