// Each class of damaged or hostile input fails with its own error (or, for data that is not
// a drawing this reader knows, with an `.unreadable` result, which is not an error).

import Testing

@testable import InklingFormats

/// `77 72 64 F0 01 00 08 00` followed by `message`.
private func container(_ message: [UInt8]) -> [UInt8] {
  DrawingReader.magic + [1, 0, 8, 0] + message
}

/// The error reading `bytes` throws, or nil when it reads.
private func readError(_ bytes: [UInt8], limits: DrawingLimits = .default) -> DrawingReadError? {
  do {
    _ = try DrawingReader.read(bytes, limits: limits)
    return nil
  } catch {
    return error
  }
}

/// A drawing message with one pen ink and the given stroke message bodies.
private func drawingMessage(strokes: [[UInt8]], inks: Int = 1) -> [UInt8] {
  var w = ProtobufWriter()
  for _ in 0..<inks { w.message(4) { $0.string(2, "com.apple.ink.pen") } }
  for stroke in strokes { w.bytes(5, stroke) }
  return w.bytes
}

/// A stroke message with ink 0 and a path built by `path`.
private func strokeMessage(_ path: (inout ProtobufWriter) -> Void) -> [UInt8] {
  var w = ProtobufWriter()
  w.varint(4, 0)
  w.message(5, path)
  return w.bytes
}

@Suite struct DrawingMalformedInputTests {
  // MARK: - Container

