import InklingArchive
import InklingCommandLine

struct LicensesCommand: Command {
  static let name = "licenses"
  static let spec = CommandSpec(
    name, abstract: "Print the licences: the project's, each linked library's, and the binary's as a whole.",
    discussion: """
      The release binary links libx264 (GPL-2.0-or-later) and Apache-2.0 code, and is \
      therefore distributed under the GPL, version 3 or later, as a combination; the \
      project's own code stays Apache-2.0. The notice says what that means for someone who \
      passes it on, and gives the licence texts. The versions in this binary: \
      inkling-archive --version --verbose.
      """)

  func validate(_ parsed: ParsedArguments) throws {
    try Common.refuseJSON(parsed, prints: "the licences as text")
  }

  func run(_ context: CommandContext) throws -> Int32 {
    context.printRaw(About.notice)
    return ExitStatus.success
  }
}
