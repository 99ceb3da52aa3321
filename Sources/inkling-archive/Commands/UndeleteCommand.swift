import InklingCommandLine

enum UndeleteCommand {
  static let spec = CommandSpec(
    "undelete", abstract: "Bring a draft back from the trash.",
    arguments: [.required("DRAFT", help: "The draft's name.")])
}
