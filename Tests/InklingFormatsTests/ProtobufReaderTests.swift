// The wire reader and writer on their own: every bound, every wire type, exact offsets.

import Testing

@testable import InklingFormats

/// Runs `body` with a reader over `bytes`.
private func reading<T>(_ bytes: [UInt8], _ body: (inout ProtobufReader) throws -> T) rethrows -> T {
  try bytes.withUnsafeBytes { raw in
    var reader = ProtobufReader(raw)
    return try body(&reader)
  }
}

/// The error `body` throws on `bytes`, or nil.
private func wireError(_ bytes: [UInt8], _ body: (inout ProtobufReader) throws -> Void)
  -> ProtobufError?
{
  do {
    try reading(bytes, body)
    return nil
  } catch let error as ProtobufError {
    return error
  } catch {
    Issue.record("unexpected \(error)")
    return nil
  }
}

@Suite struct ProtobufReaderTests {
  @Test func varints() throws {
    #expect(try reading([0x00]) { try $0.readVarint() } == 0)
    #expect(try reading([0x7F]) { try $0.readVarint() } == 127)
    #expect(try reading([0xAC, 0x02]) { try $0.readVarint() } == 300)
    #expect(
      try reading([UInt8](repeating: 0xFF, count: 9) + [0x01]) { try $0.readVarint() } == UInt64.max
    )
    // Bits past 64 in the tenth byte are dropped, not trapped on.
    #expect(
      try reading([UInt8](repeating: 0xFF, count: 9) + [0x7F]) { try $0.readVarint() } == UInt64.max
    )
    // Non-minimal encodings are accepted (protobuf allows them).
    #expect(try reading([0x80, 0x80, 0x00]) { try $0.readVarint() } == 0)
  }

  @Test func varintErrors() {
    #expect(
      wireError([UInt8](repeating: 0x80, count: 10) + [0x00]) { _ = try $0.readVarint() }
        == ProtobufError(.varintTooLong, offset: 0))
    #expect(
      wireError([UInt8](repeating: 0xFF, count: 20)) { _ = try $0.readVarint() }?.kind
        == .varintTooLong)
    #expect(
      wireError([0x01, 0x80, 0x80]) {
        _ = try $0.readVarint()
        _ = try $0.readVarint()
      } == ProtobufError(.truncated, offset: 1))
    #expect(wireError([]) { _ = try $0.readVarint() } == ProtobufError(.truncated, offset: 0))
  }

  @Test func fixedWidthValues() throws {
    #expect(try reading([0x78, 0x56, 0x34, 0x12]) { try $0.readFixed32() } == 0x1234_5678)
    #expect(
      try reading([1, 2, 3, 4, 5, 6, 7, 8]) { try $0.readFixed64() } == 0x0807_0605_0403_0201)
    #expect(try reading([0, 0, 0x80, 0x3F]) { try $0.readFloat() } == 1)
    #expect(
      wireError([1, 2, 3]) { _ = try $0.readFixed32() } == ProtobufError(.truncated, offset: 0))
    #expect(
      wireError([1, 2, 3, 4, 5, 6, 7]) { _ = try $0.readFixed64() }
        == ProtobufError(.truncated, offset: 0))
  }

  @Test func lengthDelimited() throws {
    #expect(try reading([0x03, 9, 8, 7, 6]) { try $0.readBytes() } == [9, 8, 7])
    #expect(try reading([0x02, 0x68, 0x69]) { try $0.readString() } == "hi")
    // Invalid UTF-8 is repaired, not rejected.
    #expect(try reading([0x02, 0xFF, 0xFE]) { try $0.readString() } == "\u{FFFD}\u{FFFD}")
    #expect(
      wireError([0x04, 1, 2]) { _ = try $0.readBytes() }
        == ProtobufError(.lengthPastEnd(length: 4, remaining: 2), offset: 0))
    // A length near 2^64 cannot overflow the bounds check.
    var huge = ProtobufWriter()
    huge.rawVarint(UInt64.max - 1)
    #expect(
      wireError(huge.bytes) { _ = try $0.readBytes() }?.kind
        == .lengthPastEnd(length: UInt64.max - 1, remaining: 0))
  }

  @Test func nestedReadersAreBoundedAndReportAbsoluteOffsets() throws {
    // Field 1: a message of 2 bytes holding a truncated varint; then more bytes outside it.
    let bytes: [UInt8] = [0x0A, 0x02, 0x08, 0x80, 0x01, 0x01]
    let error = wireError(bytes) { outer in
      let tag = try #require(try outer.readTag())
      #expect(tag.number == 1 && tag.wireType == .lengthDelimited)
      var inner = try outer.readMessage()
      #expect(inner.remaining == 2)
      _ = try inner.readTag()
      _ = try inner.readVarint()  // 0x80 continues past the message end: truncated, not read on
    }
    #expect(error == ProtobufError(.truncated, offset: 3))
  }

  @Test func tags() throws {
    let tag = try reading([0xA2, 0x06]) { try $0.readTag() }
    #expect(tag == FieldTag(number: 100, wireType: .lengthDelimited, offset: 0))
    #expect(try reading([]) { try $0.readTag() } == nil)
    // Field 0 is checked before the wire type.
    #expect(wireError([0x03]) { _ = try $0.readTag() }?.kind == .invalidFieldNumber(0))
    #expect(wireError([0x0B]) { _ = try $0.readTag() }?.kind == .groupNotSupported(field: 1))
    #expect(wireError([0x0C]) { _ = try $0.readTag() }?.kind == .groupNotSupported(field: 1))
    #expect(wireError([0x0E]) { _ = try $0.readTag() }?.kind == .invalidWireType(6))
    #expect(wireError([0x02]) { _ = try $0.readTag() }?.kind == .invalidFieldNumber(0))
    var big = ProtobufWriter()
    big.rawVarint(UInt64(1 << 29) << 3)
    #expect(wireError(big.bytes) { _ = try $0.readTag() }?.kind == .invalidFieldNumber(1 << 29))
  }

  @Test func skipsEveryWireType() throws {
    var w = ProtobufWriter()
    w.varint(1, 300)
    w.fixed64(2, 1)
    w.bytes(3, [1, 2, 3])
    w.fixed32(4, 1)
    w.varint(5, 42)
    let value = try reading(w.bytes) { reader -> UInt64? in
      while let tag = try reader.readTag() {
        if tag.number == 5 { return try reader.readVarint() }
        try reader.skip(tag)
      }
      return nil
    }
    #expect(value == 42)
    // Skipping a value that runs past the end fails like reading it.
    #expect(
      wireError([0x11, 1, 2]) { r in try r.skip(try #require(try r.readTag())) }
        == ProtobufError(.truncated, offset: 1))
  }
}

