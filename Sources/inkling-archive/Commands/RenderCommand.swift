import InklingCommandLine

enum RenderCommand {
  static let spec = CommandSpec(
    "render", abstract: "Write a draft as the app's full-size share image (PNG).",
    arguments: [.required("DRAFT", help: "The draft's name.")],
    options: [
      .value("version", valueName: "N", help: "Render version N instead of the newest."),
      .value("scale", valueName: "S", help: "Scale factor; 2 doubles the width and height."),
      .value(
        "output", short: "o", valueName: "FILE.png", help: "The PNG file to write.", required: true),
    ])
}
