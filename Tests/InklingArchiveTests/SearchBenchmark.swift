import Foundation
import InklingCorpus
import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

/// Query latency at a million drafts and five million versions, and `find` over 100,000
/// `.inkling` files as the baseline. Runs only with INKLING_BENCH=1, in release mode:
///
///     scripts/bench-search        (swift build -c release --build-tests, then this suite)
///
/// The generated archive and the baseline's folder are kept in .build/bench-search/, named
/// after what generates them (SearchFixture.swift, the sizes, the seeds), and reused while
/// that is unchanged: building a million drafts takes most of an hour. A kept archive of an
/// older schema is upgraded by the migrations when it is opened, as a user's would be.
///
/// Environment: INKLING_BENCH_DRAFTS (default 1000000), INKLING_BENCH_ARCHIVE (instead of
/// the kept one), INKLING_BENCH_OUT (the Markdown report; default bench-work/search.md),
/// INKLING_BENCH_FILES (100000), INKLING_BENCH_QUERIES (random queries per shape, 400).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["INKLING_BENCH"] == "1"), .serialized)
struct SearchBenchmark {
  static let environment = ProcessInfo.processInfo.environment
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
  static let draftCount = Int(environment["INKLING_BENCH_DRAFTS"] ?? "") ?? 1_000_000
  static let fileCount = Int(environment["INKLING_BENCH_FILES"] ?? "") ?? 100_000
  static let cache = root + "/.build/bench-search"
  /// What the archive is generated from; its digest names the kept archive.
  static let archiveSpec =
    "drafts \(draftCount) versions 1...9 blobs 20000 seed 2025 now \(now)\n"
    + ((try? String(contentsOfFile: root + "/Tests/InklingTestSupport/SearchFixture.swift", encoding: .utf8)) ?? "")
  static let archivePath =
    environment["INKLING_BENCH_ARCHIVE"]
    ?? cache + "/search-\(draftCount)-\(digest(archiveSpec)).sqlite"
  static let reportPath = environment["INKLING_BENCH_OUT"] ?? root + "/bench-work/search.md"
  /// Fixed, so that a kept archive and new queries agree on "today".
  static let now: Int64 = 1_795_953_600_000  // 2026-11-29T12:00:00Z
  static let queriesPerShape = Int(environment["INKLING_BENCH_QUERIES"] ?? "") ?? 400

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
  static func buildArchive() throws -> String {
    if FileManager.default.fileExists(atPath: archivePath) { return "kept from an earlier run" }
    try FileManager.default.createDirectory(
      atPath: (archivePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let building = archivePath + ".building"
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: building + suffix) }
    let clock = ContinuousClock()
    let start = clock.now
    do {
      let archive = try Archive(path: building)
      // 2 GB of page cache while building: the gram index is written in name order, not key order.
      try archive.database.execute("PRAGMA cache_size = -2000000")
      try SearchFixture.build(
        in: archive.database, drafts: draftCount, versions: 1...9, blobs: 20_000, now: now, seed: 2025,
        keepModels: false, batch: 20_000
      ) { made in
        if made % 100_000 == 0 { log("built \(made) drafts after \(clock.now - start)") }
      }
      try archive.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
      try archive.database.execute("PRAGMA journal_mode = DELETE")
    }
    try FileManager.default.moveItem(atPath: building, toPath: archivePath)
    return String(format: "%.0f s", milliseconds(clock.now - start) / 1000)
  }

  struct Shape {
    var label: String
    var limit: Int?
    var sort: DraftSort = .newest
    var query: (inout SeededRandom) -> String
  }

