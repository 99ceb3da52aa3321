// The draft filters shared by list, export and contact-sheet, so they read the same everywhere.

import InklingCommandLine

enum DraftFilters {
  static let options: [OptionSpec] = [
    .value("name", valueName: "TEXT", help: "Only drafts whose name contains TEXT."),
    .value("exact", valueName: "NAME", help: "Only the draft called exactly NAME."),
    .value("since", valueName: "DATE", help: "Only drafts saved on or after DATE."),
    .value("until", valueName: "DATE", help: "Only drafts saved on or before DATE."),
    .value("on", valueName: "DATE", help: "Only drafts saved on the day DATE."),
  ]

  static let exclusive: [[String]] = [
    ["--name", "--exact"], ["--on", "--since"], ["--on", "--until"],
  ]

  static let dateHelp = """
    DATE is 2025-10-05, 2025-10, a full ISO 8601 date and time, today, yesterday, or an age \
    such as 7d or 3w.
    """
}
