import InklingArchive
import InklingCommandLine

enum ListCommand {
  static let spec = CommandSpec(
    "list", abstract: "List drafts, newest first, like the app.",
    discussion: DraftFilters.dateHelp + """


      Examples:
        inkling-archive list --since 7d
        inkling-archive list --name cat --json
      """,
    options: DraftFilters.options,
    exclusive: DraftFilters.exclusive)

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      let archive = try context.open(.readOnly)
      let drafts = try archive.drafts()
      if context.json {
        context.printJSON([
          "drafts": .array(
            drafts.map { ["name": .string($0.name), "versions": .int($0.versionCount), "lastSaved": .date($0.lastSaved)] })
        ])
        return ExitStatus.success
      }
      var table = TextTable(columns: [
        .init("NAME", maxWidth: 48), .init("VERSIONS", alignment: .right), .init("LAST SAVED"),
      ])
      for draft in drafts {
        table.append([draft.name, Format.count(draft.versionCount), Format.date(draft.lastSaved)])
      }
      if !drafts.isEmpty { StandardStreams.writeOutput(table.rendered()) }
      if !context.quiet {
        StandardStreams.writeError("\(Format.count(drafts.count)) draft\(drafts.count == 1 ? "" : "s")\n")
      }
      return ExitStatus.success
    }
  }
}
