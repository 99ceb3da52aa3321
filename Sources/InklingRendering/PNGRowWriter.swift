// A PNG written a strip of rows at a time, top to bottom, for an image too large to be worth
// holding whole (a contact sheet): the caller holds one strip of pixels, and only the
// compressed bytes grow. The rows go to libpng as they come (PNGBridge's writer).

import PNGBridge

/// A PNG written top to bottom, a strip of rows at a time.
///
/// ```swift
/// let writer = try PNGRowWriter(width: 3272, height: 4088, text: [("Title", "Sheet")])
/// try writer.write(strip)          // strips 3272 pixels wide, top to bottom
/// let png = try writer.finish()    // once all 4088 rows are written
/// ```
public final class PNGRowWriter {
  public let width: Int
  public let height: Int
  /// How many rows have been written so far.
  public private(set) var rowsWritten = 0
  /// Nil once finished.
  private var writer: OpaquePointer?

  /// Starts an 8-bit RGB PNG of `width × height` pixels (the strips' alpha is dropped: for an
  /// image drawn on an opaque ground), with text chunks `text` in order, at zlib level
  /// `compressionLevel`, its rows filtered as `filter` says (as `PNG.encode` takes them).
  ///
  /// - Throws: `PNGError.invalidText` for a bad key or a NUL, `.invalidImage` for a size out
  ///   of range, `.libpng` or `.outOfMemory` when libpng fails.
  public init(
    width: Int, height: Int, text: [(String, String)] = [], compressionLevel: Int32 = 6,
    filter: PNG.RowFilter = .adaptive
  ) throws(PNGError) {
    guard width > 0, height > 0, width <= Int(INKLING_PNG_MAX_DIMENSION), height <= Int(INKLING_PNG_MAX_DIMENSION)
    else { throw .invalidImage("\(width) × \(height) pixels") }
    try PNG.check(text)
    self.width = width
    self.height = height
    let keys = text.map { PNG.strdupArray($0.0) }
    let values = text.map { PNG.strdupArray($0.1) }
    var message = [CChar](repeating: 0, count: 256)
    var started: OpaquePointer?
    let options: Int32 = filter == .none ? Int32(INKLING_PNG_NO_FILTER) : 0
    let code: Int32 = PNG.withPointers(keys) { keyPointers in
      PNG.withPointers(values) { valuePointers in
        message.withUnsafeMutableBufferPointer { messageBuffer in
          inkling_png_writer_begin(
            UInt32(width), UInt32(height), 1, keyPointers, valuePointers, text.count, compressionLevel, options,
            &started, messageBuffer.baseAddress, messageBuffer.count)
        }
      }
    }
    guard code == Int32(INKLING_PNG_OK), let started else { throw PNG.error(code, message) }
    writer = started
  }

  deinit { inkling_png_writer_discard(writer) }

  /// Writes the first `rows` rows of `strip` (all of them when nil) as the image's next rows.
  ///
  /// - Throws: `PNGError.invalidImage` when `strip` is not as wide as the image or the rows
  ///   would run past its last, or the writer failed or finished before; `.libpng`,
  ///   `.outOfMemory` when libpng fails (the writer is then of no further use).
  public func write(_ strip: RenderedImage, rows: Int? = nil) throws(PNGError) {
    let count = rows ?? strip.height
    guard let writer else { throw .invalidImage("the PNG is finished") }
    guard strip.width == width, count >= 0, count <= strip.height, count <= height - rowsWritten else {
      throw .invalidImage(
        "\(count) rows of \(strip.width) pixels after \(rowsWritten) of \(height) rows of \(width) pixels")
    }
    var message = [CChar](repeating: 0, count: 256)
    let code = strip.rgba.withUnsafeBufferPointer { pixels in
      message.withUnsafeMutableBufferPointer { messageBuffer in
        inkling_png_writer_rows(
          writer, pixels.baseAddress, UInt32(count), width * 4, messageBuffer.baseAddress, messageBuffer.count)
      }
    }
    guard code == Int32(INKLING_PNG_OK) else { throw PNG.error(code, message) }
    rowsWritten += count
  }

  /// The PNG's bytes, once every row is written; the writer is then finished.
  ///
  /// - Throws: `PNGError.invalidImage` when rows are missing or it finished before, `.libpng`
  ///   or `.outOfMemory` when libpng fails.
  public func finish() throws(PNGError) -> [UInt8] {
    guard let started = writer else { throw .invalidImage("the PNG is finished") }
    guard rowsWritten == height else { throw .invalidImage("\(rowsWritten) of \(height) rows written") }
    writer = nil
    var message = [CChar](repeating: 0, count: 256)
    var output: UnsafeMutablePointer<UInt8>?
    var size = 0
    let code = message.withUnsafeMutableBufferPointer { messageBuffer in
      inkling_png_writer_end(started, &output, &size, messageBuffer.baseAddress, messageBuffer.count)
    }
    defer { inkling_png_free(output) }
    guard code == Int32(INKLING_PNG_OK), let output else { throw PNG.error(code, message) }
    return Array(UnsafeBufferPointer(start: output, count: size))
  }
}
