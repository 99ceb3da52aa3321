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
