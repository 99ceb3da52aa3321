// A bounds-checked reader of the Protocol Buffers wire format
// (the Protocol Buffers "Encoding" guide), enough to decode PencilKit drawings.
//
// Invariants:
//  1. `position <= end <= buffer.count` at all times; every read checks the bytes it needs
//     against `end` before touching memory, so no input can make the reader read outside the
//     buffer or trap.
//  2. Offsets in errors are absolute: a reader for a nested message shares the buffer of its
//     parent, so a message error points at the byte in the whole input.
//  3. Lengths are compared against the remaining bytes as unsigned 64-bit values before they
//     are converted to `Int`, so a length of 2^64 − 1 cannot overflow an addition.
//  4. Groups (wire types 3 and 4) are rejected: protobuf deprecated them, PencilKit does not
//     use them, and skipping them would need recursion that the input controls.
//
// The reader borrows an `UnsafeRawBufferPointer`: use it only inside the `withUnsafeBytes`
// call that produced the pointer.

/// The four wire types this reader accepts.
package enum WireType: UInt8, Sendable, CustomStringConvertible {
  case varint = 0
  case fixed64 = 1
  case lengthDelimited = 2
  case fixed32 = 5

  package var description: String {
    switch self {
    case .varint: "varint"
    case .fixed64: "64-bit"
    case .lengthDelimited: "length-delimited"
    case .fixed32: "32-bit"
    }
  }
}

/// Why the wire format could not be read, and where.
package struct ProtobufError: Error, Hashable, Sendable, CustomStringConvertible {
  package enum Kind: Hashable, Sendable {
    /// The input ends inside a value.
    case truncated
    /// A varint continues past 10 bytes.
    case varintTooLong
    /// A length-delimited field claims more bytes than remain in its message.
    case lengthPastEnd(length: UInt64, remaining: Int)
    /// Wire type 3 or 4 (groups): deprecated and not used by PencilKit.
    case groupNotSupported(field: UInt64)
    /// Wire type 6 or 7: not defined by protobuf.
    case invalidWireType(UInt8)
    /// Field number 0 or above 2^29 − 1.
    case invalidFieldNumber(UInt64)
  }

  package var kind: Kind
  /// The absolute offset of the value that could not be read.
  package var offset: Int

  package init(_ kind: Kind, offset: Int) {
    self.kind = kind
    self.offset = offset
  }

  package var description: String {
    let what: String
    switch kind {
    case .truncated: what = "the data ends inside a value"
    case .varintTooLong: what = "a varint is longer than 10 bytes"
    case .lengthPastEnd(let length, let remaining):
      what = "a field claims \(length) bytes but only \(remaining) remain"
    case .groupNotSupported(let field): what = "field \(field) is a group (wire type 3/4)"
    case .invalidWireType(let type): what = "wire type \(type) does not exist"
    case .invalidFieldNumber(let number): what = "field number \(number) is not valid"
    }
    return "\(what) (byte \(offset))"
  }
}

/// A field header: its number and how its value is encoded.
package struct FieldTag: Hashable, Sendable {
  package var number: UInt64
  package var wireType: WireType
  /// The absolute offset of the tag, for error messages.
  package var offset: Int
}

