import Foundation
import InklingStore
import Testing

@testable import InklingArchive

/// Query latency at a million drafts and five million versions, and `find` over 100,000
/// `.inkling` files as the baseline. Runs only with INKLING_BENCH=1, in release mode:
///
///     scripts/bench-search        (swift build -c release --build-tests, then this suite)
///
/// Environment: INKLING_BENCH_DRAFTS (default 1000000), INKLING_BENCH_ARCHIVE (kept between
/// runs: building takes minutes; default bench-work/search-DRAFTS.sqlite), INKLING_BENCH_OUT
/// (the Markdown report; default bench-work/search.md), INKLING_BENCH_FILES (100000),
/// INKLING_BENCH_QUERIES (random queries per shape, 400).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["INKLING_BENCH"] == "1"), .serialized)
struct SearchBenchmark {
  static let environment = ProcessInfo.processInfo.environment
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
  static let draftCount = Int(environment["INKLING_BENCH_DRAFTS"] ?? "") ?? 1_000_000
  static let fileCount = Int(environment["INKLING_BENCH_FILES"] ?? "") ?? 100_000
  static let archivePath = environment["INKLING_BENCH_ARCHIVE"] ?? root + "/bench-work/search-\(draftCount).sqlite"
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

  /// Builds the archive unless a complete one is kept; returns how long building took.
  static func buildArchive() throws -> String {
    if FileManager.default.fileExists(atPath: archivePath) {
      let archive = try Archive(path: archivePath, mode: .readOnly)
      let count = try archive.database.fetchOne("SELECT max(id) FROM draft") { $0.int(0) } ?? 0
      if count == draftCount { return "kept from an earlier run" }
      try FileManager.default.removeItem(atPath: archivePath)
    }
    try FileManager.default.createDirectory(
      atPath: (archivePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let clock = ContinuousClock()
    let start = clock.now
    let archive = try Archive(path: archivePath)
    // 2 GB of page cache while building: the gram index is written in name order, not key order.
    try archive.database.execute("PRAGMA cache_size = -2000000")
    try SearchFixture.build(
      in: archive.database, drafts: draftCount, versions: 1...9, blobs: 20_000, now: now, seed: 2025,
      keepModels: false, batch: 20_000
    ) { made in
      if made % 100_000 == 0 { log("built \(made) drafts after \(clock.now - start)") }
    }
    try archive.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return String(format: "%.0f s", milliseconds(clock.now - start) / 1000)
  }

  struct Shape {
    var label: String
    var limit: Int?
    var sort: DraftSort = .newest
    var query: (inout SplitMix) -> String
  }

  @Test func latencyAtAMillionDrafts() throws {
    let buildTime = try Self.buildArchive()
    let clock = ContinuousClock()

    // Opening and a first query: nothing at start-up may grow with the archive.
    let openStart = clock.now
    let archive = try Archive(path: Self.archivePath, mode: .readOnly)
    let first = try archive.drafts(limit: 50)
    let openTime = Self.milliseconds(clock.now - openStart)
    #expect(first.count == 50)

    let counts = try archive.database.fetchOne("SELECT (SELECT count(*) FROM draft), (SELECT count(*) FROM version)") {
      ($0.int(0), $0.int(1))
    }!
    let fileSize = (try FileManager.default.attributesOfItem(atPath: Self.archivePath)[.size] as? NSNumber)?.intValue ?? 0
    let sample = try archive.database.fetchAll("SELECT name FROM draft WHERE id % 97 = 0") { $0.string(0) }

    func piece(_ random: inout SplitMix) -> String {
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
    func date(_ random: inout SplitMix) -> String {
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
        return "(name:\(quoted(a)) or name:\(quoted(b))) and strokes:>\(Int.random(in: 0...300, using: &random)) and ink:\(ink)"
      },
      Shape(label: "background + versions + imported", limit: 50) { random in
        let colour = ["#1a1a1f", "white", "cream", "black"].randomElement(using: &random)!
        let when = ["today", "yesterday", "7d", "2m", "2025"].randomElement(using: &random)!
        return "background:\(colour) versions:>\(Int.random(in: 1...6, using: &random)) imported:\(when)"
      },
    ]

    let now = Date(timeIntervalSince1970: Double(Self.now) / 1000)
    var rows: [String] = []
    for (index, shape) in shapes.enumerated() {
      var random = SplitMix(seed: UInt64(100 + index))
      var latencies: [Double] = []
      var matches: [Int] = []
      for _ in 0..<Self.queriesPerShape {
        let text = shape.query(&random)
        let start = clock.now
        let query = try DraftQuery(search: text, now: now)
        let found = try archive.drafts(matching: query, sort: shape.sort, limit: shape.limit)
        latencies.append(Self.milliseconds(clock.now - start))
        matches.append(found.count)
      }
      let (p50, p99) = Self.percentiles(latencies)
      let medianMatches = matches.sorted()[matches.count / 2]
      rows.append(
        "| \(shape.label) | \(shape.limit.map(String.init) ?? "none") | \(String(format: "%.2f", p50)) | "
          + "\(String(format: "%.2f", p99)) | \(String(format: "%.2f", latencies.max()!)) | \(medianMatches) |")
      Self.log(rows.last!)
    }

    let baseline = try Self.findBaseline(sample: sample)
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
    report += "Opening the archive read-only and listing the newest 50: \(open) ms.\n\n"
    report += "| shape | limit | p50 ms | p99 ms | max ms | median matches |\n|---|---|---|---|---|---|\n"
    report += rows.joined(separator: "\n") + "\n\n" + baseline + "\n"
    try FileManager.default.createDirectory(
      atPath: (Self.reportPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try report.write(toFile: Self.reportPath, atomically: true, encoding: .utf8)
    print(report)
  }

  static func percentiles(_ values: [Double]) -> (Double, Double) {
    let sorted = values.sorted()
    return (sorted[sorted.count / 2], sorted[max(0, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)])
  }

  /// `find DIR -iname '*term*'` over a folder of `.inkling` files named as the app names them.
  static func findBaseline(sample: [String]) throws -> String {
    let folder = try TemporaryFolder("find-baseline")
    var random = SplitMix(seed: 99)
    var unique: Set<String> = []
    let clock = ContinuousClock()
    let start = clock.now
    let content = Data("{\"drawingData\":\"\",\"color\":{\"r\":1,\"g\":1,\"b\":1,\"a\":1}}".utf8)
    let formatter = ISO8601DateFormatter()
    for index in 0..<fileCount {
      let name = SearchFixture.name(&random, unique: &unique)
      let saved = Date(timeIntervalSince1970: Double(SearchFixture.start) / 1000 + Double(index) * 1500)
      let file = folder.path("\(name)-\(formatter.string(from: saved)).inkling".replacingOccurrences(of: "/", with: "-"))
      _ = FileManager.default.createFile(atPath: file, contents: content)
    }
    log("wrote \(fileCount) files in \(clock.now - start)")
    var latencies: [Double] = []
    for _ in 0..<60 {
      let term = SearchFixture.words.randomElement(using: &random)!
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/find")
      process.arguments = [folder.path, "-iname", "*\(term)*"]
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
      Baseline: `find DIR -iname '*word*'` over \(fileCount) `.inkling` files in one folder (warm cache, \
      60 random words, process start included): p50 \(String(format: "%.1f", p50)) ms, p99 \(String(format: "%.1f", p99)) ms. \
      `find` cannot fold accents (`cafe` misses `Café`), knows no dates but the file's, and sees one version per file.
      """
  }
}
