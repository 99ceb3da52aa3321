// Why a drawing could not be read: one case per kind of damage, each with the numbers a
// person needs to act on it, where in the drawing it happened and at which byte.
//
// "Corrupt" and "unknown format" are kept apart: bytes that are not a drawing this reader knows
// (no `wrd` header, a newer format version, point properties it has never seen) are not an
// error at all; `DrawingReader.read` returns `.unreadable` for them so the archive stores them
// as they are. Only `Drawing(bytes:)` reports them as an error, `.unrecognizedFormat`.

/// A drawing that could not be decoded, with what is wrong and where.
///
/// `description` reads like "stroke 12: point data is 1,203 bytes but 100 points × 14 bytes
/// need 1,400 (byte 512)".
public struct DrawingReadError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Kind: Hashable, Sendable {
    // MARK: Container
    /// The data is bigger than `DrawingLimits.maxBytes`.
    case inputTooLarge(bytes: Int, limit: Int)
    /// The data starts like a drawing header but ends before its 8 bytes.
    case truncatedHeader(bytes: Int)
    /// Header bytes 6–7 give a length below 8 or beyond the data.
    case badHeaderLength(headerLength: Int, totalBytes: Int)
    /// The gzip stream is damaged or truncated (zlib's message).
    case gzipCorrupt(String)
    /// The gzip stream unpacks to more than `DrawingLimits.maxBytes` (a gzip bomb).
    case gzipTooLarge(limit: Int)
    /// Not damage: the bytes are not a drawing this reader knows (`Drawing(bytes:)` only).
    case unrecognizedFormat(String)

    // MARK: Wire format
    case truncated
    case varintTooLong
    case lengthPastEnd(length: UInt64, remaining: Int)
    case groupNotSupported(field: UInt64)
    case invalidWireType(UInt8)
    case invalidFieldNumber(UInt64)
    /// A known field arrived with a wire type its type does not use.
    case wrongWireType(field: UInt64, wireType: UInt8)

    // MARK: Values
    /// A UUID field is not 16 bytes.
    case badUUIDLength(field: String, bytes: Int)
    /// `StrokeData.7` does not hold N records of the varying mask's stride.
    case pointDataSize(points: UInt64, stride: Int, bytes: Int)
    /// `StrokeData.6` does not hold one value per bit of the constant mask.
    case constantsSize(mask: UInt64, expected: Int, bytes: Int)
    /// A property bit is in both the varying and the constant mask.
    case propertyInBothMasks(UInt64)
    /// A mask polygon is not a whole number of (x, y) float pairs.
    case maskPolygonSize(bytes: Int)
    /// Packed slices are not a whole number of floats.
    case slicesSize(bytes: Int)
    /// `Stroke.4` names an ink the ink table does not have.
    case inkIndexOutOfRange(index: UInt64, inkCount: Int)

    // MARK: Limits
    case tooManyInks(limit: Int)
    case tooManyStrokes(limit: Int)
    case tooManyPoints(limit: Int)
    case tooManyReplicas(limit: Int)
    case nestingTooDeep(limit: Int)
  }

  public var kind: Kind
  /// Where in the drawing: "drawing", "ink 2", "stroke 12", "stroke 3 › substroke 1 › path".
  /// Indices start at 0, as in `Drawing.strokes`.
  public var location: String
  /// The byte offset in the drawing data (after gunzip when it was gzipped), when known.
  public var offset: Int?

  public init(_ kind: Kind, location: String = "drawing", offset: Int? = nil) {
    self.kind = kind
    self.location = location
    self.offset = offset
  }

  public var description: String {
    let at = offset.map { " (byte \(grouped($0)))" } ?? ""
    return "\(location): \(explanation)\(at)"
  }

  private var explanation: String {
    switch kind {
    case .inputTooLarge(let bytes, let limit):
      "the data is \(grouped(bytes)) bytes, more than the limit of \(grouped(limit))"
    case .truncatedHeader(let bytes):
      "the data starts like a drawing header but is only \(bytes) bytes long; the header needs 8"
    case .badHeaderLength(let length, let total):
      "the header says the drawing starts at byte \(grouped(length)), but that must be 8 or more "
        + "and within the \(grouped(total)) bytes of data"
    case .gzipCorrupt(let message): "the gzip data is damaged: \(message)"
    case .gzipTooLarge(let limit):
      "the gzip data unpacks to more than \(grouped(limit)) bytes (the limit); refusing a likely gzip bomb"
    case .unrecognizedFormat(let reason): "not readable: \(reason)"
    case .truncated: "the data ends inside a value; it is truncated"
    case .varintTooLong: "a varint is longer than 10 bytes"
    case .lengthPastEnd(let length, let remaining):
      "a field claims \(grouped(length)) bytes but only \(grouped(remaining)) remain; the data is truncated or damaged"
    case .groupNotSupported(let field):
      "field \(field) uses the deprecated group encoding (wire type 3/4), which drawings never use"
    case .invalidWireType(let type): "wire type \(type) does not exist; the data is damaged"
    case .invalidFieldNumber(let number): "field number \(number) is not valid; the data is damaged"
    case .wrongWireType(let field, let type):
      "field \(field) has wire type \(type), which does not fit its type"
    case .badUUIDLength(let field, let bytes): "\(field) is \(bytes) bytes; a UUID is 16"
    case .pointDataSize(let points, let stride, let bytes):
      pointDataExplanation(points: points, stride: stride, bytes: bytes)
    case .constantsSize(let mask, let expected, let bytes):
      "constants are \(grouped(bytes)) bytes but constant mask 0x\(String(mask, radix: 16, uppercase: true)) "
        + "needs \(expected)"
    case .propertyInBothMasks(let bits):
      "point property 0x\(String(bits, radix: 16, uppercase: true)) is in both the varying and the constant mask"
    case .maskPolygonSize(let bytes):
      "a mask polygon is \(grouped(bytes)) bytes, not a whole number of 8-byte (x, y) pairs"
    case .slicesSize(let bytes):
      "the slices are \(grouped(bytes)) bytes, not a whole number of floats"
    case .inkIndexOutOfRange(let index, let count):
      "ink index \(index) is out of range; the drawing has \(count) ink\(count == 1 ? "" : "s")"
    case .tooManyInks(let limit): "more than \(grouped(limit)) inks (the limit)"
    case .tooManyStrokes(let limit):
      "more than \(grouped(limit)) strokes and substrokes (the limit)"
    case .tooManyPoints(let limit): "more than \(grouped(limit)) points in the drawing (the limit)"
    case .tooManyReplicas(let limit):
      "more than \(grouped(limit)) replicas or version entries (the limit)"
    case .nestingTooDeep(let limit): "substrokes nest more than \(limit) levels deep (the limit)"
    }
  }

  private func pointDataExplanation(points: UInt64, stride: Int, bytes: Int) -> String {
    let (need, overflow) = points.multipliedReportingOverflow(by: UInt64(stride))
    let needText = overflow ? "more than 2^64" : grouped(need)
    return
      "point data is \(grouped(bytes)) bytes but \(grouped(points)) points × \(stride) bytes need \(needText)"
  }
}

/// `1234567` → `"1,234,567"`: numbers people read in error messages.
private func grouped<T: BinaryInteger>(_ value: T) -> String {
  let digits = String(value.magnitude)
  var out = ""
  out.reserveCapacity(digits.count + digits.count / 3 + 1)
  if value < 0 { out.append("-") }
  for (index, digit) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
    out.append(digit)
  }
  return out
}
