import InklingArchive
import InklingCommandLine
import InklingPresentation

enum HistoryCommand {
  static let spec = CommandSpec(
    "history", abstract: "List every version of a draft.",
    discussion: "For each version: number, saved date, strokes, colour, size and source file.",
    arguments: [.required("DRAFT", help: "The draft's name.")])

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      let archive = try context.open(.readOnly)
      let versions = try archive.history(of: parsed.argument("DRAFT")!)
      if context.json {
        context.printJSON([
          "draft": .string(versions.first?.draftName ?? ""),
          "versions": .array(versions.map(json)),
        ])
        return ExitStatus.success
      }
      var table = TextTable(columns: [
        .init("#", alignment: .right), .init("SAVED"), .init("STROKES", alignment: .right), .init("COLOUR"),
        .init("SIZE", alignment: .right), .init("FILE", maxWidth: 60), .init(""),
      ])
      for version in versions {
        let background = version.background
        table.append([
          "\(version.number)", Format.date(version.saved) + (version.savedFromFileName ? "" : "*"),
          version.strokeCount.map(String.init) ?? "-",
          Format.color(background.red, background.green, background.blue, background.alpha),
          Format.bytes(version.fileSize), version.fileName,
          version.sameDrawingAs.map { "same drawing as #\($0)" } ?? "",
        ])
      }
      StandardStreams.writeOutput(table.rendered())
      if versions.contains(where: { !$0.savedFromFileName }) {
        StandardStreams.writeError("* no date in the file name: the file's modification time\n")
      }
      return ExitStatus.success
    }
  }

  static func json(_ version: VersionInfo) -> JSONValue {
    [
      "number": .int(version.number), "saved": .date(version.saved),
      "savedFrom": .string(version.savedFromFileName ? "fileName" : "modificationTime"),
      "imported": .date(version.imported), "fileName": .string(version.fileName),
      "fileSize": .int(Int(version.fileSize)), "fileSHA256": .string(version.fileSHA256),
      "background": [
        "r": .double(version.background.red), "g": .double(version.background.green),
        "b": .double(version.background.blue), "a": .double(version.background.alpha),
      ],
      "drawingSHA256": .string(version.drawingSHA256), "drawingSize": .int(Int(version.drawingSize)),
      "strokes": .optional(version.strokeCount.map { .int($0) }),
      "sameDrawingAs": .optional(version.sameDrawingAs.map { .int($0) }),
    ]
  }
}
