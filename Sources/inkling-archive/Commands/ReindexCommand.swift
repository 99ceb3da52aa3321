import InklingArchive
import InklingCommandLine
import InklingPresentation

enum ReindexCommand {
  static let spec = CommandSpec(
    "reindex", abstract: "Decode drawings and fill in the drawing index.",
    discussion: """
      Archives made before the drawing index existed have versions that `show`, `diff` and \
      stroke or ink searches cannot see into; this decodes them once. With --all, every \
      drawing is indexed again (after an upgrade that reads more of the format).
      """,
    options: [.flag("all", help: "Index every drawing again, not only those missing.")])

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      let archive = try context.open(.readWrite)
      let progress = ProgressLine(isEnabled: Terminal.isStandardErrorATerminal && !context.quiet)
      let count = try archive.reindex(all: parsed.flag("--all")) { done, total in
        progress.update("Indexing drawings: \(Format.count(done)) of \(Format.count(total))")
      }
      progress.finish()
      if context.json {
        context.printJSON(["indexed": .int(count)])
      } else if !context.quiet {
        context.print("Indexed \(Format.count(count)) drawing\(count == 1 ? "" : "s").")
      }
      return ExitStatus.success
    }
  }
}
