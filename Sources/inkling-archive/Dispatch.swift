// Dispatch: THE SINGLE PLACE WHERE COMMANDS ARE WIRED to library operations.
//
// Parsing, help, --version and usage errors are handled before this runs (CommandLineProgram).
// Each case receives the parsed values of its command and returns the exit status
// (ExitStatus.success, .someInputsRejected, …); a thrown UsageError is printed with the
// command's usage line and exits 2, an ExitStatusError exits with its own status.
//
// To implement a command: replace its `notImplemented` with a call into the command's file,
// e.g. `return try ImportCommand.run(parsed)`.

import InklingCommandLine

enum Dispatch {
  static func run(_ path: [String], _ parsed: ParsedArguments) throws -> Int32 {
    switch path {
    case ["import"]: return try ImportCommand.run(parsed)
    case ["list"]: return try ListCommand.run(parsed)
    case ["search"]: return try SearchCommand.run(parsed)
    case ["show"]: return try ShowCommand.run(parsed)
    case ["history"]: return try HistoryCommand.run(parsed)
    case ["diff"]: return try DiffCommand.run(parsed)
    case ["restore"]: return try RestoreCommand.run(parsed)
    case ["revert"]: return notImplemented(path)
    case ["export"]: return notImplemented(path)
    case ["thumbnail"]: return try ThumbnailCommand.run(parsed)
    case ["render"]: return try RenderCommand.run(parsed)
    case ["contact-sheet"]: return try ContactSheetCommand.run(parsed)
    case ["rename"]: return notImplemented(path)
    case ["delete"]: return notImplemented(path)
    case ["undelete"]: return notImplemented(path)
    case ["purge"]: return notImplemented(path)
    case ["check"]: return try CheckCommand.run(parsed)
    case ["backup"]: return try BackupCommand.run(parsed)
    case ["stats"]: return try StatsCommand.run(parsed)
    case ["gc"]: return try GCCommand.run(parsed)
    case ["reindex"]: return try ReindexCommand.run(parsed)
    default:
      // The parser only produces paths of commands in RootCommand.spec, all listed above.
      preconditionFailure("no dispatch for command '\(path.joined(separator: " "))'")
    }
  }

  /// Placeholder until the command is wired: says so on stderr and exits 1.
  private static func notImplemented(_ path: [String]) -> Int32 {
    StandardStreams.writeError(
      "inkling-archive \(path.joined(separator: " ")): not implemented yet\n")
    return ExitStatus.someInputsRejected
  }
}
