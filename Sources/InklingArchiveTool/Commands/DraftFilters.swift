// The draft filters shared by list, contact-sheet and export, and the listing options shared
// by list and search, declared once so that they read the same everywhere.

import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

/// `--name`, `--exact`, `--glob`, `--since`, `--until`, `--on`, `--source`, `--starred`, `--trash`.
struct DraftFilters {
  @Parsed(
    Option("name", valueName: "TEXT", .text, help: "Only drafts whose name contains TEXT (any case and accents)."))
  var name: String?
  @Parsed(Option("exact", valueName: "NAME", .text, help: "Only the draft called exactly NAME.")) var exact: String?
  @Parsed(
    Option(
      "glob", valueName: "PATTERN", .text,
      help: "Only drafts whose whole name matches PATTERN (*, ?, [...]; any case and accents)."))
  var glob: String?
  @Parsed(Option("since", valueName: "DATE", .text, help: "Only drafts with a version saved on or after DATE."))
  var since: String?
  @Parsed(Option("until", valueName: "DATE", .text, help: "Only drafts with a version saved on or before DATE."))
  var until: String?
  @Parsed(Option("on", valueName: "DATE", .text, help: "Only drafts with a version saved within DATE.")) var on: String?
  @Parsed(
    Option(
      "source", valueName: "TEXT", .text,
      help: "Only drafts with a version from a source whose label contains TEXT (any case and accents)."))
  var source: String?
  @Parsed(Flag("starred", help: "Only drafts with stars (`star` gives them).")) var starred: Bool
  @Parsed(Self.trash) var trash: Bool

  /// Also `search`'s, which takes no other filter.
  static let trash = Flag("trash", help: "Drafts in the trash (`delete` puts them there) instead of the others.")

  static let exclusive = [["name", "exact"], ["on", "since"], ["on", "until"]]

  static let dateHelp = """
    DATE is \(DateExpression.forms). A date is the whole period it names (a day, a month, a \
    minute) in local time unless it has Z or an offset; an age is the moment that long ago.
    """

  /// The drafts the filters find.
  ///
  /// - Throws: `ArchiveError.invalidDate` / `.invalidPattern`, usage errors: the commands
  ///   check it in their `validate`.
  func query() throws -> DraftQuery {
    var query = try DraftQuery(
      name: name, exact: exact, glob: glob, since: since, until: until, on: on, source: source, starred: starred)
    query.inTrash = trash
    return query
  }

  /// Reads the dates and the pattern, so that a mistake in them is told before the archive
  /// is opened.
  func validate() throws { _ = try query() }

  /// The drafts these filters and `text` (a `--query`: the search language or `@NAME`) both
  /// find; the filters alone when `text` is nil.
  func query(and text: String?, in archive: Archive) throws -> DraftQuery {
    guard let text else { return try query() }
    return try query().narrowed(to: try archive.query(text))
  }
}

/// How `list` and `search` print drafts: a table, `--json`, `--ndjson`, `--paths` or
/// `--paths --null`.
struct DraftListing {
  @Parsed(
    Option(
      "sort", valueName: "ORDER", .choice(DraftSort.allCases), default: .newest,
      help: "The order: newest (as in the app), oldest, name, versions or stars (most first)."))
  var sort: DraftSort
  @Parsed(Option("limit", valueName: "N", .count, help: "At most N drafts.")) var limit: Int?
  @Parsed(
    Flag(
      "ndjson", help: "One JSON object per line, as the drafts are found (the same with --json; errors as JSON too)."))
  var ndjson: Bool
  @Parsed(
    Flag(
      "paths",
      help: "Only the names, one per line; names with control or invisible characters are quoted as git quotes paths."
    ))
  var paths: Bool
  @Parsed(Flag("null", short: "0", help: "With --paths: end each name with a NUL byte, unquoted (for xargs -0)."))
  var null: Bool

  static let names = ["sort", "limit", "ndjson", "paths", "null"]
  static let exclusive = [["ndjson", "paths"], ["paths", RootCommand.json.spec.long], ["ndjson", "null"]]

  enum Form { case table, json, ndjson, lines, nulls }

  func validate(_ parsed: ParsedArguments) throws(UsageError) {
    if null && !paths { throw parsed.usageError("--null goes with --paths") }
  }