  @Test func latencyAtAMillionDrafts() throws {
    let buildTime = try Self.buildArchive()
    let clock = ContinuousClock()

    // Opening and a first query: nothing at start-up may grow with the archive.
    // A kept archive of an older schema is upgraded first (once), as any command would.
    let upgradeStart = clock.now
    _ = try Archive(path: Self.archivePath)  // closed when released, here
    let upgradeTime = Self.milliseconds(clock.now - upgradeStart)
    // Queries on a cold page cache measure the disk, not the plans: read the file once.
    try Self.readThrough(Self.archivePath)

    // Opening and a first query: nothing at start-up may grow with the archive. In a fresh
    // process (`list --limit 50`, the process's own start-up included) and in this one.
    var cliTimes: [Double] = []
    for _ in 0..<5 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: Self.root + "/.build/release/inkling-archive")
      process.arguments = ["--archive", Self.archivePath, "list", "--limit", "50"]
      process.standardOutput = FileHandle.nullDevice
      let began = clock.now
      try process.run()
      process.waitUntilExit()
      cliTimes.append(Self.milliseconds(clock.now - began))
      #expect(process.terminationStatus == 0)
    }
    let openStart = clock.now
    let archive = try Archive(path: Self.archivePath, mode: .readOnly)
    let first = try archive.drafts(limit: 50)
    let openTime = Self.milliseconds(clock.now - openStart)
    #expect(first.count == 50)

    let counts = try archive.database.fetchOne("SELECT (SELECT count(*) FROM draft), (SELECT count(*) FROM version)") {
      ($0.int(0), $0.int(1))
    }!
    let fileSize =
      (try FileManager.default.attributesOfItem(atPath: Self.archivePath)[.size] as? NSNumber)?.intValue ?? 0
    let sample = try archive.database.fetchAll("SELECT name FROM draft WHERE id % 97 = 0") { $0.string(0) }

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
      let instant = Int64.random(in: SearchFixture.start...Self.now, using: &random)
      let parts = Calendar(identifier: .gregorian).dateComponents(
        in: .current, from: Date(timeIntervalSince1970: Double(instant) / 1000))
      switch Int.random(in: 0..<4, using: &random) {
      case 0: return String(format: "%04d", parts.year!)
      case 1: return String(format: "%04d-%02d", parts.year!, parts.month!)
      default: return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
      }
    }

    let shapes = [
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
      Shape(label: "background + versions + imported", limit: 50) { random in
        let colour = ["#1a1a1f", "white", "cream", "black"].randomElement(using: &random)!
        let when = ["today", "yesterday", "7d", "2m", "2025"].randomElement(using: &random)!
        return "background:\(colour) versions:>\(Int.random(in: 1...6, using: &random)) imported:\(when)"
      },
    ]

    let now = Date(timeIntervalSince1970: Double(Self.now) / 1000)
    let loadBefore = Self.loadAverage()
    var rows: [String] = []
    let only = Self.environment["INKLING_BENCH_SHAPES"].map { $0.split(separator: ",").map(String.init) }
    for (index, shape) in shapes.enumerated() where only?.contains(where: shape.label.hasPrefix) ?? true {
      var random = SeededRandom(seed: UInt64(100 + index))
      var latencies: [Double] = []
      var cpu: [Double] = []
      var matches: [Int] = []
      var texts: [String] = []
      for _ in 0..<Self.queriesPerShape {
        let text = shape.query(&random)
        texts.append(text)
        let start = clock.now
        let cpuStart = Self.threadCPUMilliseconds()
        let query = try DraftQuery(search: text, now: now)
        let found = try archive.drafts(matching: query, sort: shape.sort, limit: shape.limit)
        latencies.append(Self.milliseconds(clock.now - start))
        cpu.append(Self.threadCPUMilliseconds() - cpuStart)
        matches.append(found.count)
      }
      let (p50, p99) = Self.percentiles(latencies)
      let (cpu50, cpu99) = Self.percentiles(cpu)
      let medianMatches = matches.sorted()[matches.count / 2]
      let figures = [p50, p99, latencies.max()!, cpu50, cpu99].map { String(format: "%.2f", $0) }
      rows.append(
        "| \(shape.label) | \(shape.limit.map(String.init) ?? "none") | \(figures.joined(separator: " | ")) | \(medianMatches) |"
      )
      Self.log(rows.last!)
      // The slowest queries (by CPU) and the plans they ran, for whoever tunes the plans.
      for slow in cpu.indices.sorted(by: { cpu[$0] > cpu[$1] }).prefix(Self.slowestShown) {
        let query = try DraftQuery(search: texts[slow], now: now)
        let plans = try Self.plans(archive, query, sort: shape.sort, limit: shape.limit)
        Self.log(
          String(format: "    %7.2f ms CPU, %4d found: ", cpu[slow], matches[slow]) + "\(texts[slow])  [\(plans)]")
      }
    }

    let baseline = try Self.findBaseline()
    let size = String(format: "%.2f", Double(fileSize) / 1e9)
    let open = String(format: "%.2f", openTime)
    let cores = ProcessInfo.processInfo.activeProcessorCount
    #if DEBUG
      let build = "debug build"
    #else
      let build = "release build"
    #endif
    var report = "## Search at \(counts.0) drafts / \(counts.1) versions\n\n"
    report += "Archive \(size) GB (tiny drawings; names, dates and indexes at real size), built in \(buildTime). "
    report += "\(Self.queriesPerShape) random queries per shape through `Archive.drafts(matching:sort:limit:)` "
    report += "(parse + plan + SQLite + Swift values), \(build), warm page cache, \(cores) cores shared.\n\n"
    report += "Opening the archive read-only and listing the newest 50: \(open) ms in this process; "
    report += "`inkling-archive list --limit 50` as a new process (start-up included), median of 5: "
    report += "\(String(format: "%.1f", cliTimes.sorted()[2])) ms. "
    report += "Upgrading the kept archive's schema before the run: \(String(format: "%.0f", upgradeTime)) ms.\n\n"
    report += "Load average (1, 5, 15 min) before the queries: \(loadBefore); after: \(Self.loadAverage()).\n\n"
    report += "| shape | limit | p50 ms | p99 ms | max ms | CPU p50 ms | CPU p99 ms | median matches |\n"
    report += "|---|---|--:|--:|--:|--:|--:|--:|\n"
    report += rows.joined(separator: "\n") + "\n\n" + baseline + "\n"
    try FileManager.default.createDirectory(
      atPath: (Self.reportPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try report.write(toFile: Self.reportPath, atomically: true, encoding: .utf8)
    print(report)
  }

  /// How many of each shape's slowest queries are logged (INKLING_BENCH_SLOWEST, default 3).
  static let slowestShown = Int(environment["INKLING_BENCH_SLOWEST"] ?? "") ?? 3

  /// The plans `drafts(matching:sort:limit:)` runs for `query`: a bounded walk's fallback
  /// when it found too few, and the estimate of each driver.
  static func plans(_ archive: Archive, _ query: DraftQuery, sort: DraftSort, limit: Int?) throws -> String {
    let compiler = SearchCompiler(database: archive.database)
    let compiled = try compiler.compile(query.expression, sort: sort, limit: limit)
    var text = "\(compiled.plan)"
    if compiled.plan == .boundedWalk, let limit {
      let found = try archive.database.fetchAll(compiled.sql, compiled.arguments) { _ in 0 }.count
      if found < limit {
        let fallback = try compiler.fallback(after: compiled, query.expression, sort: sort, limit: limit, found: found)
        text += " found \(found), then \(fallback.continues ? "the rest of the walk" : "\(fallback.plan)")"
      }
    }
    if let driver = try compiler.driver(SearchCompiler.mergingPeriods(query.expression)) {
      text += ", driver estimate \(driver.estimate)"
    }
    return text
  }

  /// Reads the whole file (and its write-ahead log), so that it is in the page cache.
  static func readThrough(_ path: String) throws {
    for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
      let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
      defer { try? handle.close() }
      while let chunk = try handle.read(upToCount: 1 << 24), !chunk.isEmpty {}
    }
  }

  /// This thread's CPU time (user + system): what a query cost, whatever else the machine did.
  static func threadCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
  }

  /// The first three fields of /proc/loadavg.
  static func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
    return text.split(separator: " ").prefix(3).joined(separator: " ")
  }

  static func percentiles(_ values: [Double]) -> (Double, Double) {
    let sorted = values.sorted()
    return (sorted[sorted.count / 2], sorted[max(0, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)])
  }

  /// `find DIR -name '*term*'` over a folder of `.inkling` files written by the project's
  /// corpus generator (InklingCorpus, as `inkling-corpus`): real files, one stroke a save
  /// (find reads only names), kept in .build/bench-search/ between runs.
  static func findBaseline() throws -> String {
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
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/find")
      process.arguments = [folder, "-name", "*\(term)*"]
      let pipe = Pipe()
      process.standardOutput = pipe
      let began = clock.now
      try process.run()
      _ = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
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
