import InklingArchive
import InklingCommandLine

struct SearchCommand: Command {
  static let query = Argument(
    "QUERY", .text, repeating: (), help: "The query; several arguments are joined with spaces.")

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

      Examples:
        inkling-archive search 'name:cat saved:>=2025-10 saved:<7d'
        inkling-archive search \\
          '(name:portrait or name:study) and strokes:>100 and ink:marker'
        inkling-archive search --paths \\
          'background:#1a1a1f versions:>3 imported:today'
        inkling-archive search 'source:anna saved:>=2025-10'
        inkling-archive search 'tag:client: stars:>=4'
        inkling-archive search 'note:printer or label:final'

      Exit status: 0 when a draft matched, 1 when none did (as grep), 2 for a query that does \
      not read, 3 when the archive cannot be used.
      """,
    arguments: [query.spec],
    options: DraftListing.options + [DraftFilters.trash.spec],
    exclusive: DraftListing.exclusive)

  var query: DraftQuery
  let listing: DraftListing

  init(_ parsed: ParsedArguments) throws {
    do {
      query = try DraftQuery(search: try parsed.value(Self.query).joined(separator: " "))
    } catch let error as SearchSyntaxError {
      throw ArchiveError.searchSyntax(error)
    }
    query.inTrash = parsed.value(DraftFilters.trash)
    listing = try DraftListing(parsed)
  }

  /// Exit status 1 when nothing matches, as grep and ripgrep: `search … && …` in a script
  /// goes on only with drafts to work on.
  func run(_ context: CommandContext) throws -> Int32 {
    try listing.run(query, context) == 0 ? ExitStatus.nothingMatched : ExitStatus.success
  }
}
