import InklingCommandLine

enum RevertCommand {
  static let spec = CommandSpec(
    "revert", abstract: "Add a new version of a draft equal to an earlier one.",
    discussion: "Nothing is lost: the versions after N stay in the history.",
    arguments: [.required("DRAFT", help: "The draft's name.")],
    options: [
      .value("version", valueName: "N", help: "The version to bring back.", required: true)
    ])
}
