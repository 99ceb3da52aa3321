// `timelapse -o FILE.webp`: an animated WebP (VideoBridge over libwebp's WebPAnimEncoder),
// assembled in memory and written as every picture is (ImageFile: atomically, never over a
// file unless asked).

import InklingRendering
import VideoBridge

final class WebPSink: TimelapseSink {
  private let target: String
  private let overwrite: Bool
  private let size: (width: Int, height: Int)
  private var animation: OpaquePointer?

  /// - Throws: `ArchiveError.invalidArgument(.timelapse(.webpSize))`,
  ///   `.destinationExists` or `.destinationIsFolder` before any frame is drawn,
  ///   `.videoEncoding` when the encoder cannot start.
  init(target: String, overwrite: Bool, geometry: RenderGeometry, fps: Int) throws(ArchiveError) {
    // libwebp takes larger frames only to refuse them when the first is added
    // ("WebPEncodingError: 5"), after the first frame is drawn.
    guard Swift.max(geometry.width, geometry.height) <= TimelapseOptions.maximumWebPSide else {
      throw .invalidArgument(.timelapse(.webpSize(width: geometry.width, height: geometry.height)))
    }
    try FileOutput.checkWritable(target, overwrite: overwrite)
    self.target = target
    self.overwrite = overwrite
    size = (geometry.width, geometry.height)
    var error = [CChar](repeating: 0, count: 256)
    animation = inkling_webp_open(Int32(geometry.width), Int32(geometry.height), Int32(fps), &error, error.count)
    guard animation != nil else { throw .videoEncoding(detail: Self.text(error)) }
  }

  deinit { inkling_webp_free(animation) }

  func add(_ image: RenderedImage) throws(ArchiveError) {
    precondition(image.width == size.width && image.height == size.height, "every frame has the plan's size")
    var error = [CChar](repeating: 0, count: 256)
    let status = image.rgba.withUnsafeBufferPointer {
      inkling_webp_add_rgba(animation, $0.baseAddress, &error, error.count)
    }
    guard status == 0 else { throw .videoEncoding(detail: Self.text(error)) }
  }

  func finish() throws(ArchiveError) {
    var error = [CChar](repeating: 0, count: 256)
    var count = 0
    guard let bytes = inkling_webp_finish(animation, &count, &error, error.count) else {
      throw .videoEncoding(detail: Self.text(error))
    }
    let data = Array(UnsafeBufferPointer(start: bytes, count: count))
    inkling_webp_free_bytes(bytes)
    try FileOutput.write(data, to: target, modificationNanoseconds: nil, overwrite: overwrite, durable: false)
  }

  private static func text(_ error: [CChar]) -> String {
    String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
