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
    let capacity = room(bytes.count, escapeSlashes: escapeSlashes)
    let start = output.count
    output.append(contentsOf: repeatElement(0, count: capacity))
    let written = output.withUnsafeMutableBufferPointer { buffer in
      encode(bytes, escapeSlashes: escapeSlashes, to: buffer.baseAddress! + start)
    }
    output.removeLast(capacity - written)
  }

  /// The room `encode(_:escapeSlashes:to:)` may write into for `count` bytes: twice the text
  /// and a little when escaping, as each escaped slash adds a byte and at most every
  /// character is one.
  static func room(_ count: Int, escapeSlashes: Bool) -> Int {
    escapeSlashes ? encodedLength(count) * 2 + escapingSlack : encodedLength(count)
  }

  /// Writes the base64 text of `bytes` at `output`, which has `room(bytes.count,
  /// escapeSlashes:)` bytes, and returns its length. Nothing past the text is written but what
  /// escaping stores past it, so a caller's buffer of untouched memory stays so (a large one is
  /// mapped lazily: pages never written cost nothing).
  static func encode(
    _ bytes: UnsafeRawBufferPointer, escapeSlashes: Bool, to output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    alphabet.withUnsafeBufferPointer { table in
      encode(bytes, escapeSlashes: escapeSlashes, table: table, into: output)
    }
  }

  /// Whether `text` is exactly the base64 of `bytes` in the given spelling, without building it.
  static func matches(
    _ bytes: UnsafeRawBufferPointer, escapeSlashes: Bool, _ text: UnsafeRawBufferPointer
  ) -> Bool {
    let plainLength = encodedLength(bytes.count)
    guard text.count >= plainLength, escapeSlashes || text.count == plainLength else {
      return false
    }
    var position = 0
    let whole = encode(bytes, escapeSlashes: escapeSlashes) { piece in
      guard position + piece.count <= text.count,
        memcmp(piece.baseAddress!, text.baseAddress! + position, piece.count) == 0
      else { return false }
      position += piece.count
      return true
    }
    return whole && position == text.count
  }

  /// Hands the base64 text of `bytes` to `body` in pieces, in order, encoded block by block
  /// into a small buffer; stops when `body` returns false. Returns whether every piece was
  /// handed over.
  @discardableResult
  static func encode(
    _ bytes: UnsafeRawBufferPointer, escapeSlashes: Bool, pieces body: (UnsafeRawBufferPointer) -> Bool
  ) -> Bool {
    // 3 KiB of input a block: the output stays in the first level of cache.
    let block = 3 * 1024
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: block / 3 * 4 * 2 + escapingSlack) { scratch in
      alphabet.withUnsafeBufferPointer { table in
        var input = 0
        while input < bytes.count {
          let end = min(input + block, bytes.count)
          let count = encode(
            UnsafeRawBufferPointer(rebasing: bytes[input..<end]), escapeSlashes: escapeSlashes, table: table,
            into: scratch.baseAddress!)
          guard body(UnsafeRawBufferPointer(start: scratch.baseAddress!, count: count)) else { return false }
          input = end
        }
        return true
      }
    }
  }

  /// The two characters of every 12 bits, the first in the low byte so that a little-endian
  /// store writes them in order. 8 KiB of UInt16 rather than wider entries: the table stays
  /// in the first level of cache beside the input and output.
  private static let pairs: [UInt16] = (0..<4096).map { bits in
    UInt16(alphabet[bits >> 6]) | UInt16(alphabet[bits & 63]) << 8
  }

  /// 0x80 in each byte of `characters` that is a `/`: the classic has-zero-byte test on
  /// `characters ^ "////////"`. Exact for base64 characters: it errs only on a 0x01 byte
  /// above a zero one (a `.` after a `/`) and on bytes of 0x80 and above.
  @inline(__always)
  private static func slashMask(_ characters: UInt64) -> UInt64 {
    let x = characters ^ 0x2F2F_2F2F_2F2F_2F2F
    return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
  }

  /// The room past the longest escaped text that `encode(_:escapeSlashes:table:into:)` needs
  /// when escaping: its slow path stores eight bytes where fewer may be left.
  private static let escapingSlack = 8

  /// Writes the encoding of `bytes` (padded only if it ends the input) and returns its length.
  /// When escaping slashes, `output` needs `escapingSlack` bytes more than the text takes.
  private static func encode(
    _ bytes: UnsafeRawBufferPointer, escapeSlashes: Bool, table: UnsafeBufferPointer<UInt8>,
    into output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    var out = 0
    @inline(__always) func put(_ byte: UInt8) {
      if escapeSlashes && byte == UInt8(ascii: "/") {
        output[out] = UInt8(ascii: "\\")
        out += 1
      }
      output[out] = byte
      out += 1
    }
    /// The slow path, for characters with a slash to escape (first in the low byte, `length`
    /// of them): each run before a slash is one 8-byte store, then the backslash. The stores
    /// write past the run, up to `escapingSlack` bytes past the end of the text.
    @inline(__always) func putEscaping(_ characters: UInt64, count length: Int) {
      var characters = characters
      var remaining = length
      var slashes = slashMask(characters)
      while slashes != 0 {
        let before = slashes.trailingZeroBitCount >> 3
        UnsafeMutableRawPointer(output).storeBytes(of: characters.littleEndian, toByteOffset: out, as: UInt64.self)
        output[out + before] = UInt8(ascii: "\\")
        output[out + before + 1] = UInt8(ascii: "/")
        out += before + 2
        // Past the slash; two shifts, as the whole eight would be one too many for `&>>`.
        characters = (characters &>> UInt64(8 * before)) &>> 8
        slashes = (slashes &>> UInt64(8 * before)) &>> 8
        remaining -= before + 1
      }
      UnsafeMutableRawPointer(output).storeBytes(of: characters.littleEndian, toByteOffset: out, as: UInt64.self)
      out += remaining
    }
    var index = 0
    let count = bytes.count
    pairs.withUnsafeBufferPointer { pairs in
      let raw = UnsafeMutableRawPointer(output)
      // Six bytes a step while eight can be loaded: one big-endian load whose top 48 bits are
      // four 12-bit indices, four pair look-ups, one store of eight characters. Only the steps
      // with a slash (about one in eight) take the slow path when slashes are escaped.
      while index + 8 <= count {
        let word = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let characters =
          UInt64(pairs[Int(word >> 52)]) | UInt64(pairs[Int(word >> 40 & 0xFFF)]) << 16
          | UInt64(pairs[Int(word >> 28 & 0xFFF)]) << 32 | UInt64(pairs[Int(word >> 16 & 0xFFF)]) << 48
        index += 6
        if escapeSlashes && slashMask(characters) != 0 {
          putEscaping(characters, count: 8)
          continue
        }
        raw.storeBytes(of: characters.littleEndian, toByteOffset: out, as: UInt64.self)
        out += 8
      }
      // The last whole groups of three bytes, one at a time.
      while index + 3 <= count {
        let word = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
        let characters = UInt32(pairs[word >> 12]) | UInt32(pairs[word & 0xFFF]) << 16
        index += 3
        if escapeSlashes && slashMask(UInt64(characters)) != 0 {
          putEscaping(UInt64(characters), count: 4)
          continue
        }
        raw.storeBytes(of: characters.littleEndian, toByteOffset: out, as: UInt32.self)
        out += 4
      }
    }
    let rest = count - index
    if rest > 0 {
      let word = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
      put(table[Int(word >> 18)])
      put(table[Int(word >> 12 & 63)])
      if rest == 2 { put(table[Int(word >> 6 & 63)]) }
      output[out] = UInt8(ascii: "=")
      out += 1
      if rest == 1 {
        output[out] = UInt8(ascii: "=")
        out += 1
      }
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
  /// and tells whether re-encoding gives the same text: it does exactly when every `/` is
  /// spelled alike and the padding bits are zero (canonical base64 is a bijection). Returns
  /// nil when the content is not base64 or holds other escapes.
  static func decodeJSONContent(_ text: UnsafeRawBufferPointer) -> JSONDecoding? {
    characters(of: text, from: 0, toQuote: false).flatMap(decoding)
  }

  /// The JSON string whose content starts at `start` (after its opening quote) decoded as
  /// `decodeJSONContent` decodes its content, and the offset of its closing quote, in one
  /// pass. Nil when the content holds a control character, an escape other than `\/` or
  /// text that is not base64, or the string does not end: then the string is for the JSON
  /// scanner and `decodeJSONContent` to read apart, which say why.
  static func decodeJSONString(
    _ text: UnsafeRawBufferPointer, from start: Int
  ) -> (decoding: JSONDecoding, end: Int, hasEscapes: Bool)? {
    guard let found = characters(of: text, from: start, toQuote: true), let decoding = decoding(found) else {
      return nil
    }
    return (decoding, found.end, found.escaped > 0)
  }

  /// Base64 text with its `\/` escapes undone, from `start` to the end of `text`, or (with
  /// `toQuote`) to the first quote not escaped: the characters, how many slashes were spelled
  /// `\/` and whether one was plain, where the text ended. Nil at any other escape, and with
  /// `toQuote` at a control character or when no quote ends the text (what a JSON string may
  /// not hold).
  private static func characters(
    of text: UnsafeRawBufferPointer, from start: Int, toQuote: Bool
  ) -> (characters: [UInt8], escaped: Int, plain: Bool, end: Int)? {
    let count = text.count
    // Eight characters a step while none needs a look (a drawing's text holds a `\/` in
    // about one step of eight): one load, one store. Plain slashes are only noted, not
    // counted: whether there is one is all the spelling needs, and a count would be a
    // population count, which x86-64's baseline does in a dozen instructions.
    var escaped = 0
    var plainSlashes: UInt64 = 0
    var length = 0
    var end: Int?
    let characters = [UInt8](unsafeUninitializedCapacity: count - start) { out, initialized in
      let output = UnsafeMutableRawPointer(out.baseAddress!)
      var index = start
      while index < count {
        var byte: UInt8
        if index + 8 <= count {
          // All eight stored; the characters before the first that needs a look count.
          // (`length` trails `index - start`, so the store stays inside the buffer.)
          let word = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: index, as: UInt64.self))
          let marks =
            toQuote ? JSONScanner.stringTextMarks(word.littleEndian) : zeroByteMask(word ^ 0x5C5C_5C5C_5C5C_5C5C)
          output.storeBytes(of: word.littleEndian, toByteOffset: length, as: UInt64.self)
          if marks == 0 {
            plainSlashes |= slashMask(word)
            length += 8
            index += 8
            continue
          }
          let run = marks.trailingZeroBitCount >> 3
          plainSlashes |= slashMask(word) & ((1 &<< UInt64(8 * run)) &- 1)
          length += run
          index += run
          byte = text[index]
        } else {
          byte = text[index]
          let needsLook = byte == UInt8(ascii: "\\") || (toQuote && (byte == UInt8(ascii: "\"") || byte < 0x20))
          if !needsLook {
            if byte == UInt8(ascii: "/") { plainSlashes = 1 }
            out[length] = byte
            length += 1
            index += 1
            continue
          }
        }
        // A backslash, whose one meaning in base64 text is `\/`; or the end of the string.
        if byte == UInt8(ascii: "\\"), index + 1 < count, text[index + 1] == UInt8(ascii: "/") {
          out[length] = UInt8(ascii: "/")
          escaped += 1
          length += 1
          index += 2
          continue
        }
        if toQuote && byte == UInt8(ascii: "\"") { end = index }
        break
      }
      initialized = length
      if !toQuote && index == count { end = count }
    }
    guard let end else { return nil }
    return (characters, escaped, plainSlashes != 0, end)
  }

  /// What `characters(of:from:toQuote:)` found, decoded, with the spelling that gives it back.
  private static func decoding(
    _ found: (characters: [UInt8], escaped: Int, plain: Bool, end: Int)
  ) -> JSONDecoding? {
    found.characters.withUnsafeBytes { characters -> JSONDecoding? in
      guard let bytes = decode(characters) else { return nil }
      // Padding bits: the unused low bits of the last character before '='.
      let length = characters.count
      var canonical = true
      if length >= 4, characters[length - 1] == UInt8(ascii: "=") {
        let twoPads = characters[length - 2] == UInt8(ascii: "=")
        let last = values[Int(characters[length - (twoPads ? 3 : 2)])]
        canonical = last & (twoPads ? 0x0F : 0x03) == 0
      }
      let spelling: Bool? =
        !canonical || (found.escaped > 0 && found.plain) ? nil : found.escaped > 0 || !found.plain
      return JSONDecoding(bytes: bytes, escapedSlashes: spelling)
    }
  }

  /// 0x80 in each byte of `word` that is zero, or 0: the classic has-zero-byte test. Exact
  /// as a test; which bytes it marks is exact only up to the first zero one.
  @inline(__always)
  private static func zeroByteMask(_ word: UInt64) -> UInt64 {
    (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
  }

  /// For each of the four characters of a group, its sextet already shifted to its place in
  /// the group's 24 bits (the first character's table first); a byte outside the alphabet
  /// is 0x0100_0000, which no valid group reaches, so one test of the OR of every group
  /// finds any bad character.
  private static let groupTables: [UInt32] = (0..<4).flatMap { position in
    (0..<256).map { byte -> UInt32 in
      let value = values[byte]
      return value == 255 ? 0x0100_0000 : UInt32(value) << (18 - 6 * position)
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
    var bad: UInt32 = 0
    // One byte of room: each group stores four bytes, the fourth overwritten by the next.
    let output = [UInt8](unsafeUninitializedCapacity: outputCount + 1) { buffer, initialized in
      groupTables.withUnsafeBufferPointer { tables in
        let out = UnsafeMutableRawPointer(buffer.baseAddress!)
        var index = 0
        var written = 0
        // Every group but the last, which may hold padding.
        while index + 4 < count {
          let quad = UInt32(littleEndian: text.loadUnaligned(fromByteOffset: index, as: UInt32.self))
          let group =
            tables[Int(quad & 0xFF)] | tables[256 + Int(quad >> 8 & 0xFF)]
            | tables[512 + Int(quad >> 16 & 0xFF)] | tables[768 + Int(quad >> 24)]
          bad |= group
          out.storeBytes(of: (group << 8).bigEndian, toByteOffset: written, as: UInt32.self)
          written += 3
          index += 4
        }
        let a = tables[Int(text[index])]
        let b = tables[256 + Int(text[index + 1])]
        let c = padding == 2 ? 0 : tables[512 + Int(text[index + 2])]
        let d = padding >= 1 ? 0 : tables[768 + Int(text[index + 3])]
        let group = a | b | c | d
        bad |= group
        for place in 0..<3 - padding {
          buffer[written] = UInt8(truncatingIfNeeded: group >> UInt32(16 - 8 * place))
          written += 1
        }
        initialized = written
      }
    }
    return bad < 0x0100_0000 ? output : nil
  }
}
