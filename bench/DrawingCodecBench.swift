// Release-mode micro benchmark of the drawing reader, writer and fingerprint, on one core.
// Built and run by scripts/bench-drawing (compiled into the InklingFormats module, -O -wmo,
// like a SwiftPM release build). Prints MB/s of drawing bytes per second of *thread CPU time*,
// so that other processes on a busy machine do not distort the number.

#if canImport(Glibc)
  import Glibc
#endif

@main
struct DrawingCodecBench {
  static func main() throws {
    let drawings = (0..<64).map { makeDrawing(seed: UInt64($0)) }
    let encoded = try drawings.map { try DrawingWriter.write($0) }
    let totalBytes = encoded.reduce(0) { $0 + $1.count }
    let points = drawings.reduce(0) {
      $0 + $1.strokes.reduce(0) { $0 + ($1.path?.points.count ?? 0) }
    }
    print("corpus: \(drawings.count) drawings, \(totalBytes / 1024) KiB, \(points) points")

    let decode = measure(bytes: totalBytes) {
      var checksum = 0
      for bytes in encoded { checksum &+= try! DrawingReader.read(bytes).drawing!.strokes.count }
      return checksum
    }
    print("decode:      \(decode) MB/s")
    let gzipped = encoded.map { Gzip.compress($0) }
    let gunzipDecode = measure(bytes: totalBytes) {
      var checksum = 0
      for bytes in gzipped { checksum &+= try! DrawingReader.read(bytes).drawing!.strokes.count }
      return checksum
    }
    print("gzip+decode: \(gunzipDecode) MB/s (of uncompressed bytes)")
    let gunzip = measure(bytes: totalBytes) {
      var checksum = 0
      for bytes in gzipped {
        checksum &+= bytes.withUnsafeBytes { try! Gzip.decompress($0, limit: 1 << 28).count }
      }
      return checksum
    }
    print("gunzip only: \(gunzip) MB/s (zlib)")
    let write = measure(bytes: totalBytes) {
      var checksum = 0
      for drawing in drawings { checksum &+= try! DrawingWriter.write(drawing).count }
      return checksum
    }
    print("write:       \(write) MB/s")
    let fingerprint = measure(bytes: totalBytes) {
      var checksum = 0
      for drawing in drawings {
        checksum &+= Int(truncatingIfNeeded: drawing.contentFingerprint.low)
      }
      return checksum
    }
    print("fingerprint: \(fingerprint) MB/s (of encoded bytes)")
  }

  /// This thread's CPU time in seconds.
  static func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }

  /// Runs `body` repeatedly for about two CPU seconds after a warm-up; returns the best MB/s
  /// of any single round (the least disturbed one).
  static func measure(bytes: Int, _ body: () -> Int) -> Int {
    var sink = body()
    var best = Double.infinity
    let start = cpuSeconds()
    while cpuSeconds() - start < 2 {
      let before = cpuSeconds()
      sink &+= body()
      best = min(best, cpuSeconds() - before)
    }
    if sink == 42 { print("") }  // keep the work observable
    return Int(Double(bytes) / best / 1e6)
  }

  /// A drawing like a page of handwriting: 150 strokes of 20–400 points, the three common
  /// mask layouts of the device samples.
  static func makeDrawing(seed: UInt64) -> Drawing {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    func next() -> UInt64 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return state
    }
    let layouts: [(UInt64, UInt64)] = [(0x3, 0x3FC), (0x7, 0x3F8), (0x103, 0x2FC)]
    var drawing = Drawing(
      replicas: [.zero, UUIDBytes([UInt8](repeating: 1, count: 16))],
      inks: [Ink(inkType: .pen, color: RGBA(red: 0, green: 0, blue: 0, alpha: 1), version: 3)],
      uuid: UUIDBytes([UInt8](repeating: 2, count: 16)))
    for index in 0..<150 {
      let (varying, constant) = layouts[Int(next() % 3)]
      var x = Double(next() % 700)
      var y = Double(next() % 900)
      let count = 20 + Int(next() % 380)
      var points: [StrokePoint] = []
      points.reserveCapacity(count)
      for step in 0..<count {
        x += Double(Int(next() % 7) - 3) * 0.7
        y += Double(Int(next() % 7) - 3) * 0.7
        points.append(
          StrokePoint(
            location: Point(x: x, y: y), timeOffset: Double(step) / 120,
            width: 2 + Double(next() % 100) / 50,
            opacity: Double(next() % 32767) / 32767.5))
      }
      drawing.strokes.append(
        Stroke(
          uuid: UUIDBytes([UInt8](repeating: UInt8(index & 255), count: 16)),
          versionID: StrokeID(clock: UInt64(index), replicaIndex: 1, subclock: 0), inkIndex: 0,
          path: StrokePath(
            creationDate: 7e8, points: points,
            varyingProperties: PointProperties(rawValue: varying),
            constantProperties: PointProperties(rawValue: constant)),
          randomSeed: next() >> 8))
    }
    return drawing
  }
}
