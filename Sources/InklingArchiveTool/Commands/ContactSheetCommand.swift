import FoundationEssentials
import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation
import InklingRendering

struct ContactSheetCommand: Command {
  static let name = "contact-sheet"

  static let spec = CommandSpec(
    name, abstract: "Write a grid of thumbnails and their names: one PNG, or a PDF portfolio to print.",
    discussion: DraftFilters.dateHelp + """


      The drafts are shown newest first, like `list`, each as the thumbnail of its newest \
      version with its name and save time. Names are drawn in every script (accents, \
      Cyrillic, CJK, Arabic right to left, colour emoji) with the Noto fonts of Debian's \
      fonts-noto-core, fonts-noto-cjk and fonts-noto-color-emoji, and cut with "…" when wider \
      than a thumbnail; a character whose font is not installed shows as a box. \
      \(PicturePlaceholder.help)

      A PNG sheet holds at most \(ContactSheetLayout.maximumPerSheet(thumbnailSize: 128)) \
      thumbnails of 128 px (\(ContactSheetLayout.maximumPerSheet(thumbnailSize: 256)) of 256 px), \
      so that a whole archive is drawn in the memory of one sheet: more are written as \
      numbered sheets, FILE-1.png, FILE-2.png, …, in order, and standard output refuses them.

      FILE.pdf is a portfolio to print: each drawing as vectors (what `render -o FILE.pdf` \
      writes) scaled into a grid on pages of A4, letter or A3 (--paper), captioned with its \
      name and save time as text in the same fonts, embedded, so that a reader can search \
      and copy it (an emoji is its picture over its text), and the pages numbered. At the \
      default \(PortfolioLayout.defaultColumns) columns an A4 page holds \
      \(PortfolioLayout(paper: .a4).drawingsPerPage) drawings, a letter page \
      \(PortfolioLayout(paper: .letter).drawingsPerPage), an A3 page \
      \(PortfolioLayout(paper: .a3).drawingsPerPage).

      Examples:
        inkling-archive contact-sheet -o all.png
        inkling-archive contact-sheet --since 7d --size 256 -o week.png
        inkling-archive contact-sheet --query @portfolio -o portfolio.png
        inkling-archive contact-sheet --since 2025-09 --paper a3 -o term.pdf
      """,
    exclusive: DraftFilters.exclusive
  ).declaring { Self() }

  let filters = DraftFilters()
  @Parsed(Common.query("Only drafts that QUERY finds, in the language of `search`.")) var query: String?
  @Parsed(
    Option(
      "size", valueName: "PX", .oneOf([128, 256]), default: 128,
      help: "The side of each thumbnail: 128 or 256 (PNG)."))
  var size: Int
  @Parsed(
    Option(
      "columns", valueName: "N", .positive,
      help: "Drawings per row (default: a square grid in a PNG, \(PortfolioLayout.defaultColumns) on a PDF's page)."))
  var columns: Int?
  @Parsed(
    Option(
      "paper", valueName: "PAPER", .choice(Paper.allCases),
      help: "A PDF's page: a4 (the default), letter or a3; with `-o -` it asks for a PDF."))
  var askedPaper: Paper?
  @Parsed(Common.output("FILE", "The file to write: FILE.pdf (a printable portfolio of vectors), else a PNG."))
  var outputArgument: String
  @Parsed(Common.force) var force: Bool

  /// The paper of a PDF portfolio; nil for a PNG sheet.
  private(set) var paper: Paper?
  private(set) var output = OutputTarget.file("")

  mutating func validate(_ parsed: ParsedArguments) throws {
    try filters.validate()
    if PictureRequest.format(named: outputArgument) == .pdf || (outputArgument == "-" && askedPaper != nil) {
      paper = askedPaper ?? .a4
      output = OutputTarget(argument: outputArgument)
    } else {
      if askedPaper != nil {
        throw parsed.usageError("--paper is for a PDF: name the file .pdf")
      }
      paper = nil
      output = try PictureRequest.pngTarget(outputArgument, parsed)
    }
  }

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.openCaching()
    // The same filters as `list`, answered by the library (a draft matches as it would there),
    // which reads the drafts a sheet or a page at a time.
    let drafts = DraftSelection.matching(try filters.query(and: query, in: archive))
    if let paper { return try portfolio(of: drafts, paper: paper, archive: archive, context) }
    guard case .file(let path) = output, !output.isStandardOutput else {
      // Standard output holds one sheet.
      let (png, shown, placeholders) = try archive.contactSheetPicture(drafts: drafts, size: size, columns: columns)
      try output.write(png) { path throws(ArchiveError) in try ImageFile.write(png, to: path, overwrite: force) }
      let (width, height) = PNG.size(of: png) ?? (0, 0)
      report(ContactSheetFile(path: output.path, drafts: shown, width: width, height: height), context)
      return Self.note(placeholders, context)
    }
    let (sheets, placeholders) = try archive.contactSheets(
      drafts: drafts, size: size, columns: columns, to: path, overwrite: force)
    if sheets.count == 1 {
      report(sheets[0], context)
    } else {
      context.report(
        [
          "path": .string(path), "drafts": .int(sheets.reduce(0) { $0 + $1.drafts }),
          "sheets": .array(sheets.map { sheet in Self.json(sheet) }),
        ], sheets.map(Self.line).joined(separator: "\n"), dataTo: output)
    }
    return Self.note(placeholders, context)
  }

  private func report(_ sheet: ContactSheetFile, _ context: CommandContext) {
    context.report(Self.json(sheet), Self.line(sheet), dataTo: output)
  }

  private static func json(_ sheet: ContactSheetFile) -> JSONValue {
    [
      "path": .string(sheet.path), "drafts": .int(sheet.drafts), "width": .int(sheet.width),
      "height": .int(sheet.height),
    ]
  }

  private static func line(_ sheet: ContactSheetFile) -> String {
    "\(Quoted.text(sheet.path))  (\(Plural.count(sheet.drafts, "draft")), \(sheet.width) × \(sheet.height) px)"
  }

  /// Writes the PDF portfolio and reports it.
  private func portfolio(of drafts: DraftSelection, paper: Paper, archive: Archive, _ context: CommandContext)
    throws -> Int32
  {
    let summary: PortfolioSummary
    if case .standardOutput = output {
      let made = try archive.portfolioPDF(drafts: drafts, paper: paper, columns: columns)
      try OutputTarget.writeToStandardOutput(made.pdf)
      summary = made.summary
    } else {
      summary = try archive.portfolio(drafts: drafts, paper: paper, columns: columns, to: output.path, overwrite: force)
    }
    context.report(
      [
        "path": .string(output.path), "drafts": .int(summary.drafts), "pages": .int(summary.pages),
        "paper": .string(summary.paper.rawValue),
      ],
      "\(Quoted.text(output.path))  (\(Plural.count(summary.drafts, "draft")), \(Plural.count(summary.pages, "page")) "
        + "of \(Self.paperName(summary.paper)))", dataTo: output)
    return Self.note(summary.placeholders, context)
  }

  private static func paperName(_ paper: Paper) -> String {
    switch paper {
    case .a4: "A4"
    case .letter: "letter"
    case .a3: "A3"
    }
  }

  /// The note on the drafts shown as placeholders, and the exit status.
  private static func note(_ placeholders: [String], _ context: CommandContext) -> Int32 {
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
