import InklingArchive
import InklingCommandLine

enum RenderCommand {
  static let spec = CommandSpec(
    "render", abstract: "Write a draft as the app's full-size share image (PNG).",
    discussion: """
      The image is what the app shares: the drawing's bounds grown by 8 points, over its \
      background colour, at S pixels per point (default 2, a Retina screen).

      Examples:
        inkling-archive render Cat -o cat.png
        inkling-archive render Cat --version 3 --scale 1 -o cat-v3.png
      """,
    arguments: [.required("DRAFT", help: "The draft's name.")],
    options: [
      .value("version", valueName: "N", help: "Render version N instead of the newest."),
      .value("scale", valueName: "S", help: "Pixels per point, above 0 and at most 16 (default 2)."),
      .value(
        "output", short: "o", valueName: "FILE.png", help: "The PNG file to write.", required: true),
      .flag("force", short: "f", help: "Replace the file if it exists."),
    ])

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      let draft = parsed.argument("DRAFT")!
      let selector = try parsed.int("--version").map(VersionSelector.number) ?? .latest
      let scale = try parsed.double("--scale") ?? 2
      guard scale.isFinite, scale > 0, scale <= 16 else {
        throw parsed.usageError("--scale must be above 0 and at most 16, not \(parsed.string("--scale") ?? "\(scale)")")
      }
      let output = parsed.string("--output")!
      let archive = try context.open(.readOnly)
      let png = try archive.render(draft: draft, version: selector, scale: scale)
      try ImageFile.write(png, to: OutputTarget(argument: output), overwrite: parsed.flag("--force"))
      let (version, drawing) = try archive.show(draft: draft, version: selector)
      let size = pngSize(png)
      ThumbnailCommand.report(
        context, path: output, version: version, drawing: drawing, pixels: "\(size.width) × \(size.height)")
      return ExitStatus.success
    }
  }

  /// Width and height from a PNG's IHDR chunk.
  static func pngSize(_ png: [UInt8]) -> (width: Int, height: Int) {
    guard png.count >= 24 else { return (0, 0) }
    func word(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (word(16), word(20))
  }
}
