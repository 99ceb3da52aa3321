import InklingArchive
import InklingCommandLine

struct ManualCommand: Command {
  static let name = "manual"
  static let spec = CommandSpec(
    name, abstract: "Print the manual page (roff), made from the same declarations as --help.",
    discussion: """
      Examples:
        inkling-archive manual > ~/.local/share/man/man1/inkling-archive.1
        inkling-archive manual | man -l -
      """)

  func validate(_ parsed: ParsedArguments) throws {
    try Common.refuseJSON(parsed, prints: "a manual page")
  }

  func run(_ context: CommandContext) throws -> Int32 {
    context.printRaw(ManualPage.render(RootCommand.spec, date: About.date))
    return ExitStatus.success
  }
}
