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
        inkling-archive list @weekly --starred
        inkling-archive list --paths -0 | xargs -0 -n 1 inkling-archive history
      """,
    exclusive: DraftFilters.exclusive + DraftListing.exclusive
  ).declaring { Self() }

  let filters = DraftFilters()
  @Parsed(
    Argument(
      "@NAME", .query, optional: (),
      help: "Only the drafts that the search saved as NAME finds (`search --save`), with the options' filters too."))
  var savedSearch: String?
  let listing = DraftListing()

  func validate(_ parsed: ParsedArguments) throws {
    try filters.validate()
    if let savedSearch, Archive.savedSearchName(in: savedSearch) == nil {
      throw parsed.usageError("list takes a saved search as @NAME; `search` takes a query")
    }
    try listing.validate(parsed)
  }

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.open(.readOnly)
    try listing.run(try filters.query(and: savedSearch, in: archive), in: archive, context)
    return ExitStatus.success
  }
}
