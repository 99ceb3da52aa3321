import InklingCommandLine
import Testing

@Suite struct ParsingTests {
  @Test func valueFormsAllMeanTheSame() throws {
    for arguments in [
      ["restore", "Cat", "--output", "c.inkling"],
      ["restore", "Cat", "--output=c.inkling"],
      ["restore", "Cat", "-o", "c.inkling"],
      ["restore", "Cat", "-oc.inkling"],
      ["restore", "--output", "c.inkling", "Cat"],
    ] {
      let parsed = try Sample.parse(arguments)
      #expect(parsed.commandPath == ["restore"])
      #expect(parsed.string("--output") == "c.inkling", "\(arguments)")
      #expect(parsed.string("-o") == "c.inkling")
      #expect(parsed.argument("DRAFT") == "Cat")
    }
  }

  @Test func inlineValueMayContainEqualsAndBeEmpty() throws {
    let parsed = try Sample.parse(["list", "--name=a=b", "--name="])
    #expect(parsed.strings("--name") == ["a=b", ""])
  }

  @Test func globalOptionsWorkBeforeAndAfterTheCommand() throws {
    let before = try Sample.parse(["--archive", "x.sqlite", "--json", "list", "-q"])
    let after = try Sample.parse(["list", "--archive=x.sqlite", "--quiet", "--json"])
    for parsed in [before, after] {
      #expect(parsed.string("--archive") == "x.sqlite")
      #expect(parsed.flag("--json"))
      #expect(parsed.flag("--quiet"))
      #expect(!parsed.flag("--all"))
    }
  }

  @Test func defaultsApplyButDoNotCountAsGiven() throws {
    let parsed = try Sample.parse(["list"])
    #expect(parsed.string("--archive") == "$INKLING_ARCHIVE")
    #expect(!parsed.isSet("--archive"))
    #expect(try parsed.int("--limit") == 50)
    #expect(try parsed.int("--offset") == nil)
    #expect(parsed.strings("--name") == [])
  }

  @Test func repeatedOptionsAreCollectedInOrder() throws {
    let parsed = try Sample.parse([
      "list", "--name", "cat", "-n", "dog", "--name=owl", "--limit", "5", "--limit", "7",
    ])
    #expect(parsed.strings("--name") == ["cat", "dog", "owl"])
    // A single-valued option given twice: the last one wins.
    #expect(try parsed.int("--limit") == 7)
  }

  @Test func combinedShortFlags() throws {
    let parsed = try Sample.parse(["list", "-alq"])
    #expect(parsed.flag("--all") && parsed.flag("--long") && parsed.flag("--quiet"))
    let withValue = try Sample.parse(["list", "-an", "cat"])
    #expect(withValue.flag("-a"))
    #expect(withValue.strings("-n") == ["cat"])
  }

  @Test func doubleDashEndsOptions() throws {
    let parsed = try Sample.parse(["rename", "--", "--json", "-q"])
    #expect(parsed.argument("OLD") == "--json")
    #expect(parsed.argument("NEW") == "-q")
    #expect(!parsed.flag("--json"))
    #expect(parsed.positionals == ["--json", "-q"])
  }

  @Test func negativeNumbersAreValues() throws {
    let parsed = try Sample.parse(["list", "--offset", "-5"])
    #expect(try parsed.int("--offset") == -5)
    let scaled = try Sample.parse(["thumbnail", "-1", "--scale", "-0.5", "-o", "-"])
    #expect(scaled.argument("DRAFT") == "-1")
    #expect(try scaled.double("--scale") == -0.5)
    #expect(scaled.string("-o") == "-")
  }

