// `complete-names [--trash | --saved] [--limit N] [--] [PREFIX]`: what the completion scripts
// ask for when a draft's name is being typed, or a query (`@NAME`, a saved search's). Not in the command list of --help (people list drafts
// with `list`); `completions --help` and the README say what the scripts run.

import InklingArchive
import InklingCommandLine

struct CompleteNamesCommand: Command {
  static let name = "complete-names"
  static let hidden = true
  static let spec = CommandSpec(
    name, abstract: "Print the draft names that start with PREFIX, each ended by a NUL byte (for completion scripts).",
    discussion: """
      Case and accents aside, as search compares names, from the archive's index of names: \
      a shell's Tab costs the same however many drafts the archive holds.
      """,
    exclusive: [["trash", "saved"]]
  ).declaring { Self() }

  @Parsed(Argument("PREFIX", .text, optional: (), help: "The start of the name typed so far.")) var typed: String?
  @Parsed(Flag("trash", help: "Names of drafts in the trash instead of the others.")) var inTrash: Bool
  @Parsed(
    Flag(
      "saved",
      help:
        "With a PREFIX that starts with @, the names of saved searches instead, each after an @; nothing for others."))
  var savedSearches: Bool
  @Parsed(
    Option(
      "limit", valueName: "N", .positive, default: Archive.completionLimit,
      help: "Print at most N names."))
  var limit: Int

  var prefix: String { typed ?? "" }

  func run(_ context: CommandContext) throws -> Int32 {
    guard !savedSearches else {
      // A query is completed only where it is a saved search's name; anything else is the
      // search language, typed by hand.
      guard let name = Archive.savedSearchName(in: prefix) else { return ExitStatus.success }
      let searches = try context.open(.readOnly).savedSearches(prefix: name, limit: limit)
      StandardStreams.writeOutput(searches.map { "@" + $0.name + "\0" }.joined())
      return ExitStatus.success
    }
    let names = try context.open(.readOnly).draftNames(startingWith: prefix, inTrash: inTrash, limit: limit)
    StandardStreams.writeOutput(names.map { $0 + "\0" }.joined())
    return ExitStatus.success
  }
}
