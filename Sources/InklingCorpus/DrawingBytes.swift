// Serialises drawing models to `PKDrawing.dataRepresentation()` bytes.
//
// INTERIM: a minimal writer for the subset of the format the generator produces, following
// ../shared/docs/pkdrawing-format.md ("Messages", "Point properties", "Writing"). It is
// replaced by InklingFormats' `DrawingWriter` once the drawing-format branch lands.

import InklingFormats

enum DrawingSerializer {
  /// The `PKDrawing.dataRepresentation()` bytes of `drawing`.
  static func bytes(of drawing: Drawing) -> [UInt8] {
    var out: [UInt8] = [0x77, 0x72, 0x64, 0xF0, drawing.formatVersion, 0, 8, 0]
    var body = Proto()
    if !(drawing.strokes.isEmpty && drawing.inks.isEmpty && drawing.versionVector.isEmpty) {
      for replica in drawing.replicas { body.bytes(2, replica.bytes) }
    }
    for id in drawing.versionVector { body.message(3, strokeID(id)) }
    for ink in drawing.inks { body.message(4, self.ink(ink)) }
    for stroke in drawing.strokes { body.message(5, self.stroke(stroke)) }
    if let bounds = drawing.canvasBounds { body.message(6, rect(bounds)) }
    if let version = drawing.boundsVersion { body.message(7, strokeID(version)) }
    if let uuid = drawing.uuid { body.bytes(8, uuid.bytes) }
    out += body.data
    return out
  }

  private static func strokeID(_ id: StrokeID) -> Proto {
    var p = Proto()
    p.varint(1, id.clock); p.varint(2, id.replicaIndex); p.varint(3, id.subclock)
    return p
  }

  private static func rect(_ r: Rect) -> Proto {
    var p = Proto()
    p.float(1, r.x); p.float(2, r.y); p.float(3, r.width); p.float(4, r.height)
    return p
  }

  private static func ink(_ ink: Ink) -> Proto {
    var p = Proto()
    var color = Proto()
    color.float(1, ink.color.red); color.float(2, ink.color.green)
    color.float(3, ink.color.blue); color.float(4, ink.color.alpha)
    p.message(1, color)
    p.bytes(2, Array(ink.inkType.identifier.utf8))
    if let version = ink.version { p.varint(3, version) }
    if let variant = ink.variant { p.bytes(4, Array(variant.utf8)) }
    if let required = ink.requiredContentVersion { p.varint(7, required) }
    if let weight = ink.weight { p.double(8, weight) }
    return p
  }

  private static func stroke(_ s: Stroke) -> Proto {
    var p = Proto()
    if let uuid = s.uuid { p.bytes(1, uuid.bytes) }
    if let sort = s.sortID { p.message(2, strokeID(sort)) }
    if let version = s.versionID { p.message(3, strokeID(version)) }
    p.varint(4, UInt64(s.inkIndex))
    if let path = s.path { p.message(5, self.path(path)) }
    if let bounds = s.storedBounds { p.message(6, rect(bounds)) }
    let flags = (s.randomSeed << 5) | (s.isHidden ? 1 : 0)
    if flags != 0 { p.varint(8, flags) }
    if let group = s.renderGroupID { p.bytes(16, group.bytes) }
    return p
  }

  private static func path(_ path: StrokePath) -> Proto {
    var p = Proto()
    if let uuid = path.uuid { p.bytes(1, uuid.bytes) }
    p.double(2, path.creationDate)
    p.varint(3, UInt64(path.points.count))
    p.varint(4, path.varyingProperties.rawValue)
    p.varint(5, path.constantProperties.rawValue)
    var constants: [UInt8] = []
    if let first = path.points.first { pack(first, path.constantProperties, into: &constants) }
    p.bytes(6, constants)
    var points: [UInt8] = []
    points.reserveCapacity(path.points.count * 16)
    for point in path.points { pack(point, path.varyingProperties, into: &points) }
    p.bytes(7, points)
    if path.createdWithFinger { p.varint(8, 1) }
    return p
  }

  /// One value per set bit of `mask`, in bit order (format doc, "Point properties").
  private static func pack(_ point: StrokePoint, _ mask: PointProperties, into out: inout [UInt8]) {
    func f32(_ x: Double) { withUnsafeBytes(of: Float(x).bitPattern.littleEndian) { out += $0 } }
    func u16(_ x: Double, _ scale: Double) {
      let raw = UInt16(clamping: Int((x * scale).rounded()))
      out.append(UInt8(raw & 0xFF)); out.append(UInt8(raw >> 8))
    }
    if mask.contains(.location) { f32(point.location.x); f32(point.location.y) }
    if mask.contains(.timeOffset) { f32(point.timeOffset) }
    if mask.contains(.width) { f32(point.width) }
    if mask.contains(.aspectRatio) { u16(point.aspectRatio, 1000) }
    if mask.contains(.edgeWidth) { u16(point.edgeWidth, 10) }
    if mask.contains(.force) { u16(point.force, 1000) }
    if mask.contains(.azimuth) { u16(point.azimuth, 10430.2192) }
    if mask.contains(.altitude) { u16(point.altitude, 41720.8768) }
    if mask.contains(.opacity) { u16(point.opacity, 32767.5) }
    if mask.contains(.secondaryRadius) { f32(point.secondaryRadius) }
    if mask.contains(.threshold) { u16(point.threshold, 32767.5) }
  }
}

/// Protocol Buffers wire format, the few field kinds the drawing uses.
private struct Proto {
  var data: [UInt8] = []

  mutating func rawVarint(_ value: UInt64) {
    var v = value
    while v >= 0x80 { data.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
    data.append(UInt8(v))
  }
  mutating func varint(_ field: UInt64, _ value: UInt64) { rawVarint(field << 3); rawVarint(value) }
  mutating func double(_ field: UInt64, _ value: Double) {
    rawVarint(field << 3 | 1)
    withUnsafeBytes(of: value.bitPattern.littleEndian) { data += $0 }
  }
  mutating func float(_ field: UInt64, _ value: Double) {
    rawVarint(field << 3 | 5)
    withUnsafeBytes(of: Float(value).bitPattern.littleEndian) { data += $0 }
  }
  mutating func bytes(_ field: UInt64, _ value: [UInt8]) {
    rawVarint(field << 3 | 2); rawVarint(UInt64(value.count)); data += value
  }
  mutating func message(_ field: UInt64, _ value: Proto) { bytes(field, value.data) }
}
