import InklingCommandLine

enum PurgeCommand {
  static let spec = CommandSpec(
    "purge", abstract: "Remove drafts in the trash for good.",
    discussion: "Their space is reclaimed by the next 'gc'.",
    arguments: [
      .zeroOrMore("DRAFT", help: "Drafts in the trash to remove; all of them when none is named.")
    ])
}
