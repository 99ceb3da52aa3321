// What every command needs from the global options, and the one set of ways to print:
// results on standard output, messages and progress on standard error.

import FoundationEssentials
import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

struct CommandContext {
  let archivePath: String
  let json: Bool
  let quiet: Bool

  init(_ parsed: ParsedArguments) throws(UsageError) {
    let global = try CommandReading.read(parsed) { RootCommand.GlobalOptions() }
    archivePath = global.archive ?? ArchiveLocation.defaultPath()
    json = global.json
    quiet = global.quiet
  }

  /// Opens the archive; read-only commands never create or change it.
  func open(_ mode: Archive.Mode) throws(ArchiveError) -> Archive {
    try Archive(path: archivePath, mode: mode)
  }

  /// Opens an archive that must exist for read-write work: a mistyped --archive is an
  /// error, not a new empty archive.
  func openExisting() throws(ArchiveError) -> Archive {
    guard FileManager.default.fileExists(atPath: archivePath) else {
      throw .unusableArchive(path: archivePath, reason: .missing)
    }
    return try open(.readWrite)
  }

  func print(_ text: String) { StandardStreams.writeOutput(text + "\n") }
  func printError(_ text: String) { StandardStreams.writeError(text + "\n") }
  func printJSON(_ value: JSONValue) { StandardStreams.writeOutput(JSONWriter().string(value) + "\n") }
  /// A table or other text that ends in its own newline.
  func printRaw(_ text: String) { StandardStreams.writeOutput(text) }

  /// Says what was written: on standard output, or on standard error when the data itself
  /// went to standard output (`-o -`, `-o /dev/stdout`), which then holds the data and
  /// nothing else.
  func printReport(_ text: String, dataTo output: OutputTarget) {
    output.isStandardOutput ? printError(text) : print(text)
  }

  /// The report as JSON when --json, else as `text`, unless --quiet.
  func report(_ value: @autoclosure () -> JSONValue, _ text: @autoclosure () -> String, dataTo output: OutputTarget) {
    if json {
      printReport(JSONWriter().string(value()), dataTo: output)
    } else if !quiet {
      printReport(text(), dataTo: output)
    }
  }

  /// A progress line on standard error, shown only on a terminal and without --quiet.
  func progressLine() -> ProgressLine {
    ProgressLine(isEnabled: Terminal.isStandardErrorATerminal && !quiet, output: StandardStreams.writeError)
  }
}
