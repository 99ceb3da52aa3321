// Standard base64 (RFC 4648 §4, padded), as Foundation's `Data.base64EncodedString()` writes
// it and `Data(base64Encoded:)` reads it. Our own because the import decodes every drawing
// and must know exactly which spelling it saw: anything this decoder accepts re-encodes to
// the same text only when it is canonical, which EnvelopeTemplate checks.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// 255 marks a byte outside the alphabet.
  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 255, count: 256)
    for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
    return table
  }()

  /// The length of the encoding of `count` bytes.
  static func encodedLength(_ count: Int) -> Int { (count + 2) / 3 * 4 }

  /// Appends the base64 text of `bytes`, writing `/` as `\/` when `escapeSlashes` is set
  /// (JSONEncoder's default spelling).
  static func encode(
    _ bytes: UnsafeRawBufferPointer, escapeSlashes: Bool, into output: inout [UInt8]
  ) {
    let plainLength = encodedLength(bytes.count)
    // Each escaped slash adds a byte; at most every character is one.
    let capacity = escapeSlashes ? plainLength * 2 : plainLength
    let start = output.count
    output.append(contentsOf: repeatElement(0, count: capacity))
    let written = output.withUnsafeMutableBufferPointer { buffer in
      alphabet.withUnsafeBufferPointer { table in
        encode(bytes, escapeSlashes: escapeSlashes, table: table, into: buffer.baseAddress! + start)
      }
    }
    output.removeLast(capacity - written)
  }

  /// Whether `text` is exactly the base64 of `bytes` in the given spelling, without building it.
  static func matches(
    _ bytes: UnsafeRawBufferPointer, escapeSlashes: Bool, _ text: UnsafeRawBufferPointer
  ) -> Bool {
    let plainLength = encodedLength(bytes.count)
    guard text.count >= plainLength, escapeSlashes || text.count == plainLength else {
      return false
    }
    // Encode in blocks of 3 KiB of input into a small buffer and compare as we go.
    let block = 3 * 1024
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: block / 3 * 4 * 2) { scratch in
      alphabet.withUnsafeBufferPointer { table in
        var input = 0
        var position = 0
        while input < bytes.count {
          let end = min(input + block, bytes.count)
          let count = encode(
            UnsafeRawBufferPointer(rebasing: bytes[input..<end]), escapeSlashes: escapeSlashes,
            table: table,
            into: scratch.baseAddress!)
          guard position + count <= text.count,
            memcmp(scratch.baseAddress!, text.baseAddress! + position, count) == 0
          else { return false }
          position += count
          input = end
        }
        return position == text.count
      }
    }
  }

  /// Writes the encoding of `bytes` (padded only if it ends the input) and returns its length.
  private static func encode(
    _ bytes: UnsafeRawBufferPointer, escapeSlashes: Bool, table: UnsafeBufferPointer<UInt8>,
    into output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    var out = 0
    @inline(__always) func put(_ sextet: UInt32) {
      let byte = table[Int(sextet & 63)]
      if escapeSlashes && byte == UInt8(ascii: "/") {
        output[out] = UInt8(ascii: "\\")
        out += 1
      }
      output[out] = byte
      out += 1
    }
    var index = 0
    let count = bytes.count
    while index + 3 <= count {
      let word =
        UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      put(word >> 18)
      put(word >> 12)
      put(word >> 6)
      put(word)
      index += 3
    }
    let rest = count - index
    if rest == 1 {
      let word = UInt32(bytes[index]) << 16
      put(word >> 18)
      put(word >> 12)
      output[out] = UInt8(ascii: "=")
      output[out + 1] = UInt8(ascii: "=")
      out += 2
    } else if rest == 2 {
      let word = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
      put(word >> 18)
      put(word >> 12)
      put(word >> 6)
      output[out] = UInt8(ascii: "=")
      out += 1
    }
    return out
  }

  /// What one pass over a JSON string's content found: the decoded bytes, and the spelling
  /// that gives the content back when encoded again (nil: no plain spelling does).
  struct JSONDecoding {
    let bytes: [UInt8]
    let escapedSlashes: Bool?
  }

  /// Decodes the content of a JSON string holding base64 in which `/` may be written `\/`,
  /// in one pass, and tells whether re-encoding gives the same text: it does exactly when
  /// every `/` is spelled alike and the padding bits are zero (canonical base64 is a
  /// bijection). Returns nil when the content is not base64 or holds other escapes.
  static func decodeJSONContent(_ text: UnsafeRawBufferPointer) -> JSONDecoding? {
    let count = text.count
    // The characters without the escapes' backslashes (at most `count`), and the slashes
    // of each spelling.
    var escaped = 0
    var plain = 0
    var sextets = [UInt8](repeating: 0, count: count)
    var length = 0
    let ok = sextets.withUnsafeMutableBufferPointer { out -> Bool in
      var index = 0
      while index < count {
        var byte = text[index]
        if byte == UInt8(ascii: "\\") {
          guard index + 1 < count, text[index + 1] == UInt8(ascii: "/") else { return false }
          escaped += 1
          index += 1
          byte = UInt8(ascii: "/")
        } else if byte == UInt8(ascii: "/") {
          plain += 1
        }
        out[length] = byte
        length += 1
        index += 1
      }
      return true
    }
    guard ok else { return nil }
    return sextets.withUnsafeBytes { raw -> JSONDecoding? in
      let characters = UnsafeRawBufferPointer(rebasing: raw[..<length])
      guard let bytes = decode(characters) else { return nil }
      // Padding bits: the unused low bits of the last character before '='.
      var canonical = true
      if length >= 4, characters[length - 1] == UInt8(ascii: "=") {
        let twoPads = characters[length - 2] == UInt8(ascii: "=")
        let last = values[Int(characters[length - (twoPads ? 3 : 2)])]
        canonical = last & (twoPads ? 0x0F : 0x03) == 0
      }
      let spelling: Bool? =
        !canonical || (escaped > 0 && plain > 0) ? nil : escaped > 0 || plain == 0
      return JSONDecoding(bytes: bytes, escapedSlashes: spelling)
    }
  }

  /// Decodes padded standard base64 whose characters are given by `text`, or returns nil
  /// when it is not base64 (bad character, bad length, misplaced padding).
  static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
    let count = text.count
    guard count % 4 == 0 else { return nil }
    if count == 0 { return [] }
    var padding = 0
    if text[count - 1] == UInt8(ascii: "=") {
      padding = text[count - 2] == UInt8(ascii: "=") ? 2 : 1
    }
    let outputCount = count / 4 * 3 - padding
    return values.withUnsafeBufferPointer { table -> [UInt8]? in
      var failed = false
      let output = [UInt8](unsafeUninitializedCapacity: outputCount) { buffer, initialized in
        var out = 0
        var index = 0
        while index < count {
          let last = index + 4 == count
          let a = table[Int(text[index])]
          let b = table[Int(text[index + 1])]
          var c = table[Int(text[index + 2])]
          var d = table[Int(text[index + 3])]
          if last {
            if padding >= 1 { d = 0 }
            if padding == 2 { c = 0 }
          }
          if (a | b | c | d) & 0xC0 != 0 {
            failed = true
            break
          }
          let word = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
          buffer[out] = UInt8(truncatingIfNeeded: word >> 16)
          out += 1
          if out < outputCount {
            buffer[out] = UInt8(truncatingIfNeeded: word >> 8)
            out += 1
          }
          if out < outputCount {
            buffer[out] = UInt8(truncatingIfNeeded: word)
            out += 1
          }
          index += 4
        }
        initialized = failed ? 0 : out
      }
      return failed ? nil : output
    }
  }
}
