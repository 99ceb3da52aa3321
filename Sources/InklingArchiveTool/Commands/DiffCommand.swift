import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

struct DiffCommand: Command {
  static let name = "diff"

  static let spec = CommandSpec(
    name, abstract: "Compare two versions of a draft.",
    discussion: """
      Shows strokes added, removed, hidden (erased whole) and partly erased (cut by the pixel \
      eraser), and any change of background colour. As `git show` shows a commit against its \
      parent: `diff DRAFT` shows what the newest version changed (against the one before it), \
      `diff DRAFT N` what version N changed (N - 1 against N), and `diff DRAFT A B` compares \
      any two. A version may be named by its label (`label`) as well as its number.
      """
  ).declaring { Self() }

  @Parsed(Common.draft) var draft: String
  @Parsed(
    Argument(
      "A", .version, optional: (),
      help:
        "The earlier version's number, as `history` shows it, or its label; alone, the version whose changes to show."
    ))
  var from: VersionSelector?
  @Parsed(Argument("B", .version, optional: (), help: "The later version's number or label.")) var to: VersionSelector?

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.open(.readOnly)
    let diff =
      if let from, let to {
        try archive.diff(draft: draft, from: from, to: to)
      } else {
        try archive.diff(draft: draft, changesOf: from ?? .latest)
      }
    if context.json {
      context.printJSON(diff.json)
      return ExitStatus.success
    }
    context.print(
      "\(Quoted.display(diff.from.draftName)): version \(Self.version(diff.from)) → \(Self.version(diff.to)): "
        + "\(diff.added.count) added, \(diff.removed.count) removed, \(diff.hidden.count) hidden, "
        + "\(diff.unhidden.count) shown again, \(diff.partlyErased.count) partly erased")
    if let change = diff.backgroundChange {
      context.print("background \(Format.color(change.from)) → \(Format.color(change.to))")
    }
    for (title, strokes) in [
      ("Added", diff.added), ("Removed", diff.removed), ("Hidden", diff.hidden), ("Shown again", diff.unhidden),
      ("Partly erased", diff.partlyErased),
    ]
    where !strokes.isEmpty {
      context.print("\n\(title):")
      context.printRaw(StrokeTable.rendered(strokes))
    }
    return ExitStatus.success
  }

  /// `3`, or with its labels `3 (final)`.
  static func version(_ info: VersionInfo) -> String {
    "\(info.number)" + (info.labels.isEmpty ? "" : " (\(info.labelList))")
  }
}
