import InklingCommandLine

enum ContactSheetCommand {
  static let spec = CommandSpec(
    "contact-sheet", abstract: "Write one PNG with a grid of thumbnails and their names.",
    discussion: DraftFilters.dateHelp,
    options: DraftFilters.options + [
      .value(
        "output", short: "o", valueName: "FILE.png", help: "The PNG file to write.", required: true)
    ],
    exclusive: DraftFilters.exclusive)
}
