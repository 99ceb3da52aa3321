// The streams form the store compresses since migration 0017: exact inverse, stable, safe on
// any input, and kind to deltas (a save that appends strokes appends to every stream).

import InklingCorpus
import Testing

@testable import InklingFormats

@Suite struct PointStreamsTests {
  @Test(arguments: DrawingSamples.names)
  func deviceSamplesComeBackExactly(name: String) throws {
    let bytes = try DrawingSamples.bytes(name)
    guard let form = PointStreams.form(bytes) else {
      #expect(name == "empty", "\(name) has strokes with points, so it has a streams form")
      return
    }
    #expect(PointStreams.formSizes(ofDrawing: bytes.count).contains(form.bytes.count))
    #expect(form.boundaries == form.boundaries.sorted() && form.boundaries.allSatisfy { $0 < form.bytes.count })
    #expect(PointStreams.drawing(form.bytes, size: bytes.count) == bytes)
    #expect(PointStreams.drawing(form.bytes, size: bytes.count + 1) == nil)
  }

  @Test func randomDrawingsComeBackExactly() throws {
    var generator = RandomDrawings(seed: 0x5_7E4A)
    var gathered = 0
    for _ in 0..<300 {
      let bytes = try DrawingWriter.write(generator.drawing())
      guard let form = PointStreams.form(bytes) else { continue }
      gathered += 1
      #expect(PointStreams.drawing(form.bytes, size: bytes.count) == bytes)
      // The structure comes first, as written, without the point arrays.
      #expect(form.bytes.prefix(8) == bytes.prefix(8))
    }
    #expect(gathered > 200)
  }

  @Test func everyMaskComesBackExactly() throws {
    for drawing in PointColumnsTests.drawingsOfEveryMask() {
      let bytes = try DrawingWriter.write(drawing)
      let form = try #require(PointStreams.form(bytes))
      #expect(PointStreams.drawing(form.bytes, size: bytes.count) == bytes)
    }
  }

  /// The form is what the store keeps, so it must not change, even symmetrically (a round
  /// trip would not notice): digests of the form of the device samples and of drawings over
  /// every mask the writer allows. If only the writer's output changed, recompute the second.
  @Test func theStreamsFormIsTheStoredOne() throws {
    let samples: [String: UInt64] = [
      "pen-marker-hidden": 0x4882_CECF_6893_C7BE, "three-pen-strokes": 0x0515_8728_C3E7_09D4,
      "handwritten-half-notes": 0xD52C_4D38_3BE8_E42D,
    ]
    for (name, digest) in samples {
      let form = try #require(PointStreams.form(try DrawingSamples.bytes(name)))
      #expect(XXHash64.hash(form.bytes) == digest, "\(name)")
    }
    var forms: [UInt8] = []
    for drawing in PointColumnsTests.drawingsOfEveryMask() {
      forms += try #require(PointStreams.form(try DrawingWriter.write(drawing))).bytes
    }
    #expect(XXHash64.hash(forms) == 0x0F89_F939_A801_4E85, "every mask")
  }

  /// Time offsets on a display's clock differ by a few values: their column becomes a palette,
  /// and a save that appends a stroke extends the palette and its indices, both as prefixes.
  @Test func clockTimesBecomeAPaletteThatLaterSavesExtend() throws {
    var random = SeededRandom(seed: 44)
    func stroke(_ number: Int, points: Int) -> Stroke {
      var x = 100.0
      var y = 200.0
      let path = StrokePath(
        creationDate: 7e8 + Double(number),
        points: (0..<points).map { index in
          x += random.double(1, 4)
          y += random.double(-2, 2)
          var point = PointPropertyCoding.defaultPoint
          point.location = Point(x: Double(Float(x)), y: Double(Float(y)))
          point.timeOffset = Double(Float(Double(index * 2 + index % 3) / 120))
          return point
        },
        varyingProperties: [.location, .timeOffset], constantProperties: PointProperties(rawValue: 0x3FC))
      return Stroke(
        uuid: .test(3, UInt8(number)), versionID: StrokeID(clock: UInt64(number), replicaIndex: 0, subclock: 0),
        inkIndex: 0, path: path)
    }
    var drawing = Drawing(
      replicas: [.zero], inks: [Ink(inkType: .pen, color: RGBA(red: 0, green: 0, blue: 0, alpha: 1), version: 3)],
      uuid: .test(1))
    drawing.strokes = (0..<4).map { stroke($0, points: 60) }
    let first = try DrawingWriter.write(drawing)
    drawing.strokes.append(stroke(4, points: 90))
    let second = try DrawingWriter.write(drawing)
    let before = try #require(PointStreams.form(first))
    let after = try #require(PointStreams.form(second))
    #expect(PointStreams.drawing(after.bytes, size: second.count) == second)
    // Columns x, y, time; a mode byte each, the time's the size of its palette.
    func timePalette(_ form: PointStreams.Form) throws -> (codes: ArraySlice<UInt8>, indices: ArraySlice<UInt8>) {
      let modes = try #require(form.boundaries.first)
      #expect(form.bytes[modes] == 0 && form.bytes[modes + 1] == 0, "x and y are byte planes")
      let size = Int(form.bytes[modes + 2])
      let indices = try #require(form.boundaries.last)
      return (form.bytes[(indices - 4 * size)..<indices], form.bytes[indices...])
    }
    let (codes, indices) = try timePalette(before)
    let (laterCodes, laterIndices) = try timePalette(after)
    #expect(!codes.isEmpty && laterCodes.starts(with: codes))
    #expect(indices.count == 240 && laterIndices.count == 330 && laterIndices.starts(with: indices))
  }

  @Test func inputWithoutPointArraysHasNoForm() throws {
    #expect(PointStreams.form([]) == nil)
    #expect(PointStreams.form(Array("not a drawing at all".utf8)) == nil)
    #expect(PointStreams.form(try DrawingSamples.bytes("empty")) == nil)
    var damaged = try DrawingSamples.bytes("three-pen-strokes")
    damaged.removeLast(damaged.count / 2)
    #expect(PointStreams.form(damaged) == nil)
    #expect(PointStreams.drawing([], size: 0) == nil)
    #expect(PointStreams.drawing(Array("not a form".utf8), size: 10) == nil)
  }

  @Test func arbitraryBytesNeverTrapAndWhatHasAFormComesBack() throws {
    var random = SeededRandom(seed: 43)
    let sample = try DrawingSamples.bytes("handwritten-half-notes")
    let form = try #require(PointStreams.form(sample)).bytes
    var gathered = 0
    for round in 0..<3000 {
      var bytes = sample
      var damagedForm = form
      // Flip a few bytes anywhere, or cut short.
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        damagedForm[Int.random(in: 0..<damagedForm.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
      }
      if round % 7 == 0 {
        bytes.removeLast(Int.random(in: 0..<bytes.count, using: &random))
        damagedForm.removeLast(Int.random(in: 0..<damagedForm.count, using: &random))
      }
      if let gatheredForm = PointStreams.form(bytes) {
        gathered += 1
        #expect(PointStreams.drawing(gatheredForm.bytes, size: bytes.count) == bytes)
      }
      // Whatever a damaged form decodes to, decoding it neither traps nor reads out of bounds.
      _ = PointStreams.drawing(damagedForm, size: sample.count + Int.random(in: -8...8, using: &random))
    }
    #expect(gathered > 100)
  }
}
