import InklingArchive
import InklingCommandLine
import InklingPresentation

enum ShowCommand {
  static let spec = CommandSpec(
    "show", abstract: "Describe one version of a draft.",
    arguments: [.required("DRAFT", help: "The draft's name.")],
    options: [
      .value("version", valueName: "N", help: "Show version N instead of the newest."),
      .flag("strokes", help: "List every stroke: ink, colour, bounds, points."),
    ])

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      let selector = try parsed.int("--version").map(VersionSelector.number) ?? .latest
      let archive = try context.open(.readOnly)
      let (version, drawing) = try archive.show(draft: parsed.argument("DRAFT")!, version: selector)
      let strokes = parsed.flag("--strokes")
      if context.json {
        context.printJSON([
          "draft": .string(version.draftName), "version": HistoryCommand.json(version),
          "drawing": DrawingOutput.json(drawing, strokes: strokes),
        ])
        return ExitStatus.success
      }
      var lines = [
        "Draft:       \(version.draftName)",
        "Version:     \(version.number), saved \(Format.date(version.saved))\(version.savedFromFileName ? "" : " (file modification time)")",
        "File:        \(version.fileName) (\(Format.bytes(version.fileSize)), imported \(Format.date(version.imported)))",
        "Background:  \(DrawingOutput.color(version.background))",
        "Drawing:     \(drawing.status.rawValue)\(drawing.problem.map { ": \($0)" } ?? ""), \(Format.bytes(version.drawingSize))",
      ]
      if drawing.status == .decoded {
        lines += [
          "Strokes:     \(drawing.visibleCount) visible, \(drawing.hiddenCount) hidden; \(Format.count(drawing.pointCount)) points",
          "Bounds:      \(DrawingOutput.rect(drawing.bounds))",
          "Drawn:       \(drawing.firstPoint.map(Format.date) ?? "-") … \(drawing.lastPoint.map(Format.date) ?? "-")",
          "Inks:        "
            + (drawing.inks.isEmpty
              ? "-"
              : drawing.inks.map { "\($0.ink) \(DrawingOutput.color($0.color)) ×\($0.strokeCount)" }.joined(
                separator: ", ")),
          "Format:      version \(drawing.formatVersion ?? 0), ink version \(drawing.maxInkVersion.map(String.init) ?? "-")",
        ]
      }
      if let same = version.sameDrawingAs { lines.append("Same drawing as version \(same).") }
      context.print(lines.joined(separator: "\n"))
      if strokes && !drawing.strokes.isEmpty {
        context.print("")
        StandardStreams.writeOutput(DrawingOutput.strokeTable(drawing.strokes))
      }
      return ExitStatus.success
    }
  }
}
