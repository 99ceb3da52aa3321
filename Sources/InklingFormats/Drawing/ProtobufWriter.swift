// Writes the Protocol Buffers wire format: the counterpart of `ProtobufReader`.
//
// Invariants:
//  1. Output depends only on the calls made, never on memory addresses or time, so equal
//     input gives identical bytes.
//  2. `message(_:_:)` writes the length prefix in the minimal number of bytes: it reserves one
//     byte, writes the body, and only when the body is 128 bytes or more shifts it to make room
//     for a longer prefix (one `memmove` per nesting level; drawings nest 3–4 levels).
//  3. Field numbers are in 1…2^29 − 1 (checked by `precondition`: a bad number is our bug).

/// Builds protobuf wire-format bytes.
///
/// ```swift
/// var writer = ProtobufWriter()
/// writer.message(2) { id in
///   id.varint(1, clock); id.varint(2, replica); id.varint(3, subclock)
/// }
/// let bytes = writer.bytes
/// ```
package struct ProtobufWriter {
  package var bytes: [UInt8]

  package init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  // MARK: - Raw values

  /// Appends a base-128 varint (1–10 bytes).
  @inline(__always)
  package mutating func rawVarint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  @inline(__always)
  package mutating func rawFixed32(_ value: UInt32) {
    bytes.append(UInt8(truncatingIfNeeded: value))
    bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    bytes.append(UInt8(truncatingIfNeeded: value >> 16))
    bytes.append(UInt8(truncatingIfNeeded: value >> 24))
  }

  @inline(__always)
  package mutating func rawFixed64(_ value: UInt64) {
    rawFixed32(UInt32(truncatingIfNeeded: value))
    rawFixed32(UInt32(truncatingIfNeeded: value >> 32))
  }

  /// Appends a field header.
  @inline(__always)
  package mutating func tag(_ field: Int, _ wireType: WireType) {
    precondition(
      field >= 1 && field <= (1 << 29) - 1, "our bug: field number \(field) out of range")
    rawVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
  }

  /// The number of bytes `rawVarint(value)` appends.
  @inline(__always)
  package static func varintSize(_ value: UInt64) -> Int {
    // 1 + floor(significant bits − 1) / 7, and 1 for zero.
    let bits = 64 - (value | 1).leadingZeroBitCount
    return (bits + 6) / 7
  }

  // MARK: - Fields

  package mutating func varint(_ field: Int, _ value: UInt64) {
    tag(field, .varint)
    rawVarint(value)
  }

  package mutating func bool(_ field: Int, _ value: Bool) {
    varint(field, value ? 1 : 0)
  }

  package mutating func fixed32(_ field: Int, _ value: UInt32) {
    tag(field, .fixed32)
    rawFixed32(value)
  }

  package mutating func fixed64(_ field: Int, _ value: UInt64) {
    tag(field, .fixed64)
    rawFixed64(value)
  }

  package mutating func float(_ field: Int, _ value: Float) {
    fixed32(field, value.bitPattern)
  }

  package mutating func double(_ field: Int, _ value: Double) {
    fixed64(field, value.bitPattern)
  }

  /// A length-delimited field holding `value`.
  package mutating func bytes<C: Collection>(_ field: Int, _ value: C) where C.Element == UInt8 {
    tag(field, .lengthDelimited)
    rawVarint(UInt64(value.count))
    bytes.append(contentsOf: value)
  }

  package mutating func string(_ field: Int, _ value: String) {
    bytes(field, value.utf8)
  }

  /// A length-delimited field whose content `body` writes (an embedded message, or packed data).
  @inline(__always)
  package mutating func message(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
    tag(field, .lengthDelimited)
    let lengthAt = bytes.count
    bytes.append(0)  // room for a one-byte length
    body(&self)
    let length = bytes.count - lengthAt - 1
    if length < 0x80 {
      bytes[lengthAt] = UInt8(length)
      return
    }
    let prefixSize = Self.varintSize(UInt64(length))
    let extra = prefixSize - 1
    bytes.append(contentsOf: repeatElement(0, count: extra))
    bytes.withUnsafeMutableBufferPointer { buffer in
      let base = buffer.baseAddress!
      // Move the body right by `extra` (moveInitialize allows overlap; UInt8 is trivial), then
      // write the prefix in front of it.
      (base + lengthAt + 1 + extra).moveInitialize(from: base + lengthAt + 1, count: length)
      var value = UInt64(length)
      for index in 0..<prefixSize {
        buffer[lengthAt + index] =
          UInt8(truncatingIfNeeded: value) | (index < prefixSize - 1 ? 0x80 : 0)
        value >>= 7
      }
    }
  }
}
