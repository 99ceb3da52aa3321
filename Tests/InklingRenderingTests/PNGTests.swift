// PNG encoding and decoding through the libpng bridge: round trips, text chunks, pngcheck,
// every colour type the decoder must expand, and errors instead of crashes on bad input.

import Foundation
import InklingFormats
import InklingRendering
import InklingTestSupport
import Testing

@Suite struct PNGTests {
  static func gradient(width: Int, height: Int) -> RenderedImage {
    var rgba: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        rgba += [
          UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)),
          UInt8((x + y) % 256), UInt8(255 - x % 200),
        ]
      }
    }
    return RenderedImage(width: width, height: height, rgba: rgba)
  }

  @Test func roundTripKeepsEveryByte() throws {
    let image = Self.gradient(width: 37, height: 23)
    for level: Int32 in [0, 1, 6, 9] {
      let png = try PNG.encode(
        image, text: [("Software", "inkling-archive")], compressionLevel: level)
      #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
      #expect(try PNG.decode(png) == image)
    }
  }

  @Test func opaqueImagesAreRGBAndUnfilteredRowsRoundTrip() throws {
    var opaque = Self.gradient(width: 37, height: 23)
    for i in stride(from: 3, to: opaque.rgba.count, by: 4) { opaque.rgba[i] = 255 }
    let translucent = Self.gradient(width: 37, height: 23)
    for filter in [PNG.RowFilter.adaptive, .none] {
      let rgb = try PNG.encode(opaque, compressionLevel: 1, filter: filter)
      let ihdr = try #require(PNGChunks.list(rgb).first)
      #expect(ihdr.data[8] == 8 && ihdr.data[9] == 2, "8-bit RGB")
      #expect(try PNG.decode(rgb) == opaque)
      try PNGCheck.expectValid(rgb, name: "rgb")
      let rgba = try PNG.encode(translucent, compressionLevel: 1, filter: filter)
      #expect(PNGChunks.list(rgba).first?.data[9] == 6, "8-bit RGBA")
      #expect(try PNG.decode(rgba) == translucent)
    }
  }

  @Test func textChunksAreWrittenInOrderAndUnicodeUsesITXt() throws {
    let text = [
      ("Software", "inkling-archive 0.1"), ("Title", "Plan-B"), ("Renderer Version", "1"),
      ("Source", "saved 2025-10-05T14:03:12Z"), ("Description", "Café 🎨 drawing"),
    ]
    let png = try PNG.encode(Self.gradient(width: 4, height: 4), text: text)
    let chunks = PNGChunks.list(png)
    #expect(chunks.first?.type == "IHDR" && chunks.last?.type == "IEND")
    let texts = chunks.filter { $0.type == "tEXt" || $0.type == "iTXt" }
    #expect(texts.map(\.type) == ["tEXt", "tEXt", "tEXt", "tEXt", "iTXt"])
    #expect(texts[1].data == Array("Title".utf8) + [0] + Array("Plan-B".utf8))
    #expect(texts[4].data.starts(with: Array("Description".utf8) + [0]))
    #expect(texts[4].data.suffix("Café 🎨 drawing".utf8.count) == ArraySlice("Café 🎨 drawing".utf8))
    try PNGCheck.expectValid(png, name: "text")
  }

  @Test func badTextAndImagesThrowInsteadOfCrashing() throws {
    let image = Self.gradient(width: 2, height: 2)
    #expect(throws: PNGError.invalidText(key: "")) { try PNG.encode(image, text: [("", "x")]) }
    let long = String(repeating: "k", count: 80)
    #expect(throws: PNGError.invalidText(key: long)) { try PNG.encode(image, text: [(long, "x")]) }
    #expect(throws: PNGError.invalidText(key: "Tïtle")) {
      try PNG.encode(image, text: [("Tïtle", "x")])
    }
    #expect(throws: PNGError.invalidText(key: "Title")) {
      try PNG.encode(image, text: [("Title", "a\0b")])
    }
    let empty = RenderedImage(width: 0, height: 0, rgba: [])
    #expect(throws: PNGError.self) { try PNG.encode(empty) }
  }

  @Test func damagedDataThrowsLibpngErrors() throws {
    let png = try PNG.encode(Self.gradient(width: 16, height: 16))
    #expect(throws: PNGError.self) { try PNG.decode([]) }
    #expect(throws: PNGError.self) { try PNG.decode(Array("not a png at all".utf8)) }
    // Truncated anywhere after the signature.
    for cut in [9, 20, 33, png.count / 2, png.count - 13] {
      #expect(throws: PNGError.self) { try PNG.decode(Array(png.prefix(cut))) }
    }
    // A flipped bit in the image data breaks a CRC or the zlib stream.
    var damaged = png
    damaged[png.count / 2] ^= 0x40
    #expect(throws: PNGError.self) { try PNG.decode(damaged) }
    do {
      _ = try PNG.decode(Array(png.prefix(40)))
    } catch {
      #expect("\(error)".hasPrefix("PNG error: "))
    }
  }

  @Test func decoderExpandsEveryColourType() throws {
    // Grey, 1 bit: 0b1010_0000 → white, black, white, black.
    let grey1 = PNGChunks.make(
      width: 4, height: 1, bitDepth: 1, colourType: 0, rows: [[0b1010_0000]])
    #expect(
      try PNG.decode(grey1).rgba == [
        255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255,
      ])
    // Palette with transparency: index 1 is half-transparent red.
    let palette = PNGChunks.make(
      width: 2, height: 1, bitDepth: 8, colourType: 3, rows: [[0, 1]],
      extra: [("PLTE", [0, 0, 255, 255, 0, 0]), ("tRNS", [255, 128])])
    #expect(try PNG.decode(palette).rgba == [0, 0, 255, 255, 255, 0, 0, 128])
    // 16-bit RGB scales to 8 bits and gains an opaque alpha.
    let rgb16 = PNGChunks.make(
      width: 1, height: 1, bitDepth: 16, colourType: 2,
      rows: [[0xFF, 0xFF, 0x80, 0x00, 0x00, 0x00]])
    #expect(try PNG.decode(rgb16).rgba == [255, 128, 0, 255])
    // Grey + alpha, 8 bits.
    let greyAlpha = PNGChunks.make(
      width: 1, height: 1, bitDepth: 8, colourType: 4, rows: [[200, 100]])
    #expect(try PNG.decode(greyAlpha).rgba == [200, 200, 200, 100])
    // Grey 8-bit with a tRNS colour key.
    let keyed = PNGChunks.make(
      width: 2, height: 1, bitDepth: 8, colourType: 0, rows: [[7, 9]], extra: [("tRNS", [0, 7])])
    #expect(try PNG.decode(keyed).rgba == [7, 7, 7, 0, 9, 9, 9, 255])
  }

  @Test func hugeDeclaredSizeIsRefused() throws {
    // A header claiming 30000 × 30000 pixels (900 M) with no data behind it.
    let huge = PNGChunks.make(width: 30000, height: 30000, bitDepth: 8, colourType: 6, rows: [])
    #expect(throws: PNGError.self) { try PNG.decode(huge) }
  }
}

