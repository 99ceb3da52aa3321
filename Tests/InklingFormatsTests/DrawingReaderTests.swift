// The reader against the four real device drawings: exact numbers, learned from the bytes.

import Testing

@testable import InklingFormats

@Suite struct DrawingReaderTests {
  @Test func everySampleDecodes() throws {
    for name in DrawingSamples.names {
      let result = try DrawingReader.read(DrawingSamples.bytes(name))
      #expect(result.drawing != nil, "\(name)")
    }
  }

  /// A UUID read (held as two words) equals one made from the same 16 bytes; other lengths
  /// are kept as given, for the writer to refuse.
  @Test func uuidBytesAreComparedByTheirBytes() throws {
    let drawing = try Drawing(bytes: DrawingSamples.bytes("empty"))
    let read = try #require(drawing.uuid)
    let made = UUIDBytes(hex("4df0f5a25a3d436b9fb38cfcf80fced3"))
    #expect(read == made && read.hashValue == made.hashValue)
    #expect(read.bytes == hex("4df0f5a25a3d436b9fb38cfcf80fced3"))
    #expect(UUIDBytes.zero.bytes == [UInt8](repeating: 0, count: 16))
    #expect(UUIDBytes([1, 2, 3]).bytes == [1, 2, 3] && UUIDBytes([]).bytes.isEmpty)
    #expect(UUIDBytes([1, 2, 3]) != UUIDBytes([1, 2, 3, 0]))
    var changed = UUIDBytes([1, 2, 3])
    changed.bytes = made.bytes
    #expect(changed == made && changed.words != nil)
    #expect(UUIDBytes([1, 2, 3]).words == nil && UUIDBytes([1, 2, 3]).count == 3 && made.count == 16)
  }

