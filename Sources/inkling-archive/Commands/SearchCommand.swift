import InklingArchive
import InklingCommandLine

enum SearchCommand {
  static let spec = CommandSpec(
    "search", abstract: "Find drafts by name, date, strokes, inks and colours.",
    discussion: """
      A query is FIELD:VALUE terms joined by and, or, not and parentheses; terms side by side \
      must all match, and a word alone matches names. Fields: name (text it contains; \
      name:=NAME for the draft called exactly NAME, a pattern with * ? [...] for a glob), saved and imported \
      (dates, with = > >= < <=), versions and strokes (numbers), ink (pen, pencil, marker, \
      monoline, fountainpen, watercolor, crayon) and background (#rrggbb or a colour name, \
      matched within a tolerance).

      Examples:
        inkling-archive search 'name:cat saved:>=2025-10 saved:<7d'
        inkling-archive search '(name:portrait or name:study) and strokes:>100 and ink:marker'
        inkling-archive search 'background:#1a1a1f versions:>3 imported:today' --paths
      """,
    arguments: [.oneOrMore("QUERY", help: "The query; several arguments are joined with spaces.")],
    options: DraftListing.options,
    exclusive: DraftListing.exclusive)

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      let text = parsed.arguments("QUERY").joined(separator: " ")
      let query: DraftQuery
      do {
        query = try DraftQuery(search: text)
      } catch let error as SearchSyntaxError {
        // The query and a caret under the problem, then the usage line; exit status 2.
        throw parsed.usageError(error.description)
      }
      return try DraftListing.run(query, context)
    }
  }
}
