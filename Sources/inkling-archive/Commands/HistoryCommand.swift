import InklingCommandLine

enum HistoryCommand {
  static let spec = CommandSpec(
    "history", abstract: "List every version of a draft.",
    discussion: "For each version: number, saved date, strokes, colour, size and source file.",
    arguments: [.required("DRAFT", help: "The draft's name.")])
}
