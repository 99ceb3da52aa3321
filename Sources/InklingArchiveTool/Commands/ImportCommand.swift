import FoundationEssentials
import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

struct ImportCommand: Command {
  static let maximumFileSize = Option(
    "max-file-size", valueName: "SIZE", .size, default: ImportOptions.defaultMaximumFileSize,
    help: "Refuse draft files larger than SIZE (bytes, or with K, M, G).")

  static let name = "import"

  static let spec = CommandSpec(
    name, abstract: "Add .inkling files, folders of drafts and other archives to the archive.",
    discussion: """
      Folders are searched recursively. Importing the same file twice adds nothing. Files \
      that cannot be imported are named on standard error with the reason and skipped, never \
      half-stored; a file named here that is not a draft file is one of them. Notes say when a file \
      name bends the app's rule or a drawing does not decode (it is archived all the same). \
      Progress is shown while standard error is a terminal. A save newer than any a draft in \
      the trash held brings that draft back, and the summary says so. Ctrl-C or SIGTERM stops \
      after the batch being written commits and prints what was committed (exit 130 for \
      Ctrl-C, 143 for SIGTERM); running the same import again finishes it.

      A file at the path, of the size and with the modification time recorded for a version \
      is that version and is not read again, as git and restic trust an unchanged file; \
      --verify reads and hashes every file.

      Each version remembers its source: --source LABEL, else the folder given (`history`, \
      `show` and `search source:TEXT` read it). A SQLite file given is merged as an inkling \
      archive, unless its name ends in .inkling (then it is a draft file, and refused as one): \
      every version of its live drafts with their names, dates and sources, each proven as an \
      import proves a file and within the same limits; merging again adds nothing and changes \
      nothing already here. The stars, tags, notes and version labels of the drafts merged \
      come with them: tags and labels are united and the notes of both kept; where stars or \
      a label differ, this archive's are kept and the summary says where. A row no command \
      could have written (a tag with a control character, 7 stars…) is left out and \
      counted. Its trash stays its own: the drafts in it are not merged, and the summary says \
      how many there are. A folder an export wrote gives back the stars, tags, notes and \
      labels its manifest keeps, checked in the same way. A damaged archive stops the merge at the first version \
      that does not verify, unless --salvage.

      Examples:
        inkling-archive import ~/Drafts
        inkling-archive import --source "Anna's iPad" /media/anna/Drafts
        inkling-archive import other.sqlite
      """
  ).declaring { Self() }

  @Parsed(
    Argument(
      "PATH", .file, repeating: (), help: "A .inkling file, a folder of them, or another archive to merge."))
  var paths: [String]
  @Parsed(Self.maximumFileSize) var maximumFileSize: Int64
  @Parsed(
    Flag(
      "verbose", short: "v", help: "Also name every file imported, already archived or ignored, with the reason."))
  var verbose: Bool
  @Parsed(
    Flag(
      "ndjson",
      help:
        "One JSON object per file as it is done, then one with the summary (the same with --json; errors as JSON too).")
  )
  var ndjson: Bool
  @Parsed(
    Common.source(
      "Record LABEL as where the versions came from (default: the folder given; for an archive, its own "
        + "sources, and LABEL for versions it has none for)."))
  var source: String?
  @Parsed(
    Flag(
      "salvage", help: "Merge a damaged archive as far as it verifies, naming each version left out."))
  var salvage: Bool
  @Parsed(
    Flag(
      "verify",
      help: "Read and hash every file, even one whose path, size and modification time match what the archive "
        + "recorded (such a file is otherwise known unread: one rewritten with the same size and time is missed)."))
  var verify: Bool

  func validate(_ parsed: ParsedArguments) throws {
    if let source, source.trimmingSpaces().isEmpty {
      throw parsed.usageError("--source needs a label that is not empty")
    }
    if paths.contains("-") {
      throw parsed.usageError(
        "import reads files and folders, not standard input; name them (a file called - as ./-), "
          + "or pass a list with xargs: find DIR -name '*.inkling' -print0 | xargs -0 inkling-archive import")
    }
  }

