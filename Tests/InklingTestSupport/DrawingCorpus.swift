// Drawing-like bytes for the compression tests and `inkling-bench zstd`: PencilKit's layout
// without its meaning, cheap to make at any size.

import InklingCorpus

/// Drawing-like bytes: PencilKit's layout (a short header, a version vector, an ink table,
/// strokes of packed float32 points, a tail), with points that wander like a hand does.
/// `version(k)` is the drawing after k more strokes were added, so consecutive versions differ
/// the way an artist's saves do.
package struct DrawingCorpus: Sendable {
  package let seed: UInt64
  package let pointsPerStroke: Int
  package let strokes: Int

  /// About `bytes` of drawing: strokes of ~`pointsPerStroke` points, 12 bytes each.
  package init(seed: UInt64, approximateBytes bytes: Int, pointsPerStroke: Int = 120) {
    self.seed = seed
    self.pointsPerStroke = pointsPerStroke
    strokes = max(1, bytes / (pointsPerStroke * 12 + 90))
  }

  /// The drawing with `strokes + extra` strokes.
  package func version(_ extra: Int) -> [UInt8] {
    var out: [UInt8] = [0x77, 0x72, 0x64, 0xF0, 1, 0, 8, 0]
    // Version vector: its clock grows with every stroke, near the start of the file.
    out += [0x1A, 0x04, 0x08] + varint(UInt64(strokes + extra)) + [0x10, 0x00]
    out += [0x22, 0x1F, 0x0A, 0x14] + [UInt8](repeating: 0x3F, count: 20) + Array("\u{12}\u{07}ink.pen".utf8).prefix(9)
    var random = SeededRandom(seed: seed)
    for i in 0..<(strokes + extra) {
      out += stroke(i, &random)
    }
    out += [0x3A, 0x04, 0x08] + varint(UInt64(strokes + extra)) + [0x10, 0x00]
    out += [0x42, 0x10] + random.bytes(16)
    return out
  }

  private func stroke(_ index: Int, _ g: inout SeededRandom) -> [UInt8] {
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
    var data: [UInt8] = [0x0A, 0x10] + g.bytes(16)
    data += [0x11] + withUnsafeBytes(of: (7.8e8 + Double(index) * 3.1).bitPattern.littleEndian) { Array($0) }
    data += [0x18] + varint(UInt64(count)) + [0x20, 0x03, 0x28, 0xFC, 0x07]
    data += [0x32, 0x14] + [UInt8](repeating: 0x40, count: 20)
    data += [0x3A] + varint(UInt64(points.count)) + points
    var stroke: [UInt8] = [0x0A, 0x10] + g.bytes(16)
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
