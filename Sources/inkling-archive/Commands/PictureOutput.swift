// What thumbnail, render and contact-sheet share: an archive opened so that thumbnails are
// cached, the draft and version a picture is of and where it goes, and the report of a
// picture written.

import FoundationEssentials
import InklingArchive
import InklingCommandLine
import InklingPresentation

/// The values `thumbnail` and `render` read alike: which version to draw, and where its PNG goes.
struct PictureRequest {
  let draft: String
  let selector: VersionSelector
  let output: OutputTarget
  let force: Bool

  init(_ parsed: ParsedArguments, version: Option<Int?>, output: Option<String>) throws {
    draft = try parsed.value(Common.draft)
    selector = try parsed.value(version).map(VersionSelector.number) ?? .latest
    self.output = OutputTarget(argument: try parsed.value(output))
    force = parsed.value(Common.force)
  }

  /// Writes the picture's PNG (over a file only with --force).
  func write(_ picture: Picture) throws(ArchiveError) {
    try ImageFile.write(picture.png, to: output, overwrite: force)
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

  /// What was written (JSON, or a line), and a note when the drawing did not decode.
  func report(_ picture: Picture, to output: OutputTarget) {
    let version = picture.version
    if let problem = picture.unreadable {
      printError(
        "note: the drawing of \(Quoted.name(version.draftName)) version \(version.number) does not decode "
          + "(\(problem)); the picture shows its background with a crossed-out frame")
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
  }
}
