// `check [--full]`: verify the archive and print every problem found, each with where it is.

import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

struct CheckCommand: Command {
  static let name = "check"

  static let spec = CommandSpec(
    name, abstract: "Verify the archive and report every problem found.",
    discussion: """
      Without --full: SQLite's integrity and foreign-key checks, the schema against the one \
      this build creates, and the archive's own rules (counters, delta chains, one row per \
      file, file names). With --full, also decodes every stored drawing (checking it against \
      the drawing index) and rebuilds every version's file, comparing it with the SHA-256 it \
      had when imported: this reads the whole archive. Problems are printed one per line on standard output, each starting \
      with where it is. The exit status is 0 only when no problem was found, 3 otherwise.

      A damaged version (one whose file no longer rebuilds) is named with the files its \
      sources delivered: importing one of them again repairs it. A full check remembers \
      which versions are damaged, so that the import knows them without reading back every \
      file it finds archived.

      Examples:
        inkling-archive check
        inkling-archive check --full --json
      """
  ).declaring { Self() }

  @Parsed(Flag("full", help: "Also decode every version and re-hash every blob (slow).")) var full: Bool
  @Parsed(Option("limit", valueName: "N", .positive, default: 100, help: "Print at most N problems.")) var limit: Int

  func run(_ context: CommandContext) throws -> Int32 {
    let progress = context.progressLine()
    let archive: Archive
    let report: CheckReport
    do {
      archive = try Archive(checking: context.archivePath)
      report = try archive.check(full: full, limit: limit) { state in
        let count = state.total > 0 ? " \(Format.count(state.done)) of \(Format.count(state.total))" : ""
        progress.update("Checking: \(state.step)\(count)")
      }
    } catch {
      progress.finish()
      guard case .unusableArchive(let path, .damaged(let detail, _)) = error else { throw error }
      // Not the usual advice to run this very command: the check itself could not go on.
      context.printError(
        "Error: the archive \(Quoted.text(path)) is too damaged to be checked further (\(detail)). Restore it "
          + "from a backup; `sqlite3 FILE .recover` may save what is left into a new database.")
      return ExitStatus.archiveUnusable
    }
    progress.finish()
    if context.json {
      context.printJSON(report.json(archive: context.archivePath))
    } else {
      // The library words each problem with its names quoted; the line is quoted again if
      // anything else in it would reach the terminal raw.
      for problem in report.problems { context.print(Quoted.text(problem.description)) }
      if report.problemCount > report.problems.count {
        context.print("… and \(Format.count(report.problemCount - report.problems.count)) more (see --limit)")
      }
      for version in report.repairable where !version.paths.isEmpty {
        context.print(
          Quoted.text(
            "\(version.location) is repaired by importing again: " + version.paths.joined(separator: ", ")))
      }
      if !context.quiet || !report.isHealthy { context.print(Self.summary(report, archive: context.archivePath)) }
    }
    return report.isHealthy ? ExitStatus.success : ExitStatus.archiveUnusable
  }

  /// What to do about damage: import the files that repair it, when their paths are known.
  static func advice(_ report: CheckReport) -> String {
    let withFiles = report.repairable.filter { !$0.paths.isEmpty }.count
    guard withFiles > 0 else {
      return "Restore the archive from a backup, or keep it and note which drafts are affected."
    }
    let command = "Importing the files named above again (`inkling-archive import FILE…`) repairs "
    guard withFiles == report.damagedVersionCount && report.problemCount == report.damagedVersionCount else {
      return command
        + "\(Format.count(withFiles)) of the \(Plural.count(report.damagedVersionCount, "damaged version")); "
        + "for the rest, restore the archive from a backup, or keep it and note which drafts are affected."
    }
    return command + (withFiles == 1 ? "the damaged version." : "every damaged version.")
  }

  /// The closing paragraph: what was verified, what could not be, the verdict.
  static func summary(_ report: CheckReport, archive: String) -> String {
    let counts = report.counts
    var lines: [String] = []
    lines.append(
      "Checked \(archive)\(report.full ? " (full)" : ""): \(Format.count(counts.drafts)) drafts, "
        + "\(Format.count(counts.versions)) versions, \(Format.count(counts.blobs)) drawings stored, "
        + "\(Format.count(counts.envelopes)) envelopes, in \(Format.decimal(report.seconds, digits: 2)) s.")
    if report.full {
      lines.append(
        "Decoded and re-hashed \(Plural.count(counts.blobsVerified, "drawing")); rebuilt "
          + "\(Plural.count(counts.filesVerified, "file")) (\(Format.bytes(counts.fileBytesVerified))) byte for byte; "
          + "\(Plural.count(counts.drawingsDecoded, "drawing")) read as PencilKit, "
          + "\(Format.count(counts.drawingsOpaque)) kept as opaque bytes.")
    }
    var notes: [String] = []
    if counts.drawingsNotIndexed > 0 {
      notes.append("\(Format.count(counts.drawingsNotIndexed)) drawings not in the drawing index")
    }
    if counts.unneededThumbnails > 0 {
      let count = counts.unneededThumbnails
      notes.append(
        "\(Plural.count(count, "cached thumbnail")) no version needs (`gc` removes \(count == 1 ? "it" : "them"))")
    }
    if counts.unusedBlobs > 0 { notes.append(Plural.count(counts.unusedBlobs, "unused drawing")) }
    if counts.unusedEnvelopes > 0 { notes.append(Plural.count(counts.unusedEnvelopes, "unused envelope")) }
    if counts.runningImports > 0 {
      notes.append(
        "\(Plural.count(counts.runningImports, "import")) running (the check saw what it had committed so far)")
    }
    if counts.interruptedImports > 0 {
      let (count, it) = (counts.interruptedImports, counts.interruptedImports == 1 ? "it" : "they")
      notes.append("\(Plural.count(count, "interrupted import")) (what \(it) committed is complete)")
    }
    if !notes.isEmpty { lines.append("Note: " + notes.joined(separator: ", ") + ".") }
    for skipped in report.notChecked {
      switch skipped {
      case .storedBytes(let drawings, let versions):
        lines.append(
          "Not checked: the stored drawings (\(Plural.count(drawings, "drawing")), not decoded or re-hashed) and the "
            + "files they rebuild (\(Plural.count(versions, "file")), not rebuilt); `check --full` reads them.")
      }
    }
    lines.append(
      report.isHealthy
        ? (report.notChecked.isEmpty ? "No problems found." : "No problems found in what was checked.")
        : report.onlyDrawingIndexProblems
          ? "Found \(Plural.count(report.problemCount, "problem")), all in the drawing index, which "
            + "`inkling-archive reindex --all` builds again from the drawings; the drawings themselves are not affected."
          : "Found \(Plural.count(report.problemCount, "problem")). " + Self.advice(report))
    return lines.joined(separator: "\n")
  }
}
