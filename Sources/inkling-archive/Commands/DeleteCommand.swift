import InklingCommandLine

enum DeleteCommand {
  static let spec = CommandSpec(
    "delete", abstract: "Move a draft to the trash.",
    discussion:
      "Deleted drafts keep their history; 'undelete' brings them back, 'purge' removes them.",
    arguments: [.required("DRAFT", help: "The draft's name.")])
}
