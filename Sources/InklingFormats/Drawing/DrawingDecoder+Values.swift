// Decodes the small messages (`StrokeID`, `Rectangle`, `Color`, `Transform`) and UUIDs, and
// the helpers every message decoder uses: wire-type checks and the point budget.
// (docs/pkdrawing-format.md, "Messages")

extension DrawingDecoder {
  // MARK: - Small messages

  func readStrokeID(_ outer: inout ProtobufReader, _ outerTag: FieldTag) throws -> StrokeID {
    var reader = try message(&outer, outerTag)
    var id = StrokeID(clock: 0, replicaIndex: 0, subclock: 0)
    while let tag = try reader.readTag() {
      switch tag.number {
      case 1:
        try expect(tag, .varint)
        id.clock = try reader.readVarint()
      case 2:
        try expect(tag, .varint)
        id.replicaIndex = try reader.readVarint()
      case 3:
        try expect(tag, .varint)
        id.subclock = try reader.readVarint()
      default: try reader.skip(tag)
      }
    }
    return id
  }

  /// Reads a message of up to six float fields, absent fields 0 (protobuf's default).
  func readFloats(_ outer: inout ProtobufReader, _ outerTag: FieldTag) throws -> (
    Double, Double, Double, Double, Double, Double
  ) {
    var reader = try message(&outer, outerTag)
    var values: (Double, Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0)
    while let tag = try reader.readTag() {
      guard (1...6).contains(tag.number) else {
        try reader.skip(tag)
        continue
      }
      try expect(tag, .fixed32)
      let value = Double(try reader.readFloat())
      switch tag.number {
      case 1: values.0 = value
      case 2: values.1 = value
      case 3: values.2 = value
      case 4: values.3 = value
      case 5: values.4 = value
      default: values.5 = value
      }
    }
    return values
  }

  func readRect(_ reader: inout ProtobufReader, _ tag: FieldTag) throws -> Rect {
    let v = try readFloats(&reader, tag)  // fields 5 and 6 are not Rect fields: ignored
    return Rect(x: v.0, y: v.1, width: v.2, height: v.3)
  }

  func readColor(_ reader: inout ProtobufReader, _ tag: FieldTag) throws -> RGBA {
    let v = try readFloats(&reader, tag)
    return RGBA(red: v.0, green: v.1, blue: v.2, alpha: v.3)
  }

  func readTransform(_ reader: inout ProtobufReader, _ tag: FieldTag) throws -> AffineTransform {
    let v = try readFloats(&reader, tag)
    return AffineTransform(a: v.0, b: v.1, c: v.2, d: v.3, tx: v.4, ty: v.5)
  }

  func readUUID(_ reader: inout ProtobufReader, _ tag: FieldTag, field: String) throws -> UUIDBytes {
    try expect(tag, .lengthDelimited)
    let range = try reader.readLengthDelimitedRange()
    guard range.count == 16 else {
      throw Failure(kind: .badUUIDLength(field: field, bytes: range.count), offset: tag.offset)
    }
    return UUIDBytes(
      high: UInt64(bigEndian: buffer.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self)),
      low: UInt64(bigEndian: buffer.loadUnaligned(fromByteOffset: range.lowerBound + 8, as: UInt64.self)))
  }

  // MARK: - Helpers

  /// A reader over the embedded message of a length-delimited field.
  func message(_ reader: inout ProtobufReader, _ tag: FieldTag) throws -> ProtobufReader {
    try expect(tag, .lengthDelimited)
    return try reader.readMessage()
  }

  func expect(_ tag: FieldTag, _ wireType: WireType) throws {
    guard tag.wireType == wireType else {
      throw Failure(
        kind: .wrongWireType(field: tag.number, wireType: tag.wireType.rawValue), offset: tag.offset
      )
    }
  }

  /// Adds `count` to the drawing's point budget.
  /// - Throws: `.tooManyPoints` past `limits.maxPoints`.
  mutating func countPoints(_ count: UInt64, at offset: Int) throws {
    guard count <= UInt64(max(0, limits.maxPoints - pointCount)) else {
      throw Failure(kind: .tooManyPoints(limit: limits.maxPoints), offset: offset)
    }
    pointCount += Int(count)
  }

  mutating func countPoints(_ count: Int, at offset: Int) throws {
    try countPoints(UInt64(count), at: offset)
  }

  @inline(__always)
  func loadFloat(_ offset: Int) -> Float {
    Float(
      bitPattern: UInt32(
        littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
  }
}
