// `delete`, `undelete` and `purge`: the trash (Archive+Trash.swift).

import FoundationEssentials
import InklingArchive
import InklingCommandLine
import InklingPresentation

/// Runs `body` for each name, printing the error of a name that fails and going on.
private func eachDraft(
  _ names: [String], _ context: CommandContext, _ body: (String) throws(ArchiveError) -> TrashedDraft
) throws -> (done: [TrashedDraft], failed: Bool) {
  var done: [TrashedDraft] = []
  var failed = false
  for name in names {
    do {
      done.append(try body(name))
    } catch {
      if error.exitStatus == ExitStatus.archiveUnusable { throw error }
      context.printError("Error: " + error.sentence)
      failed = true
    }
  }
  return (done, failed)
}

struct DeleteCommand: Command {
  static let drafts = Argument(
    "DRAFT", .text, repeating: (), help: "A draft's name, exactly (as `list` shows it).",
    completion: .command(["list", "--paths", "--null"]))

  static let name = "delete"

  static let spec = CommandSpec(
    name, abstract: "Move drafts to the trash.",
    discussion: """
      A draft in the trash is gone from list, search, contact-sheet and export (unless they \
      are given --trash) but keeps every version: history, show and restore still find it, \
      undelete brings it back whole, and purge removes it for good.

      Example:
        inkling-archive delete "Scratch" "Untitled"
      """,
    arguments: [drafts.spec])

  let names: [String]

  init(_ parsed: ParsedArguments) throws {
    names = try parsed.value(Self.drafts)
  }

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.openExisting()
    let (done, failed) = try eachDraft(names, context) { name throws(ArchiveError) in try archive.delete(draft: name) }
    if context.json {
      context.printJSON(["deleted": .array(done.map(\.deletedJSON))])
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
    discussion: "`inkling-archive list --trash` shows what the trash holds.",
    arguments: [DeleteCommand.drafts.spec])

  let names: [String]

  init(_ parsed: ParsedArguments) throws {
    names = try parsed.value(DeleteCommand.drafts)
  }

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.openExisting()
    let (done, failed) = try eachDraft(names, context) { name throws(ArchiveError) in try archive.undelete(draft: name)
    }
    if context.json {
      context.printJSON(["undeleted": .array(done.map(\.json))])
    } else if !context.quiet {
      for draft in done {
        context.print(
          "Brought \(Quoted.name(draft.name)) back from the trash (\(Plural.count(draft.versionCount, "version"))).")
      }
    }
    return failed ? ExitStatus.someInputsRejected : ExitStatus.success
  }
}

struct PurgeCommand: Command {
  static let drafts = Argument(
    "DRAFT", .text, repeating: (), allowsNone: true, help: "A draft in the trash (default: every draft in it).",
    completion: .command(["list", "--trash", "--paths", "--null"]))
  static let olderThan = Option(
    "older-than", valueName: "DATE", .text,
    help: "Only drafts that went to the trash before DATE (30d: more than 30 days ago).")
  static let dryRun = Flag("dry-run", help: "Only say what would be removed.")

  static let name = "purge"

  static let spec = CommandSpec(
    name, abstract: "Remove drafts in the trash for good.",
    discussion: DraftFilters.dateHelp + """


      Their versions are removed from the archive; `inkling-archive gc` then reclaims the \
      space of what no other version uses. Importing their files again archives them anew.

      Examples:
        inkling-archive purge --older-than 30d --dry-run
        inkling-archive purge "Scratch"
      """,
    arguments: [drafts.spec], options: [olderThan.spec, dryRun.spec])

  let names: [String]
  let before: Date?
  let dryRun: Bool

  init(_ parsed: ParsedArguments) throws {
    names = try parsed.value(Self.drafts)
    before = try parsed.value(Self.olderThan).map { try DateExpression.parse($0).start }.map {
      Date(timeIntervalSince1970: Double($0) / 1000)
    }
    dryRun = parsed.value(Self.dryRun)
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