  /// Numbers are decimal, as typed: not hexadecimal, exponents, infinities or NaN, which
  /// `Double(_:)` alone would take as some other number.
  @Test func numbersAreDecimal() throws {
    for (text, value) in [("2", 2.0), ("1.5", 1.5), (".5", 0.5), ("5.", 5.0), ("-0.25", -0.25)] {
      #expect(DecimalNumber.parse(text) == value, "\(text)")
      #expect(try Sample.parse(["thumbnail", "Cat", "--scale", text, "-o", "-"]).double("--scale") == value)
    }
    for text in ["0x8", "1e3", "inf", "nan", "", ".", "-", "1.2.3", "+2", " 2", "2 ", "٣"] {
      #expect(DecimalNumber.parse(text) == nil, "\(text)")
      #expect(throws: UsageError.self) {
        try Sample.parse(["thumbnail", "Cat", "--scale", text, "-o", "-"]).double("--scale")
      }
    }
  }

  @Test func repeatingArgumentTakesEveryPath() throws {
    let parsed = try Sample.parse(["import", "a", "--dry-run", "b", "c"])
    #expect(parsed.arguments("PATH") == ["a", "b", "c"])
    #expect(parsed.positional(1) == "b")
    #expect(parsed.positional(3) == nil)
    #expect(parsed.flag("--dry-run"))
  }

  @Test func subcommandOptionShadowsGlobalVersion() throws {
    let parsed = try Sample.parse(["restore", "Cat", "--version", "3"])
    #expect(try parsed.int("--version") == 3)
    let outcome = try ArgumentParser(root: Sample.root).parse(["list", "--version"])
    guard case .version(let version, let details) = outcome else {
      Issue.record("expected version, got \(outcome)")
      return
    }
    #expect(version == "0.1.0")
    #expect(details == nil)
  }

  @Test func verboseGoesWithVersionOnly() throws {
    var root = Sample.root
    root.versionDetails = { "  SQLite  3\n" }
    let outcome = try ArgumentParser(root: root).parse(["--version", "--verbose"])
    guard case .version(_, let details) = outcome else {
      Issue.record("expected version, got \(outcome)")
      return
    }
    #expect(details == "  SQLite  3\n")
    #expect(throws: UsageError.self) { try ArgumentParser(root: root).parse(["--verbose", "list"]) }
    // Without details there is no --verbose at all.
    #expect(throws: UsageError.self) { try ArgumentParser(root: Sample.root).parse(["--version", "--verbose"]) }
  }

  @Test func helpIsFoundAnywhereAndWinsOverErrors() throws {
    let cases: [([String], [String])] = [
      (["--help"], []),
      (["-h"], []),
      ([], []),
      (["restore", "--help"], ["restore"]),
      (["restore", "-h", "--bogus"], ["restore"]),
      (["--help", "restore"], ["restore"]),
      (["help"], []),
      (["help", "restore"], ["restore"]),
      (["--json", "help", "list"], ["list"]),
      (["help", "list", "--bogus"], ["list"]),
      (["restore", "--bogus", "--help"], ["restore"]),
      (["restore", "Cat", "--version", "--help"], ["restore"]),
    ]
    for (arguments, expected) in cases {
      let outcome = try ArgumentParser(root: Sample.root).parse(arguments)
      guard case .help(let path) = outcome else {
        Issue.record("\(arguments): expected help, got \(outcome)")
        continue
      }
      #expect(path == expected, "\(arguments)")
    }
  }

  @Test func conversionErrorsNameTheOption() throws {
    let parsed = try Sample.parse(["list", "--limit", "ten"])
    #expect(
      throws: UsageError(
        "Invalid value 'ten' for '--limit N': expected an integer.", commandPath: ["list"])
    ) {
      try parsed.int("--limit")
    }
    let scaled = try Sample.parse(["thumbnail", "Cat", "--scale", "nan", "-o", "x.png"])
    #expect(
      throws: UsageError(
        "Invalid value 'nan' for '--scale S': expected a number.", commandPath: ["thumbnail"])
    ) {
      try scaled.double("--scale")
    }
    let named = try Sample.parse(["list", "-n", "1", "-n", "x"])
    #expect(
      throws: UsageError(
        "Invalid value 'x' for '--name TEXT': expected an integer.", commandPath: ["list"])
    ) {
      try named.values("--name", expected: "an integer") { Int($0) }
    }
  }
}

@Suite struct ParsedValueTests {
  @Test func customConversionsReportWhatWasExpected() throws {
    let parsed = try Sample.parse(["restore", "Cat", "--at", "someday"])
    let weekdays = ["monday": 1, "tuesday": 2]
    #expect(
      throws: UsageError(
        "Invalid value 'someday' for '--at DATE': expected a day of the week.",
        commandPath: ["restore"])
    ) {
      try parsed.value("--at", expected: "a day of the week") { weekdays[$0] }
    }
    #expect(try parsed.value("--version", expected: "an integer") { Int($0) } == nil)
  }

  @Test func shortHelpInsideCombinedFlags() throws {
    let outcome = try ArgumentParser(root: Sample.root).parse(["list", "-qh"])
    guard case .help(let path) = outcome else {
      Issue.record("expected help, got \(outcome)")
      return
    }
    #expect(path == ["list"])
  }

  @Test func commandUsageErrorsCarryThePath() throws {
    let parsed = try Sample.parse(["rename", "a", "a"])
    #expect(
      parsed.usageError("The new name is the old name.")
        == UsageError("The new name is the old name.", commandPath: ["rename"]))
  }

  @Test func optionalArgumentsTakeValuesOnlyWhenThereAreEnough() throws {
    let root = CommandSpec(
      "tool", abstract: "",
      arguments: [.required("A", help: ""), .optional("B", help: ""), .zeroOrMore("C", help: "")])
    let parser = ArgumentParser(root: root)
    func arguments(_ words: [String]) throws -> [String?] {
      guard case .run(let parsed) = try parser.parse(words) else { return [] }
      return [
        parsed.argument("A"), parsed.argument("B"), parsed.arguments("C").joined(separator: ","),
      ]
    }
    #expect(try arguments(["1"]) == ["1", nil, ""])
    #expect(try arguments(["1", "2"]) == ["1", "2", ""])
    #expect(try arguments(["1", "2", "3", "4"]) == ["1", "2", "3,4"])
  }
}
