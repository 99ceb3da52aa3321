import InklingArchive
import InklingCommandLine

enum DiffCommand {
  static let spec = CommandSpec(
    "diff", abstract: "Compare two versions of a draft.",
    discussion: "Shows strokes added, removed and hidden, and any change of background colour.",
    arguments: [
      .required("DRAFT", help: "The draft's name."),
      .required("A", help: "The earlier version number."),
      .required("B", help: "The later version number."),
    ])

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      guard let a = parsed.argument("A").flatMap({ Int($0) }), let b = parsed.argument("B").flatMap({ Int($0) }) else {
        throw parsed.usageError("A and B are version numbers, as `history` shows them")
      }
      let archive = try context.open(.readOnly)
      let diff = try archive.diff(draft: parsed.argument("DRAFT")!, from: a, to: b)
      if context.json {
        context.printJSON([
          "draft": .string(diff.from.draftName), "from": .int(a), "to": .int(b),
          "added": .array(diff.added.map(DrawingOutput.json)), "removed": .array(diff.removed.map(DrawingOutput.json)),
          "hidden": .array(diff.hidden.map(DrawingOutput.json)),
          "unhidden": .array(diff.unhidden.map(DrawingOutput.json)),
          "background": diff.backgroundChange.map {
            ["from": DrawingOutput.json($0.from), "to": DrawingOutput.json($0.to)]
          } ?? .null,
        ])
        return ExitStatus.success
      }
      context.print(
        "\(diff.from.draftName): version \(a) → \(b): \(diff.added.count) added, \(diff.removed.count) removed, "
          + "\(diff.hidden.count) hidden, \(diff.unhidden.count) shown again")
      if let change = diff.backgroundChange {
        context.print("background \(DrawingOutput.color(change.from)) → \(DrawingOutput.color(change.to))")
      }
      for (title, strokes) in [
        ("Added", diff.added), ("Removed", diff.removed), ("Hidden", diff.hidden), ("Shown again", diff.unhidden),
      ]
      where !strokes.isEmpty {
        context.print("\n\(title):")
        StandardStreams.writeOutput(DrawingOutput.strokeTable(strokes))
      }
      return ExitStatus.success
    }
  }
}