/// Reading and writing PNG chunks by hand, to check what the encoder wrote and to make inputs
/// of every colour type for the decoder.
enum PNGChunks {
  struct Chunk {
    var type: String
    var data: [UInt8]
  }

  static func list(_ png: [UInt8]) -> [Chunk] {
    var chunks: [Chunk] = []
    var i = 8
    while i + 12 <= png.count {
      let length =
        Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
      let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
      guard i + 12 + length <= png.count else { break }
      chunks.append(Chunk(type: type, data: Array(png[(i + 8)..<(i + 8 + length)])))
      i += 12 + length
    }
    return chunks
  }

  /// A PNG whose IDAT is a zlib stream of stored (uncompressed) blocks, filter 0 on each row.
  static func make(
    width: Int, height: Int, bitDepth: UInt8, colourType: UInt8, rows: [[UInt8]],
    extra: [(String, [UInt8])] = []
  ) -> [UInt8] {
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    png += chunk("IHDR", be32(width) + be32(height) + [bitDepth, colourType, 0, 0, 0])
    for (type, data) in extra { png += chunk(type, data) }
    var raw: [UInt8] = []
    for row in rows { raw += [0] + row }
    var zlib: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let n = min(65535, raw.count - offset)
      let last: UInt8 = offset + n == raw.count ? 1 : 0
      zlib += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
      zlib += raw[offset..<(offset + n)]
      offset += n
    } while offset < raw.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in raw {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    zlib += be32(Int(b << 16 | a))
    png += chunk("IDAT", zlib)
    png += chunk("IEND", [])
    return png
  }

  private static func be32(_ v: Int) -> [UInt8] {
    [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
  }

  private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return be32(data.count) + body + be32(Int(crc32(body)))
  }

  private static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}

/// `pngcheck -q` on bytes; scripts/setup installs the tool, so its absence fails the test.
enum PNGCheck {
  static let path = ["/usr/bin/pngcheck", "/usr/local/bin/pngcheck"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  static func expectValid(_ png: [UInt8], name: String) throws {
    let path = try #require(path, "pngcheck is not installed (scripts/setup installs it)")
    let folder = try TemporaryFolder("pngcheck")
    let file = try folder.write("\(name).png", png)
    let result = try ChildProcess.run([path, "-q", file])
    #expect(result.status == 0, "pngcheck \(name): \(result.stdout)\(result.stderr)")
  }
}