  func run(_ context: CommandContext) throws -> Int32 {
    var options = ImportOptions()
    options.maximumFileSize = maximumFileSize
    options.source = source
    options.verify = verify
    let stop = try StopSignals.install()
    options.shouldStop = { stop.isRequested }
    let progress = context.progressLine()
    let (quiet, verbose, ndjson) = (context.quiet, verbose, ndjson)
    @Sendable func say(_ path: String, _ text: String) {
      progress.finish()
      StandardStreams.writeError("\(Quoted.text(path)): \(Quoted.text(text))\n")
    }
    options.onEvent = { event in
      if ndjson, let line = Self.json(event) { StandardStreams.writeOutput(JSONWriter().line(line)) }
      switch event {
      case .rejected(let path, let problem):
        if !ndjson { say(path, Self.sentence(problem)) }
      case .ignored(let path, let reason, _) where reason.isNotDownloaded:
        if !ndjson && verbose { say(path, "not downloaded: \(reason)") }
      case .ignored(let path, let reason, let named):
        if !ndjson && (named && !quiet || verbose) { say(path, "ignored: \(reason)") }
      case .archived(let path, _, let outcome):
        if !ndjson && verbose { say(path, outcome == .imported ? "imported" : "already archived") }
      case .note(let path, let note):
        if !ndjson && !quiet { say(path, "note: \(note)") }
      case .progress(let state):
        // Not even described when nobody sees it: events come many times a second.
        if progress.isEnabled { progress.update(Self.describe(state)) }
      case .imported:
        break
      case .filesImported(let summary):
        progress.finish()
        if !ndjson && !context.json && !quiet {
          context.print(Self.describe(summary, verb: "Imported", skipped: "rejected"))
        }
      case .merged(let merged):
        progress.finish()
        if !ndjson && !context.json && !quiet {
          context.print(
            "Merged \(Quoted.text(merged.path)): " + Self.describe(merged.versions, verb: "", skipped: "left out")
              + Self.trashLeft(merged))
          for line in Self.organisingMerged(merged.organising) { context.print(line) }
        }
      }
    }
    let report = try context.open(.readWrite).importPaths(paths, salvage: salvage, options: options)
    if let organising = report.organising, !ndjson && !context.json && !quiet {
      context.print("From the export's manifest:")
      for line in Self.organisingMerged(organising) { context.print(line) }
    }
    let total = report.total
    let broughtBack = total.draftsBroughtBack.count
    if broughtBack > 0 && !context.quiet && !context.json && !ndjson {
      context.print(
        "Brought back from the trash, with a save newer than any it held: "
          + Self.names(total.draftsBroughtBack) + ".")
    }
    if total.versionsInTrash > 0 && !context.quiet && !context.json && !ndjson {
      let one = total.versionsInTrash == 1
      context.print(
        "\(Plural.count(total.versionsInTrash, "older version")) joined "
          + (one ? "a draft" : "drafts") + " in the trash, beside newer versions; `list --trash` shows "
          + (one ? "it." : "them."))
    }
    if total.versionsRepaired > 0 && !context.quiet && !context.json && !ndjson {
      context.print(
        "Repaired \(Plural.count(total.versionsRepaired, "damaged version")) from \(total.versionsRepaired == 1 ? "its file" : "their files"): "
          + "each rebuilds its file byte for byte again.")
    }
    if total.versionsNotRepaired > 0 && !context.quiet {
      context.printError(
        "\(Plural.count(total.versionsNotRepaired, "file")) of damaged versions could not repair them (the damage is "
          + "not in their drawings); `inkling-archive check --full` lists what is still damaged.")
    }
    if total.drawingsNotIndexed > 0 && !context.quiet {
      let one = total.drawingsNotIndexed == 1
      context.printError(
        "\(Plural.count(total.drawingsNotIndexed, "drawing")) \(one ? "was" : "were") stored without "
          + "\(one ? "its" : "their") drawing index rows, which the archive refused: searches by strokes and "
          + "inks miss \(one ? "it" : "them") until `inkling-archive reindex` writes them.")
    }
    if !total.savesNotDownloaded.isEmpty && !ndjson {
      context.printError(Self.notDownloaded(total.savesNotDownloaded))
    }
    let json = report.json
    if ndjson {
      StandardStreams.writeOutput(JSONWriter().line(["summary": json]))
    } else if context.json {
      context.printJSON(json)
    }
    if stop.isRequested {
      if !context.quiet {
        context.printError(
          "Stopped: what is counted above is committed; the rest was not imported. Run the same "
            + "import again to finish it.")
      }
      if let status = StopSignals.exitStatus(after: StopSignals.received, workHasAnEnd: true) { return status }
    }
    return total.rejected > 0 || !total.savesNotDownloaded.isEmpty ? ExitStatus.someInputsRejected : ExitStatus.success
  }

  /// "Not downloaded from iCloud Drive: 3 saves of 2 drafts ("Cat" 2, "Dog" 1). …"
  static func notDownloaded(_ saves: [String: Int]) -> String {
    let total = saves.values.reduce(0, +)
    let byCount = saves.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
    let shown = byCount.prefix(5).map { "\(Quoted.name($0.key)) \(Format.count($0.value))" }.joined(separator: ", ")
    let more = byCount.count > 5 ? " and \(Plural.count(byCount.count - 5, "more draft"))" : ""
    return "Not downloaded from iCloud Drive, so not archived: \(Plural.count(total, "save")) of "
      + "\(Plural.count(saves.count, "draft")) (\(shown)\(more)). Open the folder in Files or Finder, download "
      + (total == 1 ? "it" : "them") + " (Download Now), then import again."
  }

