import InklingCommandLine

enum ThumbnailCommand {
  static let spec = CommandSpec(
    "thumbnail", abstract: "Write a small PNG picture of a draft.",
    arguments: [.required("DRAFT", help: "The draft's name.")],
    options: [
      .value("version", valueName: "N", help: "Picture version N instead of the newest."),
      .value("size", valueName: "PX", help: "The length of the longer side, in pixels."),
      .value(
        "output", short: "o", valueName: "FILE.png", help: "The PNG file to write.", required: true),
    ])
}
