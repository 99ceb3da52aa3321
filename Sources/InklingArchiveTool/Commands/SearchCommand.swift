import FoundationEssentials
import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

struct SearchCommand: Command {
  static let name = "search"

  static let spec = CommandSpec(
    name, abstract: "Find drafts by name, date, strokes, inks and colours.",
    discussion: """
      A query is FIELD:VALUE terms joined by and, or, not and parentheses; terms side by side \
      must all match, and a word alone matches names. Fields: name (text it contains; \
      name:=NAME for the draft called exactly NAME, a pattern with * ? [...] for a glob), saved \
      and imported (dates, with = > >= < <=), versions and strokes (numbers), ink (pen, pencil, \
      marker, monoline, fountainpen, watercolor, crayon), background (#rrggbb or a colour \
      name, matched within a tolerance) and source (text a version's source label contains: \
      the folder it was imported from, a --source label), tag (a tag the draft has, any case \
      and accents; tag:client: or tag:cli* any tag that starts so), stars (0 for none to 5), \
      note (text a note on the draft or on one of its versions contains, as name: finds names) \
      and label (a version's label: `label` names versions).

      A search is kept under a name with --save NAME (any case and accents; saving a name \
      again replaces its search, and says so). @NAME in place of a query runs it, here and \
      wherever a QUERY is taken (list @NAME, export --query @NAME, contact-sheet --query \
      @NAME, tag and star --query @NAME, the search box of serve). The query's text is kept \
      as given and read again each time: saved:<7d is always the last seven days.

      Examples:
        inkling-archive search 'name:cat saved:>=2025-10 saved:<7d'
        inkling-archive search \\
          '(name:portrait or name:study) and strokes:>100 and ink:marker'
        inkling-archive search --paths \\
          'background:#1a1a1f versions:>3 imported:today'
        inkling-archive search 'source:anna saved:>=2025-10'
        inkling-archive search 'tag:client: stars:>=4'
        inkling-archive search 'note:printer or label:final'
        inkling-archive search --save weekly 'saved:<7d stars:>=4'
        inkling-archive search @weekly
        inkling-archive search --saved
        inkling-archive search --forget weekly

      Exit status: 0 when a draft matched, 1 when none did (as grep) or there is no saved \
      search of that name, 2 for a query that does not read, 3 when the archive cannot be used.
      """,
    exclusive: DraftListing.exclusive + exclusive
  ).declaring { Self() }

  /// --save, --saved and --forget one at a time; the last two print no drafts, so take none
  /// of the options that say how drafts are listed or chosen.
  static var exclusive: [[String]] {
    var groups = [["save", "saved", "forget"]]
    for option in DraftListing.names + [DraftFilters.trash.spec.long] {
      groups.append(["saved", option])
      groups.append(["forget", option])
    }
    return groups
  }

  @Parsed(
    Argument(
      "QUERY", .query, repeating: (), allowsNone: true,
      help: "The query; several arguments are joined with spaces. " + Common.savedSearchHelp))
  var words: [String]
  let listing = DraftListing()
  @Parsed(DraftFilters.trash) var inTrash: Bool
  @Parsed(
    Option(
      "save", valueName: "NAME", .text,
      help: "Also keep the query as NAME, replacing a search saved so before; `search @NAME` runs it again."))
  var save: String?
  @Parsed(Flag("saved", help: "List the saved searches instead of searching.")) var saved: Bool
  @Parsed(Option("forget", valueName: "NAME", .text, help: "Forget the search saved as NAME instead of searching."))
  var forget: String?

  enum Action {
    /// Run the query (and keep it first under the name given).
    case search(String, saveAs: String?, inTrash: Bool)
    case listSaved
    case forget(String)
  }

  /// What the options ask for, once they are checked.
  private(set) var action = Action.listSaved

  mutating func validate(_ parsed: ParsedArguments) throws {
    if saved {
      guard words.isEmpty else { throw parsed.usageError("--saved lists the saved searches: leave out the QUERY") }
      action = .listSaved
    } else if let name = forget {
      guard words.isEmpty else { throw parsed.usageError("--forget takes the NAME alone: leave out the QUERY") }
      action = .forget(name)
    } else {
      guard !words.isEmpty else { throw parsed.usageError("give a QUERY (or --saved to list the saved searches)") }
      action = .search(words.joined(separator: " "), saveAs: save, inTrash: inTrash)
    }
    try listing.validate(parsed)
  }

  /// Exit status 1 when nothing matches, as grep and ripgrep: `search … && …` in a script
  /// goes on only with drafts to work on.
  func run(_ context: CommandContext) throws -> Int32 {
    switch action {
    case .search(let text, let name, let inTrash):
      try Archive.checkQuery(text)
      let archive: Archive
      if let name {
        archive = try context.openExisting()
        let change = try archive.saveSearch(named: name, query: text)
        if !context.quiet { context.printError(Self.describe(change)) }
      } else {
        archive = try context.open(.readOnly)
      }
      var query = try archive.query(text)
      query.inTrash = inTrash
      return try listing.run(query, in: archive, context) == 0 ? ExitStatus.nothingMatched : ExitStatus.success
    case .listSaved:
      let searches = try context.open(.readOnly).savedSearches()
      if context.json {
        context.printJSON(["searches": .array(searches.map(Self.json))])
      } else if !searches.isEmpty {
        var table = TextTable(columns: [.init("NAME", maxWidth: 32), .init("QUERY"), .init("SAVED")])
        for search in searches {
          // An empty query (every draft) shows as the quotes that give it.
          let query = search.query.isEmpty ? "\"\"" : Quoted.display(search.query)
          table.append(["@" + Quoted.display(search.name), query, Format.date(search.saved)])
        }
        context.printRaw(table.rendered())
      }
      return ExitStatus.success
    case .forget(let name):
      let forgotten = try context.openExisting().forgetSearch(named: name)
      context.report(
        Self.json(forgotten),
        "Forgot the saved search @\(Quoted.display(forgotten.name)) (\(Quoted.name(forgotten.query))).",
        dataTo: .file(""))
      return ExitStatus.success
    }
  }

  /// What `--save` did, on standard error: standard output holds the drafts found.
  static func describe(_ change: SavedSearchChange) -> String {
    let name = "@" + Quoted.display(change.search.name)
    guard let replaced = change.replaced else {
      return "Saved the search \(name): \(Quoted.name(change.search.query))."
    }
    return "Replaced the saved search \(name): \(Quoted.name(change.search.query)) (it was "
      + "\(Quoted.name(replaced.query))\(replaced.name == change.search.name ? "" : ", saved as @" + Quoted.display(replaced.name)))."
  }

  static func json(_ search: SavedSearch) -> JSONValue {
    ["name": .string(search.name), "query": .string(search.query), "saved": .date(search.saved)]
  }
}
