import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

struct RenameCommand: Command {
  static let name = "rename"

  static let spec = CommandSpec(
    name, abstract: "Give a draft another name, keeping every version.",
    discussion: """
      Files restored or exported afterwards carry the new name (the files' contents do not \
      hold it). A NEW that another draft has is refused unless --merge, which joins the two \
      histories in save-time order; a file that is in both is kept once. NEW is made a name \
      the app could save (/ becomes -, an empty name Untitled); any name import takes from a \
      file is accepted (spaces around it, . and .. included), and only one too long for a file \
      name (NEW.inkling over 255 bytes) is refused. A restored file keeps its date, and the \
      name is cut to fit when the two are over 255 bytes.

      Examples:
        inkling-archive rename "Plan-B" "Plan C"
        inkling-archive rename "cat" "Cat" --merge
      """
  ).declaring { Self() }

  @Parsed(
    Argument(
      "OLD", .draftName, help: "The draft's name, exactly (as `list` shows it, in its quotes if it has them).",
      completion: .prefixed(["complete-names"])))
  var old: String
  @Parsed(
    Argument(
      "NEW", .draftName, help: "Its new name (a name as `list` prints one, in quotes, is read back); a `/` becomes `-`."
    ))
  var new: String
  @Parsed(Flag("merge", help: "If a draft is called NEW already, join the two histories into it.")) var merge: Bool

  func run(_ context: CommandContext) throws -> Int32 {
    let result = try context.openExisting().rename(draft: old, to: new, merge: merge)
    let (from, to) = (Quoted.name(result.from), Quoted.name(result.to))
    let text =
      if result.merged {
        "Merged \(from) into \(to): \(Plural.count(result.versionsMoved, "version")) moved"
          + (result.duplicatesDropped > 0 ? ", \(Format.count(result.duplicatesDropped)) already there" : "")
          + "; \(to) has \(Plural.count(result.versionCount, "version"))."
      } else if result.from == result.to {
        "\(from) is called that already; nothing changed."
      } else {
        "Renamed \(from) to \(to) (\(Plural.count(result.versionCount, "version")))."
      }
    context.report(result.json, text, dataTo: .file(""))
    return ExitStatus.success
  }
}
