// The writer: byte-exact on device samples, round trips over random drawings, every rule.

import Testing

@testable import InklingFormats

@Suite struct DrawingWriterTests {
  @Test(arguments: ["empty", "pen-marker-hidden", "three-pen-strokes"])
  func rewritesDeviceSamplesByteForByte(name: String) throws {
    let bytes = try DrawingSamples.bytes(name)
    #expect(try DrawingWriter.write(Drawing(bytes: bytes)) == bytes)
  }

  @Test func refusesTheIOS26SampleForItsThresholdBit() throws {
    let drawing = try DrawingSamples.drawing("handwritten-half-notes")
    #expect(throws: DrawingWriteError(.thresholdNotAllowed, location: "stroke 0 › path")) {
      try DrawingWriter.write(drawing)
    }
    var without = drawing
    for index in without.strokes.indices {
      without.strokes[index].path?.constantProperties.remove(.threshold)
    }
    let rewritten = try DrawingWriter.write(without)
    #expect(try Drawing(bytes: rewritten) == without)
  }

  @Test func randomDrawingsRoundTrip() throws {
    var generator = RandomDrawings(seed: 0x1A2B_3C4D)
    var strokes = 0
    var substrokes = 0
    var masks = 0
    var slices = 0
    var transforms = 0
    var bitsSeen: UInt64 = 0
    for _ in 0..<400 {
      let drawing = generator.drawing()
      let bytes = try DrawingWriter.write(drawing)
      let decoded = try Drawing(bytes: bytes)
      let same = decoded == drawing
      #expect(same, "\(firstDifference(drawing, decoded) ?? "")")
      if !same { break }
      #expect(try DrawingWriter.write(decoded) == bytes)
      for stroke in drawing.strokes {
        strokes += 1
        substrokes += stroke.substrokes.count
        masks += stroke.maskPolygons.count
        slices += stroke.slices.isEmpty ? 0 : 1
        transforms += stroke.transform.isIdentity ? 0 : 1
        bitsSeen |=
          (stroke.path?.varyingProperties.rawValue ?? 0)
          | (stroke.path?.constantProperties.rawValue ?? 0)
      }
    }
    // The generator really exercised what it claims to.
    #expect(strokes > 500 && substrokes > 100 && masks > 50 && slices > 50 && transforms > 50)
    #expect(bitsSeen == 0x3FF)
  }

  @Test func writingIsDeterministic() throws {
    var first = RandomDrawings(seed: 7)
    var second = RandomDrawings(seed: 7)
    for _ in 0..<20 {
      #expect(try DrawingWriter.write(first.drawing()) == DrawingWriter.write(second.drawing()))
    }
  }

  @Test func everyPropertyBitIncludingThresholdDecodesExactly() throws {
    // The writer refuses 0x400, so encode a path with it by hand through the shared coder.
    var generator = RandomDrawings(seed: 99)
    for _ in 0..<50 {
      let path = generator.path(threshold: true)
      let varying = path.varyingProperties.rawValue
      let constant = path.constantProperties.rawValue
      var record: [UInt8] = []
      for point in path.points { PointPropertyCoding.encode(varying, point, into: &record) }
      var constants: [UInt8] = []
      PointPropertyCoding.encode(
        constant, path.points.first ?? PointPropertyCoding.defaultPoint, into: &constants)
      let decodedBase: StrokePoint = constants.withUnsafeBytes { raw in
        var base = PointPropertyCoding.defaultPoint
        if let start = raw.baseAddress {
          PointPropertyCoding.decode(constant, from: start, into: &base)
        }
        return base
      }
      let decoded = record.withUnsafeBytes {
        PointPropertyCoding.decodePoints(
          count: path.points.count, mask: varying, from: $0.baseAddress, base: decodedBase)
      }
      #expect(decoded == path.points)
    }
  }

  @Test func uint16PropertiesRoundAndClamp() {
    #expect(PointPropertyCoding.clamped(-3) == 0)
    #expect(PointPropertyCoding.clamped(.nan) == 0)
    #expect(PointPropertyCoding.clamped(70000) == 65535)
    #expect(PointPropertyCoding.clamped(1.5) == 2)
    #expect(PointPropertyCoding.wrapped(65536) == 0)
    #expect(PointPropertyCoding.wrapped(-1) == 65535)
    #expect(PointPropertyCoding.wrapped(.infinity) == 0)
  }

  // MARK: - Rules

  func valid() -> Drawing {
    Drawing(
      replicas: [.zero, .test(1)],
      inks: [Ink(inkType: .pen, color: RGBA(red: 0, green: 0, blue: 0, alpha: 1))],
      strokes: [
        Stroke(
          versionID: StrokeID(clock: 0, replicaIndex: 1, subclock: 0), inkIndex: 0,
          path: StrokePath(
            creationDate: 0, points: [StrokePoint(location: Point(x: 1, y: 2))],
            constantProperties: []))
      ], uuid: .test(9))
  }

  func expectRefusal(
    _ kind: DrawingWriteError.Kind, at location: String, _ change: (inout Drawing) -> Void
  ) {
    var drawing = valid()
    change(&drawing)
    #expect(throws: DrawingWriteError(kind, location: location)) {
      try DrawingWriter.write(drawing)
    }
  }

  @Test func theValidDrawingIsWritable() throws {
    let decoded = try Drawing(bytes: DrawingWriter.write(valid()))
    #expect(decoded == valid(), "\(firstDifference(valid(), decoded) ?? "")")
  }

  @Test func everyRuleIsChecked() {
    expectRefusal(.unsupportedFormatVersion(2), at: "drawing") { $0.formatVersion = 2 }
    expectRefusal(.firstReplicaNotZero, at: "replica 0") { $0.replicas[0] = .test(3) }
    expectRefusal(.duplicateReplica(index: 2, firstIndex: 1), at: "replica 2") {
      $0.replicas.append(.test(1))
    }
    expectRefusal(.badUUIDLength(field: "replica UUID", bytes: 3), at: "replica 1") {
      $0.replicas[1] = UUIDBytes([1, 2, 3])
    }
    expectRefusal(.missingDrawingUUID, at: "drawing") { $0.uuid = nil }
    expectRefusal(.missingVersionID, at: "stroke 0") { $0.strokes[0].versionID = nil }
    expectRefusal(.replicaIndexOutOfRange(index: 2, replicaCount: 2), at: "stroke 0") {
      $0.strokes[0].versionID?.replicaIndex = 2
    }
    expectRefusal(.inkIndexOutOfRange(index: 1, inkCount: 1), at: "stroke 0") {
      $0.strokes[0].inkIndex = 1
    }
    expectRefusal(.thresholdNotAllowed, at: "stroke 0 › path") {
      $0.strokes[0].path?.varyingProperties.insert(.threshold)
    }
    expectRefusal(.unknownPointProperties(0x800), at: "stroke 0 › path") {
      $0.strokes[0].path?.constantProperties.insert(PointProperties(rawValue: 0x800))
    }
    expectRefusal(.propertyInBothMasks(0x1), at: "stroke 0 › path") {
      $0.strokes[0].path?.constantProperties.insert(.location)
    }
    expectRefusal(.randomSeedTooLarge(1 << 59), at: "stroke 0") {
      $0.strokes[0].randomSeed = 1 << 59
    }
    expectRefusal(.badUUIDLength(field: "path UUID", bytes: 0), at: "stroke 0 › path") {
      $0.strokes[0].path?.uuid = UUIDBytes([])
    }
    var sub = valid().strokes[0]
    sub.path = nil
    expectRefusal(.inkIndexOutOfRange(index: 5, inkCount: 1), at: "stroke 0 › substroke 1") {
      var bad = sub
      bad.inkIndex = 5
      $0.strokes[0].substrokes = [sub, bad]
    }
  }

  @Test func nestingDepthIsLimited() throws {
    var drawing = valid()
    var stroke = drawing.strokes[0]
    stroke.path = nil
    for _ in 0..<40 {
      var parent = drawing.strokes[0]
      parent.substrokes = [stroke]
      stroke = parent
    }
    drawing.strokes = [stroke]
    #expect(throws: DrawingWriteError.self) { try DrawingWriter.write(drawing) }
    let bytes = try DrawingWriter.write(drawing, maxNestingDepth: 40)
    var limits = DrawingLimits.default
    limits.maxNestingDepth = 40
    let decoded = try Drawing(bytes: bytes, limits: limits)
    #expect(decoded == drawing, "\(firstDifference(drawing, decoded) ?? "")")
    #expect(throws: DrawingReadError.self) { try Drawing(bytes: bytes) }
  }

  @Test func errorsReadWell() {
    let error = DrawingWriteError(.missingVersionID, location: "stroke 3 › substroke 1")
    #expect(
      error.description
        == "stroke 3 › substroke 1: the version (Stroke.3) is missing; PencilKit would drop the stroke"
    )
  }
}
