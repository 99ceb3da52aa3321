import InklingCommandLine

enum SearchCommand {
  static let spec = CommandSpec(
    "search", abstract: "Find drafts by name, date, strokes and inks.",
    discussion: """
      Every term must match. Terms are FIELD:VALUE, with <, <=, >, >= for dates and counts; \
      a word alone matches names.

      Examples:
        inkling-archive search name:cat saved:>=2025-10
        inkling-archive search saved:<7d strokes:>100 ink:marker
      """,
    arguments: [.oneOrMore("QUERY", help: "Search terms, such as name:cat or strokes:>100.")])
}
