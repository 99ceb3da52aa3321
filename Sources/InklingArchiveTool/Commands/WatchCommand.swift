import FoundationEssentials
import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

#if canImport(Glibc)
  import Glibc
#endif

struct WatchCommand: Command {
  static let name = "watch"

  static let spec = CommandSpec(
    name, abstract: "Keep importing folders of drafts as files land in them.",
    discussion: """
      Watches at once, and meanwhile imports what the folders hold, as `import` does (saying \
      "Caught up" when done; files saved meanwhile follow), then every new or changed draft \
      file: renamed into place, closed after writing, or (written in place) still for the \
      --settle time; new subfolders too. A burst of files is one import. Each version \
      imported is one line on standard output (--json: one JSON object a line); problems go \
      to standard error. Deleted files remove nothing from the archive. A folder that \
      disappears is watched again when it comes back. Ctrl-C (SIGINT, exit 130) or SIGTERM \
      (exit 0, as a service stops) ends it after the batch being written commits; a restart \
      imports whatever was missed.

      Examples:
        inkling-archive watch ~/Sync/Inkling/Drafts
        inkling-archive watch --source "Anna's iPad" --settle 5s /media/Drafts
      """
  ).declaring { Self() }

  @Parsed(
    Argument("DIR", .folder, repeating: (), help: "A folder of drafts to watch, recursively."))
  var folders: [String]
  @Parsed(
    Common.source("Record LABEL as where the versions came from (default: the folder watched)."))
  var source: String?
  @Parsed(
    Option(
      "settle", valueName: "TIME", .time(atMost: 3600), default: WatchOptions.defaultSettle,
      help: "Import a file written in place once its size and time have been still for TIME."))
  var settle: Double
  @Parsed(ImportCommand.maximumFileSize) var maximumFileSize: Int64

  func validate(_ parsed: ParsedArguments) throws {
    if let source, source.trimmingSpaces().isEmpty {
      throw parsed.usageError("--source needs a label that is not empty")
    }
  }

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.open(.readWrite)
    let stop = try StopSignals.install()
    var options = WatchOptions()
    options.source = source
    options.settle = settle
    options.maximumFileSize = maximumFileSize
    let json = context.json
    let quiet = context.quiet
    let given = Set(folders).count
    options.onEvent = { event in
      switch event {
      case .imported(let version):
        if json {
          StandardStreams.writeOutput(JSONWriter().line(version.json))
        } else if !quiet {
          StandardStreams.writeOutput(Self.line(version) + "\n")
        }
      case .rejected(let path, let problem):
        StandardStreams.writeError("\(Quoted.text(path)): \(ImportCommand.sentence(problem))\n")
      case .note(let path, let note):
        if !quiet { StandardStreams.writeError("\(Quoted.text(path)): note: \(note)\n") }
      case .watching(let count):
        // `count` is every folder watched: those given and the subfolders inside them.
        let inside = count - given
        let subfolders = inside > 0 ? " and \(Plural.count(inside, "subfolder")) inside" : ""
        if !quiet {
          StandardStreams.writeError("Watching \(Plural.count(given, "folder"))\(subfolders); Ctrl-C stops.\n")
        }
      case .caughtUp(let imported, let archived):
        if !quiet {
          StandardStreams.writeError(
            "Caught up: \(Plural.count(imported, "version")) imported, \(Format.count(archived)) already archived.\n")
        }
      case .folderGone(let path):
        StandardStreams.writeError("\(Quoted.text(path)) is gone; watching for it to come back.\n")
      case .folderBack(let path):
        StandardStreams.writeError("\(Quoted.text(path)) is back; importing what it holds.\n")
      case .eventsLost:
        StandardStreams.writeError("Too many changes at once to follow; importing every folder again.\n")
      }
    }
    let summary = try archive.watch(folders, options: options, stop: stop)
    if !quiet {
      context.printError(
        "Stopped: \(Plural.count(summary.versionsImported, "version")) imported, "
          + "\(Format.count(summary.rejected)) rejected, in \(Plural.count(summary.imports, "import")).")
    }
    // Stopped by a signal: SIGTERM, how a service manager stops the watch, is a clean end
    // whatever files it rejected on the way (each said when it was), or systemd would mark
    // the unit failed.
    if StopSignals.received != 0 { return StopSignals.exitStatus(after: StopSignals.received) ?? ExitStatus.success }
    return summary.rejected > 0 ? ExitStatus.someInputsRejected : ExitStatus.success
  }

  /// `Plan-B  version 3  saved 2025-10-05 14:03:12  ← /path/Plan-B 2025-10-05….inkling`
  static func line(_ version: ImportedVersion) -> String {
    "\(Quoted.display(version.draft))  version \(version.number)\(version.newDraft ? " (new draft)" : "")\(version.broughtBackFromTrash ? " (brought back from the trash)" : "")  "
      + "saved \(Format.date(version.saved))\(version.savedFromFileName ? "" : "*")  ← \(Quoted.display(version.path))"
  }
}
