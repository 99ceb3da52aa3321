import InklingArchive
import InklingCommandLine
import InklingPresentation

struct ReindexCommand: Command {
  static let name = "reindex"

  static let spec = CommandSpec(
    name, abstract: "Decode drawings and fill in the drawing index.",
    discussion: """
      Archives made before the drawing index existed have versions that `show`, `diff` and \
      stroke or ink searches cannot see into; this decodes them once. With --all, every \
      drawing is indexed again (after an upgrade that reads more of the format).
      """
  ).declaring { Self() }

  @Parsed(Flag("all", help: "Index every drawing again, not only those missing.")) var all: Bool

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.openExisting()
    let progress = context.progressLine()
    let count = try archive.reindex(all: all) { done, total in
      progress.update("Indexing drawings: \(Format.count(done)) of \(Format.count(total))")
    }
    progress.finish()
    if context.json {
      context.printJSON(["indexed": .int(count)])
    } else if !context.quiet {
      context.print("Indexed \(Plural.count(count, "drawing")).")
    }
    return ExitStatus.success
  }
}
