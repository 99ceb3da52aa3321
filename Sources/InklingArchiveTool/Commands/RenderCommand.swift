import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation
import InklingRendering

struct RenderCommand: Command {
  static let name = "render"

  static let spec = CommandSpec(
    name, abstract: "Write a draft as the app's full-size share image (PNG, SVG or PDF).",
    discussion: """
      The image is what the app shares: the drawing's bounds grown by 8 points, over its \
      background colour, at S pixels per point. \(PicturePlaceholder.help)

      SVG and PDF hold the same page as vectors: the PNG's size (an SVG's view box is the \
      PNG's pixels, its size and a PDF's page are in points), the background as a rectangle, \
      one group per stroke (SVG) with one filled path per visible piece of it, in the ink's \
      sRGB colour and opacity; what the eraser took is cut away or clipped, not painted over. \
      Vectors cannot carry grain: pencil, crayon and watercolor are their outline filled with \
      the opacity the ink's texture has on average.

      Examples:
        inkling-archive render Cat -o cat.png
        inkling-archive render Cat --version 3 --scale 1 -o cat-v3.png
        inkling-archive render Cat --at 2025-10-01 -o cat.pdf
        inkling-archive render Cat -o - --format svg > cat.svg
      """,
    exclusive: [["version", "at"]]
  ).declaring { Self() }

  @Parsed(Common.draft) var draft: String
  @Parsed(Common.version("Render version N instead of the newest.")) var version: VersionSelector?
  @Parsed(Option("at", valueName: "DATE", .text, help: "Render the version that was newest at DATE.")) var at: String?
  @Parsed(
    Option(
      "scale", valueName: "S", .number(above: 0, atMost: 16), default: 2,
      help: "Pixels per point (a Retina screen is 2), at most 16; an image is at most "
        + "\(RenderGeometry.maxDimension) pixels a side, so a large drawing is drawn at the scale that fits."))
  var scale: Double
  @Parsed(
    Common.output(
      "FILE", "The file to write: FILE.png (pixels), FILE.svg or FILE.pdf (vectors); other names are PNG."))
  var output: String
  @Parsed(
    Option(
      "format", valueName: "FORMAT", .choice(PictureFormat.allCases),
      help: "png, svg or pdf, when FILE's extension does not say it (standard output is PNG without it)."))
  var askedFormat: PictureFormat?
  @Parsed(Common.force) var force: Bool

  private(set) var request = PictureRequest(draft: "", selector: .latest, output: .standardOutput, force: false)
  private(set) var format = PictureFormat.png

  mutating func validate(_ parsed: ParsedArguments) throws {
    let named = PictureRequest.format(named: output)
    format = askedFormat ?? named ?? .png
    if let named, named != format {
      throw parsed.usageError(
        "\(Quoted.text(output)) names a .\(named.rawValue) file, but --format asks for \(format.rawValue)")
    }
    let selector = try at.map { .at(try DateExpression.parse($0)) } ?? version ?? .latest
    let target = format == .png ? try PictureRequest.pngTarget(output, parsed) : OutputTarget(argument: output)
    request = PictureRequest(draft: draft, selector: selector, output: target, force: force)
  }

  func run(_ context: CommandContext) throws -> Int32 {
    let picture = try context.open(.readOnly).renderPicture(
      draft: request.draft, version: request.selector, scale: scale, format: format)
    try request.write(picture)
    if let used = picture.scale, used < scale * 0.999 {
      context.printError(
        "note: at scale \(Format.number(scale)) the image would be larger than \(Format.count(RenderGeometry.maxDimension)) "
          + "pixels a side; it is drawn at scale \(Format.number(used))")
    }
    return context.report(picture, to: request.output)
  }
}
