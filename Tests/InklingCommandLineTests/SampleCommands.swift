// A small command tree shaped like inkling-archive's, shared by the tests.

import InklingCommandLine

enum Sample {
  static let importCommand = CommandSpec(
    "import", abstract: "Add drafts from files and folders.",
    arguments: [.oneOrMore("PATH", help: "Files or folders, searched recursively.")],
    options: [.flag("dry-run", help: "Report what would be imported without writing anything.")])

  static let list = CommandSpec(
    "list", abstract: "List drafts, newest first.",
    options: [
      .repeatable(
        "name", short: "n", valueName: "TEXT", help: "Only drafts whose name contains TEXT."),
      .value("limit", valueName: "N", help: "Show at most N drafts.", default: "50"),
      .value("offset", valueName: "N", help: "Skip the first N drafts."),
      .flag("all", short: "a", help: "Include drafts in the trash."),
      .flag("long", short: "l", help: "Show every column."),
    ])

  static let restore = CommandSpec(
    "restore", abstract: "Write a version of a draft back out, byte for byte.",
    discussion: """
      Without --version or --at, the newest version is restored. The file is identical to the \
      one the app wrote, down to the last byte.

      Examples:
        inkling-archive restore Cat --version 3 -o cat.inkling
        inkling-archive restore Cat --at 2025-10-05 --to ~/Desktop
      """,
    arguments: [.required("DRAFT", help: "The draft's name.")],
    options: [
      .value("version", valueName: "N", help: "Restore version N (1 is the first saved)."),
      .value("at", valueName: "DATE", help: "Restore the version that was current at DATE."),
      .value(
        "to", valueName: "DIR", help: "Write into DIR under the draft's own file name.",
        default: "."),
      .value("output", short: "o", valueName: "FILE", help: "Write to FILE."),
    ],
    exclusive: [["--version", "--at"], ["--to", "--output"]])

  static let rename = CommandSpec(
    "rename", abstract: "Rename a draft.",
    arguments: [
      .required("OLD", help: "The current name."), .required("NEW", help: "The new name."),
    ])

  static let thumbnail = CommandSpec(
    "thumbnail", abstract: "Write a PNG thumbnail of a draft.",
    arguments: [.required("DRAFT", help: "The draft's name.")],
    options: [
      .value("size", valueName: "PX", help: "The longer side in pixels.", default: "256"),
      .value("scale", valueName: "S", help: "Scale factor."),
      .value(
        "output", short: "o", valueName: "FILE", help: "The PNG file to write.", required: true),
    ])

  static let root = CommandSpec(
    "inkling-archive", abstract: "Every saved version of every Inkling draft in one SQLite file.",
    options: [
      .value(
        "archive", valueName: "FILE", help: "The archive to use.", default: "$INKLING_ARCHIVE"),
      .flag("json", help: "Print JSON instead of text."),
      .flag("quiet", short: "q", help: "Print only errors."),
    ],
    subcommands: [importCommand, list, restore, rename, thumbnail],
    version: "0.1.0")

  /// Parses and expects a command to run.
  static func parse(_ arguments: [String]) throws -> ParsedArguments {
    switch try ArgumentParser(root: root).parse(arguments) {
    case .run(let parsed): return parsed
    case let other: throw Unexpected(outcome: "\(other)")
    }
  }

  /// The usage error the arguments produce, or nil when they parse.
  static func error(_ arguments: [String]) -> UsageError? {
    do {
      _ = try ArgumentParser(root: root).parse(arguments)
      return nil
    } catch {
      return error
    }
  }

  struct Unexpected: Error { var outcome: String }
}
