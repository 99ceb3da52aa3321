import InklingArchive
import InklingCommandLine
import InklingPresentation

struct ThumbnailCommand: Command {
  static let name = "thumbnail"

  static let spec = CommandSpec(
    name, abstract: "Write a small PNG picture of a draft.",
    discussion: """
      The picture is the draft-list thumbnail of the app: the drawing fitted into a square \
      over its background colour. Thumbnails are cached in the archive, so asking again is \
      quick. \(PicturePlaceholder.help)

      Examples:
        inkling-archive thumbnail Cat -o cat.png
        inkling-archive thumbnail Cat --version 2 --size 1024 -o cat-v2.png
      """
  ).declaring { Self() }

  @Parsed(Common.draft) var draft: String
  @Parsed(Common.version("Picture version N instead of the newest.")) var version: VersionSelector?
  @Parsed(
    Option(
      "size", valueName: "PX", .oneOf(ThumbnailCache.standardSizes), default: ThumbnailCache.defaultSize,
      help: "The side of the square: 128, 256, 512 or 1024 (the freedesktop thumbnail sizes)."))
  var size: Int
  @Parsed(Common.output("FILE.png", "The PNG file to write.")) var output: String
  @Parsed(Common.force) var force: Bool
  private(set) var request = PictureRequest(draft: "", selector: .latest, output: .standardOutput, force: false)

  mutating func validate(_ parsed: ParsedArguments) throws {
    request = PictureRequest(
      draft: draft, selector: version ?? .latest, output: try PictureRequest.pngTarget(output, parsed), force: force)
  }

  func run(_ context: CommandContext) throws -> Int32 {
    // A hit needs no writer: opening read-only skips the writer's set-up, and closing it
    // the checkpoint and removal of the WAL files. The reader is closed before a writer
    // opens, so that the writer's close is the last one and tidies up.
    let thumbnail: Thumbnail
    let cached: [UInt8]?
    do {
      let archive = try context.open(.readOnly)
      thumbnail = try archive.lookUpThumbnail(of: .draft(request.draft, request.selector), size: size)
      cached = try archive.readThumbnail(thumbnail)
    }
    let png = try cached ?? context.openCaching().renderThumbnails([thumbnail])[0]
    guard let picture = Picture(thumbnail, png: png) else {
      preconditionFailure("a thumbnail looked up by a draft's name has its version")
    }
    try request.write(picture)
    return context.report(picture, to: request.output)
  }
}
