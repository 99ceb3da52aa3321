// The columnar form the store compresses: exact inverse, same structure, safe on any input.

import InklingCorpus
import Testing

@testable import InklingFormats

@Suite struct PointColumnsTests {
  @Test(arguments: DrawingSamples.names)
  func deviceSamplesComeBackExactly(name: String) throws {
    let bytes = try DrawingSamples.bytes(name)
    guard let columns = PointColumns.columnar(bytes) else {
      #expect(name == "empty", "\(name) has strokes with points, so it has a columnar form")
      return
    }
    #expect(columns.count == bytes.count)
    #expect(columns != bytes)
    #expect(PointColumns.interleaved(columns) == bytes)
  }

  @Test func randomDrawingsComeBackExactlyAndOnlyPointsMove() throws {
    var generator = RandomDrawings(seed: 0xC01_0005)
    var rearranged = 0
    for _ in 0..<300 {
      let drawing = generator.drawing()
      let bytes = try DrawingWriter.write(drawing)
      guard let columns = PointColumns.columnar(bytes) else { continue }
      rearranged += 1
      #expect(columns.count == bytes.count)
      #expect(PointColumns.interleaved(columns) == bytes)
      // Invariant 1: outside the point arrays nothing changed, so the columnar form reads
      // as the same drawing except for its point values.
      var moved = try Drawing(bytes: columns)
      var original = drawing
      for index in original.strokes.indices { original.strokes[index].path?.points = [] }
      for index in moved.strokes.indices { moved.strokes[index].path?.points = [] }
      #expect(moved == original)
    }
    #expect(rearranged > 200)
  }

  @Test func aSmoothPathBecomesMostlySmallNumbers() throws {
    var generator = RandomDrawings(seed: 5)
    var drawing = generator.drawing()
    while !drawing.strokes.contains(where: { $0.path?.varyingProperties.contains(.location) == true }) {
      drawing = generator.drawing()
    }
    let index = try #require(drawing.strokes.firstIndex { $0.path?.varyingProperties.contains(.location) == true })
    var path = try #require(drawing.strokes[index].path)
    let first = path.points.first ?? PointPropertyCoding.defaultPoint
    path.points = (0..<300).map { step in
      let t = Double(step)
      var point = first
      point.location = Point(x: Double(Float(100 + 2.5 * t)), y: Double(Float(300 - 0.01 * t * t)))
      return point
    }
    drawing.strokes = [Stroke(uuid: .test(2), versionID: drawing.strokes[index].versionID, inkIndex: 0, path: path)]
    drawing.inks = [drawing.inks[drawing.strokes[0].inkIndex]]
    let bytes = try DrawingWriter.write(drawing)
    let columns = try #require(PointColumns.columnar(bytes))
    let zeros = { (data: [UInt8]) in data.filter { $0 == 0 }.count }
    #expect(zeros(columns) > zeros(bytes) + 600, "x and y of a smooth path predict to near zero")
    #expect(PointColumns.interleaved(columns) == bytes)
  }

  /// The columnar form is what the store keeps, so it must not change, even symmetrically
  /// (a round trip would not notice): digests of the form of the device samples, and of
  /// drawings over every mask the writer allows at many lengths, as stored since the form
  /// was introduced. If only the writer's output changed, recompute the second.
  @Test func theColumnarFormIsTheStoredOne() throws {
    let samples: [String: UInt64] = [
      "pen-marker-hidden": 0x366E_FC75_5F0C_2B47, "three-pen-strokes": 0x10AB_59F1_8659_DA67,
      "handwritten-half-notes": 0x8E91_AEE3_D4B7_B02D,
    ]
    for (name, digest) in samples {
      let columns = try #require(PointColumns.columnar(try DrawingSamples.bytes(name)))
      #expect(XXHash64.hash(columns) == digest, "\(name)")
    }
    var columns: [UInt8] = []
    for drawing in Self.drawingsOfEveryMask() {
      let bytes = try DrawingWriter.write(drawing)
      let form = try #require(PointColumns.columnar(bytes))
      #expect(PointColumns.interleaved(form) == bytes)
      columns += form
    }
    #expect(XXHash64.hash(columns) == 0xFBFB_8D4E_9653_CDB9, "every mask")
  }

