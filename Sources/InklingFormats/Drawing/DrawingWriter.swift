// Writes a `Drawing` as `PKDrawing.dataRepresentation()` bytes
// (docs/pkdrawing-format.md, "Writing").
//
// Decision: the writer writes what the model says, after checking every rule of the doc's
// "Writing" section; a drawing that breaks one is refused with a `DrawingWriteError` rather
// than silently repaired, so a fixture never differs from the model that made it. The rules:
//  1. Format version 1; header `77 72 64 F0 01 00 08 00`.
//  2. `replicas[0]` is the zero UUID and no UUID repeats. (An empty list is accepted: devices
//     write none for an empty drawing, and with no replicas no stroke can pass rule 3.)
//  3. Every stroke and substroke has `versionID` with a replica index below `replicas.count`.
//  4. Every ink index is valid; the drawing has a UUID; all UUIDs are 16 bytes.
//  5. No point property 0x400 (iOS 18 cannot read it); masks are disjoint and known.
//  6. `randomSeed < 2^59`; substrokes nest at most `maxNestingDepth` levels.
//
// Layout follows the device samples: fields in ascending order, `StrokeID`, `Color` and
// `Rectangle` with every field even when 0, `Stroke.4`, `Stroke.8` and the whole `StrokeData`
// always present. Values the format cannot hold are rounded: doubles to binary32 where the
// field is a float; uint16 properties to the nearest step, clamped (azimuth wraps around 2π).
// Properties in the constant mask are written from the first point (`StrokePoint`'s defaults
// when there is none); properties in neither mask are not written. With those values,
// `read(write(d)) == d`.
//
// The output depends only on the drawing: equal drawings give identical bytes.

public enum DrawingWriter {
  /// Encodes `drawing` in the container format, version 1, uncompressed.
  /// - Throws: `DrawingWriteError` when the drawing breaks a rule above.
  public static func write(
    _ drawing: Drawing, maxNestingDepth: Int = DrawingLimits.default.maxNestingDepth
  )
    throws(DrawingWriteError) -> [UInt8]
  {
    try validate(
      drawing, maxNestingDepth: min(max(maxNestingDepth, 0), DrawingLimits.hardMaxNestingDepth))
    var writer = ProtobufWriter(capacity: estimatedSize(drawing))
    writer.bytes.append(contentsOf: DrawingReader.magic)
    writer.bytes.append(contentsOf: [1, 0, 8, 0])
    writeDrawing(drawing, to: &writer)
    return writer.bytes
  }

  // MARK: - Messages

  static func writeDrawing(_ drawing: Drawing, to writer: inout ProtobufWriter) {
    for replica in drawing.replicas { writer.bytes(2, replica.bytes) }
    for id in drawing.versionVector { writeStrokeID(3, id, to: &writer) }
    for ink in drawing.inks { writer.message(4) { writeInk(ink, to: &$0) } }
    for stroke in drawing.strokes { writer.message(5) { writeStroke(stroke, to: &$0) } }
    if let bounds = drawing.canvasBounds { writeRect(6, bounds, to: &writer) }
    if let version = drawing.boundsVersion { writeStrokeID(7, version, to: &writer) }
    if let uuid = drawing.uuid { writer.bytes(8, uuid.bytes) }
  }

  static func writeInk(_ ink: Ink, to writer: inout ProtobufWriter) {
    writer.message(1) { color in
      color.float(1, Float(ink.color.red))
      color.float(2, Float(ink.color.green))
      color.float(3, Float(ink.color.blue))
      color.float(4, Float(ink.color.alpha))
    }
    writer.string(2, ink.inkType.identifier)
    if let version = ink.version { writer.varint(3, version) }
    if let variant = ink.variant { writer.string(4, variant) }
    if let required = ink.requiredContentVersion { writer.varint(7, required) }
    if let weight = ink.weight { writer.double(8, weight) }
  }

