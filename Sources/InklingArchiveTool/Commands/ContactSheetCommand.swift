import FoundationEssentials
import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation
import InklingRendering

struct ContactSheetCommand: Command {
  static let size = Option(
    "size", valueName: "PX", .oneOf([128, 256]), default: 128, help: "The side of each thumbnail: 128 or 256.")
  static let columns = Option(
    "columns", valueName: "N", .positive, help: "Thumbnails per row (default: a square grid).")
  static let output = Common.output("FILE.png", "The PNG file to write.")
  static let query = Common.query("Only drafts that QUERY finds, in the language of `search`.")

  static let name = "contact-sheet"

  static let spec = CommandSpec(
    name, abstract: "Write one PNG with a grid of thumbnails and their names.",
    discussion: DraftFilters.dateHelp + """


      The drafts are shown newest first, like `list`, each as the thumbnail of its newest \
      version with its name and save time. Names are drawn in every script (accents, \
      Cyrillic, CJK, Arabic right to left, colour emoji) with the Noto fonts of Debian's \
      fonts-noto-core, fonts-noto-cjk and fonts-noto-color-emoji, and cut with "…" when wider \
      than a thumbnail; a character whose font is not installed shows as a box. \
      \(PicturePlaceholder.help)

      Examples:
        inkling-archive contact-sheet -o all.png
        inkling-archive contact-sheet --since 7d --size 256 -o week.png
        inkling-archive contact-sheet --query @portfolio -o portfolio.png
      """,
    options: DraftFilters.options + [query.spec, size.spec, columns.spec, output.spec, Common.force.spec],
    exclusive: DraftFilters.exclusive)

  let filters: DraftFilters
  let query: String?
  let size: Int
  let columns: Int?
  let output: OutputTarget
  let force: Bool

  init(_ parsed: ParsedArguments) throws {
    filters = try DraftFilters(parsed)
    query = try parsed.value(Self.query)
    size = try parsed.value(Self.size)
    columns = try parsed.value(Self.columns)
    output = try PictureRequest.pngTarget(parsed, Self.output)
    force = parsed.value(Common.force)
  }

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.openCaching()
    // The same filters as `list`, answered by the library (a draft matches as it would there).
    let drafts = try archive.drafts(matching: try filters.query(and: query, in: archive))
    guard !drafts.isEmpty else { throw ArchiveError.noMatchingDrafts }
    let (png, placeholders) = try archive.contactSheetPicture(drafts: drafts.map(\.name), size: size, columns: columns)
    try output.write(png) { path throws(ArchiveError) in try ImageFile.write(png, to: path, overwrite: force) }
    let (width, height) = PNG.size(of: png) ?? (0, 0)
    context.report(
      ["path": .string(output.path), "drafts": .int(drafts.count), "width": .int(width), "height": .int(height)],
      "\(Quoted.text(output.path))  (\(Plural.count(drafts.count, "draft")), \(width) × \(height) px)", dataTo: output)
    guard placeholders.isEmpty else {
      context.printError(
        "note: the newest drawing of \(placeholders.map(Quoted.name).joined(separator: ", ")) does not decode; "
          + "the sheet shows \(placeholders.count == 1 ? "it" : "each") as a placeholder: its background with a crossed-out frame"
      )
      return ExitStatus.someInputsRejected
    }
    return ExitStatus.success
  }
}
