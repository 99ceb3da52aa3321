import InklingCommandLine

enum ListCommand {
  static let spec = CommandSpec(
    "list", abstract: "List drafts, newest first, like the app.",
    discussion: DraftFilters.dateHelp + """


      Examples:
        inkling-archive list --since 7d
        inkling-archive list --name cat --json
      """,
    options: DraftFilters.options,
    exclusive: DraftFilters.exclusive)
}
