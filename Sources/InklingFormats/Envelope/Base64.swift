// Standard base64 (RFC 4648 §4, padded), as Foundation's `Data.base64EncodedString()` writes
// it and `Data(base64Encoded:)` reads it. Our own because the import decodes every drawing
// and must know exactly which spelling it saw: anything this decoder accepts re-encodes to
// the same text only when it is canonical, which EnvelopeTemplate checks.

enum Base64 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

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
  static func encode(_ bytes: UnsafeRawBufferPointer, escapeSlashes: Bool, into output: inout [UInt8]) {
    // Escaped slashes are rare enough (1 character in 64) that a little slack covers them.
    output.reserveCapacity(output.count + encodedLength(bytes.count) * (escapeSlashes ? 9 : 8) / 8)
    alphabet.withUnsafeBufferPointer { table in
      func put(_ sextet: UInt32) {
        let byte = table[Int(sextet & 63)]
        if escapeSlashes && byte == UInt8(ascii: "/") { output.append(UInt8(ascii: "\\")) }
        output.append(byte)
      }
      var index = 0
      let count = bytes.count
      while index + 3 <= count {
        let word = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
        put(word >> 18); put(word >> 12); put(word >> 6); put(word)
        index += 3
      }
      let rest = count - index
      if rest == 1 {
        let word = UInt32(bytes[index]) << 16
        put(word >> 18); put(word >> 12)
        output.append(UInt8(ascii: "=")); output.append(UInt8(ascii: "="))
      } else if rest == 2 {
        let word = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
        put(word >> 18); put(word >> 12); put(word >> 6)
        output.append(UInt8(ascii: "="))
      }
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
          let a = table[Int(text[index])], b = table[Int(text[index + 1])]
          var c = table[Int(text[index + 2])], d = table[Int(text[index + 3])]
          if last {
            if padding >= 1 { d = 0 }
            if padding == 2 { c = 0 }
          }
          if (a | b | c | d) & 0xC0 != 0 { failed = true; break }
          let word = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
          buffer[out] = UInt8(truncatingIfNeeded: word >> 16); out += 1
          if out < outputCount { buffer[out] = UInt8(truncatingIfNeeded: word >> 8); out += 1 }
          if out < outputCount { buffer[out] = UInt8(truncatingIfNeeded: word); out += 1 }
          index += 4
        }
        initialized = failed ? 0 : out
      }
      return failed ? nil : output
    }
  }
}
