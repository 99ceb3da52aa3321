// zstd on drawing-like bytes (InklingTestSupport's DrawingCorpus): each level's speed and
// ratio for whole drawings and for deltas against the previous save (with and without
// long-distance matching), and the whole blob path per core (encode and verify, insert, read)
// at the levels import could use. What README "Storage" chose its levels from.

import Foundation
import InklingStore
import InklingTestSupport

enum ZstdBench {
  static let benchmark = EntryPoint.Benchmark(
    name: "zstd", abstract: "zstd levels, deltas and the blob path on drawing-like bytes (CPU time, one thread).",
    usage: "[--dump DIR]", run: run)

  static func run(_ arguments: inout BenchArguments) throws -> Int32 {
    let dump = arguments.string("--dump")
    arguments.finish()
    try levels(dump: dump)
    for level: Int32 in [1, 3, 6] { try encoderAndStore(level: level) }
    return 0
  }

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

  /// CPU seconds of this thread spent in `body`.
  static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = Clocks.threadCPU()
    try body()
    return Clocks.threadCPU() - start
  }

  /// Every level on whole drawings and on deltas; with `dump`, the corpus is written there
  /// too, for baselines such as zlib -6.
  static func levels(dump: String?) throws {
    let all = drawings.flatMap { $0 }
    let rawBytes = all.reduce(0) { $0 + $1.count }
    let deltaInput = drawings.flatMap { $0.dropFirst() }.reduce(0) { $0 + $1.count }
    if let dump {
      try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true)
      for (i, bytes) in all.enumerated() { try Data(bytes).write(to: URL(fileURLWithPath: "\(dump)/\(i).bin")) }
    }
    print("corpus: \(all.count) drawings, \(rawBytes) bytes; deltas over \(deltaInput) bytes")
    print("level | full MB/s | full ratio | delta MB/s | delta bytes (% of raw) | delta no-LDM bytes | decode MB/s")
    let decompressor = ZstdDecompressor()
    for level: Int32 in [1, 3, 6, 9, 12, 19] {
      let compressor = ZstdCompressor(level: level)
      compressor.longDistanceMatchingAbove = 0  // the deltas below compare with it off
      var fullBytes = 0
      let fullTime = try seconds {
        fullBytes = 0
        for bytes in all { fullBytes += try bytes.withUnsafeBytes { try compressor.compress($0, prefix: nil) }.count }
      }
      var deltas: [([UInt8], [UInt8], [UInt8])] = []  // (frame, base, content)
      var deltaBytes = 0
      let deltaTime = try seconds {
        deltas = []
        deltaBytes = 0
        for versions in drawings {
          for (base, next) in zip(versions, versions.dropFirst()) {
            let frame = try next.withUnsafeBytes { n in
              try base.withUnsafeBytes { try compressor.compress(n, prefix: $0) }
            }
            deltaBytes += frame.count
            deltas.append((frame, base, next))
          }
        }
      }
      compressor.longDistanceMatchingAbove = .max
      var plainDeltaBytes = 0
      for versions in drawings {
        for (base, next) in zip(versions, versions.dropFirst()) {
          plainDeltaBytes += try next.withUnsafeBytes { n in
            try base.withUnsafeBytes { try compressor.compress(n, prefix: $0) }
          }.count
        }
      }
      let decodeTime = try seconds {
        for (frame, base, next) in deltas {
          let out = try frame.withUnsafeBytes { f in
            try base.withUnsafeBytes { try decompressor.decompress(f, expectedSize: next.count, prefix: $0) }
          }
          guard out.count == next.count else { BenchArguments.fail("a delta decoded to the wrong size") }
        }
      }
      let mb = 1_000_000.0
      print(
        String(
          format: "%5d | %9.0f | %10.3f | %10.0f | %10d (%.2f%%) | %10d | %7.0f", level,
          Double(rawBytes) / mb / fullTime,
          Double(rawBytes) / Double(fullBytes), Double(deltaInput) / mb / deltaTime, deltaBytes,
          100 * Double(deltaBytes) / Double(deltaInput), plainDeltaBytes, Double(deltaInput) / mb / decodeTime))
    }
  }

  /// The whole blob path per core: encode (delta against the previous version, verify),
  /// then insert into an archive in one transaction, then read every blob back.
  static func encoderAndStore(level: Int32) throws {
    let folder = try TemporaryFolder("bench-zstd")
    let db = try ArchiveDatabase.open(path: folder.path("bench.sqlite"), mode: .readWrite)
    defer { db.close() }
    let store = BlobStore(db)
    let encoder = BlobEncoder(level: level)
    let rawBytes = drawings.joined().reduce(0) { $0 + $1.count }
    let hashes = drawings.map { $0.map { SHA256.hash($0) } }
    var encoded: [EncodedBlob] = []
    let encodeTime = try seconds {
      for (versions, shas) in zip(drawings, hashes) {
        var base: BlobBase?
        for (bytes, sha) in zip(versions, shas) {
          let blob = try encoder.encode(bytes, sha256: sha, base: base)
          encoded.append(blob)
          base = BlobBase(sha256: sha, bytes: bytes, depth: blob.depth)
        }
      }
    }
    let insertTime = try seconds {
      try db.transaction {
        for blob in encoded { _ = try store.insert(blob) }
      }
    }
    let readTime = try seconds {
      let reader = BlobStore(db)
      for id in 1...Int64(encoded.count) { _ = try reader.bytes(ofBlob: id) }
    }
    let stored = try store.sizes()
    func rate(_ seconds: Double) -> Double { Double(rawBytes) / 1e6 / seconds }
    print(
      String(
        format: "level %d: encode %.0f MB/s, insert %.0f MB/s, read %.0f MB/s; stored %d of %d bytes (%.2f%%)", level,
        rate(encodeTime), rate(insertTime), rate(readTime), stored.full + stored.delta + stored.raw, rawBytes,
        100 * Double(stored.full + stored.delta + stored.raw) / Double(rawBytes)))
  }
}
