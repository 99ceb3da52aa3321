import InklingArchive
import InklingCommandLine
import InklingPresentation
import InklingRendering

struct RenderCommand: Command {
  static let version = Common.version("Render version N instead of the newest.")
  static let scale = Option(
    "scale", valueName: "S", .number(above: 0, atMost: 16), default: 2,
    help: "Pixels per point (a Retina screen is 2), at most 16; an image is at most "
      + "\(RenderGeometry.maxDimension) pixels a side, so a large drawing is drawn at the scale that fits.")
  static let output = Common.output("FILE.png", "The PNG file to write.")

  static let name = "render"

  static let spec = CommandSpec(
    name, abstract: "Write a draft as the app's full-size share image (PNG).",
    discussion: """
      The image is what the app shares: the drawing's bounds grown by 8 points, over its \
      background colour, at S pixels per point. \(PicturePlaceholder.help)

      Examples:
        inkling-archive render Cat -o cat.png
        inkling-archive render Cat --version 3 --scale 1 -o cat-v3.png
      """,
    arguments: [Common.draft.spec], options: [version.spec, scale.spec, output.spec, Common.force.spec])

  let request: PictureRequest
  let scale: Double

  init(_ parsed: ParsedArguments) throws {
    request = try PictureRequest(parsed, version: Self.version, output: Self.output)
    scale = try parsed.value(Self.scale)
  }

  func run(_ context: CommandContext) throws -> Int32 {
    let picture = try context.open(.readOnly).renderPicture(
      draft: request.draft, version: request.selector, scale: scale)
    try request.write(picture)
    if let used = picture.scale, used < scale * 0.999 {
      context.printError(
        "note: at scale \(Format.number(scale)) the image would be larger than \(Format.count(RenderGeometry.maxDimension)) "
          + "pixels a side; it is drawn at scale \(Format.number(used))")
    }
    return context.report(picture, to: request.output)
  }
}
