import Foundation
import InklingArchive
import InklingCommandLine
import InklingPresentation

enum ImportCommand {
  static let spec = CommandSpec(
    "import", abstract: "Add .inkling files and folders of drafts to the archive.",
    discussion: """
      Folders are searched recursively. Importing the same file twice adds nothing. Each file \
      is reported; files that cannot be read are reported and skipped, never half-stored. \
      Progress is shown while standard error is a terminal.

      Examples:
        inkling-archive import ~/Drafts
        inkling-archive import "Cat.inkling" "Dog 2.inkling"
      """,
    arguments: [.oneOrMore("PATH", help: "A .inkling file or a folder of them.")],
    options: [
      .value(
        "max-file-size", valueName: "SIZE", help: "Refuse draft files larger than SIZE (bytes, or with K, M, G).",
        default: "256M")
    ])

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      var options = ImportOptions()
      options.maximumFileSize =
        try parsed.value("--max-file-size", expected: "a size such as 256M", parseSize) ?? 256 << 20
      // For scripts/bench only, which times import with and without the drawing index:
      // not an option, since an archive without its index is not what `import` promises.
      // Always said on standard error, so that a run with it set cannot pass unnoticed.
      if ProcessInfo.processInfo.environment["INKLING_IMPORT_SKIP_INDEX"] == "1" {
        options.indexDrawings = false
        StandardStreams.writeError(
          "note: INKLING_IMPORT_SKIP_INDEX=1: the drawing index is not built; `inkling-archive reindex` builds it\n")
      }
      let progress = ProgressLine(isEnabled: Terminal.isStandardErrorATerminal && !context.quiet)
      let quiet = context.quiet
      options.onEvent = { event in
        switch event {
        case .rejected(let path, let reason):
          progress.finish()
          StandardStreams.writeError("\(path): \(reason)\n")
        case .note(let path, let message):
          guard !quiet else { return }
          progress.finish()
          StandardStreams.writeError("\(path): note: \(message)\n")
        case .progress(let state):
          // Not even described when nobody sees it: events come many times a second.
          if progress.isEnabled { progress.update(describe(state)) }
        }
      }
      let archive = try context.open(.readWrite)
      let summary = try archive.importFiles(at: parsed.arguments("PATH"), options: options)
      progress.finish()
      if context.json {
        context.printJSON([
          "versionsImported": .int(summary.versionsImported), "draftsCreated": .int(summary.draftsCreated),
          "alreadyArchived": .int(summary.alreadyArchived), "ignored": .int(summary.ignored),
          "rejected": .int(summary.rejected), "bytesRead": .int(Int(summary.bytesRead)),
          "seconds": .double((summary.seconds * 1000).rounded() / 1000),
        ])
      } else if !context.quiet || summary.rejected > 0 {
        context.print(
          "Imported \(Format.count(summary.versionsImported)) version\(summary.versionsImported == 1 ? "" : "s") "
            + "(\(Format.count(summary.draftsCreated)) new draft\(summary.draftsCreated == 1 ? "" : "s")); "
            + "\(Format.count(summary.alreadyArchived)) already archived, \(Format.count(summary.ignored)) ignored, "
            + "\(Format.count(summary.rejected)) rejected. "
            + "\(Format.bytes(summary.bytesRead)) in \(String(format: "%.2f", summary.seconds)) s.")
      }
      return summary.rejected > 0 ? ExitStatus.someInputsRejected : ExitStatus.success
    }
  }

  static func describe(_ state: ImportProgress) -> String {
    var text =
      "Importing: \(Format.count(state.filesDone)) of \(Format.count(state.filesFound))\(state.walkFinished ? "" : "+") files"
    text += String(format: ", %.1f MB/s", state.bytesPerSecond / 1_000_000)
    if let left = state.secondsLeft { text += String(format: ", %.0f s left", left.rounded(.up)) }
    return text
  }

  /// `256M`, `1G`, `500000`.
  static func parseSize(_ text: String) -> Int64? {
    let multipliers: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    let upper = text.uppercased()
    if let last = upper.last, let multiplier = multipliers[last], let value = Int64(upper.dropLast()), value > 0 {
      return value.multipliedReportingOverflow(by: multiplier).overflow ? nil : value * multiplier
    }
    return Int64(text).flatMap { $0 > 0 ? $0 : nil }
  }
}
