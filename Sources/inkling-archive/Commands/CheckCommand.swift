import InklingCommandLine

enum CheckCommand {
  static let spec = CommandSpec(
    "check", abstract: "Verify the archive and report every problem found.",
    options: [
      .flag("full", help: "Also decode every version and re-hash every blob (slow).")
    ])
}
