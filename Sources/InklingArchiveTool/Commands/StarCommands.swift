// `star` and `unstar`: stars on drafts (Organise/Archive+Stars.swift).

import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

/// The drafts `star` and `unstar` change: `DRAFT...`, or those `--query` finds.
struct StarredDrafts {
  @Parsed(
    Argument(
      "DRAFT", .draftName, repeating: (), allowsNone: true,
      help: "A draft's name, exactly (as `list` shows it, in its quotes if it has them).",
      completion: .prefixed(["complete-names"])))
  var names: [String]
  @Parsed(Common.query("Every draft that QUERY finds, in the language of `search`.")) var query: String?

  var choices: [DraftChoice] { query.map { [.search($0)] } ?? names.map(DraftChoice.named) }

  func validate(_ parsed: ParsedArguments) throws(UsageError) {
    if query != nil {
      guard names.isEmpty else { throw parsed.usageError("give either DRAFT names or --query, not both") }
    } else {
      guard !names.isEmpty else { throw parsed.usageError("give a DRAFT or --query") }
    }
  }

  /// Says what `star` or `unstar` did.
  static func report(_ change: StarChange, _ context: CommandContext) {
    context.report(
      [
        "drafts": .int(change.drafts), "stars": change.stars.map { .int($0) } ?? .null, "changed": .int(change.changed),
      ],
      change.stars.map {
        "Starred \(Plural.count(change.drafts, "draft")) \(Format.stars($0)) (\(Format.count(change.changed)) changed)."
      }
        ?? "Unstarred \(Plural.count(change.drafts, "draft")) (\(Format.count(change.changed)) had stars).",
      dataTo: .file(""))
  }
}

struct StarCommand: Command {
  static let name = "star"
  static let spec = CommandSpec(
    name, abstract: "Give drafts stars, 1 to 5.",
    discussion: """
      A draft has 1 to 5 stars or none; starring it again replaces them. `list --starred` \
      lists the starred drafts, `--sort stars` the most stars first, and `search 'stars:>=4'` \
      finds by them. With --query, every draft the query finds gets them, in one transaction.

      Examples:
        inkling-archive star "Plan-B" --stars 5
        inkling-archive star --query 'tag:portfolio' --stars 3
        inkling-archive list --starred --sort stars
      """
  ).declaring { Self() }

  // Before the drafts: help lists --stars first.
  @Parsed(Option("stars", valueName: "N", .positive, default: 1, help: "How many stars, 1 to 5.")) var stars: Int
  let drafts = StarredDrafts()

  func validate(_ parsed: ParsedArguments) throws { try drafts.validate(parsed) }

  func run(_ context: CommandContext) throws -> Int32 {
    StarredDrafts.report(try context.openExisting().star(drafts.choices, stars: stars), context)
    return ExitStatus.success
  }
}

struct UnstarCommand: Command {
  static let name = "unstar"
  static let spec = CommandSpec(
    name, abstract: "Take drafts' stars away.",
    discussion: """
      Examples:
        inkling-archive unstar "Plan-B"
        inkling-archive unstar --query 'stars:<3'
      """
  ).declaring { Self() }

  let drafts = StarredDrafts()

  func validate(_ parsed: ParsedArguments) throws { try drafts.validate(parsed) }

  func run(_ context: CommandContext) throws -> Int32 {
    StarredDrafts.report(try context.openExisting().star(drafts.choices, stars: nil), context)
    return ExitStatus.success
  }
}
