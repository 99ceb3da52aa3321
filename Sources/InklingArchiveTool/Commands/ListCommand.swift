import InklingArchive
import InklingCommandLine

struct ListCommand: Command {
  static let saved = Argument(
    "@NAME", .query, optional: (),
    help: "Only the drafts that the search saved as NAME finds (`search --save`), with the options' filters too.")

  static let name = "list"
  static let spec = CommandSpec(
    name, abstract: "List drafts, newest first, like the app.",
    discussion: DraftFilters.dateHelp + """


      Examples:
        inkling-archive list --since 7d
        inkling-archive list --name cat --json
        inkling-archive list @weekly --starred
        inkling-archive list --paths -0 | xargs -0 -n 1 inkling-archive history
      """,
    arguments: [saved.spec],
    options: DraftFilters.options + DraftListing.options,
    exclusive: DraftFilters.exclusive + DraftListing.exclusive)

  let filters: DraftFilters
  let savedSearch: String?
  let listing: DraftListing

  init(_ parsed: ParsedArguments) throws {
    filters = try DraftFilters(parsed)
    savedSearch = try parsed.value(Self.saved)
    if let savedSearch, Archive.savedSearchName(in: savedSearch) == nil {
      throw parsed.usageError("list takes a saved search as @NAME; `search` takes a query")
    }
    listing = try DraftListing(parsed)
  }

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.open(.readOnly)
    try listing.run(try filters.query(and: savedSearch, in: archive), in: archive, context)
    return ExitStatus.success
  }
}
