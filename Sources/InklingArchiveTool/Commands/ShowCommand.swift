import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

struct ShowCommand: Command {
  static let name = "show"

  static let spec = CommandSpec(
    name, abstract: "Describe one version of a draft."
  ).declaring { Self() }

  @Parsed(Common.draft) var draft: String
  @Parsed(Common.version("Show version N instead of the newest.")) var version: VersionSelector?
  @Parsed(Flag("strokes", help: "List every stroke: ink, colour, bounds, points.")) var strokes: Bool

  var selector: VersionSelector { version ?? .latest }

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.open(.readOnly)
    let (version, drawing) = try archive.show(draft: draft, version: selector)
    let annotations = try archive.annotations(ofDraft: version.draftName)
    if context.json {
      context.printJSON(
        .object(
          [.init("draft", .string(version.draftName))] + annotations.jsonMembers + [
            .init("version", version.json), .init("drawing", drawing.json(strokes: strokes)),
          ]))
      return ExitStatus.success
    }
    var lines = [
      "Draft:       \(Quoted.display(version.draftName))"
    ]
    lines += annotations.lines
    lines += DraftNote.lines(annotations.notes + version.notes)
    lines += [
      "Version:     \(version.number), saved \(Format.date(version.saved))"
        + (version.savedFromFileName ? "" : " (file modification time)")
    ]
    if !version.labels.isEmpty { lines.append("Labels:      " + version.labelList) }
    lines += [
      "File:        \(Quoted.display(version.fileName)) (\(Format.bytes(version.fileSize)), "
        + "imported \(Format.date(version.imported)))",
      "Background:  \(Format.color(version.background))",
      "Drawing:     \(drawing.status.rawValue)\(drawing.problem.map { ": \($0)" } ?? ""), "
        + Format.bytes(version.drawingSize),
    ]
    lines += Self.sourceLines(version.sources)
    if drawing.status == .decoded {
      let inks = drawing.inks.map { "\(Quoted.display($0.ink)) \(Format.color($0.color)) ×\($0.strokeCount)" }
      lines += [
        "Strokes:     \(StrokeTable.counts(drawing)); \(Format.count(drawing.pointCount)) points",
        "Bounds:      \(Format.rect(drawing.bounds))",
        "Drawn:       \(drawing.firstPoint.map(Format.date) ?? "-") … \(drawing.lastPoint.map(Format.date) ?? "-")",
        "Inks:        " + (inks.isEmpty ? "-" : inks.joined(separator: ", ")),
        "Format:      version \(drawing.formatVersion ?? 0), ink version \(drawing.maxInkVersion.map(String.init) ?? "-")",
      ]
    }
    if let same = version.sameDrawingAs { lines.append("Same drawing as version \(same).") }
    context.print(lines.joined(separator: "\n"))
    if strokes && !drawing.strokes.isEmpty {
      context.print("")
      context.printRaw(StrokeTable.rendered(drawing.strokes))
    }
    return ExitStatus.success
  }

  /// `Source:` and one line per source: label, path, the import run that recorded it.
  static func sourceLines(_ sources: [VersionSource]) -> [String] {
    guard !sources.isEmpty else { return ["Source:      - (archived before sources were kept)"] }
    return sources.enumerated().map { index, source in
      (index == 0 ? "Source:      " : "             ") + "\(Quoted.display(source.label)) "
        + "(\(Quoted.display(source.path)), import run \(source.importRun) of \(Format.date(source.recorded)))"
    }
  }
}
