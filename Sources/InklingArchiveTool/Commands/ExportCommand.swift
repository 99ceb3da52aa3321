import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

struct ExportCommand: Command {
  static let name = "export"

  static let spec = CommandSpec(
    name, abstract: "Write drafts out into a folder, byte for byte, with a manifest.",
    discussion: DraftFilters.dateHelp + """


      Each file is written exactly as it was imported, under its original file name (a \
      renamed draft's files carry the new name) and modification time, checked against its \
      SHA-256 before it takes its name. Files that would share a name (or names that differ \
      only in case) are written as "NAME (2).inkling", "NAME (3).inkling", … in the order they \
      were archived, and said so. A file already there with the same bytes is left as it is, \
      so exporting again writes nothing; one with other bytes is left alone and reported \
      unless --force. inkling-export.json in the folder lists every file of the export \
      (draft, version, saved, file, size, SHA-256), and the files of earlier exports into the \
      folder that are still there: a version exported before keeps its name, and no other \
      takes it. --png, --svg and --pdf write the version's share image beside its file, named \
      after it by the same rules and listed in the manifest (kind png, svg or pdf); vectors \
      carry no grain, as `render --help` says. Importing the folder reads the manifest, so the drafts, save times and file \
      names come back as they were. From a damaged archive, what verifies is \
      written, what does not is named, and the exit status is 1. Ctrl-C or SIGTERM stops \
      before the next file: the files written are complete and in the manifest, no temporary \
      file is left, and the exit status is 130 (143 for SIGTERM); running the same export \
      again finishes it.

      Examples:
        inkling-archive export --to ~/Exported
        inkling-archive export --since 2025-10 --all-versions --to out
        inkling-archive export --query 'ink:marker strokes:>100' --png --to out
        inkling-archive export --since 2025-09 --svg --pdf --to print
        inkling-archive export --query @portfolio --to out
      """,
    exclusive: DraftFilters.exclusive
  ).declaring { Self() }

  let filters = DraftFilters()
  @Parsed(Common.query("Only drafts that QUERY finds, in the language of `search`.")) var query: String?
  @Parsed(Option("to", valueName: "DIR", .folder, required: (), help: "The folder to write into (created)."))
  var folder: String
  @Parsed(Flag("all-versions", help: "Every version of each draft, not only the newest.")) var allVersions: Bool
  @Parsed(
    Flag(
      "png",
      help: "Also write each version's share image beside its file, as NAME.png. " + PicturePlaceholder.help))
  var png: Bool
  @Parsed(
    Flag(
      "svg",
      help: "Also write it as vectors, NAME.svg: the page of `render -o FILE.svg` (named and listed as the PNG is)."))
  var svg: Bool
  @Parsed(
    Flag(
      "pdf",
      help: "Also write it as a one-page PDF, NAME.pdf: the page of `render -o FILE.pdf` (named and listed as the "
        + "PNG is)."))
  var pdf: Bool
  @Parsed(Common.force) var force: Bool

  func validate(_ parsed: ParsedArguments) throws { try filters.validate() }

  var options: ExportOptions {
    let pictures: [(Bool, PictureFormat)] = [(png, .png), (svg, .svg), (pdf, .pdf)]
    return ExportOptions(
      allVersions: allVersions, pictures: Set(pictures.filter(\.0).map(\.1)), overwrite: force)
  }

