// Shared helpers for the drawing-format tests: the real device samples and a generator of
// random drawings the writer accepts.

import Foundation
import InklingCorpus
import InklingTestSupport

@testable import InklingFormats

/// The real PencilKit drawings of the shared folder (read-only fixtures), as bytes and decoded.
enum DrawingSamples {
  static let names = DeviceSamples.drawingNames

  static func bytes(_ name: String) throws -> [UInt8] { try DeviceSamples.drawing(name) }

  static func drawing(_ name: String) throws -> Drawing { try Drawing(bytes: bytes(name)) }
}

extension UUIDBytes {
  /// A UUID whose bytes are all `byte` except the last, which is `index`.
  static func test(_ byte: UInt8, _ index: UInt8 = 0) -> UUIDBytes {
    UUIDBytes([UInt8](repeating: byte, count: 15) + [index])
  }
}

/// Random drawings that satisfy the writer's rules and hold only values the format stores
/// exactly (floats are binary32, uint16 properties are whole steps), so `read(write(d)) == d`.
struct RandomDrawings {
  var random: SeededRandom
  var maxDepth = 3

  init(seed: UInt64) { random = SeededRandom(seed: seed) }

  mutating func float(_ scale: Double = 1) -> Double {
    Double(Float(Double.random(in: -2000...2000, using: &random) * scale))
  }
  mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }
  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
  mutating func uuid() -> UUIDBytes {
    UUIDBytes((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
  }
  mutating func strokeID(replicas: Int) -> StrokeID {
    StrokeID(
      clock: UInt64(int(0...1000)), replicaIndex: UInt64(int(0...max(0, replicas - 1))),
      subclock: UInt64(int(0...50)))
  }

  mutating func drawing() -> Drawing {
    var replicas: [UUIDBytes] = [.zero]
    for _ in 0..<int(0...3) { replicas.append(uuid()) }
    let inkTypes: [Ink.InkType] = [
      .pen, .pencil, .marker, .monoline, .fountainPen, .watercolor, .crayon, .eraser,
      .other("com.example.ink.brush"),
    ]
    var inks: [Ink] = []
    for _ in 0..<int(1...4) {
      inks.append(
        Ink(
          inkType: inkTypes[int(0...inkTypes.count - 1)],
          color: RGBA(red: float(0.001), green: float(0.001), blue: float(0.001), alpha: 1),
          version: chance(0.8) ? UInt64(int(3...4)) : nil, variant: chance(0.3) ? "linear" : nil,
          requiredContentVersion: chance(0.3) ? UInt64(int(0...9)) : nil,
          weight: chance(0.3) ? Double.random(in: -1...1, using: &random) : nil))
    }
    var drawing = Drawing(
      replicas: replicas,
      versionVector: (0..<replicas.count).map { _ in strokeID(replicas: replicas.count) },
      inks: inks, canvasBounds: chance(0.5) ? rect() : nil,
      boundsVersion: chance(0.5) ? strokeID(replicas: replicas.count) : nil, uuid: uuid())
    for _ in 0..<int(0...6) { drawing.strokes.append(stroke(depth: 0, drawing: drawing)) }
    return drawing
  }

  mutating func rect() -> Rect {
    Rect(x: float(), y: float(), width: abs(float()), height: abs(float()))
  }

  mutating func stroke(depth: Int, drawing: Drawing) -> Stroke {
    let hidden = chance(0.2)
    var stroke = Stroke(
      uuid: chance(0.9) ? uuid() : nil,
      sortID: chance(0.9) ? strokeID(replicas: drawing.replicas.count) : nil,
      versionID: strokeID(replicas: drawing.replicas.count),
      inkIndex: int(0...drawing.inks.count - 1),
      path: (depth == 0 && !hidden) || chance(0.2) ? path() : nil,
      storedBounds: chance(0.7) ? rect() : nil,
      transform: chance(0.3)
        ? AffineTransform(
          a: float(0.001), b: float(0.001), c: float(0.001), d: float(0.001), tx: float(),
          ty: float())
        : .identity,
      isHidden: hidden, randomSeed: UInt64.random(in: 0..<(1 << 59), using: &random),
      substrokesVersion: chance(0.3) ? strokeID(replicas: drawing.replicas.count) : nil,
      renderGroupID: chance(0.2) ? uuid() : nil)
    for _ in 0..<(chance(0.3) ? int(1...2) : 0) {
      stroke.maskPolygons.append((0..<int(0...6)).map { _ in Point(x: float(), y: float()) })
    }
    if chance(0.3) { stroke.slices = (0..<(2 * int(0...3))).map { _ in Float(float() / 100) } }
    if depth < maxDepth && chance(0.3) {
      for _ in 0..<int(1...3) {
        stroke.substrokes.append(self.stroke(depth: depth + 1, drawing: drawing))
      }
    }
    return stroke
  }

  /// A value of the property with bit `bit` that survives encoding exactly.
  mutating func value(bit: UInt64) -> Double {
    let raw = Double(UInt16.random(in: 0...UInt16.max, using: &random))
    switch bit {
    case 0x002, 0x004, 0x200: return float()
    case 0x008: return raw / PointPropertyCoding.aspectRatioScale
    case 0x010: return raw / PointPropertyCoding.edgeWidthScale
    case 0x020: return raw / PointPropertyCoding.forceScale
    case 0x040: return raw / PointPropertyCoding.azimuthScale
    case 0x080: return raw / PointPropertyCoding.altitudeScale
    case 0x100: return raw / PointPropertyCoding.opacityScale
    default: return raw / PointPropertyCoding.thresholdScale
    }
  }

  mutating func set(_ bit: UInt64, _ value: Double, _ point: inout StrokePoint) {
    switch bit {
    case 0x002: point.timeOffset = value
    case 0x004: point.width = value
    case 0x008: point.aspectRatio = value
    case 0x010: point.edgeWidth = value
    case 0x020: point.force = value
    case 0x040: point.azimuth = value
    case 0x080: point.altitude = value
    case 0x100: point.opacity = value
    case 0x200: point.secondaryRadius = value
    default: point.threshold = value
    }
  }

  /// A path whose masks use every bit but 0x400 over many runs; `threshold` adds 0x400 too.
  mutating func path(threshold: Bool = false) -> StrokePath {
    var varying: UInt64 = 0
    var constant: UInt64 = 0
    for bitIndex in 0..<(threshold ? 11 : 10) {
      let bit: UInt64 = 1 << UInt64(bitIndex)
      switch int(0...2) {
      case 0: varying |= bit
      case 1: constant |= bit
      default: break
      }
    }
    var base = StrokePoint(location: Point(x: 0, y: 0))
    for bitIndex in 0..<11 where constant & (1 << UInt64(bitIndex)) != 0 {
      let bit: UInt64 = 1 << UInt64(bitIndex)
      if bit == 1 {
        base.location = Point(x: float(), y: float())
      } else {
        set(bit, value(bit: bit), &base)
      }
    }
    var points: [StrokePoint] = []
    for _ in 0..<int(0...30) {
      var point = base
      for bitIndex in 0..<11 where varying & (1 << UInt64(bitIndex)) != 0 {
        let bit: UInt64 = 1 << UInt64(bitIndex)
        if bit == 1 {
          point.location = Point(x: float(), y: float())
        } else {
          set(bit, value(bit: bit), &point)
        }
      }
      points.append(point)
    }
    return StrokePath(
      uuid: chance(0.9) ? uuid() : nil, creationDate: Double.random(in: 0...1e9, using: &random),
      points: points,
      varyingProperties: PointProperties(rawValue: varying),
      constantProperties: PointProperties(rawValue: constant),
      createdWithFinger: chance(0.5))
  }
}

/// The first place two values differ, as a path like "strokes[2].path.points[5].force: 1.0 ≠ 0.999",
/// or nil when they are equal: readable failures instead of two pages of dump.
func firstDifference(_ a: Any, _ b: Any, path: String = "") -> String? {
  let ma = Mirror(reflecting: a)
  let mb = Mirror(reflecting: b)
  if ma.children.isEmpty || mb.children.isEmpty || ma.displayStyle == .enum {
    let ta = String(reflecting: a)
    let tb = String(reflecting: b)
    return ta == tb ? nil : "\(path): \(ta) ≠ \(tb)"
  }
  let ca = Array(ma.children)
  let cb = Array(mb.children)
  if ca.count != cb.count { return "\(path): \(ca.count) children ≠ \(cb.count)" }
  for (index, (x, y)) in zip(ca, cb).enumerated() {
    let label = x.label.map { path.isEmpty ? $0 : "\(path).\($0)" } ?? "\(path)[\(index)]"
    if let difference = firstDifference(x.value, y.value, path: label) { return difference }
  }
  return nil
}