  /// Every varying mask of the ten bits the writer allows, eight drawings of 128 paths, with
  /// 2 to 40 points (and a few of 300); values from the seeded generator's own arithmetic,
  /// which repeats on every toolchain.
  static func drawingsOfEveryMask() -> [Drawing] {
    var random = SeededRandom(seed: 0xC01_0006)
    var setter = RandomDrawings(seed: 0)
    var drawings: [Drawing] = []
    for first in stride(from: 1, to: 1024, by: 128) {
      var drawing = Drawing(
        replicas: [.zero], inks: [Ink(inkType: .pen, color: RGBA(red: 0, green: 0, blue: 0, alpha: 1), version: 3)],
        uuid: .test(1))
      for mask in UInt64(first)..<UInt64(min(first + 128, 1024)) {
        let count = mask % 97 == 0 ? 300 : 2 + Int(mask % 39)
        let points = (0..<count).map { _ in
          var point = PointPropertyCoding.defaultPoint
          for bitIndex in 0..<10 where mask & (1 << UInt64(bitIndex)) != 0 {
            let bit: UInt64 = 1 << UInt64(bitIndex)
            let raw = Double(random.below(1 << 16))
            switch bit {
            case 0x001:
              point.location = Point(
                x: Double(Float(random.double(-2000, 2000))), y: Double(Float(random.double(-2000, 2000))))
            case 0x002, 0x004, 0x200: setter.set(bit, Double(Float(random.double(-2000, 2000))), &point)
            case 0x008: setter.set(bit, raw / PointPropertyCoding.aspectRatioScale, &point)
            case 0x010: setter.set(bit, raw / PointPropertyCoding.edgeWidthScale, &point)
            case 0x020: setter.set(bit, raw / PointPropertyCoding.forceScale, &point)
            case 0x040: setter.set(bit, raw / PointPropertyCoding.azimuthScale, &point)
            case 0x080: setter.set(bit, raw / PointPropertyCoding.altitudeScale, &point)
            default: setter.set(bit, raw / PointPropertyCoding.opacityScale, &point)
            }
          }
          return point
        }
        drawing.strokes.append(
          Stroke(
            uuid: .test(2, UInt8(truncatingIfNeeded: mask)),
            versionID: StrokeID(clock: mask, replicaIndex: 0, subclock: 0),
            inkIndex: 0,
            path: StrokePath(
              creationDate: 7e8, points: points, varyingProperties: PointProperties(rawValue: mask),
              constantProperties: PointProperties(rawValue: 0))))
      }
      drawings.append(drawing)
    }
    return drawings
  }

  @Test func inputWithoutPointArraysHasNoColumnarForm() throws {
    #expect(PointColumns.columnar([]) == nil)
    #expect(PointColumns.columnar(Array("not a drawing at all".utf8)) == nil)
    #expect(PointColumns.columnar(try DrawingSamples.bytes("empty")) == nil)
    // A length that runs past the end: the walk stops and nothing is rearranged.
    var damaged = try DrawingSamples.bytes("three-pen-strokes")
    damaged.removeLast(damaged.count / 2)
    #expect(PointColumns.columnar(damaged) == nil)
  }

  @Test func arbitraryBytesNeverTrapAndAlwaysComeBack() throws {
    var random = SeededRandom(seed: 42)
    let sample = try DrawingSamples.bytes("handwritten-half-notes")
    var rearranged = 0
    for round in 0..<3000 {
      var bytes = sample
      // Flip a few bytes anywhere, or cut the sample short.
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
      }
      if round % 7 == 0 { bytes.removeLast(Int.random(in: 0..<bytes.count, using: &random)) }
      if let columns = PointColumns.columnar(bytes) {
        rearranged += 1
        #expect(columns.count == bytes.count)
        #expect(PointColumns.interleaved(columns) == bytes)
      }
    }
    #expect(rearranged > 100)
  }
}
