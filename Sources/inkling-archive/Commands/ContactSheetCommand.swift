import Foundation
import InklingArchive
import InklingCommandLine
import InklingPresentation

enum ContactSheetCommand {
  static let spec = CommandSpec(
    "contact-sheet", abstract: "Write one PNG with a grid of thumbnails and their names.",
    discussion: DraftFilters.dateHelp + """


      The drafts are shown newest first, like `list`, each as the thumbnail of its newest \
      version with its name and save time. Names are drawn in a small built-in font: accents \
      are dropped and other characters outside ASCII show as a box.

      Examples:
        inkling-archive contact-sheet -o all.png
        inkling-archive contact-sheet --since 7d --size 256 -o week.png
      """,
    options: DraftFilters.options + [
      .value("size", valueName: "PX", help: "Thumbnail size: 128 (default) or 256."),
      .value("columns", valueName: "N", help: "Thumbnails per row (default: a square grid)."),
      .value(
        "output", short: "o", valueName: "FILE.png", help: "The PNG file to write.", required: true),
      .flag("force", short: "f", help: "Replace the file if it exists."),
    ],
    exclusive: DraftFilters.exclusive)

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      let size = try parsed.int("--size") ?? 128
      guard size == 128 || size == 256 else { throw parsed.usageError("--size must be 128 or 256, not \(size)") }
      let columns = try parsed.int("--columns")
      if let columns, columns < 1 { throw parsed.usageError("--columns must be 1 or more, not \(columns)") }
      let output = parsed.string("--output")!
      // The same filters as `list`, answered by the library (a draft matches as it would there).
      let query = try DraftFilters.query(parsed)
      let archive = try ThumbnailCommand.openCaching(context)
      let drafts = try archive.drafts(matching: query)
      guard !drafts.isEmpty else {
        context.printError("Error: no drafts match; nothing written")
        return ExitStatus.someInputsRejected
      }
      let png = try archive.contactSheet(drafts: drafts.map(\.name), size: size, columns: columns)
      try ImageFile.write(png, to: OutputTarget(argument: output), overwrite: parsed.flag("--force"))
      let pixels = RenderCommand.pngSize(png)
      if context.json {
        context.printReport(
          [
            "path": .string(output), "drafts": .int(drafts.count),
            "pixels": .string("\(pixels.width) × \(pixels.height)"),
          ],
          dataTo: output)
      } else if !context.quiet {
        context.printReport(
          "\(Quoted.text(output))  (\(Plural.count(drafts.count, "draft")), \(pixels.width) × \(pixels.height) px)",
          dataTo: output)
      }
      return ExitStatus.success
    }
  }
}
