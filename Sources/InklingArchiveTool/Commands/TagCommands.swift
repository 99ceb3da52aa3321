// `tag`, `untag` and `tags`: tags on drafts (Organise/Archive+Tags.swift).

import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

/// What `tag` and `untag` share: `DRAFT TAG...`, or with `--query`, every word a tag.
struct TagArguments {
  @Parsed(
    Argument(
      "DRAFT", .draftName,
      help: "The draft's name, exactly (as `list` shows it); with --query, the first tag instead.",
      completion: .prefixed(["complete-names"])))
  var first: String
  @Parsed(
    Argument(
      "TAG", .text, repeating: (), allowsNone: true,
      help: "A tag: any one line of text, e.g. portfolio or client:anna."))
  var rest: [String]
  @Parsed(Common.query("Every draft that QUERY finds, in the language of `search`, instead of one draft."))
  var query: String?

  var choice: DraftChoice { query.map { .search($0) } ?? .named(first) }
  var tags: [String] { query == nil ? rest : [first] + rest }

  func validate(_ parsed: ParsedArguments) throws(UsageError) {
    if query == nil && rest.isEmpty { throw parsed.usageError("give at least one TAG after the draft's name") }
  }

  /// `"a", "b"`, each quoted as names are. A loop, not `joined(separator:)`, whose first use
  /// in a process looks up its generic witnesses at run time (SchemaVerification.stampSQL).
  static func list(_ tags: [String]) -> String {
    var text = ""
    for tag in tags { text += (text.isEmpty ? "" : ", ") + Quoted.name(tag) }
    return text
  }

  static func json(_ change: TagChange) -> JSONValue {
    [
      "drafts": .int(change.drafts), "tags": .array(change.tags.map { .string($0) }), "changed": .int(change.changed),
    ]
  }
}

struct TagCommand: Command {
  static let name = "tag"
  static let spec = CommandSpec(
    name, abstract: "Give drafts tags.",
    discussion: """
      A tag is compared as names are searched (any case and accents): Portfolio and portfolio \
      are one tag, written as it was first given. A tag with a colon, such as client:anna, is \
      one of a group that `search 'tag:client:'` finds whole. With --query, every draft the \
      query finds gets the tags, in one transaction, and every word after the options is a tag.

      Examples:
        inkling-archive tag "Plan-B" portfolio client:anna
        inkling-archive tag --query 'name:study saved:2025-10' october-studies
        inkling-archive search 'tag:client:'
      """
  ).declaring { Self() }

  let arguments = TagArguments()

  func validate(_ parsed: ParsedArguments) throws { try arguments.validate(parsed) }

  func run(_ context: CommandContext) throws -> Int32 {
    let change = try context.openExisting().tag(arguments.choice, with: arguments.tags)
    context.report(
      TagArguments.json(change),
      "Tagged \(Plural.count(change.drafts, "draft")) \(TagArguments.list(change.tags)) "
        + "(\(Format.count(change.changed)) added).",
      dataTo: .file(""))
    return ExitStatus.success
  }
}

struct UntagCommand: Command {
  static let name = "untag"
  static let spec = CommandSpec(
    name, abstract: "Take tags from drafts.",
    discussion: """
      A tag is compared as names are searched (any case and accents). A tag that no draft has \
      any more is forgotten. With --query, the tags are taken from every draft the query \
      finds, in one transaction.

      Examples:
        inkling-archive untag "Plan-B" portfolio
        inkling-archive untag --query 'tag:draft' draft
      """
  ).declaring { Self() }

  let arguments = TagArguments()

  func validate(_ parsed: ParsedArguments) throws { try arguments.validate(parsed) }

  func run(_ context: CommandContext) throws -> Int32 {
    let change = try context.openExisting().untag(arguments.choice, arguments.tags)
    context.report(
      TagArguments.json(change),
      "Untagged \(Plural.count(change.drafts, "draft")) \(TagArguments.list(change.tags)) "
        + "(\(Format.count(change.changed)) removed).",
      dataTo: .file(""))
    return ExitStatus.success
  }
}

struct TagsCommand: Command {
  static let name = "tags"
  static let spec = CommandSpec(
    name, abstract: "List the tags of live drafts, with how many drafts have each.",
    discussion: """
      Examples:
        inkling-archive tags
        inkling-archive tags client: --json
      """
  ).declaring { Self() }

  @Parsed(
    Argument(
      "PREFIX", .text, optional: (),
      help: "Only the tags that start with PREFIX (any case and accents), e.g. client:."))
  var prefix: String?

  func run(_ context: CommandContext) throws -> Int32 {
    let tags = try context.open(.readOnly).tags(prefix: prefix)
    if context.json {
      context.printJSON([
        "tags": .array(tags.map { ["name": .string($0.name), "drafts": .int($0.drafts)] })
      ])
      return ExitStatus.success
    }
    guard !tags.isEmpty else { return ExitStatus.success }
    var table = TextTable(columns: [.init("TAG", maxWidth: 48), .init("DRAFTS", alignment: .right)])
    for tag in tags { table.append([Quoted.display(tag.name), Format.count(tag.drafts)]) }
    context.printRaw(table.rendered())
    return ExitStatus.success
  }
}
