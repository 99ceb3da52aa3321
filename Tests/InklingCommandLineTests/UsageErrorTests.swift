import InklingCommandLine
import Testing

@Suite struct UsageErrorTests {
  @Test(arguments: [
    (["--verison"], "Unknown option '--verison'. Did you mean '--version'?", [String]()),
    (["--jsno", "list"], "Unknown option '--jsno'. Did you mean '--json'?", []),
    (
      ["restore", "Cat", "--ouptut", "x"], "Unknown option '--ouptut'. Did you mean '--output'?",
      ["restore"]
    ),
    (["list", "--arch", "x"], "Unknown option '--arch'. Did you mean '--archive'?", ["list"]),
    (["list", "--frobnicate"], "Unknown option '--frobnicate'.", ["list"]),
    (["list", "-x"], "Unknown option '-x'.", ["list"]),
    (["-qx", "list"], "Unknown option '-x'.", []),
    (["lsit"], "Unknown command 'lsit'. Did you mean 'list'?", []),
    (["--json", "restor", "Cat"], "Unknown command 'restor'. Did you mean 'restore'?", []),
    (["frobnicate"], "Unknown command 'frobnicate'.", []),
    (["help", "lsit"], "Unknown command 'lsit'. Did you mean 'list'?", []),
    (["--json"], "Missing command.", []),
    (["--archive"], "Missing value for '--archive FILE'.", []),
    (["list", "--limit"], "Missing value for '--limit N'.", ["list"]),
    (["list", "--limit", "--json"], "Missing value for '--limit N'.", ["list"]),
    (["list", "--limit", "--", "5"], "Missing value for '--limit N'.", ["list"]),
    (["list", "--json=yes"], "Option '--json' does not take a value.", ["list"]),
    (["restore"], "Missing expected argument 'DRAFT'.", ["restore"]),
    (["import", "--dry-run"], "Missing expected argument 'PATH'.", ["import"]),
    (["rename", "a"], "Missing expected argument 'NEW'.", ["rename"]),
    (["rename", "a", "b", "c"], "Unexpected argument 'c'.", ["rename"]),
    (["list", "cats"], "Unexpected argument 'cats'.", ["list"]),
    (["thumbnail", "Cat"], "Missing expected option '--output FILE'.", ["thumbnail"]),
    (
      ["restore", "Cat", "--at", "2025-10", "--version", "2"],
      "Options '--version' and '--at' cannot be used together.", ["restore"]
    ),
    (
      ["restore", "Cat", "--to", "d", "-o", "f"],
      "Options '--to' and '--output' cannot be used together.", ["restore"]
    ),
  ])
  func message(arguments: [String], message: String, path: [String]) {
    #expect(Sample.error(arguments) == UsageError(message, commandPath: path))
  }

  @Test func renderedAtTheRoot() throws {
    let error = try #require(Sample.error(["--verison"]))
    #expect(
      error.rendered(root: Sample.root) == """
        Error: Unknown option '--verison'. Did you mean '--version'?
        Usage: inkling-archive [--archive FILE] [--json] [--quiet] <command>
          See 'inkling-archive --help'.

        """)
  }

  @Test func renderedForACommand() throws {
    let error = try #require(Sample.error(["restore", "Cat", "--version", "2", "--at", "today"]))
    #expect(
      error.rendered(root: Sample.root) == """
        Error: Options '--version' and '--at' cannot be used together.
        Usage: inkling-archive restore DRAFT [--version N | --at DATE] [--to DIR | --output FILE]
          See 'inkling-archive restore --help'.

        """)
  }

  @Test func usageLinesShowRequiredRepeatableAndRepeatingParts() throws {
    let thumbnail = try #require(Sample.error(["thumbnail", "Cat"]))
    #expect(
      thumbnail.rendered(root: Sample.root) == """
        Error: Missing expected option '--output FILE'.
        Usage: inkling-archive thumbnail DRAFT [--size PX] [--scale S] --output FILE
          See 'inkling-archive thumbnail --help'.

        """)
    let list = try #require(Sample.error(["list", "x"]))
    #expect(
      list.rendered(root: Sample.root) == """
        Error: Unexpected argument 'x'.
        Usage: inkling-archive list [--name TEXT ...] [--limit N] [--offset N] [--all] [--long]
          See 'inkling-archive list --help'.

        """)
    let importError = try #require(Sample.error(["import"]))
    #expect(
      importError.rendered(root: Sample.root).contains(
        "Usage: inkling-archive import PATH... [--dry-run]\n"))
  }

  @Test func errorWithoutPathUsesTheFallback() {
    let error = UsageError("Dates look like 2025-10-05.")
    #expect(
      error.rendered(root: Sample.root, path: ["rename"]) == """
        Error: Dates look like 2025-10-05.
        Usage: inkling-archive rename OLD NEW
          See 'inkling-archive rename --help'.

        """)
  }
}
