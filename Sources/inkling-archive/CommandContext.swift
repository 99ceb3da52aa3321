// What every command needs from the global options: the archive, and how to print.

import Foundation
import InklingArchive
import InklingCommandLine

struct CommandContext {
  let parsed: ParsedArguments
  let archivePath: String
  let json: Bool
  let quiet: Bool

  init(_ parsed: ParsedArguments) {
    self.parsed = parsed
    archivePath = parsed.string("--archive") ?? ArchiveLocation.defaultPath()
    json = parsed.flag("--json")
    quiet = parsed.flag("--quiet")
  }

  /// Opens the archive; read-only commands never create or change it.
  func open(_ mode: Archive.Mode) throws(ArchiveError) -> Archive {
    try Archive(path: archivePath, mode: mode)
  }

  func print(_ text: String) { StandardStreams.writeOutput(text + "\n") }
  func printError(_ text: String) { StandardStreams.writeError(text + "\n") }
  func printJSON(_ value: JSONValue) { StandardStreams.writeOutput(JSONWriter().string(value) + "\n") }

  /// Says what was written: on standard output, or on standard error when the data itself
  /// went to standard output (`-o -`), which then holds the data and nothing else.
  func printReport(_ text: String, dataTo output: String) {
    output == "-" ? printError(text) : print(text)
  }

  func printReport(_ value: JSONValue, dataTo output: String) {
    printReport(JSONWriter().string(value), dataTo: output)
  }

  /// Runs a command body, printing an archive error as `Error: …` with its exit status.
  static func run(_ parsed: ParsedArguments, _ body: (CommandContext) throws -> Int32) throws -> Int32 {
    let context = CommandContext(parsed)
    do {
      return try body(context)
    } catch let error as ArchiveError {
      if error.isUsageError { throw parsed.usageError(error.sentence) }
      context.printError("Error: \(error.sentence)")
      return error.exitStatus
    }
  }
}
