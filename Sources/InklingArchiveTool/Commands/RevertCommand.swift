import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

struct RevertCommand: Command {
  static let name = "revert"

  static let spec = CommandSpec(
    name, abstract: "Add a version equal to an earlier one, saved now.",
    discussion: """
      The new version's file is byte for byte version N's, under the name the app would give \
      a save made now; nothing after version N is lost. `history` shows which version it \
      reverts to, and restoring it gives the app a file it opens exactly as version N. The \
      new version is always the newest: saved now, or a second after the newest version when \
      that one is as late (reverts made in one second get one second each). When the newest \
      version already is version N's file, nothing is added.

      Example:
        inkling-archive revert "Plan-B" --version 2
      """
  ).declaring { Self() }

  @Parsed(Common.draft) var draft: String
  @Parsed(
    Option(
      "version", valueName: "N", .version, required: (),
      help: "The version to go back to, as `history` numbers it, or its label (`label`)."))
  var selector: VersionSelector

  func run(_ context: CommandContext) throws -> Int32 {
    let result = try context.openExisting().revert(draft: draft, to: selector)
    let name = Quoted.name(result.version.draftName)
    context.report(
      result.json,
      result.added
        ? "\(name): added version \(result.version.number) (\(Quoted.text(result.version.fileName)), saved "
          + "\(Format.date(result.version.saved))), a copy of version \(result.revertedTo)."
        : result.version.number == result.revertedTo
          ? "\(name): version \(result.revertedTo) is the newest version already; nothing added."
          : "\(name): the newest version, \(result.version.number), is a copy of version \(result.revertedTo) "
            + "already; nothing added.",
      dataTo: .file(""))
    return ExitStatus.success
  }
}
