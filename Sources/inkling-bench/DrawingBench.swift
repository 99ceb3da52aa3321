// The drawing reader, writer and content fingerprint, in MB of drawing bytes per second of
// this thread's CPU time on one core (scripts/bench-drawing pins the process to one CPU), so
// that other processes on a busy machine do not distort the figure. Target: decode ≥ 150 MB/s.

import InklingCorpus
import InklingFormats

enum DrawingBench {
  static let benchmark = EntryPoint.Benchmark(
    name: "drawing", abstract: "Drawing reader, writer and fingerprint: MB/s of drawing bytes on one core.",
    usage: "", run: run)

  static func run(_ arguments: inout BenchArguments) throws -> Int32 {
    arguments.finish()
    let drawings = (0..<64).map { makeDrawing(seed: UInt64($0)) }
    let encoded = try drawings.map { try DrawingWriter.write($0) }
    let totalBytes = encoded.reduce(0) { $0 + $1.count }
    let points = drawings.reduce(0) {
      $0 + $1.strokes.reduce(0) { $0 + ($1.path?.points.count ?? 0) }
    }
    print("corpus: \(drawings.count) drawings, \(totalBytes / 1024) KiB, \(points) points")

    let decode = try measure(bytes: totalBytes) {
      var checksum = 0
      for bytes in encoded { checksum &+= try Drawing(bytes: bytes).strokes.count }
      return checksum
    }
    print("decode:      \(decode) MB/s")
    let gzipped = encoded.map { Gzip.compress($0) }
    let gunzipDecode = try measure(bytes: totalBytes) {
      var checksum = 0
      for bytes in gzipped { checksum &+= try Drawing(bytes: bytes).strokes.count }
      return checksum
    }
    print("gzip+decode: \(gunzipDecode) MB/s (of uncompressed bytes)")
    let gunzip = try measure(bytes: totalBytes) {
      var checksum = 0
      for bytes in gzipped {
        checksum &+= try bytes.withUnsafeBytes { try Gzip.decompress($0, limit: 1 << 28).count }
      }
      return checksum
    }
    print("gunzip only: \(gunzip) MB/s (zlib)")
    let write = try measure(bytes: totalBytes) {
      var checksum = 0
      for drawing in drawings { checksum &+= try DrawingWriter.write(drawing).count }
      return checksum
    }
    print("write:       \(write) MB/s")
    let fingerprint = try measure(bytes: totalBytes) {
      var checksum = 0
      for drawing in drawings {
        checksum &+= Int(truncatingIfNeeded: drawing.contentFingerprint.low)
      }
      return checksum
    }
    print("fingerprint: \(fingerprint) MB/s (of encoded bytes)")
    return 0
  }

  /// Runs `body` repeatedly for about two CPU seconds after a warm-up; returns the best MB/s
  /// of any single round (the least disturbed one).
  static func measure(bytes: Int, _ body: () throws -> Int) throws -> Int {
    var sink = try body()
    var best = Double.infinity
    let start = Clocks.threadCPU()
    while Clocks.threadCPU() - start < 2 {
      let before = Clocks.threadCPU()
      sink &+= try body()
      best = min(best, Clocks.threadCPU() - before)
    }
    if sink == 42 { print("") }  // keeps the work observable
    return Int(Double(bytes) / best / 1e6)
  }

  /// A drawing like a page of handwriting: 150 strokes of 20–400 points, the three common
  /// mask layouts of the device samples.
  static func makeDrawing(seed: UInt64) -> Drawing {
    var random = SeededRandom(seed: seed)
    let layouts: [(UInt64, UInt64)] = [(0x3, 0x3FC), (0x7, 0x3F8), (0x103, 0x2FC)]
    var drawing = Drawing(
      replicas: [.zero, UUIDBytes([UInt8](repeating: 1, count: 16))],
      inks: [Ink(inkType: .pen, color: RGBA(red: 0, green: 0, blue: 0, alpha: 1), version: 3)],
      uuid: UUIDBytes([UInt8](repeating: 2, count: 16)))
    for index in 0..<150 {
      let (varying, constant) = random.pick(layouts)
      var x = Double(random.below(700))
      var y = Double(random.below(900))
      let count = 20 + Int(random.below(380))
      var points: [StrokePoint] = []
      points.reserveCapacity(count)
      for step in 0..<count {
        x += Double(Int(random.below(7)) - 3) * 0.7
        y += Double(Int(random.below(7)) - 3) * 0.7
        points.append(
          StrokePoint(
            location: Point(x: x, y: y), timeOffset: Double(step) / 120,
            width: 2 + Double(random.below(100)) / 50,
            opacity: Double(random.below(32767)) / 32767.5))
      }
      drawing.strokes.append(
        Stroke(
          uuid: UUIDBytes([UInt8](repeating: UInt8(index & 255), count: 16)),
          versionID: StrokeID(clock: UInt64(index), replicaIndex: 1, subclock: 0), inkIndex: 0,
          path: StrokePath(
            creationDate: 7e8, points: points,
            varyingProperties: PointProperties(rawValue: varying),
            constantProperties: PointProperties(rawValue: constant)),
          randomSeed: random.next() >> 8))
    }
    return drawing
  }
}
