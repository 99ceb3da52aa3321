import InklingCommandLine

enum ShowCommand {
  static let spec = CommandSpec(
    "show", abstract: "Describe one version of a draft.",
    arguments: [.required("DRAFT", help: "The draft's name.")],
    options: [
      .value("version", valueName: "N", help: "Show version N instead of the newest."),
      .flag("strokes", help: "List every stroke: ink, colour, bounds, points."),
    ])
}
