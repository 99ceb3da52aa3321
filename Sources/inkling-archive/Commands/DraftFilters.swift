// The draft filters and list output options shared by list, search, export and
// contact-sheet, so they read the same everywhere.

import InklingArchive
import InklingCommandLine
import InklingPresentation

enum DraftFilters {
  static let options: [OptionSpec] = [
    .value("name", valueName: "TEXT", help: "Only drafts whose name contains TEXT (any case and accents)."),
    .value("exact", valueName: "NAME", help: "Only the draft called NAME (any case and accents)."),
    .value("glob", valueName: "PATTERN", help: "Only drafts whose whole name matches PATTERN (*, ?, [...])."),
    .value("since", valueName: "DATE", help: "Only drafts with a version saved on or after DATE."),
    .value("until", valueName: "DATE", help: "Only drafts with a version saved on or before DATE."),
    .value("on", valueName: "DATE", help: "Only drafts with a version saved within DATE."),
  ]

  static let exclusive: [[String]] = [
    ["--name", "--exact"], ["--on", "--since"], ["--on", "--until"],
  ]

  static let dateHelp = """
    DATE is 2025-10-05, 2025-10, 2025, a full ISO 8601 date and time, today, yesterday, or an \
    age such as 7d, 3w or 2m; a date without a time is the whole day in local time.
    """

  /// The query the filter flags ask for.
  static func query(_ parsed: ParsedArguments) throws(ArchiveError) -> DraftQuery {
    try DraftQuery(
      name: parsed.string("--name"), exact: parsed.string("--exact"), glob: parsed.string("--glob"),
      since: parsed.string("--since"), until: parsed.string("--until"), on: parsed.string("--on"))
  }
}

/// How `list` and `search` print drafts: a table, `--json`, `--ndjson` or `--paths`.
enum DraftListing {
  static let options: [OptionSpec] = [
    .value("sort", valueName: "ORDER", help: "newest (the default, as in the app), oldest, name or versions."),
    .value("limit", valueName: "N", help: "At most N drafts."),
    .flag("ndjson", help: "One JSON object per line, as the drafts are found."),
    .flag("paths", help: "Only the names, one per line (for xargs)."),
  ]

  static let exclusive: [[String]] = [["--ndjson", "--paths", "--json"]]

  static func json(_ draft: DraftSummary) -> JSONValue {
    ["name": .string(draft.name), "versions": .int(draft.versionCount), "lastSaved": .date(draft.lastSaved)]
  }

  /// Runs `query` and prints what it finds.
  static func run(_ query: DraftQuery, _ context: CommandContext) throws -> Int32 {
    let parsed = context.parsed
    let sort =
      try parsed.value("--sort", expected: "newest, oldest, name or versions") { DraftSort(argument: $0) } ?? .newest
    let limit = try parsed.int("--limit")
    if let limit, limit < 0 { throw parsed.usageError("--limit takes a number of drafts, 0 or more") }
    let archive = try context.open(.readOnly)
    if parsed.flag("--ndjson") || parsed.flag("--paths") {
      let paths = parsed.flag("--paths")
      try archive.forEachDraft(matching: query, sort: sort, limit: limit) { draft in
        StandardStreams.writeOutput(paths ? draft.name + "\n" : JSONWriter().line(json(draft)))
      }
      return ExitStatus.success
    }
    let drafts = try archive.drafts(matching: query, sort: sort, limit: limit)
    if context.json {
      context.printJSON(["drafts": .array(drafts.map(json))])
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