  static func writeStroke(_ stroke: Stroke, to writer: inout ProtobufWriter) {
    if let uuid = stroke.uuid { writer.bytes(1, uuid.bytes) }
    if let sort = stroke.sortID { writeStrokeID(2, sort, to: &writer) }
    if let version = stroke.versionID { writeStrokeID(3, version, to: &writer) }
    writer.varint(4, UInt64(stroke.inkIndex))
    if let path = stroke.path { writer.message(5) { writePath(path, to: &$0) } }
    if let bounds = stroke.storedBounds { writeRect(6, bounds, to: &writer) }
    if !stroke.transform.isIdentity {
      let t = stroke.transform
      writer.message(7) { m in
        m.float(1, Float(t.a))
        m.float(2, Float(t.b))
        m.float(3, Float(t.c))
        m.float(4, Float(t.d))
        m.float(5, Float(t.tx))
        m.float(6, Float(t.ty))
      }
    }
    writer.varint(8, stroke.randomSeed << 5 | (stroke.isHidden ? 1 : 0))
    if let version = stroke.substrokesVersion { writeStrokeID(9, version, to: &writer) }
    for polygon in stroke.maskPolygons {
      writer.message(10) { m in
        for vertex in polygon {
          m.rawFixed32(Float(vertex.x).bitPattern)
          m.rawFixed32(Float(vertex.y).bitPattern)
        }
      }
    }
    for substroke in stroke.substrokes { writer.message(11) { writeStroke(substroke, to: &$0) } }
    if !stroke.slices.isEmpty {
      writer.message(12) { m in for slice in stroke.slices { m.rawFixed32(slice.bitPattern) } }
    }
    if let group = stroke.renderGroupID { writer.bytes(16, group.bytes) }
  }

  static func writePath(_ path: StrokePath, to writer: inout ProtobufWriter) {
    if let uuid = path.uuid { writer.bytes(1, uuid.bytes) }
    writer.double(2, path.creationDate)
    writer.varint(3, UInt64(path.points.count))
    let varying = path.varyingProperties.rawValue
    let constant = path.constantProperties.rawValue
    writer.varint(4, varying)
    writer.varint(5, constant)
    writer.message(6) { m in
      PointPropertyCoding.encode(
        constant, path.points.first ?? PointPropertyCoding.defaultPoint, into: &m.bytes)
    }
    writer.message(7) { m in
      m.bytes.reserveCapacity(
        m.bytes.count + path.points.count * PointPropertyCoding.size(of: varying))
      for point in path.points { PointPropertyCoding.encode(varying, point, into: &m.bytes) }
    }
    writer.bool(8, path.createdWithFinger)
  }

  static func writeStrokeID(_ field: Int, _ id: StrokeID, to writer: inout ProtobufWriter) {
    writer.message(field) { m in
      m.varint(1, id.clock)
      m.varint(2, id.replicaIndex)
      m.varint(3, id.subclock)
    }
  }

  static func writeRect(_ field: Int, _ rect: Rect, to writer: inout ProtobufWriter) {
    writer.message(field) { m in
      m.float(1, Float(rect.x))
      m.float(2, Float(rect.y))
      m.float(3, Float(rect.width))
      m.float(4, Float(rect.height))
    }
  }

  /// A little more than the output size, so the buffer grows at most once or twice.
  static func estimatedSize(_ drawing: Drawing) -> Int {
    var size = 64 + drawing.replicas.count * 18 + drawing.inks.count * 64
    var pending = drawing.strokes[...]
    var nested: [Stroke] = []
    while let stroke = pending.popFirst() ?? nested.popLast() {
      size +=
        160 + stroke.maskPolygons.reduce(0) { $0 + 4 + $1.count * 8 } + stroke.slices.count * 4
      if let path = stroke.path {
        size += path.points.count * PointPropertyCoding.size(of: path.varyingProperties.rawValue)
      }
      nested.append(contentsOf: stroke.substrokes)
    }
    return size
  }
}

extension Drawing {
  /// The drawing as PencilKit data (`PKDrawing.dataRepresentation()`); see `DrawingWriter`.
  /// - Throws: `DrawingWriteError` when the drawing breaks a rule of the format.
  public func dataRepresentation() throws(DrawingWriteError) -> [UInt8] {
    try DrawingWriter.write(self)
  }
}
