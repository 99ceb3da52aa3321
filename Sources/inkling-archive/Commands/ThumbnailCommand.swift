import Foundation
import InklingArchive
import InklingCommandLine
import InklingPresentation

enum ThumbnailCommand {
  static let spec = CommandSpec(
    "thumbnail", abstract: "Write a small PNG picture of a draft.",
    discussion: """
      The picture is the draft-list thumbnail of the app: the drawing fitted into a square \
      over its background colour. Thumbnails are cached in the archive, so asking again is \
      quick. A drawing that does not decode gives its background with a crossed-out frame.

      Examples:
        inkling-archive thumbnail Cat -o cat.png
        inkling-archive thumbnail Cat --version 2 --size 1024 -o cat-v2.png
      """,
    arguments: [.required("DRAFT", help: "The draft's name.")],
    options: [
      .value("version", valueName: "N", help: "Picture version N instead of the newest."),
      .value("size", valueName: "PX", help: "The side of the square: 128, 256 (default), 512 or 1024."),
      .value(
        "output", short: "o", valueName: "FILE.png", help: "The PNG file to write.", required: true),
      .flag("force", short: "f", help: "Replace the file if it exists."),
    ])

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      let draft = parsed.argument("DRAFT")!
      let selector = try parsed.int("--version").map(VersionSelector.number) ?? .latest
      let size = try parsed.int("--size") ?? ThumbnailCache.defaultSize
      guard ThumbnailCache.standardSizes.contains(size) else {
        throw parsed.usageError("--size must be 128, 256, 512 or 1024 (the freedesktop thumbnail sizes), not \(size)")
      }
      let output = parsed.string("--output")!
      let archive = try openCaching(context)
      let png = try archive.thumbnail(draft: draft, version: selector, size: size)
      try ImageFile.write(png, to: OutputTarget(argument: output), overwrite: parsed.flag("--force"))
      let (version, drawing) = try archive.show(draft: draft, version: selector)
      report(context, path: output, version: version, drawing: drawing, pixels: "\(size) × \(size)")
      return ExitStatus.success
    }
  }

  /// Opens the archive so that thumbnails rendered now are cached: read-write when the file
  /// exists and can be written, else read-only (nothing is cached, nothing is created).
  static func openCaching(_ context: CommandContext) throws(ArchiveError) -> Archive {
    guard FileManager.default.fileExists(atPath: context.archivePath) else { return try context.open(.readOnly) }
    do {
      return try context.open(.readWrite)
    } catch {
      return try context.open(.readOnly)
    }
  }

  /// The line (or JSON object) saying what was written, and a note on stderr when the
  /// drawing did not decode.
  static func report(
    _ context: CommandContext, path: String, version: VersionInfo, drawing: DrawingSummary, pixels: String
  ) {
    if drawing.status == .unreadable || drawing.status == .damaged {
      context.printError(
        "note: the drawing of \"\(version.draftName)\" version \(version.number) does not decode"
          + "\(drawing.problem.map { " (\($0))" } ?? ""); the picture shows its background with a crossed-out frame")
    }
    if context.json {
      context.printReport(
        [
          "path": .string(path), "draft": .string(version.draftName), "version": .int(version.number),
          "saved": .date(version.saved), "pixels": .string(pixels),
        ], dataTo: path)
    } else if !context.quiet {
      context.printReport(
        "\(Quoted.text(path))  (\(Quoted.display(version.draftName)), version \(version.number), "
          + "saved \(Format.date(version.saved)), \(pixels) px)", dataTo: path)
    }
  }
}
