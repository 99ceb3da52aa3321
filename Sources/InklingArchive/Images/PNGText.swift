// Text chunks added to a PNG after it was encoded: a cached thumbnail is shared by every
// version that looks the same, so the chunks naming one draft and version are spliced in when
// it is read (a copy of a few kilobytes and a CRC, microseconds) instead of being cached.
//
// Chunks go right after IHDR, where libpng writes its own text chunks
// (the PNG specification, "Chunk ordering": tEXt and iTXt may be anywhere between IHDR
// and IEND). ASCII values are tEXt, anything else iTXt in UTF-8, as PNG.encode does.

enum PNGText {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  /// Signature (8) + IHDR chunk (4 length + 4 type + 13 data + 4 CRC).
  static let afterHeader = 33

  /// `png` with text chunks `text` inserted after its header, or nil when `png` does not
  /// start with a PNG signature and an IHDR chunk.
  static func inserting(_ text: [(String, String)], into png: [UInt8]) -> [UInt8]? {
    guard png.count > afterHeader, png.starts(with: signature), png[12..<16].elementsEqual("IHDR".utf8),
      png[8..<12].elementsEqual([0, 0, 0, 13])
    else { return nil }
    var chunks: [UInt8] = []
    for (key, value) in text { chunks += chunk(key: key, value: value) }
    var out: [UInt8] = []
    out.reserveCapacity(png.count + chunks.count)
    out += png[..<afterHeader]
    out += chunks
    out += png[afterHeader...]
    return out
  }

  /// One tEXt or iTXt chunk. Keys are ours (printable ASCII); values lose control characters
  /// other than line feed, which neither chunk type allows.
  static func chunk(key: String, value: String) -> [UInt8] {
    // Scalar by scalar: String.UnicodeScalarView(anArray) is the stdlib's unspecialised
    // generic code, whose first call in a process scans every conformance record.
    var scalars = String.UnicodeScalarView()
    for scalar in value.unicodeScalars {
      let allowed =
        scalar == "\n" || (scalar.value >= 0x20 && scalar.value != 0x7F && !(0x80..<0xA0).contains(scalar.value))
      scalars.append(allowed ? scalar : "?")
    }
    let cleaned = String(scalars)
    let ascii = cleaned.utf8.allSatisfy { $0 < 0x80 }
    var data = Array(key.utf8) + [0]
    if ascii {
      data += cleaned.utf8
      return chunk(type: "tEXt", data)
    }
    // Compression flag 0, method 0, empty language tag, empty translated keyword.
    data += [0, 0, 0, 0]
    data += cleaned.utf8
    return chunk(type: "iTXt", data)
  }

  static func chunk(type: String, _ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(data.count + 12)
    let length = UInt32(data.count)
    out += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
    out += type.utf8
    out += data
    let crc = CRC32.checksum(out[4...])
    out += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    return out
  }

  /// The text chunks of a PNG, in order (tEXt and uncompressed iTXt), for tests and checks.
  static func texts(of png: [UInt8]) -> [(String, String)] {
    var result: [(String, String)] = []
    var offset = signature.count
    while offset + 12 <= png.count {
      let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
      guard offset + 12 + length <= png.count else { break }
      let data = Array(png[offset + 8..<offset + 8 + length])
      if let nul = data.firstIndex(of: 0) {
        let key = String(decoding: data[..<nul], as: UTF8.self)
        if type == "tEXt" {
          result.append((key, String(decoding: data[(nul + 1)...], as: UTF8.self)))
        } else if type == "iTXt", data.count >= nul + 3, data[nul + 1] == 0 {
          // Skip the flags, then the language tag and translated keyword (each NUL-ended).
          var i = nul + 3
          for _ in 0..<2 {
            while i < data.count && data[i] != 0 { i += 1 }
            i += 1
          }
          result.append((key, String(decoding: data[min(i, data.count)...], as: UTF8.self)))
        }
      }
      if type == "IEND" { break }
      offset += 12 + length
    }
    return result
  }
}

/// CRC-32 as PNG and zlib define it (polynomial 0xEDB88320, reflected).
enum CRC32 {
  static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
    return c ^ 0xFFFF_FFFF
  }
}
