// A strict, allocation-light JSON scanner over raw bytes (RFC 8259). The envelope parser
// needs what a general JSON library does not give: the exact byte span of one string's
// content, so that everything else of the file can be kept as it was written.

/// Why a JSON text was refused, with the byte offset where it went wrong.
struct JSONSyntaxError: Error {
  let offset: Int
  let message: String
}

struct JSONScanner {
  /// Containers nested deeper than this are refused instead of followed.
  static let maximumDepth = 512

  let bytes: UnsafeRawBufferPointer
  var position: Int

  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
    // A UTF-8 byte order mark is tolerated, as Foundation's JSON reader does.
    position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
  }

  var isAtEnd: Bool { position >= bytes.count }

  func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(offset: position, message: message) }

  mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  /// The next byte after whitespace, without consuming it.
  mutating func peek() -> UInt8? {
    skipWhitespace()
    return isAtEnd ? nil : bytes[position]
  }

  mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
    guard peek() == byte else {
      throw error(isAtEnd ? "the text ends where \(what) was expected" : "expected \(what)")
    }
    position += 1
  }

  // MARK: - Strings

  /// A string token: the span of its content between the quotes, and whether it holds escapes.
  struct StringToken {
    let contentStart: Int
    let contentEnd: Int
    let hasEscapes: Bool
  }

  /// Scans a string, checking its escapes and that it has no raw control characters.
  mutating func scanString() throws(JSONSyntaxError) -> StringToken {
    try expect(UInt8(ascii: "\""), "a string")
    let start = position
    var hasEscapes = false
    while position < bytes.count {
      // Eight bytes a step while none ends the string or needs a look (a drawing's base64
      // text is nearly the whole file), then straight to the first that does.
      if position + 8 <= bytes.count {
        let marks = Self.stringTextMarks(bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
        guard marks != 0 else {
          position += 8
          continue
        }
        position += marks.trailingZeroBitCount >> 3
      }
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        return StringToken(contentStart: start, contentEnd: position - 1, hasEscapes: hasEscapes)
      }
      if byte < 0x20 { throw error("a control character inside a string") }
      if byte == UInt8(ascii: "\\") {
        hasEscapes = true
        guard position + 1 < bytes.count else { break }
        switch bytes[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          position += 2
        case UInt8(ascii: "u"):
          guard position + 6 <= bytes.count, (2..<6).allSatisfy({ Self.hexValue(bytes[position + $0]) != nil })
          else { throw error("a bad \\u escape") }
          position += 6
        default:
          throw error("an unknown escape")
        }
        continue
      }
      position += 1
    }
    throw error("a string that never ends")
  }

  /// 0x80 in the first byte of `word` (in memory order) that is a quote, a backslash or a
  /// control character (below 0x20), and perhaps in later bytes; 0 when there is none. The
  /// has-zero-byte and has-less-than tests are exact up to the first byte they mark.
  @inline(__always)
  static func stringTextMarks(_ memoryOrder: UInt64) -> UInt64 {
    let word = UInt64(littleEndian: memoryOrder)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let marks =
      ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
    return marks & 0x8080_8080_8080_8080
  }

  /// The decoded text of a scanned string.
  func text(of token: StringToken) -> String {
    let raw = UnsafeRawBufferPointer(rebasing: bytes[token.contentStart..<token.contentEnd])
    guard token.hasEscapes else { return String(decoding: raw, as: UTF8.self) }
    return String(decoding: Self.unescape(raw), as: UTF8.self)
  }

  /// The bytes a string's content stands for. The content must have been checked by
  /// `scanString`; unpaired surrogates become U+FFFD as in Foundation.
  static func unescape(_ raw: UnsafeRawBufferPointer) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(raw.count)
    var index = 0
    func hex4(_ at: Int) -> UInt32 {
      (0..<4).reduce(0) { $0 << 4 | UInt32(hexValue(raw[at + $1]) ?? 0) }
    }
    while index < raw.count {
      let byte = raw[index]
      guard byte == UInt8(ascii: "\\") else {
        output.append(byte)
        index += 1
        continue
      }
      let kind = raw[index + 1]
      index += 2
      switch kind {
      case UInt8(ascii: "b"): output.append(0x08)
      case UInt8(ascii: "f"): output.append(0x0C)
      case UInt8(ascii: "n"): output.append(0x0A)
      case UInt8(ascii: "r"): output.append(0x0D)
      case UInt8(ascii: "t"): output.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = hex4(index)
        index += 4
        if (0xD800..<0xDC00).contains(scalar), index + 6 <= raw.count, raw[index] == UInt8(ascii: "\\"),
          raw[index + 1] == UInt8(ascii: "u")
        {
          let low = hex4(index + 2)
          if (0xDC00..<0xE000).contains(low) {
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            index += 6
          }
        }
        let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
        output.append(contentsOf: String(Character(character)).utf8)
      default: output.append(kind)  // \" \\ \/
      }
    }
    return output
  }

  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  // MARK: - Numbers

  /// Scans a number in JSON's grammar and converts it with correct rounding.
  mutating func scanNumber() throws(JSONSyntaxError) -> Double {
    skipWhitespace()
    let start = position
    func digits() -> Int {
      let from = position
      while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
        position += 1
      }
      return position - from
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
    let integerStart = position
    let integerDigits = digits()
    guard integerDigits > 0 else { throw error("expected a number") }
    if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
      throw JSONSyntaxError(offset: integerStart, message: "a number with a leading zero")
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      guard digits() > 0 else { throw error("a number with no digits after its point") }
    }
    if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      position += 1
      if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
        position += 1
      }
      guard digits() > 0 else { throw error("a number with no digits in its exponent") }
    }
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw JSONSyntaxError(offset: start, message: "the number \(text) is too large for a Double")
    }
    return value
  }

  // MARK: - Any value

  /// Skips one value of any kind, checking its syntax, without recursion.
  mutating func skipValue() throws(JSONSyntaxError) {
    // Open containers: true for an object, false for an array.
    var open: [Bool] = []
    repeat {
      // A value.
      switch peek() {
      case UInt8(ascii: "{"):
        position += 1
        guard open.count < Self.maximumDepth else { throw error("containers nested too deeply") }
        open.append(true)
        if peek() == UInt8(ascii: "}") {
          position += 1
          open.removeLast()
          break
        }
        _ = try scanString()
        try expect(UInt8(ascii: ":"), "':'")
        continue
      case UInt8(ascii: "["):
        position += 1
        guard open.count < Self.maximumDepth else { throw error("containers nested too deeply") }
        open.append(false)
        if peek() == UInt8(ascii: "]") {
          position += 1
          open.removeLast()
          break
        }
        continue
      case UInt8(ascii: "\""): _ = try scanString()
      case UInt8(ascii: "t"): try literal("true")
      case UInt8(ascii: "f"): try literal("false")
      case UInt8(ascii: "n"): try literal("null")
      case nil: throw error("the text ends where a value was expected")
      default: _ = try scanNumber()
      }
      // After a value: a separator, or the end of one or more containers.
      while let isObject = open.last {
        let next = peek()
        if next == UInt8(ascii: ",") {
          position += 1
          if isObject {
            _ = try scanString()
            try expect(UInt8(ascii: ":"), "':'")
          }
          break
        }
        try expect(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"), isObject ? "',' or '}'" : "',' or ']'")
        open.removeLast()
      }
    } while !open.isEmpty
  }

  private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
    let count = word.utf8CodeUnitCount
    guard position + count <= bytes.count,
      UnsafeRawBufferPointer(rebasing: bytes[position..<position + count]).elementsEqual(
        UnsafeRawBufferPointer(start: word.utf8Start, count: count))
    else { throw error("an unknown word") }
    position += count
  }

  // MARK: - Encoding

  /// Whether the bytes are valid UTF-8, as JSON text must be.
  static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    let count = bytes.count
    while index < count {
      // ASCII eight bytes at a time: JSON text, and a drawing's base64, is nearly all ASCII.
      if index + 8 <= count, bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
        index += 8
        continue
      }
      let byte = bytes[index]
      if byte < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var minimum: UInt32
      var scalar: UInt32
      switch byte {
      case 0xC2...0xDF:
        length = 2
        minimum = 0x80
        scalar = UInt32(byte & 0x1F)
      case 0xE0...0xEF:
        length = 3
        minimum = 0x800
        scalar = UInt32(byte & 0x0F)
      case 0xF0...0xF4:
        length = 4
        minimum = 0x10000
        scalar = UInt32(byte & 0x07)
      default: return false
      }
      guard index + length <= count else { return false }
      for offset in 1..<length {
        let continuation = bytes[index + offset]
        guard continuation & 0xC0 == 0x80 else { return false }
        scalar = scalar << 6 | UInt32(continuation & 0x3F)
      }
      guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return false }
      index += length
    }
    return true
  }
}