  @Test func truncatedHeader() {
    #expect(
      readError(Array(DrawingReader.magic.prefix(3)))
        == DrawingReadError(.truncatedHeader(bytes: 3)))
    #expect(readError(DrawingReader.magic + [1]) == DrawingReadError(.truncatedHeader(bytes: 5)))
  }

  @Test func badHeaderLength() throws {
    var bytes = try DrawingSamples.bytes("empty")
    bytes[6] = 4
    #expect(
      readError(bytes)
        == DrawingReadError(
          .badHeaderLength(headerLength: 4, totalBytes: 42), location: "header", offset: 6))
    bytes[6] = 0xFF
    bytes[7] = 0xFF
    #expect(readError(bytes)?.kind == .badHeaderLength(headerLength: 65535, totalBytes: 42))
  }

  @Test func longerHeaderIsSkipped() throws {
    let sample = try DrawingSamples.bytes("pen-marker-hidden")
    let padded = Array(sample[0..<6]) + [12, 0, 0xAA, 0xBB, 0xCC, 0xDD] + sample[8...]
    #expect(try Drawing(bytes: padded) == Drawing(bytes: sample))
  }

  @Test func inputTooLarge() throws {
    let bytes = try DrawingSamples.bytes("empty")
    var limits = DrawingLimits.default
    limits.maxBytes = 41
    #expect(
      readError(bytes, limits: limits) == DrawingReadError(.inputTooLarge(bytes: 42, limit: 41)))
  }

  @Test func legacyAndBareMessagesAreUnreadableNotErrors() throws {
    let sample = try DrawingSamples.bytes("three-pen-strokes")
    let bare = Array(sample[8...])
    let result = try DrawingReader.read(bare)
    guard case .unreadable(let reason, let kept) = result else {
      Issue.record("a bare message must be unreadable, got \(result)")
      return
    }
    #expect(reason.contains("legacy/unknown drawing format"))
    #expect(kept == bare)
    #expect(throws: DrawingReadError.self) { try Drawing(bytes: bare) }
    do {
      _ = try Drawing(bytes: bare)
    } catch {
      guard case .unrecognizedFormat(let message) = error.kind else {
        Issue.record("\(error)")
        return
      }
      #expect(message == reason)
    }
    // An older "versioned document": 1 serializationVersion, 2 minimumSupportedVersion, 3 data.
    var versioned = ProtobufWriter()
    versioned.varint(1, 2)
    versioned.varint(2, 1)
    versioned.bytes(3, bare)
    #expect(try DrawingReader.read(versioned.bytes).drawing == nil)
    #expect(try DrawingReader.read([]).drawing == nil)
  }

  @Test func unknownFormatVersionIsUnreadable() throws {
    var bytes = try DrawingSamples.bytes("empty")
    bytes[4] = 6
    guard case .unreadable(let reason, _) = try DrawingReader.read(bytes) else {
      Issue.record("version 6 must be unreadable")
      return
    }
    #expect(reason == "unknown drawing format version 6 (this reader knows 1–5)")
    bytes[4] = 5
    #expect(try DrawingReader.read(bytes).drawing?.formatVersion == 5)
  }

  // MARK: - gzip

  @Test func gzipBombIsRefused() throws {
    let bomb = Gzip.compress([UInt8](repeating: 0, count: 4 << 20), level: 9)
    #expect(bomb.count < 10_000)
    var limits = DrawingLimits.default
    limits.maxBytes = 1 << 20
    let error = readError(bomb, limits: limits)
    #expect(error == DrawingReadError(.gzipTooLarge(limit: 1 << 20)))
    #expect(
      error?.description
        == "drawing: the gzip data unpacks to more than 1,048,576 bytes (the limit); refusing a likely gzip bomb"
    )
  }

  @Test func damagedGzip() throws {
    let gzipped = Gzip.compress(try DrawingSamples.bytes("three-pen-strokes"))
    #expect(
      readError(Array(gzipped.dropLast(20)))
        == DrawingReadError(.gzipCorrupt("the gzip data is truncated")))
    var flipped = gzipped
    flipped[gzipped.count / 2] ^= 0xFF
    flipped[gzipped.count / 2 + 1] ^= 0x55
    #expect(
      readError(flipped).map { if case .gzipCorrupt = $0.kind { true } else { false } } == true)
    #expect(
      readError(gzipped + [0]) == DrawingReadError(.gzipCorrupt("1 bytes follow the gzip data")))
  }

  @Test func gzipOfSomethingElseIsUnreadable() throws {
    let sample = try DrawingSamples.bytes("three-pen-strokes")
    let bare = Gzip.compress(Array(sample[8...]))
    guard case .unreadable(let reason, let kept) = try DrawingReader.read(bare) else {
      Issue.record("a gzipped bare message must be unreadable")
      return
    }
    #expect(reason.contains("gzipped data does not start with the drawing header"))
    #expect(kept == bare)  // the bytes as given, still gzipped
    let twice = Gzip.compress(Gzip.compress(sample))
    guard case .unreadable(let nested, _) = try DrawingReader.read(twice) else {
      Issue.record("gzip inside gzip must be unreadable")
      return
    }
    #expect(nested == "legacy/unknown drawing format: gzip inside gzip")
  }

  // MARK: - Wire format

  @Test func truncatedValues() {
    #expect(readError(container([0x3A])) == DrawingReadError(.truncated, offset: 9))
    var w = ProtobufWriter()
    w.message(6) { $0.bytes.append(contentsOf: [0x0D, 0, 0]) }  // a float cut after 2 bytes
    #expect(readError(container(w.bytes)) == DrawingReadError(.truncated, offset: 11))
  }

  @Test func everyPrefixOfEverySampleFailsCleanlyOrReads() throws {
    for name in DrawingSamples.names {
      let bytes = try DrawingSamples.bytes(name)
      for end in 0..<bytes.count {
        _ = try? DrawingReader.read(Array(bytes[0..<end]))  // must not trap
      }
      // Cut inside the last field: the drawing UUID claims 16 bytes but 15 remain.
      #expect(readError(Array(bytes.dropLast()))?.kind == .lengthPastEnd(length: 16, remaining: 15))
    }
  }

  @Test func varintOfElevenBytes() {
    let bytes = container([0x48] + [UInt8](repeating: 0xFF, count: 10) + [0x01])  // unknown field 9
    let error = readError(bytes)
    #expect(error == DrawingReadError(.varintTooLong, offset: 9))
    #expect(error?.description == "drawing: a varint is longer than 10 bytes (byte 9)")
  }

  @Test func tenByteVarintDoesNotTrap() throws {
    var w = ProtobufWriter()
    w.message(7) { id in
      id.tag(1, .varint)
      id.bytes.append(contentsOf: [UInt8](repeating: 0xFF, count: 9) + [0x7F])
    }
    #expect(try Drawing(bytes: container(w.bytes)).boundsVersion?.clock == UInt64.max)
  }

  @Test func lengthPastEnd() {
    #expect(
      readError(container([0x2A, 0x05, 1, 2]))
        == DrawingReadError(
          .lengthPastEnd(length: 5, remaining: 2), location: "stroke 0", offset: 9))
    var w = ProtobufWriter()
    w.tag(5, .lengthDelimited)
    w.rawVarint(UInt64.max)
    #expect(readError(container(w.bytes))?.kind == .lengthPastEnd(length: UInt64.max, remaining: 0))
  }

  @Test func groupsAndInvalidWireTypesAndFieldNumbers() {
    #expect(readError(container([0x2B]))?.kind == .groupNotSupported(field: 5))
    #expect(readError(container([0x2C]))?.kind == .groupNotSupported(field: 5))
    #expect(readError(container([0x2E]))?.kind == .invalidWireType(6))
    #expect(readError(container([0x0F]))?.kind == .invalidWireType(7))
    #expect(readError(container([0x00, 0x00]))?.kind == .invalidFieldNumber(0))
  }

  @Test func wrongWireTypeForAKnownField() {
    var stroke = ProtobufWriter()
    stroke.fixed32(4, 0)
    let error = readError(container(drawingMessage(strokes: [stroke.bytes])))
    #expect(error?.kind == .wrongWireType(field: 4, wireType: 5))
    #expect(error?.location == "stroke 0")
  }

  @Test func badUUIDLength() {
    var w = ProtobufWriter()
    w.bytes(8, [UInt8](repeating: 1, count: 15))
    #expect(readError(container(w.bytes))?.kind == .badUUIDLength(field: "drawing UUID", bytes: 15))
  }

  @Test func unknownFieldsOfEveryWireTypeAreSkippedEverywhere() throws {
    let sample = try Drawing(bytes: DrawingSamples.bytes("pen-marker-hidden"))
    func unknowns(_ w: inout ProtobufWriter) {
      w.varint(99, 12345)
      w.fixed64(98, 7)
      w.fixed32(97, 7)
      w.bytes(96, [1, 2, 3])
      w.varint(536_870_911, 1)
    }
    // Append unknown fields to the drawing, every ink, every stroke and every path.
    var w = ProtobufWriter()
    unknowns(&w)
    for replica in sample.replicas { w.bytes(2, replica.bytes) }
    for id in sample.versionVector { DrawingWriter.writeStrokeID(3, id, to: &w) }
    for ink in sample.inks {
      w.message(4) {
        DrawingWriter.writeInk(ink, to: &$0)
        unknowns(&$0)
      }
    }
    for stroke in sample.strokes {
      w.message(5) { s in
        unknowns(&s)
        var copy = stroke
        copy.path = nil
        DrawingWriter.writeStroke(copy, to: &s)
        if let path = stroke.path {
          s.message(5) {
            DrawingWriter.writePath(path, to: &$0)
            unknowns(&$0)
          }
        }
      }
    }
    if let bounds = sample.canvasBounds { DrawingWriter.writeRect(6, bounds, to: &w) }
    if let version = sample.boundsVersion { DrawingWriter.writeStrokeID(7, version, to: &w) }
    w.bytes(8, sample.uuid!.bytes)
    unknowns(&w)
    #expect(try Drawing(bytes: container(w.bytes)) == sample)
  }

  // MARK: - Paths

  @Test func pointDataSizeMismatch() {
    let stroke = strokeMessage { p in
      p.varint(3, 100)
      p.varint(4, 0x103)
      p.varint(5, 0)
      p.bytes(7, [UInt8](repeating: 0, count: 1203))
    }
    let error = readError(container(drawingMessage(strokes: [stroke])))
    #expect(error?.kind == .pointDataSize(points: 100, stride: 14, bytes: 1203))
    #expect(error?.location == "stroke 0 › path")
    #expect(
      error?.description
        == "stroke 0 › path: point data is 1,203 bytes but 100 points × 14 bytes need 1,400 (byte 44)"
    )
  }

  @Test func pointCountOverflow() {
    let stroke = strokeMessage { p in
      p.varint(3, 1 << 62)
      p.varint(4, 0x3)
      p.bytes(7, [0, 0, 0, 0])
    }
    let error = readError(container(drawingMessage(strokes: [stroke])))
    #expect(error?.kind == .pointDataSize(points: 1 << 62, stride: 12, bytes: 4))
    #expect(error?.description.contains("need more than 2^64") == true)
  }

  @Test func zeroStrideCannotClaimBillionsOfPoints() {
    let stroke = strokeMessage { p in
      p.varint(3, 1 << 40)
      p.varint(4, 0)
    }
    let error = readError(container(drawingMessage(strokes: [stroke])))
    #expect(error?.kind == .tooManyPoints(limit: DrawingLimits.default.maxPoints))
  }

  @Test func constantsSizeMismatch() {
    let stroke = strokeMessage { p in
      p.varint(3, 0)
      p.varint(4, 0x3)
      p.varint(5, 0x3FC)
      p.bytes(6, [UInt8](repeating: 0, count: 19))
    }
    let error = readError(container(drawingMessage(strokes: [stroke])))
    #expect(error?.kind == .constantsSize(mask: 0x3FC, expected: 20, bytes: 19))
    #expect(
      error?.description.hasPrefix(
        "stroke 0 › path: constants are 19 bytes but constant mask 0x3FC needs 20") == true)
  }

  @Test func propertyInBothMasks() {
    let stroke = strokeMessage { p in
      p.varint(4, 0x7)
      p.varint(5, 0x3FC)
      p.bytes(6, [UInt8](repeating: 0, count: 20))
    }
    #expect(
      readError(container(drawingMessage(strokes: [stroke])))?.kind == .propertyInBothMasks(0x4))
  }

  @Test func unknownPropertyBitsAreUnreadable() throws {
    let stroke = strokeMessage { p in p.varint(4, 0x803) }
    guard
      case .unreadable(let reason, _) = try DrawingReader.read(
        container(drawingMessage(strokes: [stroke])))
    else {
      Issue.record("an unknown property bit means a newer format: unreadable")
      return
    }
    #expect(reason.hasPrefix("stroke 0 › path: point property bits 0x800 are unknown"))
  }

  @Test func nonFiniteFloatsAreKeptAsData() throws {
    var record: [UInt8] = []
    for value in [Float.nan, .infinity, -.infinity, 1] {
      withUnsafeBytes(of: value.bitPattern.littleEndian) { record += $0 }
    }
    let stroke = strokeMessage { p in
      p.varint(3, 2)
      p.varint(4, 0x1)
      p.bytes(7, record)
    }
    let drawing = try Drawing(bytes: container(drawingMessage(strokes: [stroke])))
    let points = try #require(drawing.strokes[0].path?.points)
    #expect(points[0].location.x.isNaN && points[0].location.y == .infinity)
    #expect(points[1].location == Point(x: -.infinity, y: 1))
  }

  // MARK: - Strokes

  @Test func inkIndexOutOfRange() {
    var stroke = ProtobufWriter()
    stroke.varint(4, 3)
    let error = readError(container(drawingMessage(strokes: [[0x20, 0x00], stroke.bytes])))
    #expect(
      error == DrawingReadError(.inkIndexOutOfRange(index: 3, inkCount: 1), location: "stroke 1"))
    #expect(error?.description == "stroke 1: ink index 3 is out of range; the drawing has 1 ink")
  }

  @Test func substrokeWithoutInkIndexInheritsItsParents() throws {
    var stroke = ProtobufWriter()
    stroke.varint(4, 1)
    stroke.message(11) { $0.varint(8, 1) }
    let drawing = try Drawing(bytes: container(drawingMessage(strokes: [stroke.bytes], inks: 2)))
    #expect(drawing.strokes[0].substrokes[0].inkIndex == 1)
    #expect(drawing.strokes[0].substrokes[0].isHidden)
  }

  @Test func nestingTooDeep() {
    // 5,000 levels of substrokes, built inside out.
    var stroke: [UInt8] = [0x20, 0x00]
    for _ in 0..<5_000 {
      var w = ProtobufWriter(capacity: stroke.count + 8)
      w.varint(4, 0)
      w.bytes(11, stroke)
      stroke = w.bytes
    }
    let bytes = container(drawingMessage(strokes: [stroke]))
    let error = readError(bytes)
    #expect(error?.kind == .nestingTooDeep(limit: 32))
    #expect(error?.location.hasPrefix("stroke 0 › substroke 0 › substroke 0") == true)
    // A limit that would allow it all is clamped: input never drives deep recursion.
    var limits = DrawingLimits.default
    limits.maxNestingDepth = 1_000_000
    #expect(
      readError(bytes, limits: limits)?.kind
        == .nestingTooDeep(limit: DrawingLimits.hardMaxNestingDepth))
  }

  @Test func maskPolygonAndSlicesSizes() {
    var stroke = ProtobufWriter()
    stroke.bytes(10, [1, 2, 3])
    #expect(
      readError(container(drawingMessage(strokes: [stroke.bytes])))?.kind
        == .maskPolygonSize(bytes: 3))
    stroke = ProtobufWriter()
    stroke.bytes(12, [1, 2, 3, 4, 5])
    #expect(
      readError(container(drawingMessage(strokes: [stroke.bytes])))?.kind == .slicesSize(bytes: 5))
  }

  @Test func slicesPackedOrUnpacked() throws {
    var stroke = ProtobufWriter()
    stroke.float(12, 0)
    stroke.float(12, 3.71)
    stroke.message(12) {
      $0.rawFixed32(Float(6.68).bitPattern)
      $0.rawFixed32(Float(7).bitPattern)
    }
    let drawing = try Drawing(bytes: container(drawingMessage(strokes: [stroke.bytes])))
    #expect(drawing.strokes[0].slices == [0, 3.71, 6.68, 7.0])
  }

  // MARK: - Limits

  @Test func countLimits() {
    var limits = DrawingLimits.default
    limits.maxStrokes = 2
    #expect(
      readError(container(drawingMessage(strokes: [[], [], []])), limits: limits)?.kind
        == .tooManyStrokes(limit: 2))
    limits = .default
    limits.maxInks = 1
    #expect(
      readError(container(drawingMessage(strokes: [], inks: 2)), limits: limits)?.kind
        == .tooManyInks(limit: 1))
    limits = .default
    limits.maxReplicas = 1
    var w = ProtobufWriter()
    w.bytes(2, UUIDBytes.zero.bytes)
    w.bytes(2, UUIDBytes.test(1).bytes)
    #expect(readError(container(w.bytes), limits: limits)?.kind == .tooManyReplicas(limit: 1))
    limits = .default
    limits.maxPoints = 39
    #expect(
      throws: DrawingReadError(.tooManyPoints(limit: 39), location: "stroke 2 › path", offset: 465)
    ) {
      try Drawing(bytes: DrawingSamples.bytes("pen-marker-hidden"), limits: limits)
    }
  }
}
