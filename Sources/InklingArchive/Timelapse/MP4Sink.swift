// `timelapse -o FILE.mp4`: frames encoded by libx264 into an MP4 (VideoBridge), written to a
// temporary file and moved into place when the index is written, as every `-o` is. The MP4
// muxer seeks back to move its index to the front (`+faststart`), so a FIFO or a device gets
// the finished file's bytes from a temporary file too.

import InklingRendering
import VideoBridge

#if canImport(Glibc)
  import Glibc
#endif

final class MP4Sink: TimelapseSink {
  private let target: String
  private let overwrite: Bool
  private let temporary: String
  private let size: (width: Int, height: Int)
  private var video: OpaquePointer?
  private var placed = false

  /// Opens the encoder for frames of `geometry`'s size at `fps`.
  ///
  /// - Throws: `ArchiveError.invalidArgument(.timelapse(.mp4Size))` for frames larger than
  ///   any H.264 level allows (`H264Level`), before any frame is drawn;
  ///   `.destinationExists`, `.destinationIsFolder`, or `.videoEncoding` when the encoder
  ///   cannot start.
  init(target: String, overwrite: Bool, geometry: RenderGeometry, fps: Int) throws(ArchiveError) {
    guard H264Level.allows(width: geometry.width, height: geometry.height, fps: fps) else {
      let blocks = H264Level.macroblocks(width: geometry.width, height: geometry.height)
      throw .invalidArgument(.timelapse(.mp4Size(width: geometry.width, height: geometry.height, macroblocks: blocks)))
    }
    self.target = target
    self.overwrite = overwrite
    size = (geometry.width, geometry.height)
    temporary = try FileOutput.temporaryFile(for: target, overwrite: overwrite)
    var error = [CChar](repeating: 0, count: 256)
    video = inkling_mp4_open(temporary, Int32(geometry.width), Int32(geometry.height), Int32(fps), &error, error.count)
    guard video != nil else { throw .videoEncoding(detail: Self.text(error)) }
  }

  deinit {
    inkling_mp4_free(video)
    if !placed { unlink(temporary) }
  }

  func add(_ image: RenderedImage) throws(ArchiveError) {
    precondition(image.width == size.width && image.height == size.height, "every frame has the plan's size")
    var error = [CChar](repeating: 0, count: 256)
    let status = image.rgba.withUnsafeBufferPointer { inkling_mp4_add_rgba(video, $0.baseAddress, &error, error.count) }
    guard status == 0 else { throw .videoEncoding(detail: Self.text(error)) }
  }

  func finish() throws(ArchiveError) {
    var error = [CChar](repeating: 0, count: 256)
    let status = inkling_mp4_finish(video, &error, error.count)
    inkling_mp4_free(video)
    video = nil
    guard status == 0 else { throw .videoEncoding(detail: Self.text(error)) }
    placed = true
    try FileOutput.place(temporary, at: target, overwrite: overwrite)
  }

  private static func text(_ error: [CChar]) -> String {
    String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
