import Foundation
import Testing

@testable import InklingArchive
@testable import InklingStore

/// The thumbnail numbers of `scripts/bench-thumbnails`, measured in process on an archive
/// the script imported. Runs only when INKLING_BENCH_THUMBNAILS names that archive:
///
///     INKLING_BENCH_THUMBNAILS=bench-work/thumbnails/archive.sqlite \
///       INKLING_BENCH_EXPORTS=DIR INKLING_BENCH_RESULTS=FILE \
///       swift test -c release --skip-build --filter ThumbnailBenchmark
///
/// Writes `name value` lines to INKLING_BENCH_RESULTS, and the share image (scale 2) of the
/// newest version of the first INKLING_BENCH_EXPORT_COUNT drafts (200) into
/// INKLING_BENCH_EXPORTS for the ImageMagick baseline.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["INKLING_BENCH_THUMBNAILS"] != nil), .serialized)
struct ThumbnailBenchmarkTests {
  static let environment = ProcessInfo.processInfo.environment

  static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// CPU seconds (user + system) of this process so far: on a shared machine, the cost of
  /// the work itself, whatever else runs.
  static func cpu() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  static func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(p * Double(sorted.count)))]
  }

  @Test func coldCachedAndExports() throws {
    let path = try #require(Self.environment["INKLING_BENCH_THUMBNAILS"])
    let archive = try Archive(path: path)
    var lines: [String] = []
    func record(_ name: String, _ value: Double) { lines.append("\(name) \(value)") }
    let names = try archive.drafts().map(\.name)
    record("drafts", Double(names.count))

    // Cold: an empty cache, every draft's newest version at 256 px, on 1 and 2 threads.
    for workers in [1, 2] {
      try archive.database.execute("DELETE FROM thumbnail")
      let cpu = Self.cpu()
      let summary = try archive.warmThumbnails(drafts: nil, size: 256, workers: workers)
      record("cold\(workers)_cpu_seconds", Self.cpu() - cpu)
      record("cold\(workers)_rendered", Double(summary.rendered))
      record("cold\(workers)_shared", Double(summary.alreadyCached))
      record("cold\(workers)_seconds", summary.seconds)
    }
    let (count, bytes) = try ThumbnailCache.size(in: archive)
    record("cache_rows", Double(count))
    record("cache_bytes", Double(bytes))

    // Cached reads: `thumbnail(draft:)` for every draft, all hits (three rounds), and the
    // cache's own SELECT alone.
    var reads: [Double] = []
    var selects: [Double] = []
    let cache = ThumbnailCache()
    for _ in 0..<3 {
      for name in names {
        let start = Self.now()
        let result = try archive.thumbnail(draft: name, version: .latest, size: 256, cache: cache)
        reads.append(Self.now() - start)
        #expect(result.cached)
      }
    }
    let keys = try archive.database.fetchAll("SELECT key FROM thumbnail") { $0.bytes(0) }
    for _ in 0..<3 {
      for key in keys {
        let start = Self.now()
        _ = try archive.cachedThumbnail(key)
        selects.append(Self.now() - start)
      }
    }
    record("read_p50_ms", Self.percentile(reads, 0.5) * 1000)
    record("read_p99_ms", Self.percentile(reads, 0.99) * 1000)
    record("select_p50_ms", Self.percentile(selects, 0.5) * 1000)
    record("select_p99_ms", Self.percentile(selects, 0.99) * 1000)

    if let exports = Self.environment["INKLING_BENCH_EXPORTS"] {
      try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: true)
      let start = Self.now()
      var pixels = 0
      let count = Int(Self.environment["INKLING_BENCH_EXPORT_COUNT"] ?? "") ?? 200
      for (index, name) in names.prefix(count).enumerated() {
        guard let png = try? archive.render(draft: name, scale: 2) else { continue }
        let size = (png[16..<20].reduce(0) { $0 << 8 | Int($1) }, png[20..<24].reduce(0) { $0 << 8 | Int($1) })
        pixels += size.0 * size.1
        try Data(png).write(to: URL(fileURLWithPath: exports + "/\(String(format: "%05d", index)).png"))
      }
      record("export_seconds", Self.now() - start)
      record("export_megapixels", Double(pixels) / 1e6)
    }
    let text = lines.joined(separator: "\n") + "\n"
    if let results = Self.environment["INKLING_BENCH_RESULTS"] {
      try Data(text.utf8).write(to: URL(fileURLWithPath: results))
    }
    print(text)
  }
}
