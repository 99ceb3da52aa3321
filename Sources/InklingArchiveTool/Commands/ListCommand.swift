import InklingArchive
import InklingCommandLine

struct ListCommand: Command {
  static let name = "list"
  static let spec = CommandSpec(
    name, abstract: "List drafts, newest first, like the app.",
    discussion: DraftFilters.dateHelp + """


      Examples:
        inkling-archive list --since 7d
        inkling-archive list --name cat --json
        inkling-archive list --paths -0 | xargs -0 -n 1 inkling-archive history
      """,
    options: DraftFilters.options + DraftListing.options,
    exclusive: DraftFilters.exclusive + DraftListing.exclusive)

  let filters: DraftFilters
  let listing: DraftListing

  init(_ parsed: ParsedArguments) throws {
    filters = try DraftFilters(parsed)
    listing = try DraftListing(parsed)
  }

  func run(_ context: CommandContext) throws -> Int32 {
    try listing.run(filters.query, context)
    return ExitStatus.success
  }
}
