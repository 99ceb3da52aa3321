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
}
