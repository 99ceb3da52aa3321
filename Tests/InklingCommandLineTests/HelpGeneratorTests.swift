import InklingCommandLine
import Testing

@Suite struct HelpGeneratorTests {
  @Test func rootListsCommandsWithAbstracts() {
    #expect(
      HelpGenerator.help(for: [], root: Sample.root) == """
        OVERVIEW: Every saved version of every Inkling draft in one SQLite file.

        USAGE: inkling-archive [--archive FILE] [--json] [--quiet] <command>

        OPTIONS:
              --archive FILE  The archive to use. (default: $INKLING_ARCHIVE)
              --json          Print JSON instead of text.
          -q, --quiet         Print only errors.
              --version       Show the version.
          -h, --help          Show help information.

        COMMANDS:
          import              Add drafts from files and folders.
          list                List drafts, newest first.
          restore             Write a version of a draft back out, byte for byte.
          rename              Rename a draft.
          thumbnail           Write a PNG thumbnail of a draft.

          See 'inkling-archive help <command>' for detailed help.

        """)
  }

  @Test func commandHelpHasDiscussionUsageArgumentsAndOptions() {
    #expect(
      HelpGenerator.help(for: ["restore"], root: Sample.root) == """
        OVERVIEW: Write a version of a draft back out, byte for byte.

        Without --version or --at, the newest version is restored. The file is identical
        to the one the app wrote, down to the last byte.

        Examples:
          inkling-archive restore Cat --version 3 -o cat.inkling
          inkling-archive restore Cat --at 2025-10-05 --to ~/Desktop

        USAGE: inkling-archive restore DRAFT [--version N | --at DATE]
               [--to DIR | --output FILE]

        ARGUMENTS:
          DRAFT               The draft's name.

        OPTIONS:
              --version N     Restore version N (1 is the first saved).
              --at DATE       Restore the version that was current at DATE.
              --to DIR        Write into DIR under the draft's own file name.
                              (default: .)
          -o, --output FILE   Write to FILE.
          -h, --help          Show help information.

        GLOBAL OPTIONS:
              --archive FILE  The archive to use. (default: $INKLING_ARCHIVE)
              --json          Print JSON instead of text.
          -q, --quiet         Print only errors.

        """)
  }

  @Test func repeatableOptionsAndDefaultsAreNoted() {
    #expect(
      HelpGenerator.help(for: ["list"], root: Sample.root) == """
        OVERVIEW: List drafts, newest first.

        USAGE: inkling-archive list [--name TEXT ...] [--limit N] [--offset N] [--all]
               [--long]

        OPTIONS:
          -n, --name TEXT     Only drafts whose name contains TEXT. (can be repeated)
              --limit N       Show at most N drafts. (default: 50)
              --offset N      Skip the first N drafts.
          -a, --all           Include drafts in the trash.
          -l, --long          Show every column.
          -h, --help          Show help information.

        GLOBAL OPTIONS:
              --archive FILE  The archive to use. (default: $INKLING_ARCHIVE)
              --json          Print JSON instead of text.
          -q, --quiet         Print only errors.

        """)
  }

  @Test func longLabelsPutHelpOnTheNextLineAndLongHelpWraps() {
    let root = CommandSpec(
      "tool", abstract: "A tool.",
      options: [
        .value("a-rather-long-option-name", valueName: "VALUE", help: "Short help."),
        .flag("x", help: String(repeating: "word ", count: 20)),
      ])
    #expect(
      HelpGenerator.help(for: [], root: root) == """
        OVERVIEW: A tool.

        USAGE: tool [--a-rather-long-option-name VALUE] [--x]

        OPTIONS:
              --a-rather-long-option-name VALUE
                                    Short help.
              --x                   word word word word word word word word word word
                                    word word word word word word word word word word
          -h, --help                Show help information.

        """)
  }
}
