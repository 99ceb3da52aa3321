import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

struct HistoryCommand: Command {
  static let name = "history"
  static let spec = CommandSpec(
    name, abstract: "List every version of a draft.",
    discussion: """
      For each version: number, saved date, strokes, colour, size, the file it was imported \
      from and its source (the folder or --source label it came from; "+N" when N more \
      sources delivered the same file, all shown by `show --version`); a LABELS column when \
      a version has a label (`label`). The draft's stars and tags follow the table, then \
      the notes on it and on its versions, oldest first (`note`).
      """
  ).declaring { Self() }

  @Parsed(Common.draft) var draft: String

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.open(.readOnly)
    let versions = try archive.history(of: draft)
    let annotations = try archive.annotations(ofDraft: versions.first?.draftName ?? draft)
    if context.json {
      context.printJSON(
        .object(
          [.init("draft", .string(versions.first?.draftName ?? draft))] + annotations.jsonMembers + [
            .init("versions", .array(versions.map(\.json)))
          ]))
      return ExitStatus.success
    }
    // A LABELS column only where some version has a label, so that other drafts print as before.
    let labelled = versions.contains { !$0.labels.isEmpty }
    var columns: [TextTable.Column] = [.init("#", alignment: .right)]
    if labelled { columns.append(.init("LABELS", maxWidth: 32)) }
    columns += [
      .init("SAVED"), .init("STROKES", alignment: .right), .init("COLOUR"), .init("SIZE", alignment: .right),
      .init("FILE", maxWidth: 60), .init("SOURCE", maxWidth: 40), .init(""),
    ]
    var table = TextTable(columns: columns)
    for version in versions {
      var cells = ["\(version.number)"]
      if labelled { cells.append(version.labels.isEmpty ? "-" : version.labelList) }
      let relation =
        version.revertsTo.map { "reverts to #\($0)" } ?? version.sameDrawingAs.map { "same drawing as #\($0)" } ?? ""
      cells += [
        Format.date(version.saved) + (version.savedFromFileName ? "" : "*"),
        version.strokeCount.map(String.init) ?? "-", Format.color(version.background),
        Format.bytes(version.fileSize), Quoted.display(version.fileName), Self.source(version), relation,
      ]
      table.append(cells)
    }
    context.printRaw(table.rendered())
    for line in annotations.lines { context.print(line) }
    let notes = (annotations.notes + versions.flatMap(\.notes)).sorted { ($0.written, $0.id) < ($1.written, $1.id) }
    for line in DraftNote.lines(notes) { context.print(line) }
    if versions.contains(where: { !$0.savedFromFileName }) {
      context.printError("* no date in the file name: the file's modification time")
    }
    return ExitStatus.success
  }

  /// The first source's label, and how many more there are: `Anna's iPad +1`; `-` for none.
  static func source(_ version: VersionInfo) -> String {
    guard let first = version.sources.first else { return "-" }
    return Quoted.display(first.label) + (version.sources.count > 1 ? " +\(version.sources.count - 1)" : "")
  }
}
