import InklingCommandLine

enum StatsCommand {
  static let spec = CommandSpec(
    "stats", abstract: "Show counts and sizes of drafts, versions and strokes.")
}
