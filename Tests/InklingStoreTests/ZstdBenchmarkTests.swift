import Foundation
import Testing
@testable import InklingStore

/// Measures zstd levels on drawing-like bytes. Runs only with INKLING_BENCH=1:
///
///     INKLING_BENCH=1 swift test --skip-build --filter ZstdBenchmark
///
/// With INKLING_BENCH_DUMP=DIR it also writes the corpus there, for baselines (zlib -6).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["INKLING_BENCH"] == "1"))
struct ZstdBenchmarkTests {
  /// Drawings of three sizes, each saved 8 times with 1–3 strokes more every time.
  static let drawings: [[[UInt8]]] = [(20_000, 11), (200_000, 12), (2_000_000, 13)].flatMap { size, seed in
    (0..<4).map { n in
      let corpus = DrawingCorpus(seed: UInt64(seed * 10 + n), approximateBytes: size)
      var extra = 0
      return (0..<8).map { k in
        extra += k == 0 ? 0 : 1 + k % 3
        return corpus.version(extra)
      }
    }
  }

  static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    var best = Double.infinity
    for _ in 0..<3 {
      let start = clock.now
      try body()
      let elapsed = clock.now - start
      best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    return best
  }

  @Test func levels() throws {
    let all = Self.drawings.flatMap { $0 }
    let rawBytes = all.reduce(0) { $0 + $1.count }
    let deltaInput = Self.drawings.flatMap { $0.dropFirst() }.reduce(0) { $0 + $1.count }
    if let dump = ProcessInfo.processInfo.environment["INKLING_BENCH_DUMP"] {
      try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true)
      for (i, bytes) in all.enumerated() { try Data(bytes).write(to: URL(fileURLWithPath: "\(dump)/\(i).bin")) }
    }
    print("corpus: \(all.count) drawings, \(rawBytes) bytes; deltas over \(deltaInput) bytes")
    print("level | full MB/s | full ratio | delta MB/s | delta bytes (% of raw) | delta no-LDM bytes | decode MB/s")
    let decompressor = ZstdDecompressor()
    for level: Int32 in [1, 3, 6, 9, 12, 19] {
      let compressor = ZstdCompressor(level: level)
      var fullBytes = 0
      let fullTime = try Self.seconds {
        fullBytes = 0
        for bytes in all { fullBytes += try bytes.withUnsafeBytes { try compressor.compress($0, prefix: nil) }.count }
      }
      var deltas: [([UInt8], [UInt8], [UInt8])] = []  // (frame, base, content)
      var deltaBytes = 0
      let deltaTime = try Self.seconds {
        deltas = []
        deltaBytes = 0
        for versions in Self.drawings {
          for (base, next) in zip(versions, versions.dropFirst()) {
            let frame = try next.withUnsafeBytes { n in try base.withUnsafeBytes { try compressor.compress(n, prefix: $0) } }
            deltaBytes += frame.count
            deltas.append((frame, base, next))
          }
        }
      }
      compressor.longDistanceMatching = false
      var plainDeltaBytes = 0
      for versions in Self.drawings {
        for (base, next) in zip(versions, versions.dropFirst()) {
          plainDeltaBytes += try next.withUnsafeBytes { n in try base.withUnsafeBytes { try compressor.compress(n, prefix: $0) } }.count
        }
      }
      let decodeTime = try Self.seconds {
        for (frame, base, next) in deltas {
          let out = try frame.withUnsafeBytes { f in
            try base.withUnsafeBytes { try decompressor.decompress(f, expectedSize: next.count, prefix: $0) }
          }
          precondition(out.count == next.count)
        }
      }
      let mb = 1_000_000.0
      print(
        String(
          format: "%5d | %9.0f | %10.3f | %10.0f | %10d (%.2f%%) | %10d | %7.0f", level, Double(rawBytes) / mb / fullTime,
          Double(rawBytes) / Double(fullBytes), Double(deltaInput) / mb / deltaTime, deltaBytes,
          100 * Double(deltaBytes) / Double(deltaInput), plainDeltaBytes, Double(deltaInput) / mb / decodeTime))
    }
  }
}
