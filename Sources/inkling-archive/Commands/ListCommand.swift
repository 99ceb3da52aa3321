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
    options: DraftFilters.options + DraftListing.options,
    exclusive: DraftFilters.exclusive + DraftListing.exclusive)

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      try DraftListing.run(try DraftFilters.query(parsed), context)
    }
  }
}