  func run(_ context: CommandContext) throws -> Int32 {
    var options = options
    let stop = try StopSignals.install()
    options.shouldStop = { stop.isRequested }
    let progress = context.progressLine()
    if progress.isEnabled {
      options.onProgress = { state in
        progress.update(
          "Exporting: \(Format.count(state.versionsDone)) of \(Plural.count(state.versionsTotal, "version")), "
            + "\(Format.bytes(state.bytesDone)) of \(Format.bytes(state.bytesTotal))")
      }
    }
    let report: ExportReport
    do {
      let archive = try context.open(.readOnly)
      report = try archive.export(matching: try filters.query(and: query, in: archive), to: folder, options: options)
    } catch {
      progress.finish()
      throw error
    }
    progress.finish()
    for problem in report.problems {
      context.printError(Self.describe(problem))
    }
    if context.json {
      context.printJSON(report.json)
    } else if !context.quiet {
      for file in report.renamed {
        let why = file.change == .sharedName ? "another file of the export has that name" : "not a safe file name"
        context.print("\(Quoted.text(file.path))  (renamed from \(Quoted.text(file.renamedFrom)): \(why))")
      }
      context.print(Self.summary(report))
    }
    if report.stopped {
      if !context.quiet {
        context.printError(
          "Stopped: the files counted above are in \(Quoted.text(report.folder)), complete, and its manifest lists "
            + "them; the other versions were not written. Run the same export again to finish it.")
      }
      if let status = StopSignals.exitStatus(after: StopSignals.received, workHasAnEnd: true) { return status }
    }
    // A placeholder picture is written, but is not the drawing (PicturePlaceholder).
    let placeholders = report.problems.contains { $0.kind == .placeholderPicture }
    return report.isComplete && !placeholders ? ExitStatus.success : ExitStatus.someInputsRejected
  }

  static func describe(_ problem: ExportReport.Problem) -> String {
    let version = "\(Quoted.name(problem.draft)) version \(problem.version)"
    switch problem.kind {
    case .damaged:
      return "\(Quoted.text(problem.path)): not written: \(version) is damaged (\(problem.detail)). "
        + "`inkling-archive check --full` shows what is affected."
    case .exists:
      return "\(Quoted.text(problem.path)): left as it is: \(problem.detail) (\(version)); --force replaces it"
    case .notAFile:
      return "\(Quoted.text(problem.path)): left as it is: \(problem.detail) (\(version)); "
        + "--force replaces only plain files"
    case .placeholderPicture:
      return "\(Quoted.text(problem.path)): a placeholder picture: the drawing of \(version) cannot be read "
        + "(\(problem.detail))"
    }
  }

  static func summary(_ report: ExportReport) -> String {
    let versions = "\(Plural.count(report.versions, "version")) of \(Plural.count(report.drafts, "draft"))"
    let folder = Quoted.text(report.folder)
    if report.wroteNothing && report.isComplete {
      return "Nothing to write: the \(versions) are in \(folder) already, and its manifest is up to date."
    }
    var parts = ["\(Plural.count(report.filesWritten, "file")) written (\(Format.bytes(report.bytesWritten)))"]
    if report.filesUnchanged > 0 { parts.append("\(Format.count(report.filesUnchanged)) already there") }
    if report.picturesWritten + report.picturesUnchanged > 0 {
      parts.append(
        "\(Plural.count(report.picturesWritten, "picture")) written, \(Format.count(report.picturesUnchanged)) already there"
      )
    }
    if report.filesReplaced > 0 { parts.append("\(Format.count(report.filesReplaced)) replaced") }
    if report.earlierFilesListed > 0 {
      parts.append("\(Plural.count(report.earlierFilesListed, "file")) of earlier exports kept in the manifest")
    }
    let count = { (kind: ExportReport.Problem.Kind) in report.problems.filter { $0.kind == kind }.count }
    let leftAlone = count(.exists) + count(.notAFile)
    if leftAlone > 0 { parts.append("\(Format.count(leftAlone)) left as they were") }
    if count(.damaged) > 0 { parts.append("\(Format.count(count(.damaged))) damaged, not written") }
    let placeholders = count(.placeholderPicture)
    if placeholders > 0 { parts.append("\(Plural.count(placeholders, "placeholder picture")) (undecodable drawings)") }
    let manifest = report.manifestWritten ? "written" : "unchanged"
    return (report.stopped ? "Stopped exporting" : "Exported") + " \(versions) to \(folder): "
      + parts.joined(separator: ", ")
      + ". Manifest \(Quoted.text(report.manifest)) \(manifest); \(Format.seconds(report.seconds))."
  }
}
