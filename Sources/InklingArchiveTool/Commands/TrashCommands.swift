// `delete`, `undelete` and `purge`: the trash (Archive+Trash.swift).

import FoundationEssentials
import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

/// Prints the error of each name that is no draft's; whether there was one.
private func report(_ change: TrashChange, _ context: CommandContext) -> Bool {
  for problem in change.problems { context.printError("Error: " + problem.sentence) }
  return !change.problems.isEmpty
}

/// Under --json, the drafts done under `key` and, when some names were no draft's, the error
/// of each in the one shape of errors (Dispatch.errorJSON): a script reads which ones failed.
private func json(_ key: String, _ drafts: [JSONValue], _ change: TrashChange) -> JSONValue {
  var members: [JSONValue.Member] = [.init(key, .array(drafts))]
  if !change.problems.isEmpty {
    members.append(
      .init("errors", .array(change.problems.map { Dispatch.errorJSON($0.sentence, $0.exitStatus, $0) })))
  }
  return .object(members)
}

struct DeleteCommand: Command {
  static let name = "delete"

  static let spec = CommandSpec(
    name, abstract: "Move drafts to the trash.",
    discussion: """
      A draft in the trash is gone from list, search, contact-sheet and export (unless they \
      are given --trash) but keeps every version: history, show and restore still find it, \
      undelete brings it back whole, and purge removes it for good.

      Example:
        inkling-archive delete "Scratch" "Untitled"
      """
  ).declaring { Self() }

  @Parsed(
    Argument(
      "DRAFT", .draftName, repeating: (),
      help: "A draft's name, exactly (as `list` shows it, in its quotes if it has them).",
      completion: .prefixed(["complete-names"])))
  var names: [String]

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.openExisting()
    let change = try archive.delete(drafts: names)
    let failed = report(change, context)
    let done = change.drafts
    if context.json {
      context.printJSON(json("deleted", done.map(\.deletedJSON), change))
    } else if !context.quiet {
      for draft in done {
        context.print(
          draft.wasInTrash
            ? "\(Quoted.name(draft.name)) is in the trash already (since \(Format.date(draft.deleted)))."
            : "Moved \(Quoted.name(draft.name)) to the trash (\(Plural.count(draft.versionCount, "version"))).")
      }
    }
    return failed ? ExitStatus.someInputsRejected : ExitStatus.success
  }
}

struct UndeleteCommand: Command {
  static let name = "undelete"
  static let spec = CommandSpec(
    name, abstract: "Bring drafts back from the trash, whole.",
    discussion: """
      All the drafts named come back in one transaction: interrupted, none has; run again, \
      it brings back what is still in the trash and says which drafts were back already. \
      `inkling-archive list --trash` shows what the trash holds.
      """
  ).declaring { Self() }

  /// Completed from the trash: what undelete can bring back.
  @Parsed(
    Argument(
      "DRAFT", .draftName, repeating: (),
      help: "A draft's name in the trash, exactly (as `list --trash` shows it, in its quotes if it has them).",
      completion: .prefixed(["complete-names", "--trash"])))
  var names: [String]

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.openExisting()
    let change = try archive.undelete(drafts: names)
    let failed = report(change, context)
    if context.json {
      context.printJSON(json("undeleted", change.drafts.map(\.undeletedJSON), change))
    } else if !context.quiet {
      for draft in change.drafts {
        context.print(
          draft.wasOutOfTrash
            ? "\(Quoted.name(draft.name)) is not in the trash; nothing to bring back."
            : "Brought \(Quoted.name(draft.name)) back from the trash (\(Plural.count(draft.versionCount, "version")))."
        )
      }
    }
    return failed ? ExitStatus.someInputsRejected : ExitStatus.success
  }
}

struct PurgeCommand: Command {
  static let name = "purge"

  static let spec = CommandSpec(
    name, abstract: "Remove drafts in the trash for good.",
    discussion: DraftFilters.dateHelp + """


      Their versions are removed from the archive; `inkling-archive gc` then reclaims the \
      space of what no other version uses. Importing their files again archives them anew.

      Examples:
        inkling-archive purge --older-than 30d --dry-run
        inkling-archive purge "Scratch"
      """
  ).declaring { Self() }

  @Parsed(
    Argument(
      "DRAFT", .draftName, repeating: (), allowsNone: true, help: "A draft in the trash (default: every draft in it).",
      completion: .prefixed(["complete-names", "--trash"])))
  var names: [String]
  @Parsed(
    Option(
      "older-than", valueName: "DATE", .text,
      help: "Only drafts that went to the trash before DATE (30d: more than 30 days ago)."))
  var olderThan: String?
  @Parsed(Flag("dry-run", help: "Only say what would be removed.")) var dryRun: Bool
  /// The moment --older-than names.
  private(set) var before: Date?

  mutating func validate(_ parsed: ParsedArguments) throws {
    before = try olderThan.map { try DateExpression.parse($0).start }.map {
      Date(timeIntervalSince1970: Double($0) / 1000)
    }
  }

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try dryRun ? context.open(.readOnly) : context.openExisting()
    let report = try archive.purge(drafts: names.isEmpty ? nil : names, deletedBefore: before, dryRun: dryRun)
    if context.json {
      context.printJSON(report.json)
    } else if !context.quiet {
      let drafts = Plural.count(report.drafts.count, "draft")
      let versions = Plural.count(report.versionsRemoved, "version")
      if report.drafts.isEmpty {
        context.print("Nothing to purge: no draft in the trash matches.")
      } else {
        let names = report.drafts.map { Quoted.name($0.name) }.joined(separator: ", ")
        context.print(
          report.dryRun
            ? "Would purge \(drafts) (\(versions)): \(names)."
            : "Purged \(drafts) (\(versions)): \(names). `inkling-archive gc` reclaims their space.")
      }
    }
    return ExitStatus.success
  }
}
