import FoundationEssentials
import InklingArchive
import InklingCommandLine
import InklingPresentation

struct ImportCommand: Command {
  static let paths = Argument("PATH", .file, repeating: (), help: "A .inkling file or a folder of them.")
  static let maximumFileSize = Option(
    "max-file-size", valueName: "SIZE", .size, default: ImportOptions.defaultMaximumFileSize,
    help: "Refuse draft files larger than SIZE (bytes, or with K, M, G).")
  static let verbose = Flag(
    "verbose", short: "v", help: "Also name every file imported, already archived or ignored, with the reason.")
  static let ndjson = Flag(
    "ndjson", help: "One JSON object per file as it is done, then one with the summary.")

  static let spec = CommandSpec(
    "import", abstract: "Add .inkling files and folders of drafts to the archive.",
    discussion: """
      Folders are searched recursively. Importing the same file twice adds nothing. Files \
      that cannot be imported are named on standard error with the reason and skipped, never \
      half-stored; so is a path given here that is not a draft file. Notes say when a file \
      name bends the app's rule or a drawing does not decode (it is archived all the same). \
      Progress is shown while standard error is a terminal.

      Examples:
        inkling-archive import ~/Drafts
        inkling-archive import "Cat.inkling" "Dog 2.inkling"
      """,
    arguments: [paths.spec], options: [maximumFileSize.spec, verbose.spec, ndjson.spec],
    exclusive: [[ndjson.spec, RootCommand.json.spec]].names)

  let paths: [String]
  let maximumFileSize: Int64
  let verbose: Bool
  let ndjson: Bool

  init(_ parsed: ParsedArguments) throws {
    paths = try parsed.value(Self.paths)
    maximumFileSize = try parsed.value(Self.maximumFileSize)
    verbose = parsed.value(Self.verbose)
    ndjson = parsed.value(Self.ndjson)
  }

  func run(_ context: CommandContext) throws -> Int32 {
    var options = ImportOptions()
    options.maximumFileSize = maximumFileSize
    let progress = context.progressLine()
    let (quiet, verbose, ndjson) = (context.quiet, verbose, ndjson)
    @Sendable func say(_ path: String, _ text: String) {
      progress.finish()
      StandardStreams.writeError("\(Quoted.text(path)): \(text)\n")
    }
    options.onEvent = { event in
      if ndjson, let line = Self.json(event) { StandardStreams.writeOutput(JSONWriter().line(line)) }
      switch event {
      case .rejected(let path, let problem):
        if !ndjson { say(path, Self.sentence(problem)) }
      case .ignored(let path, let reason, let named):
        if !ndjson && (named && !quiet || verbose) { say(path, "ignored: \(reason)") }
      case .archived(let path, _, let outcome):
        if !ndjson && verbose { say(path, outcome == .imported ? "imported" : "already archived") }
      case .note(let path, let note):
        if !ndjson && !quiet { say(path, "note: \(note)") }
      case .progress(let state):
        // Not even described when nobody sees it: events come many times a second.
        if progress.isEnabled { progress.update(Self.describe(state)) }
      }
    }
    let summary = try context.open(.readWrite).importFiles(at: paths, options: options)
    progress.finish()
    if ndjson {
      StandardStreams.writeOutput(JSONWriter().line(["summary": summary.json]))
    } else if context.json {
      context.printJSON(summary.json)
    } else if !context.quiet {
      context.print(
        "Imported \(Plural.count(summary.versionsImported, "version")) "
          + "(\(Plural.count(summary.draftsCreated, "new draft"))); "
          + "\(Format.count(summary.alreadyArchived)) already archived, \(Format.count(summary.ignored)) ignored, "
          + "\(Format.count(summary.rejected)) rejected. "
          + "\(Format.bytes(summary.bytesRead)) in \(Format.seconds(summary.seconds)).")
    }
    return summary.rejected > 0 ? ExitStatus.someInputsRejected : ExitStatus.success
  }

  /// A rejection as a person reads it: the library's fact, and here what to do about it.
  static func sentence(_ problem: ImportProblem) -> String {
    switch problem {
    case .tooLarge: "\(problem) (see --max-file-size)"
    default: problem.description
    }
  }

  /// One file's event for --ndjson; nil for progress.
  static func json(_ event: ImportEvent) -> JSONValue? {
    switch event {
    case .rejected(let path, let problem):
      ["path": .string(path), "status": "rejected", "reason": .string(problem.description)]
    case .ignored(let path, let reason, _):
      ["path": .string(path), "status": "ignored", "reason": .string(reason.description)]
    case .archived(let path, let draft, let outcome):
      ["path": .string(path), "status": .string(outcome.rawValue), "draft": .string(draft)]
    case .note(let path, let note):
      ["path": .string(path), "status": "note", "note": .string(note.description)]
    case .progress:
      nil
    }
  }

  static func describe(_ state: ImportProgress) -> String {
    var text = "Importing: \(Format.count(state.filesDone)) of \(Format.count(state.filesFound))"
    text += state.walkFinished ? " files" : "+ files"
    text += ", " + Format.decimal(state.bytesPerSecond / 1_000_000, digits: 1) + " MB/s"
    if let left = state.secondsLeft { text += ", \(Int(left.rounded(.up))) s left" }
    return text
  }
}
