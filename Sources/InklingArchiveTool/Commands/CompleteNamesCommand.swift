// `complete-names [--trash] [--limit N] [--] [PREFIX]`: what the completion scripts ask for
// when a draft's name is being typed. Not in the command list of --help (people list drafts
// with `list`); `completions --help` and the README say what the scripts run.

import InklingArchive
import InklingCommandLine

struct CompleteNamesCommand: Command {
  static let prefix = Argument("PREFIX", .text, optional: (), help: "The start of the name typed so far.")
  static let trash = Flag("trash", help: "Names of drafts in the trash instead of the others.")
  static let limit = Option(
    "limit", valueName: "N", .positive, default: Archive.completionLimit,
    help: "Print at most N names.")

  static let name = "complete-names"
  static let hidden = true
  static let spec = CommandSpec(
    name, abstract: "Print the draft names that start with PREFIX, each ended by a NUL byte (for completion scripts).",
    discussion: """
      Case and accents aside, as search compares names, from the archive's index of names: \
      a shell's Tab costs the same however many drafts the archive holds.
      """,
    arguments: [prefix.spec], options: [trash.spec, limit.spec])

  let prefix: String
  let inTrash: Bool
  let limit: Int

  init(_ parsed: ParsedArguments) throws {
    prefix = try parsed.value(Self.prefix) ?? ""
    inTrash = parsed.value(Self.trash)
    limit = try parsed.value(Self.limit)
  }

  func run(_ context: CommandContext) throws -> Int32 {
    let names = try context.open(.readOnly).draftNames(startingWith: prefix, inTrash: inTrash, limit: limit)
    StandardStreams.writeOutput(names.map { $0 + "\0" }.joined())
    return ExitStatus.success
  }
}
