// What thumbnail, render and contact-sheet share: an archive opened so that thumbnails are
// cached, the draft and version a picture is of and where it goes, and the report of a
// picture written.

import FoundationEssentials
import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

/// What every picture command says of a drawing that does not decode: the one behaviour of
/// `thumbnail`, `render`, `contact-sheet` and `export --png`. The file is written whole (a grid
/// or a folder of pictures keeps its place for it), but it is not the drawing, so a script
/// is told by the exit status, as it is of any file not made as asked.
enum PicturePlaceholder {
  static let help =
    "A drawing that does not decode is drawn as a placeholder (its background with a crossed-out frame), "
    + "the command says so on standard error, and it exits 1."
}

/// The values `thumbnail` and `render` read alike: which version to draw, and where its PNG goes.
struct PictureRequest {
  let draft: String
  let selector: VersionSelector
  let output: OutputTarget
  let force: Bool

  /// `at`, when given, is `--at DATE` (the version newest then); `format` is what the
  /// command writes: a PNG's name must not say another image format.
  /// The picture format `argument`'s extension names, if it names one this tool writes.
  static func format(named argument: String) -> PictureFormat? {
    let fileName = argument.split(separator: "/").last.map(String.init) ?? argument
    guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
    return PictureFormat(rawValue: fileName[fileName.index(after: dot)...].lowercased())
  }

  /// Extensions of other image formats: a PNG under such a name would open as garbage, or
  /// not at all, in whatever the name chooses.
  static let otherImageExtensions: Set<String> = [
    "jpg", "jpeg", "gif", "webp", "tif", "tiff", "bmp", "heic", "heif", "avif", "svg", "pdf", "ico", "jxl",
  ]

  /// The `-o` of a command that writes PNG: refused when its name says another format.
  static func pngTarget(_ argument: String, _ parsed: ParsedArguments) throws -> OutputTarget {
    let fileName = argument.split(separator: "/").last.map(String.init) ?? argument
    if let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex {
      let suffix = fileName[fileName.index(after: dot)...].lowercased()
      if otherImageExtensions.contains(suffix) {
        throw parsed.usageError(
          "\(Quoted.text(argument)) names a .\(suffix) file, but `\(parsed.commandPath.joined(separator: " "))` writes PNG: "
            + "name it .png (or convert the PNG afterwards)")
      }
    }
    return OutputTarget(argument: argument)
  }

  /// Writes the picture's file (over a file only with --force).
  func write(_ picture: Picture) throws(ArchiveError) {
    try output.write(picture.bytes) { path throws(ArchiveError) in
      try ImageFile.write(picture.bytes, to: path, overwrite: force)
    }
  }
}

extension CommandContext {
  /// Opens the archive so that thumbnails rendered now are cached: read-write when the file
  /// exists and can be written, else read-only (nothing is cached, nothing is created).
  func openCaching() throws(ArchiveError) -> Archive {
    guard FileManager.default.fileExists(atPath: archivePath) else { return try open(.readOnly) }
    do {
      return try open(.readWrite)
    } catch {
      return try open(.readOnly)
    }
  }

  /// What was written (JSON, or a line), and a note when the drawing did not decode; the
  /// exit status (1 for a placeholder, PicturePlaceholder).
  func report(_ picture: Picture, to output: OutputTarget) -> Int32 {
    let version = picture.version
    if let problem = picture.unreadable {
      printError(
        "note: the drawing of \(Quoted.name(version.draftName)) version \(version.number) does not decode "
          + "(\(problem)); the picture is a placeholder: its background with a crossed-out frame")
    }
    report(
      [
        "path": .string(output.path), "draft": .string(version.draftName), "version": .int(version.number),
        "saved": .date(version.saved), "width": .int(picture.width), "height": .int(picture.height),
        "scale": .optional(picture.scale.map { .double($0) }),
      ],
      "\(Quoted.text(output.path))  (\(Quoted.display(version.draftName)), version \(version.number), "
        + "saved \(Format.date(version.saved)), \(picture.width) × \(picture.height) px)",
      dataTo: output)
    return picture.unreadable == nil ? ExitStatus.success : ExitStatus.someInputsRejected
  }
}
