import InklingCommandLine

enum ExportCommand {
  static let spec = CommandSpec(
    "export", abstract: "Write drafts out as .inkling files into a folder.",
    discussion: DraftFilters.dateHelp + """


      Examples:
        inkling-archive export --since 2025-10 --to ~/Exported
        inkling-archive export --exact Cat --all-versions --png --to cat-history
      """,
    options: DraftFilters.options + [
      .value("to", valueName: "DIR", help: "The folder to write into.", required: true),
      .flag("all-versions", help: "Write every version, not only the newest."),
      .flag("png", help: "Also write a PNG image next to each file."),
    ],
    exclusive: DraftFilters.exclusive)
}
