// Real PencilKit drawings (device output, Tests/Fixtures/pkdrawing/) as drafts: each
// sample becomes one draft of a few saves, wrapped in the envelope the app writes
// (EnvelopeWriter, `JSONEncoder` style), so that a demo's thumbnails and contact sheet show
// drawings made on a device rather than the generator's strokes.
//
// Invariants:
// 1. A draft's last save holds the sample's bytes exactly as the device wrote them.
// 2. Earlier saves grow by strokes (the drawing's first strokes, up to its first, second, …
//    visible one) only where that is exact: `DrawingWriter` rewrites the sample's bytes byte
//    for byte, so the shorter drawings are written by the same rules as the device's.
//    Otherwise (the writer refuses the drawing, or fewer than two strokes are visible) the
//    same bytes are saved again, the last time on another paper colour, as a person does who
//    changes only the background.
// 3. The same samples folder and first save give the same files, byte for byte, and the
//    same modification times. Samples are taken in file-name order, one day apart, saves
//    twenty minutes apart.

import Foundation
import InklingFormats

/// Real drawings made into drafts.
public enum SampleDrafts {
  /// Names for the shared samples, in several scripts so that captions show them; any
  /// other sample is named after its file.
  public static let names: [String: String] = [
    "empty": "Łódź, pusta kartka 📄",
    "handwritten-half-notes": "音符のメモ",
    "pen-marker-hidden": "قلم وماركر",
    "three-pen-strokes": "Три штриха",
  ]

  /// The paper colours of a draft's saves (the last one for a background change).
  static let paper = RGBA(red: 1, green: 0.98, blue: 0.94, alpha: 1)
  static let otherPaper = RGBA(red: 0.9, green: 0.95, blue: 1, alpha: 1)

  /// The drawings of a draft's saves, oldest first, made from the device's `bytes`
  /// (invariants 1 and 2); at most `maxSaves` of them.
  /// - Throws: `CorpusError` when the bytes are not a drawing the reader can decode.
  public static func saves(of bytes: [UInt8], maxSaves: Int = 4) throws -> [(drawing: [UInt8], background: RGBA)] {
    let drawing: Drawing
    do {
      drawing = try Drawing(bytes: bytes)
    } catch {
      throw CorpusError(description: "not a drawing the reader can decode: \(error)")
    }
    // The strokes a person sees; hidden ones (erased) stay with the visible stroke after them.
    let visible = drawing.strokes.indices.filter { !drawing.strokes[$0].isHidden && drawing.strokes[$0].path != nil }
    let exact = (try? DrawingWriter.write(drawing)) == bytes
    guard exact, visible.count >= 2, maxSaves >= 2 else {
      let same = [(bytes, paper), (bytes, paper), (bytes, otherPaper)]
      return Array(same.suffix(min(3, max(1, maxSaves))))
    }
    // Visible stroke counts spread evenly: ⌈visible · i / n⌉ for i = 1…n − 1, each save
    // holding every stroke up to and including its last visible one; then the whole drawing.
    let n = min(visible.count, maxSaves)
    let counts = (1..<n).map { i in visible[(visible.count * i + n - 1) / n - 1] + 1 } + [drawing.strokes.count]
    return counts.map { count in
      if count == drawing.strokes.count { return (bytes, paper) }
      var part = drawing
      part.strokes = Array(drawing.strokes.prefix(count))
      // The writer rewrote the whole drawing exactly; a prefix of its strokes breaks none of
      // its rules (replicas, inks and IDs are unchanged), so a refusal is a bug here.
      guard let written = try? DrawingWriter.write(part) else {
        fatalError("DrawingWriter refused the first \(count) strokes of a drawing it rewrote exactly")
      }
      return (written, paper)
    }
  }
}

/// Writes every `.pkdrawing` file of `samples` as a draft into `folder` (created if
/// missing; it may hold other drafts, but no file of the same name), the first save at
/// `firstSave` (seconds since 1970, UTC), and returns what it wrote.
///
/// - Throws: `CorpusError` when the samples folder cannot be read, holds no drawing, a sample
///   does not decode, or a file cannot be written.
@discardableResult
public func writeSampleDrafts(from samples: URL, to folder: URL, firstSave: Int64 = 1_759_395_600)
  throws -> [CorpusDraft]
{
  let files: [String]
  do {
    files = try FileManager.default.contentsOfDirectory(atPath: samples.path)
      .filter { $0.hasSuffix(".pkdrawing") }.sorted()
  } catch {
    throw CorpusError(description: "\(samples.path): cannot read the samples folder: \(error.localizedDescription)")
  }
  guard !files.isEmpty else { throw CorpusError(description: "\(samples.path): no .pkdrawing files") }
  try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
  var random = SeededRandom(seed: 0x5A4D_504C_4553)
  var drafts: [CorpusDraft] = []
  for (index, file) in files.enumerated() {
    let stem = String(file.dropLast(".pkdrawing".count))
    guard let bytes = FileManager.default.contents(atPath: samples.path + "/" + file).map({ [UInt8]($0) }) else {
      throw CorpusError(description: "\(samples.path)/\(file): cannot read")
    }
    let saves: [(drawing: [UInt8], background: RGBA)]
    do {
      saves = try SampleDrafts.saves(of: bytes)
    } catch {
      throw CorpusError(description: "\(samples.path)/\(file): \(error)")
    }
    let typed = SampleDrafts.names[stem] ?? stem
    let fileNamePart = typed.isEmpty ? "Untitled" : typed.replacingOccurrences(of: "/", with: "-")
    var draft = CorpusDraft(
      name: DraftName(
        typed: typed, fileNamePart: fileNamePart, draftName: fileNamePart.precomposedStringWithCanonicalMapping),
      files: [])
    for (number, save) in saves.enumerated() {
      let seconds = firstSave + Int64(index) * 86_400 + Int64(number) * 1200
      let fileName = "\(fileNamePart)-\(Stamp.utc(seconds)).inkling"
      let contents = EnvelopeWriter.write(
        drawing: save.drawing, background: save.background, style: .jsonEncoder, title: typed, random: &random)
      try FileWriter.writeFile(contents, to: folder.path + "/" + fileName, modified: seconds * 1000)
      draft.files.append(CorpusDraft.File(fileName: fileName, savedMilliseconds: seconds * 1000, bytes: contents.count))
    }
    drafts.append(draft)
  }
  return drafts
}