/// Reads protobuf wire-format values from a borrowed byte buffer, checking every bound.
///
/// ```swift
/// try bytes.withUnsafeBytes { raw in
///   var reader = ProtobufReader(raw)
///   while let tag = try reader.readTag() {
///     switch tag.number {
///     case 1: clock = try reader.readVarint()
///     default: try reader.skip(tag)
///     }
///   }
/// }
/// ```
package struct ProtobufReader {
  package let buffer: UnsafeRawBufferPointer
  /// The next byte to read (absolute).
  package private(set) var position: Int
  /// One past the last byte of the current message (absolute).
  package let end: Int

  /// A reader over all of `buffer`.
  package init(_ buffer: UnsafeRawBufferPointer) {
    self.buffer = buffer
    self.position = 0
    self.end = buffer.count
  }

  /// A reader over `buffer[range]`; offsets stay absolute.
  package init(_ buffer: UnsafeRawBufferPointer, range: Range<Int>) {
    precondition(
      range.lowerBound >= 0 && range.upperBound <= buffer.count,
      "caller's bug: range outside buffer")
    self.buffer = buffer
    self.position = range.lowerBound
    self.end = range.upperBound
  }

  package var isAtEnd: Bool { position >= end }
  package var remaining: Int { end - position }

  // MARK: - Scalars

  /// Reads a base-128 varint of at most 10 bytes; bits beyond 64 are dropped, as protobuf does.
  /// - Throws: `.truncated`, `.varintTooLong`.
  @inline(__always)
  package mutating func readVarint() throws(ProtobufError) -> UInt64 {
    if position < end {
      let first = buffer[position]
      if first < 0x80 {
        position += 1
        return UInt64(first)
      }
    }
    return try readVarintSlow()
  }

  private mutating func readVarintSlow() throws(ProtobufError) -> UInt64 {
    let start = position
    var result: UInt64 = 0
    var shift: UInt64 = 0
    var index = position
    while true {
      if index >= end { throw ProtobufError(.truncated, offset: start) }
      if index - start >= 10 { throw ProtobufError(.varintTooLong, offset: start) }
      let byte = buffer[index]
      index += 1
      result |= UInt64(byte & 0x7F) &<< shift  // shift 63 drops the high bits: no trap
      if byte < 0x80 { break }
      shift += 7
    }
    position = index
    return result
  }

  /// Reads a little-endian 32-bit value.
  /// - Throws: `.truncated`.
  @inline(__always)
  package mutating func readFixed32() throws(ProtobufError) -> UInt32 {
    guard end - position >= 4 else { throw ProtobufError(.truncated, offset: position) }
    let value = buffer.loadUnaligned(fromByteOffset: position, as: UInt32.self)
    position += 4
    return UInt32(littleEndian: value)
  }

  /// Reads a little-endian 64-bit value.
  /// - Throws: `.truncated`.
  @inline(__always)
  package mutating func readFixed64() throws(ProtobufError) -> UInt64 {
    guard end - position >= 8 else { throw ProtobufError(.truncated, offset: position) }
    let value = buffer.loadUnaligned(fromByteOffset: position, as: UInt64.self)
    position += 8
    return UInt64(littleEndian: value)
  }

  package mutating func readFloat() throws(ProtobufError) -> Float {
    Float(bitPattern: try readFixed32())
  }

  package mutating func readDouble() throws(ProtobufError) -> Double {
    Double(bitPattern: try readFixed64())
  }

  // MARK: - Length-delimited values

  /// Reads a length prefix and returns the absolute range of the bytes it covers.
  /// - Throws: `.truncated`, `.varintTooLong`, `.lengthPastEnd`.
  package mutating func readLengthDelimitedRange() throws(ProtobufError) -> Range<Int> {
    let start = position
    let length = try readVarint()
    let remaining = end - position
    // Compare as UInt64 before converting (invariant 3).
    guard length <= UInt64(remaining) else {
      throw ProtobufError(.lengthPastEnd(length: length, remaining: remaining), offset: start)
    }
    let range = position..<(position + Int(length))
    position = range.upperBound
    return range
  }

  /// Reads a length-delimited value and returns a reader over exactly its bytes.
  package mutating func readMessage() throws(ProtobufError) -> ProtobufReader {
    ProtobufReader(buffer, range: try readLengthDelimitedRange())
  }

  /// Reads a length-delimited value as bytes (a copy).
  package mutating func readBytes() throws(ProtobufError) -> [UInt8] {
    Array(UnsafeRawBufferPointer(rebasing: buffer[try readLengthDelimitedRange()]))
  }

  /// Reads a length-delimited value as UTF-8; invalid sequences become U+FFFD.
  package mutating func readString() throws(ProtobufError) -> String {
    String(
      decoding: UnsafeRawBufferPointer(rebasing: buffer[try readLengthDelimitedRange()]),
      as: UTF8.self)
  }

  // MARK: - Fields

  /// Reads the next field header, or returns nil at the end of the message.
  /// - Throws: `.invalidFieldNumber`, `.groupNotSupported`, `.invalidWireType`, or a varint error.
  @inline(__always)
  package mutating func readTag() throws(ProtobufError) -> FieldTag? {
    if position >= end { return nil }
    let start = position
    let key = try readVarint()
    let number = key >> 3
    guard number >= 1 && number <= (1 << 29) - 1 else {
      throw ProtobufError(.invalidFieldNumber(number), offset: start)
    }
    let rawType = UInt8(truncatingIfNeeded: key & 7)
    guard let wireType = WireType(rawValue: rawType) else {
      if rawType == 3 || rawType == 4 {
        throw ProtobufError(.groupNotSupported(field: number), offset: start)
      }
      throw ProtobufError(.invalidWireType(rawType), offset: start)
    }
    return FieldTag(number: number, wireType: wireType, offset: start)
  }

  /// Skips the value of a field this reader does not know.
  /// - Throws: `.truncated`, `.varintTooLong`, `.lengthPastEnd`.
  package mutating func skip(_ tag: FieldTag) throws(ProtobufError) {
    switch tag.wireType {
    case .varint: _ = try readVarint()
    case .fixed64: _ = try readFixed64()
    case .fixed32: _ = try readFixed32()
    case .lengthDelimited: _ = try readLengthDelimitedRange()
    }
  }
}
