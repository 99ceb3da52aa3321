// Decodes `StrokeData`, a stroke's path (docs/pkdrawing-format.md, "StrokeData").
//
// Checks, in this order, before any point is decoded:
//  1. Both masks hold only known bits (else: a newer format, `Unrecognized`).
//  2. No bit is in both masks.
//  3. `len(constants) == size(constant mask)`.
//  4. `len(points) == stride(varying mask) × N`, multiplied without overflow.
//  5. N fits the drawing's point budget (`DrawingLimits.maxPoints`): with a stride of 0, check 4
//     holds for any N, so this is what stops 12 bytes from claiming 2^60 points.
// Then the points are decoded in one pass into an array allocated once, or, when the caller
// asked (`leavePointsEncoded`), left where they are (EncodedPoints).

extension DrawingDecoder {
  mutating func readStrokeData(_ outer: inout ProtobufReader, _ outerTag: FieldTag) throws
    -> StrokePath
  {
    var reader = try message(&outer, outerTag)
    var uuid: UUIDBytes?
    var creationDate = 0.0
    var count: UInt64 = 0
    var varying: UInt64 = 0
    var constant: UInt64 = 0
    var constants: Range<Int> = reader.position..<reader.position
    var points: Range<Int> = reader.position..<reader.position
    var pointsOffset = outerTag.offset
    var constantsOffset = outerTag.offset
    var createdWithFinger = false
    while let tag = try reader.readTag() {
      switch tag.number {
      case 1: uuid = try readUUID(&reader, tag, field: "path UUID")
      case 2:
        try expect(tag, .fixed64)
        creationDate = try reader.readDouble()
      case 3:
        try expect(tag, .varint)
        count = try reader.readVarint()
      case 4:
        try expect(tag, .varint)
        varying = try reader.readVarint()
      case 5:
        try expect(tag, .varint)
        constant = try reader.readVarint()
      case 6:
        try expect(tag, .lengthDelimited)
        constantsOffset = tag.offset
        constants = try reader.readLengthDelimitedRange()
      case 7:
        try expect(tag, .lengthDelimited)
        pointsOffset = tag.offset
        points = try reader.readLengthDelimitedRange()
      case 8:
        try expect(tag, .varint)
        createdWithFinger = try reader.readVarint() != 0
      default: try reader.skip(tag)
      }
    }

    let known = PointProperties.known.rawValue
    let unknownBits = (varying | constant) & ~known
    guard unknownBits == 0 else {
      throw Unrecognized(
        reason:
          "point property bits 0x\(String(unknownBits, radix: 16, uppercase: true)) are unknown "
          + "to this reader (a newer PencilKit format?)")
    }
    guard varying & constant == 0 else {
      throw Failure(kind: .propertyInBothMasks(varying & constant), offset: outerTag.offset)
    }
    let constantsSize = PointPropertyCoding.size(of: constant)
    guard constants.count == constantsSize else {
      throw Failure(
        kind: .constantsSize(mask: constant, expected: constantsSize, bytes: constants.count),
        offset: constantsOffset)
    }
    let stride = PointPropertyCoding.size(of: varying)
    let (needed, overflow) = count.multipliedReportingOverflow(by: UInt64(stride))
    guard !overflow && needed == UInt64(points.count) else {
      throw Failure(
        kind: .pointDataSize(points: count, stride: stride, bytes: points.count),
        offset: pointsOffset)
    }
    try countPoints(count, at: pointsOffset)

    // The path is made once, with its points or their place: a path made and then changed
    // would be copied twice, a retain and a release of each of its arrays, for every stroke.
    let encoded =
      leavePointsEncoded && count > 0
      ? EncodedPoints(count: Int(count), records: points.lowerBound, constants: constants.lowerBound) : nil
    var decoded: [StrokePoint] = []
    if encoded == nil {
      let base = PointPropertyCoding.base(
        constant: constant, from: constantsSize > 0 ? buffer.baseAddress.map { $0 + constants.lowerBound } : nil)
      let first = buffer.baseAddress.map { $0 + points.lowerBound }
      decoded = PointPropertyCoding.decodePoints(count: Int(count), mask: varying, from: first, base: base)
    }
    return StrokePath(
      uuid: uuid, creationDate: creationDate, points: decoded, varyingProperties: PointProperties(rawValue: varying),
      constantProperties: PointProperties(rawValue: constant), createdWithFinger: createdWithFinger,
      encodedPoints: encoded)
  }
}