  /// The form asked for; `json` is the global --json.
  func form(json: Bool) -> Form {
    if ndjson { .ndjson } else if paths { null ? .nulls : .lines } else if json { .json } else { .table }
  }

  /// How many drafts matching `query` there are, for people: `12 drafts`, or when the limit
  /// cut the list, `40 of 1,234 drafts` (counted up to `countLimit`, then "more than").
  static func count(_ shown: Int, of query: DraftQuery, limit: Int?, _ archive: Archive) throws -> String {
    guard let limit, shown == limit else { return Plural.count(shown, "draft") }
    let total = try archive.draftCount(matching: query, upTo: countLimit)
    let of = total > countLimit ? "more than \(Format.count(countLimit))" : Format.count(total)
    return "\(Format.count(shown)) of \(of) drafts"
  }

  /// How far the total behind a cut list is counted.
  static let countLimit = 100_000

  /// The most drafts a table is measured from one read of them.
  static let shortList = 1_000

  /// Prints the drafts of `archive` that `query` matches; returns how many there were.
  @discardableResult func run(_ query: DraftQuery, in archive: Archive, _ context: CommandContext) throws -> Int {
    let form = form(json: context.json)
    var matched = 0
    switch form {
    case .ndjson, .lines, .nulls:
      try archive.forEachDraft(matching: query, sort: sort, limit: limit, marks: form == .ndjson) { draft in
        matched += 1
        switch form {
        case .ndjson: StandardStreams.writeOutput(JSONWriter().line(draft.json))
        case .nulls: StandardStreams.writeOutput(draft.name + "\0")
        default: StandardStreams.writeOutput(Quoted.display(draft.name) + "\n")
        }
      }
    case .json:
      // Written as the drafts are found, element by element, the text JSONWriter writes for
      // the whole object: a list of every draft is never held.
      var stream = JSONObjectStream()
      StandardStreams.writeOutput(stream.beginArray("drafts"))
      try archive.forEachDraft(matching: query, sort: sort, limit: limit) { draft in
        StandardStreams.writeOutput(stream.element(draft.json))
        matched += 1
      }
      StandardStreams.writeOutput(stream.endArray() + stream.end() + "\n")
    case .table:
      var columns: [TextTable.Column] = [
        .init("NAME", maxWidth: 48), .init("VERSIONS", alignment: .right), .init("LAST SAVED"),
      ]
      if query.inTrash { columns.append(.init("DELETED")) }
      // Stars and tags only where someone gave a draft some: other archives list as before.
      let marked = try archive.hasTagsOrStars(inTrash: query.inTrash)
      if marked { columns += [.init("STARS"), .init("TAGS", maxWidth: 40)] }
      let row = { (draft: DraftSummary) in
        [Quoted.display(draft.name), Format.count(draft.versionCount), Format.date(draft.lastSaved)]
          + (draft.deleted.map { [Format.date($0)] } ?? [])
          + (marked ? [Format.stars(draft.stars), draft.tags.map(Quoted.display).joined(separator: ", ")] : [])
      }
      // A table is aligned to its widest cell, so a long list is read twice: once to measure,
      // once to print, rather than held whole. Most lists fit in the first, short read.
      var table = TextTable(columns: columns)
      let shortList = Self.shortList
      try archive.forEachDraft(matching: query, sort: sort, limit: min(limit ?? .max, shortList + 1)) { draft in
        table.append(row(draft))
      }
      if table.rows.count <= shortList || (limit ?? .max) <= shortList + 1 {
        matched = table.rows.count
        if matched > 0 { context.printRaw(table.rendered()) }
      } else {
        var widths = TextTable.Widths(columns)
        widths.measure(columns.map(\.header))
        try archive.forEachDraft(matching: query, sort: sort, limit: limit) { widths.measure(row($0)) }
        context.printRaw(widths.line(columns.map(\.header)))
        try archive.forEachDraft(matching: query, sort: sort, limit: limit) { draft in
          matched += 1
          StandardStreams.writeOutput(widths.line(row(draft)))
        }
      }
      if !context.quiet {
        context.printError(
          try Self.count(matched, of: query, limit: limit, archive) + (query.inTrash ? " in the trash" : ""))
      }
    }
    return matched
  }
}