  @Test func emptyDrawing() throws {
    let bytes = try DrawingSamples.bytes("empty")
    #expect(bytes.count == 42)
    let drawing = try Drawing(bytes: bytes)
    #expect(drawing.formatVersion == 1)
    #expect(drawing.replicas.isEmpty)
    #expect(drawing.versionVector.isEmpty)
    #expect(drawing.inks.isEmpty)
    #expect(drawing.strokes.isEmpty)
    #expect(drawing.canvasBounds == nil)
    #expect(
      drawing.boundsVersion == StrokeID(clock: 0, replicaIndex: StrokeID.noReplica, subclock: 0))
    #expect(drawing.uuid == UUIDBytes(hex("4df0f5a25a3d436b9fb38cfcf80fced3")))
  }

  @Test func penMarkerHidden() throws {
    let drawing = try DrawingSamples.drawing("pen-marker-hidden")
    #expect(drawing.replicas.count == 4)
    #expect(drawing.replicas[0] == .zero)
    #expect(drawing.replicas[1] == UUIDBytes(hex("3f4197a72a7c4c0a9e795df1a53f4631")))
    #expect(
      drawing.versionVector == [
        StrokeID(clock: 0, replicaIndex: 0, subclock: 0),
        StrokeID(clock: 1, replicaIndex: 1, subclock: 1),
        StrokeID(clock: 1, replicaIndex: 2, subclock: 0),
        StrokeID(clock: 2, replicaIndex: 3, subclock: 2),
      ])
    #expect(drawing.inks.map(\.inkType) == [.pen, .marker, .pen])
    #expect(
      drawing.inks.map(\.inkType.identifier) == [
        "com.apple.ink.pen", "com.apple.ink.marker", "com.apple.ink.pen",
      ])
    #expect(drawing.inks.map(\.variant) == [nil, "linear", nil])
    #expect(drawing.inks.map(\.version) == [3, 3, 3])
    #expect(drawing.inks.allSatisfy { $0.weight == nil && $0.requiredContentVersion == nil })
    #expect(drawing.inks[0].color == RGBA(red: 1, green: 0, blue: 0, alpha: 1))
    #expect(drawing.inks[1].color.red == Double(Float(bitPattern: 0x3DA8_A8A9)))

    #expect(drawing.strokes.count == 3)
    #expect(drawing.strokes.map(\.isHidden) == [true, true, false])
    #expect(drawing.strokes.map(\.inkIndex) == [0, 1, 2])
    #expect(drawing.strokes.map { $0.path == nil } == [true, true, false])
    #expect(drawing.strokes[0].randomSeed == 0x3F_1DFB_66C1 >> 5)
    #expect(drawing.strokes[0].sortID == StrokeID(clock: 0, replicaIndex: 1, subclock: 1))
    #expect(drawing.strokes[0].versionID == StrokeID(clock: 0, replicaIndex: 2, subclock: 0))
    #expect(drawing.strokes[1].renderGroupID == UUIDBytes(hex("1be66c84827d4e70bfee5a5370f3e135")))
    #expect(
      drawing.strokes.allSatisfy {
        $0.transform == .identity && $0.substrokes.isEmpty && $0.maskPolygons.isEmpty
      })

    let visible = drawing.strokes[2]
    #expect(visible.storedBounds == Rect(x: 231, y: 201, width: 38, height: 42))
    #expect(visible.randomSeed == 0x38_547F_E8A0 >> 5)
    let path = try #require(visible.path)
    #expect(path.points.count == 40)
    #expect(path.varyingProperties == [.location, .timeOffset])
    #expect(path.constantProperties.rawValue == 0x3FC)
    #expect(path.createdWithFinger)
    #expect(path.creationDate == 714717641.735103)
    #expect(path.uuid == UUIDBytes(hex("92ef169370da4513a69a2d56042b9bac")))
    let first = path.points[0]
    #expect(
      first.location
        == Point(
          x: Double(Float(bitPattern: 0x4377_D7DD)), y: Double(Float(bitPattern: 0x434B_0A80))))
    #expect(first.timeOffset == 0)
    // Constants e9104b40 e803 0000 0000 9d1e 0000 ff7f 0000803f: every point shares them.
    for point in path.points {
      #expect(point.width == Double(Float(bitPattern: 0x404B_10E9)))
      #expect(point.aspectRatio == 1)
      #expect(point.edgeWidth == 0)
      #expect(point.force == 0)
      #expect(point.azimuth == 0x1E9D / 10430.2192)
      #expect(point.altitude == 0)
      #expect(point.opacity == 32767 / 32767.5)
      #expect(point.secondaryRadius == 1)
      #expect(point.threshold == 0)  // not stored: the default
    }
    #expect(path.points[39].timeOffset == Double(Float(bitPattern: 0x3F73_330B)))
    #expect(drawing.canvasBounds == .zero)
    #expect(drawing.boundsVersion == StrokeID(clock: 0, replicaIndex: 0, subclock: 0))
  }

  @Test func threePenStrokes() throws {
    let drawing = try DrawingSamples.drawing("three-pen-strokes")
    #expect(drawing.replicas.count == 2)
    #expect(drawing.inks.count == 3)
    #expect(drawing.inks.allSatisfy { $0.inkType == .pen && $0.version == 3 })
    #expect(drawing.inks[0].color == RGBA(red: 1, green: 1, blue: 1, alpha: 1))
    // Just above 1: kept as stored.
    #expect(drawing.inks[2].color.red == Double(Float(bitPattern: 0x3F80_0003)))
    #expect(drawing.strokes.count == 3)
    #expect(drawing.strokes.allSatisfy { !$0.isHidden })
    #expect(drawing.strokes.map(\.inkIndex) == [0, 1, 2])
    let paths = drawing.strokes.compactMap(\.path)
    #expect(paths.map(\.points.count) == [49, 35, 84])
    #expect(paths.map(\.varyingProperties.rawValue) == [0x3, 0x7, 0x7])
    #expect(paths.map(\.constantProperties.rawValue) == [0x3FC, 0x3F8, 0x3F8])
    #expect(
      drawing.strokes.map(\.storedBounds) == [
        Rect(x: 103, y: 74, width: 9, height: 110), Rect(x: 208, y: 82, width: 17, height: 107),
        Rect(x: 60, y: 235, width: 195, height: 80),
      ])
    // Width per point on the second stroke; the first point's width is 9de35e40.
    #expect(paths[1].points[0].width == Double(Float(bitPattern: 0x405E_E39D)))
    #expect(paths[1].points[8].width == Double(Float(bitPattern: 0x4067_61DF)))
    #expect(paths[1].points.allSatisfy { $0.aspectRatio == 1 && $0.opacity == 32767 / 32767.5 })
    #expect(drawing.canvasBounds == nil)
  }

  @Test func handwrittenHalfNotesIOS26() throws {
    let drawing = try DrawingSamples.drawing("handwritten-half-notes")
    #expect(drawing.replicas.count == 2)
    #expect(drawing.versionVector.count == 2)
    #expect(drawing.inks.count == 1)
    let ink = drawing.inks[0]
    #expect(ink.inkType == .pen)
    #expect(ink.weight == -0.4700856651594573)
    #expect(ink.color.alpha == 1 && ink.color.red == Double(Float(0.06)))
    #expect(drawing.strokes.count == 4)
    #expect(drawing.strokes.allSatisfy { !$0.isHidden && $0.inkIndex == 0 })
    let paths = drawing.strokes.compactMap(\.path)
    #expect(paths.map(\.points.count) == [30, 8, 23, 7])
    #expect(
      paths.allSatisfy {
        $0.varyingProperties.rawValue == 0x3 && $0.constantProperties.rawValue == 0x7FC
      })
    #expect(paths.allSatisfy { $0.createdWithFinger })
    #expect(paths[0].points.allSatisfy { $0.threshold == 0 && $0.azimuth == 0x0B56 / 10430.2192 })
    #expect(
      drawing.strokes.map(\.storedBounds) == [
        Rect(x: 44, y: 76, width: 30, height: 33), Rect(x: 70, y: 56, width: 5, height: 33),
        Rect(x: 153, y: 71, width: 30, height: 27), Rect(x: 180, y: 44, width: 7, height: 41),
      ])
  }

  @Test func gzippedSampleReadsTheSame() throws {
    for name in DrawingSamples.names {
      let bytes = try DrawingSamples.bytes(name)
      #expect(try Drawing(bytes: Gzip.compress(bytes)) == Drawing(bytes: bytes))
    }
  }

  @Test func unsafeBufferOverloadAgrees() throws {
    let bytes = try DrawingSamples.bytes("three-pen-strokes")
    let viaBuffer = try bytes.withUnsafeBytes { try DrawingReader.read($0) }
    #expect(try viaBuffer == DrawingReader.read(bytes))
  }
}

/// Bytes from a hex string, for expected UUIDs.
private func hex(_ text: String) -> [UInt8] {
  var bytes: [UInt8] = []
  var index = text.startIndex
  while index < text.endIndex {
    let next = text.index(index, offsetBy: 2)
    bytes.append(UInt8(text[index..<next], radix: 16)!)
    index = next
  }
  return bytes
}
