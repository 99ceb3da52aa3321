import Foundation
import InklingCommandLine
import InklingTestSupport
import Testing

@Suite struct CommandLineProgramTests {
  struct Run {
    var status: Int32
    var output: String
    var errors: String
    var dispatched: [String]?
  }

  func run(
    _ arguments: [String],
    dispatch: @escaping ([String], ParsedArguments) throws -> Int32 = { _, _ in 0 }
  ) -> Run {
    let output = Captured()
    let errors = Captured()
    var dispatched: [String]?
    let program = CommandLineProgram(
      root: Sample.root, output: output.append, errorOutput: errors.append)
    let status = program.run(arguments) { path, parsed in
      dispatched = path
      return try dispatch(path, parsed)
    }
    return Run(status: status, output: output.value, errors: errors.value, dispatched: dispatched)
  }

  @Test func sampleTreeIsWellFormed() {
    #expect(Sample.root.problems() == [])
  }

  @Test func problemsAreReported() {
    let bad = CommandSpec(
      "bad", abstract: "",
      arguments: [.zeroOrMore("A", help: ""), .required("B", help: "")],
      options: [
        .flag("help", help: ""), .flag("x", short: "1", help: ""),
        OptionSpec(long: "y", short: "2", help: "x", kind: .value),
        OptionSpec(long: "z", valueName: "Z", help: "up or down", kind: .value, completion: .choices(["up", "left"])),
      ],
      exclusive: [["--x", "--nope"]])
    #expect(
      bad.problems() == [
        "bad: option '--help' is built in",
        "bad: short name '-2' must be a letter, or a digit for a flag",
        "bad: option '--y' needs a value name",
        "bad: the help of '--z' does not name its value 'left'",
        "bad: only the last argument may repeat ('A')",
        "bad: required argument 'B' follows an optional one",
        "bad: exclusive group names unknown option '--nope'",
      ])
  }

  @Test func helpGoesToStandardOutputWithStatusZero() {
    for arguments in [
      ["restore", "--help"], ["help", "restore"], ["restore", "-h", "Cat", "--bogus"],
    ] {
      let result = run(arguments)
      #expect(result.status == 0)
      #expect(result.output == HelpGenerator.help(for: ["restore"], root: Sample.root))
      #expect(result.errors == "")
      #expect(result.dispatched == nil)
    }
    #expect(run([]).output == HelpGenerator.help(for: [], root: Sample.root))
  }

  @Test func versionPrintsNameAndVersion() {
    let result = run(["--version"])
    #expect(result.status == 0)
    #expect(result.output == "inkling-archive 0.1.0\n")
  }

  @Test func versionIsTheProgramsJSONWhenItSaysSo() {
    let output = Captured()
    let program = CommandLineProgram(
      root: Sample.root, output: output.append, errorOutput: { _ in },
      versionJSON: { arguments, verbose in arguments.contains("--json") ? "{\"verbose\":\(verbose)}\n" : nil })
    #expect(program.run(["--json", "--version"]) { _, _ in 1 } == 0)
    #expect(output.value == "{\"verbose\":false}\n")
    let text = Captured()
    let plain = CommandLineProgram(
      root: Sample.root, output: text.append, errorOutput: { _ in }, versionJSON: { _, _ in nil })
    #expect(plain.run(["--version"]) { _, _ in 1 } == 0)
    #expect(text.value == "inkling-archive 0.1.0\n")
  }

  @Test func usageErrorGoesToStandardErrorWithStatusTwo() {
    let result = run(["restore", "Cat", "--verison", "3"])
    #expect(result.status == 2)
    #expect(result.output == "")
    #expect(
      result.errors == """
        Error: Unknown option '--verison'. Did you mean '--version'?
        Usage: inkling-archive restore DRAFT [--version N | --at DATE] [--to DIR | --output FILE]
          See 'inkling-archive restore --help'.

        """)
  }

  @Test func dispatchGetsPathAndValues() {
    let result = run(["--json", "restore", "Cat", "--version", "3"]) { path, parsed in
      #expect(path == ["restore"])
      #expect(parsed.flag("--json"))
      let version = try parsed.int("--version")
      #expect(version == 3)
      return 0
    }
    #expect(result.status == 0)
    #expect(result.dispatched == ["restore"])
  }

  @Test func usageErrorsFromTheCommandAreRenderedForIt() {
    let result = run(["list", "--limit", "many"]) { _, parsed in
      _ = try parsed.int("--limit")
      return 0
    }
    #expect(result.status == 2)
    #expect(
      result.errors == """
        Error: Invalid value 'many' for '--limit N': expected an integer.
        Usage: inkling-archive list [--name TEXT ...] [--limit N] [--offset N] [--all] [--long]
          See 'inkling-archive list --help'.

        """)
  }

  struct ArchiveLocked: ExitStatusError {
    var exitStatus: Int32 { ExitStatus.archiveUnusable }
    var description: String { "drafts.sqlite: locked by another process for over 5 seconds" }
  }

  struct Plain: Error {}

  @Test func otherErrorsPrintOneLineWithTheirStatus() {
    let locked = run(["list"]) { _, _ in throw ArchiveLocked() }
    #expect(locked.status == 3)
    #expect(locked.errors == "Error: drafts.sqlite: locked by another process for over 5 seconds\n")
    let plain = run(["list"]) { _, _ in throw Plain() }
    #expect(plain.status == 1)
    #expect(plain.errors == "Error: Plain()\n")
  }

  @Test func commandStatusIsReturned() {
    #expect(run(["import", "a"]) { _, _ in 1 }.status == 1)
  }
}
