// `timelapse --frames DIR`: each frame as a numbered PNG (00001.png, 00002.png, …), the
// pattern other tools read (`ffmpeg -i %05d.png`, Krita's recorder). Each file is written as
// the picture commands write theirs (ImageFile): atomically, not synced, never over an
// existing frame unless asked, and never through a link or into a device that has a frame's
// name (FileOutput.Naming.chosenInFolder). The rows are not filtered and zlib runs at level
// 1: frames are a hand-over to another program, and on a flat background unfiltered rows
// cost little size for much time.

import InklingRendering

struct FrameFolderSink: TimelapseSink {
  let folder: String
  let overwrite: Bool
  private var written = 0

  /// Creates `folder` and its parents when missing.
  init(folder: String, overwrite: Bool) throws(ArchiveError) {
    self.folder = folder
    self.overwrite = overwrite
    try FileOutput.makeFolder(folder)
  }

  /// The file name of frame `number` (1 is the first).
  static func name(ofFrame number: Int) -> String {
    let digits = String(number)
    return String(repeating: "0", count: Swift.max(5 - digits.count, 0)) + digits + ".png"
  }

  mutating func add(_ image: RenderedImage) throws(ArchiveError) {
    written += 1
    let png: [UInt8]
    do {
      png = try PNG.encode(image, compressionLevel: 1, filter: .none)
    } catch {
      throw .imageEncoding(detail: "\(error)")
    }
    try FileOutput.write(
      png, to: OutputPath.joining(folder, Self.name(ofFrame: written)), modificationNanoseconds: nil,
      overwrite: overwrite, durable: false, naming: .chosenInFolder)
  }

  func finish() throws(ArchiveError) {}
}
