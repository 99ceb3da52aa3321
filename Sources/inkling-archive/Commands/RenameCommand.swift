import InklingCommandLine

enum RenameCommand {
  static let spec = CommandSpec(
    "rename", abstract: "Rename a draft, keeping its history.",
    arguments: [
      .required("OLD", help: "The draft's current name."),
      .required("NEW", help: "The new name."),
    ])
}
