// The in-process thumbnail figures of scripts/bench-thumbnails, on an archive the script
// imported: cold passes from an empty cache on 1 and 2 threads, cached reads, the cache's
// SELECT alone, and the share images (scale 2) that the ImageMagick baseline shrinks.
//
// Writes `name value` lines (to --results, and to standard output), which the report script
// reads (scripts/bench-report.py thumbnails).

import Foundation
import InklingArchive
import InklingStore

enum ThumbnailBench {
  static let benchmark = EntryPoint.Benchmark(
    name: "thumbnails", abstract: "Cold and cached thumbnails of an archive, and share images for a baseline.",
    usage: "--archive FILE [--results FILE] [--exports DIR [--export-count N]]", run: run)

  static func run(_ arguments: inout BenchArguments) throws -> Int32 {
    let path = arguments.required("--archive")
    let results = arguments.string("--results")
    let exports = arguments.string("--exports")
    let exportCount = arguments.int("--export-count", default: 200)
    arguments.finish()

    let archive = try Archive(path: path)
    // A second connection for what the library does not offer: emptying the cache, and its
    // SELECT on its own.
    let database = try ArchiveDatabase.open(path: path, mode: .readWrite)
    defer { database.close() }
    var lines: [String] = []
    func record(_ name: String, _ value: Double) { lines.append("\(name) \(value)") }
    let names = try archive.drafts().map(\.name)
    record("drafts", Double(names.count))

    // Cold: an empty cache, every draft's newest version at 256 px, on 1 and 2 threads.
    for workers in [1, 2] {
      try database.execute("DELETE FROM thumbnail")
      let cpu = Clocks.processCPU()
      let start = Clocks.now()
      // A warm-up pass, as an app would run one after an import: look each draft's newest
      // version up, keep those not cached (each tag once), render them on `workers` threads.
      var tags = Set<String>()
      var missing: [Thumbnail] = []
      for name in names {
        let thumbnail = try archive.lookUpThumbnail(of: .draft(name, .latest), size: 256)
        if tags.insert(thumbnail.tag).inserted, try archive.readThumbnail(thumbnail) == nil {
          missing.append(thumbnail)
        }
      }
      try archive.renderThumbnails(missing, workers: workers)
      record("cold\(workers)_seconds", Clocks.now() - start)
      record("cold\(workers)_cpu_seconds", Clocks.processCPU() - cpu)
      record("cold\(workers)_rendered", Double(missing.count))
      record("cold\(workers)_shared", Double(names.count - missing.count))
    }
    let (count, bytes) = try ThumbnailCache.size(in: archive)
    record("cache_rows", Double(count))
    record("cache_bytes", Double(bytes))

    // Cached reads: a draft's newest version looked up and read, for every draft, all hits
    // (three rounds), and the cache's own SELECT alone.
    var reads: [Double] = []
    var selects: [Double] = []
    for _ in 0..<3 {
      for name in names {
        let start = Clocks.now()
        _ = try archive.readThumbnail(try archive.lookUpThumbnail(of: .draft(name, .latest), size: 256))
        reads.append(Clocks.now() - start)
      }
    }
    guard try ThumbnailCache.size(in: archive).count == count else {
      BenchArguments.fail("a cached read rendered a thumbnail: the pass left the cache incomplete")
    }
    let keys = try database.fetchAll("SELECT key FROM thumbnail") { $0.bytes(0) }
    for _ in 0..<3 {
      for key in keys {
        let start = Clocks.now()
        _ = try ThumbnailRecords.png(key: key, in: database)
        selects.append(Clocks.now() - start)
      }
    }
    record("read_p50_ms", reads.quantile(0.5) * 1000)
    record("read_p99_ms", reads.quantile(0.99) * 1000)
    record("select_p50_ms", selects.quantile(0.5) * 1000)
    record("select_p99_ms", selects.quantile(0.99) * 1000)

    if let exports {
      try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: true)
      let start = Clocks.now()
      var pixels = 0
      for (index, name) in names.prefix(exportCount).enumerated() {
        guard let png = try? archive.render(draft: name, scale: 2) else { continue }
        let size = (png[16..<20].reduce(0) { $0 << 8 | Int($1) }, png[20..<24].reduce(0) { $0 << 8 | Int($1) })
        pixels += size.0 * size.1
        try Data(png).write(to: URL(fileURLWithPath: exports + "/\(String(format: "%05d", index)).png"))
      }
      record("export_seconds", Clocks.now() - start)
      record("export_megapixels", Double(pixels) / 1e6)
    }
    let text = lines.joined(separator: "\n") + "\n"
    if let results { try Data(text.utf8).write(to: URL(fileURLWithPath: results)) }
    print(text, terminator: "")
    return 0
  }
}
