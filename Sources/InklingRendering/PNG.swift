// PNG encoding and decoding over libpng, through the PNGBridge C target (which catches
// libpng's longjmp errors so that Swift only ever sees return codes).

import InklingFormats
import PNGBridge

/// What went wrong encoding or decoding a PNG.
public enum PNGError: Error, Equatable, CustomStringConvertible {
  /// A text chunk's key is not 1–79 printable ASCII characters, or a key or value holds NUL.
  case invalidText(key: String)
  /// The image has no pixels, more than the renderer's caps, or a pixel buffer of the wrong
  /// size.
  case invalidImage(String)
  /// libpng refused the data or failed; the message is libpng's.
  case libpng(String)
  /// Memory ran out, or the image is larger than the decoder accepts.
  case outOfMemory(String)

  public var description: String {
    switch self {
    case .invalidText(let key):
      "PNG text chunk key \"\(key)\" is not 1 to 79 printable ASCII characters without NUL"
    case .invalidImage(let why): "cannot encode image: \(why)"
    case .libpng(let message): "PNG error: \(message)"
    case .outOfMemory(let message): "PNG out of memory: \(message)"
    }
  }
}

/// PNG bytes from and to `RenderedImage`s.
public enum PNG {
  /// How the rows of an image are filtered before compression.
  public enum RowFilter: Sendable {
    /// libpng's choice per row among the five filters: smaller for photographs and gradients.
    case adaptive
    /// No filter: for drawings on a flat background about as small, and encoded much faster
    /// (docs/thumbnails.md, "Measurements").
    case none
  }

  /// The bytes of an 8-bit PNG of `image` (RGB when it is opaque, else RGBA), with text
  /// chunks `text` in order (tEXt for ASCII values, iTXt in UTF-8 otherwise) at zlib level
  /// `compressionLevel` (0…9), its rows filtered as `filter` says.
  ///
  /// ```swift
  /// let png = try PNG.encode(image, text: [("Software", "inkling-archive"), ("Title", "Cat")])
  /// ```
  /// - Throws: `PNGError.invalidText` for a bad key or a NUL, `.invalidImage` for an empty or
  ///   inconsistent image, `.libpng` or `.outOfMemory` when libpng fails.
  public static func encode(
    _ image: RenderedImage, text: [(String, String)] = [], compressionLevel: Int32 = 6,
    filter: RowFilter = .adaptive
  ) throws(PNGError) -> [UInt8] {
    guard image.width > 0, image.height > 0,
      image.width <= Int(INKLING_PNG_MAX_DIMENSION), image.height <= Int(INKLING_PNG_MAX_DIMENSION)
    else { throw .invalidImage("\(image.width) × \(image.height) pixels") }
    guard image.rgba.count == image.width * image.height * 4 else {
      throw .invalidImage("\(image.rgba.count) bytes for \(image.width) × \(image.height) pixels")
    }
    try check(text)
    // NUL-terminated copies that outlive the call.
    let keys = text.map { strdupArray($0.0) }
    let values = text.map { strdupArray($0.1) }
    var message = [CChar](repeating: 0, count: 256)
    var output: UnsafeMutablePointer<UInt8>?
    var size = 0
    let options: Int32 = filter == .none ? Int32(INKLING_PNG_NO_FILTER) : 0
    let code: Int32 = withPointers(keys) { keyPointers in
      withPointers(values) { valuePointers in
        image.rgba.withUnsafeBufferPointer { pixels in
          message.withUnsafeMutableBufferPointer { messageBuffer in
            inkling_png_encode(
              pixels.baseAddress, UInt32(image.width), UInt32(image.height), image.width * 4,
              keyPointers, valuePointers, text.count, compressionLevel, options, &output, &size,
              messageBuffer.baseAddress, messageBuffer.count)
          }
        }
      }
    }
    defer { inkling_png_free(output) }
    guard code == Int32(INKLING_PNG_OK), let output else {
      throw error(code, message)
    }
    return Array(UnsafeBufferPointer(start: output, count: size))
  }

  /// The width and height a PNG's header (IHDR, right after the signature) gives, without
  /// decoding it; nil when `bytes` does not start as a PNG does.
  public static func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard bytes.count >= 24, bytes.starts(with: signature), bytes[12..<16].elementsEqual("IHDR".utf8) else {
      return nil
    }
    func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (word(16), word(20))
  }

  /// The pixels of any PNG as 8-bit, non-premultiplied RGBA.
  ///
  /// - Throws: `PNGError.libpng` for data that is not a valid PNG, `.outOfMemory` for an image
  ///   over 64 M pixels.
  public static func decode(_ bytes: [UInt8]) throws(PNGError) -> RenderedImage {
    var message = [CChar](repeating: 0, count: 256)
    var output: UnsafeMutablePointer<UInt8>?
    var width: UInt32 = 0
    var height: UInt32 = 0
    let code = bytes.withUnsafeBufferPointer { data in
      message.withUnsafeMutableBufferPointer { messageBuffer in
        inkling_png_decode(
          data.baseAddress, data.count, &output, &width, &height, messageBuffer.baseAddress,
          messageBuffer.count)
      }
    }
    defer { inkling_png_free(output) }
    guard code == Int32(INKLING_PNG_OK), let output else { throw error(code, message) }
    let count = Int(width) * Int(height) * 4
    return RenderedImage(
      width: Int(width), height: Int(height),
      rgba: Array(UnsafeBufferPointer(start: output, count: count)))
  }

  // MARK: - Internals

  /// Refuses a text chunk libpng would refuse, before any is written.
  static func check(_ text: [(String, String)]) throws(PNGError) {
    for (key, value) in text {
      let valid =
        !key.isEmpty && key.utf8.count <= 79 && key.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
      guard valid, !value.utf8.contains(0) else { throw .invalidText(key: key) }
    }
  }

  static func error(_ code: Int32, _ message: [CChar]) -> PNGError {
    let text = String(
      decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    switch code {
    case Int32(INKLING_PNG_OUT_OF_MEMORY): return .outOfMemory(text)
    case Int32(INKLING_PNG_INVALID_ARGUMENT): return .invalidImage(text)
    default: return .libpng(text)
    }
  }

  static func strdupArray(_ s: String) -> [CChar] {
    s.utf8.map { CChar(bitPattern: $0) } + [0]
  }

  /// Calls `body` with a C array of pointers to each NUL-terminated string of `strings`.
  static func withPointers<R>(
    _ strings: [[CChar]], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R
  ) -> R {
    var pointers: [UnsafePointer<CChar>?] = []
    func nest(_ index: Int) -> R {
      if index == strings.count {
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
      }
      return strings[index].withUnsafeBufferPointer { buffer in
        pointers.append(buffer.baseAddress)
        return nest(index + 1)
      }
    }
    return nest(0)
  }
}