@Suite struct ProtobufWriterTests {
  @Test func varintsRoundTripAndSizesAreExact() throws {
    for value: UInt64 in [
      0, 1, 127, 128, 300, 16_383, 16_384, 1 << 35, UInt64.max >> 1, UInt64.max,
    ] {
      var w = ProtobufWriter()
      w.rawVarint(value)
      #expect(w.bytes.count == ProtobufWriter.varintSize(value))
      #expect(try reading(w.bytes) { try $0.readVarint() } == value)
    }
  }

  @Test func messagesOfEveryLengthPrefixSize() throws {
    for length in [0, 1, 127, 128, 300, 16_383, 16_384, 70_000] {
      var w = ProtobufWriter()
      w.varint(1, 7)
      w.message(2) { m in
        m.bytes.append(contentsOf: repeatElement(0xAB, count: max(0, length - 1)))
        if length > 0 { m.bytes.append(0xCD) }  // marks the end: a wrong shift would move it
      }
      w.varint(3, 9)
      #expect(w.bytes.count == 2 + 1 + ProtobufWriter.varintSize(UInt64(length)) + length + 2)
      try reading(w.bytes) { r in
        #expect(try r.readTag()?.number == 1)
        _ = try r.readVarint()
        #expect(try r.readTag()?.number == 2)
        let body = try r.readBytes()
        #expect(body.count == length)
        #expect(body.last == (length > 0 ? 0xCD : nil))
        #expect(body.first == (length > 1 ? 0xAB : body.last))
        #expect(try r.readTag()?.number == 3)
        #expect(try r.readVarint() == 9)
        #expect(r.isAtEnd)
      }
    }
  }

  @Test func nestedLongMessages() throws {
    var w = ProtobufWriter()
    w.message(1) { a in
      a.message(2) { b in b.bytes(3, [UInt8](repeating: 0xAB, count: 200)) }
      a.varint(4, 1)
    }
    try reading(w.bytes) { r in
      _ = try r.readTag()
      var a = try r.readMessage()
      _ = try a.readTag()
      var b = try a.readMessage()
      _ = try b.readTag()
      #expect(try b.readBytes() == [UInt8](repeating: 0xAB, count: 200))
      #expect(try a.readTag()?.number == 4)
    }
  }
}