  /// What a merge carried of stars, tags, notes and labels, and each disagreement (this
  /// archive's value kept): nothing when the other archive had none.
  static func organisingMerged(_ merged: MergedOrganising) -> [String] {
    let counts = [
      (merged.tagsAdded, "tag"), (merged.starsSet, "star rating"), (merged.notesAdded, "note"),
      (merged.labelsAdded, "label"),
    ]
    var lines: [String] = []
    if counts.contains(where: { $0.0 > 0 }) || merged.conflictCount > 0 {
      lines.append(
        "  Added " + counts.map { Plural.count($0.0, $0.1) }.joined(separator: ", ") + "; "
          + "\(Plural.count(merged.conflictCount, "conflict")) (this archive's kept).")
    }
    for conflict in merged.conflicts {
      switch conflict {
      case .stars(let draft, let ours, let theirs):
        lines.append("  Conflict: \(Quoted.name(draft)) has \(ours) stars here, \(theirs) there; kept \(ours).")
      case .label(let draft, let name, let ours, let theirs):
        lines.append(
          "  Conflict: \(Quoted.name(draft)) label \(Quoted.name(name)) names version \(ours) here, "
            + "version \(theirs) there; kept version \(ours).")
      }
    }
    if merged.conflictCount > merged.conflicts.count {
      lines.append("  … and \(Plural.count(merged.conflictCount - merged.conflicts.count, "more conflict")).")
    }
    let skipped = merged.rowsRefused + merged.rowsWithoutMergedVersion
    if skipped > 0 {
      lines.append(
        "  Left out: \(Plural.count(merged.rowsRefused, "row")) no command could have written, "
          + "\(Plural.count(merged.rowsWithoutMergedVersion, "row")) about versions not merged.")
    }
    return lines
  }

  /// What stayed in a merged archive's trash, as the end of its summary line.
  static func trashLeft(_ merged: MergeSummary) -> String {
    guard merged.draftsInTrashNotMerged > 0 else { return "" }
    return " Not merged: \(Plural.count(merged.versionsInTrashNotMerged, "version")) of "
      + "\(Plural.count(merged.draftsInTrashNotMerged, "draft")) in its trash (`undelete` them there to merge them)."
  }

  /// "Imported 3 versions (1 new draft); 2 already archived, 0 ignored, 0 rejected. 1.2 MB in 0.3 s."
  static func describe(_ summary: ImportSummary, verb: String, skipped: String) -> String {
    (verb.isEmpty ? "" : verb + " ")
      + "\(Plural.count(summary.versionsImported, "version")) "
      + "(\(Plural.count(summary.draftsCreated, "new draft"))); "
      + "\(Format.count(summary.alreadyArchived)) already archived, "
      + (verb.isEmpty ? "" : "\(Format.count(summary.ignored)) ignored, ")
      + "\(Format.count(summary.rejected)) \(skipped). "
      + "\(Format.bytes(summary.bytesRead)) in \(Format.seconds(summary.seconds))."
  }

  /// "\"Cat\", \"Dog\" and 3 more": the first few names of a list that may be long.
  static func names(_ names: [String]) -> String {
    let shown = names.prefix(5).map(Quoted.name).joined(separator: ", ")
    return names.count > 5 ? shown + " and \(names.count - 5) more" : shown
  }

  /// A rejection as a person reads it: the library's fact, and here what to do about it.
  static func sentence(_ problem: ImportProblem) -> String {
    switch problem {
    case .tooLarge: "\(problem) (see --max-file-size)"
    default: problem.description
    }
  }

  /// One file's event for --ndjson; nil for the others (progress, and the stages' ends, which
  /// the closing summary holds).
  static func json(_ event: ImportEvent) -> JSONValue? {
    switch event {
    case .rejected(let path, let problem):
      ["path": .string(path), "status": "rejected", "reason": .string(problem.description)]
    case .ignored(let path, .notDownloaded(let draft), _):
      ["path": .string(path), "status": "notDownloaded", "draft": .string(draft)]
    case .ignored(let path, let reason, _):
      ["path": .string(path), "status": "ignored", "reason": .string(reason.description)]
    case .archived(let path, let draft, let outcome):
      ["path": .string(path), "status": .string(outcome.rawValue), "draft": .string(draft)]
    case .note(let path, let note):
      ["path": .string(path), "status": "note", "note": .string(note.description)]
    case .progress, .imported, .filesImported, .merged:
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
