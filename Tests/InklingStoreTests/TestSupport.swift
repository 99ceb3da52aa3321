import Foundation

@testable import InklingStore

/// A fresh temporary folder for one test, removed when the value is released.
final class TemporaryFolder {
  let path: String

  init() throws {
    path = NSTemporaryDirectory() + "inkling-store-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// A path inside the folder.
  func file(_ name: String) -> String { path + "/" + name }
}

/// The error `body` throws, or nil.
func thrownError(_ body: () throws -> Void) -> (any Error)? {
  do {
    try body()
    return nil
  } catch {
    return error
  }
}

/// The StoreError `body` throws, or nil.
func storeError(_ body: () throws -> Void) -> StoreError? {
  thrownError(body) as? StoreError
}

/// Deterministic pseudo-random bytes (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Drawing-like bytes for compression tests: PencilKit's layout (a short header, a version
/// vector, an ink table, strokes of packed float32 points, a tail), with points that wander
/// like a hand does. `version(k)` is the drawing after k more strokes were added, so
/// consecutive versions differ the way an artist's saves do.
struct DrawingCorpus {
  let seed: UInt64
  let pointsPerStroke: Int
  let strokes: Int

  /// About `bytes` of drawing: strokes of ~`pointsPerStroke` points, 12 bytes each.
  init(seed: UInt64, approximateBytes bytes: Int, pointsPerStroke: Int = 120) {
    self.seed = seed
    self.pointsPerStroke = pointsPerStroke
    strokes = max(1, bytes / (pointsPerStroke * 12 + 90))
  }

  /// The drawing with `strokes + extra` strokes.
  func version(_ extra: Int) -> [UInt8] {
    var out: [UInt8] = [0x77, 0x72, 0x64, 0xF0, 1, 0, 8, 0]
    // Version vector: its clock grows with every stroke, near the start of the file.
    out += [0x1A, 0x04, 0x08] + varint(UInt64(strokes + extra)) + [0x10, 0x00]
    out += [0x22, 0x1F, 0x0A, 0x14] + [UInt8](repeating: 0x3F, count: 20) + Array("\u{12}\u{07}ink.pen".utf8).prefix(9)
    var generator = SeededGenerator(seed: seed)
    for i in 0..<(strokes + extra) {
      out += stroke(i, &generator)
    }
    out += [0x3A, 0x04, 0x08] + varint(UInt64(strokes + extra)) + [0x10, 0x00]
    out += [0x42, 0x10] + (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return out
  }

  private func stroke(_ index: Int, _ g: inout SeededGenerator) -> [UInt8] {
    let count = pointsPerStroke / 2 + Int(g.next() % UInt64(pointsPerStroke))
    var points: [UInt8] = []
    points.reserveCapacity(count * 12)
    var x = Float(g.next() % 1000)
    var y = Float(g.next() % 1400)
    var dx = Float(Int(g.next() % 200) - 100) / 40
    var dy = Float(Int(g.next() % 200) - 100) / 40
    var t: Float = 0
    for _ in 0..<count {
      dx += Float(Int(g.next() % 200) - 100) / 400
      dy += Float(Int(g.next() % 200) - 100) / 400
      x += dx
      y += dy
      t += 1 / 240 + Float(g.next() % 100) / 100_000
      for value in [x, y, t] { withUnsafeBytes(of: value.bitPattern.littleEndian) { points += $0 } }
    }
    var data: [UInt8] = [0x0A, 0x10] + (0..<16).map { _ in UInt8.random(in: 0...255, using: &g) }
    data += [0x11] + withUnsafeBytes(of: (7.8e8 + Double(index) * 3.1).bitPattern.littleEndian) { Array($0) }
    data += [0x18] + varint(UInt64(count)) + [0x20, 0x03, 0x28, 0xFC, 0x07]
    data += [0x32, 0x14] + [UInt8](repeating: 0x40, count: 20)
    data += [0x3A] + varint(UInt64(points.count)) + points
    var stroke: [UInt8] = [0x0A, 0x10] + (0..<16).map { _ in UInt8.random(in: 0...255, using: &g) }
    stroke += [0x12, 0x04, 0x08] + varint(UInt64(index)) + [0x10, 0x00]
    stroke += [0x20, 0x00, 0x2A] + varint(UInt64(data.count)) + data
    return [0x2A] + varint(UInt64(stroke.count)) + stroke
  }

  private func varint(_ value: UInt64) -> [UInt8] {
    var value = value
    var out: [UInt8] = []
    while value >= 0x80 {
      out.append(UInt8(value & 0x7F) | 0x80)
      value >>= 7
    }
    return out + [UInt8(value)]
  }
}
