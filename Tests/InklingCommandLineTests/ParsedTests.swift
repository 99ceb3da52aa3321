// A command whose properties are its declarations: the spec is made from them in the order they
// are written, and a command line is read into them, typed, the first bad value thrown.

import InklingCommandLine
import Testing

/// `copy` with every kind of declaration, and a group of options shared with other commands.
struct CopyCommand {
  struct Sizes {
    @Parsed(Option("width", valueName: "PX", .positive, default: 256, help: "The width.")) var width: Int
    @Parsed(Option("height", valueName: "PX", .positive, help: "The height.")) var height: Int?
  }

  static let spec = CommandSpec("copy", abstract: "Copy drafts.", exclusive: [["width", "limit"]])
    .declaring { CopyCommand() }

  @Parsed(Argument("DRAFT", .text, help: "The draft.")) var draft: String
  @Parsed(Option("limit", valueName: "N", .count, help: "At most N.")) var limit: Int?
  let sizes = Sizes()
  @Parsed(Flag("force", short: "f", help: "Replace.")) var force: Bool
  @Parsed(Option("tag", valueName: "TAG", .text, repeating: (), help: "A tag.")) var tags: [String]
  @Parsed(Argument("DEST", .text, repeating: (), allowsNone: true, help: "Where.")) var destinations: [String]
}

@Suite struct ParsedTests {
  static let root = CommandSpec("tool", abstract: "A tool.", subcommands: [CopyCommand.spec])

  static func read(_ arguments: [String]) throws -> CopyCommand {
    guard case .run(let parsed) = try ArgumentParser(root: root).parse(arguments) else {
      throw ParsedTestsFailure.didNotRun
    }
    return try CommandReading.read(parsed) { CopyCommand() }
  }

  enum ParsedTestsFailure: Error { case didNotRun }

  @Test func theSpecListsTheDeclarationsInTheOrderTheyAreWritten() {
    let spec = CopyCommand.spec
    #expect(spec.options.map(\.long) == ["limit", "width", "height", "force", "tag"])
    #expect(spec.arguments.map(\.name) == ["DRAFT", "DEST"])
    #expect(spec.options[1].defaultValue == "256")
    #expect(spec.options[3].short == "f" && spec.options[3].kind == .flag)
    #expect(spec.options[4].kind == .repeatable)
    #expect(spec.exclusiveGroups == [["width", "limit"]])
    #expect(spec.problems().isEmpty)
  }

  @Test func valuesAreReadTyped() throws {
    let copy = try Self.read(["copy", "Cat", "a", "b", "--limit", "3", "-f", "--tag", "x", "--tag", "y", "--height=9"])
    #expect(copy.draft == "Cat")
    #expect(copy.destinations == ["a", "b"])
    #expect(copy.limit == 3)
    #expect(copy.force)
    #expect(copy.tags == ["x", "y"])
    #expect(copy.sizes.width == 256)
    #expect(copy.sizes.height == 9)
  }

  @Test func absentValuesReadAsTheirDefaults() throws {
    let copy = try Self.read(["copy", "Cat"])
    #expect(copy.limit == nil && !copy.force && copy.tags.isEmpty && copy.destinations.isEmpty)
    #expect(copy.sizes.width == 256 && copy.sizes.height == nil)
  }

  @Test func aDefaultIsNotGiven() throws {
    let absent = try Self.read(["copy", "Cat"])
    #expect(!absent.sizes.$width.isGiven && !absent.$limit.isGiven && !absent.$force.isGiven)
    #expect(absent.$draft.isGiven && !absent.$destinations.isGiven)
    // --width given as its default is given all the same.
    let given = try Self.read(["copy", "Cat", "x", "--width", "256", "-f"])
    #expect(given.sizes.$width.isGiven && given.$force.isGiven && given.$destinations.isGiven)
    #expect(try Self.read(["copy", "Cat", "--limit", "0"]).$limit.isGiven)
  }

  @Test func theFirstValueThatDoesNotConvertIsThrown() {
    #expect(
      throws: UsageError(
        "Invalid value 'ten' for '--limit N': expected a whole number, 0 or more.", commandPath: ["copy"])
    ) {
      try Self.read(["copy", "Cat", "--height", "0", "--limit", "ten"])
    }
    #expect(
      throws: UsageError(
        "Invalid value '0' for '--height PX': expected a whole number, 1 or more.", commandPath: ["copy"])
    ) {
      try Self.read(["copy", "Cat", "--height", "0"])
    }
  }

  @Test func readingsOnSeveralThreadsAtOnceKeepTheirOwnValues() async throws {
    try await withThrowingTaskGroup(of: Int?.self) { group in
      for limit in 0..<32 {
        group.addTask { try Self.read(["copy", "Cat", "--limit", String(limit)]).limit }
      }
      var limits: [Int] = []
      for try await limit in group { limits.append(limit ?? -1) }
      #expect(limits.sorted() == Array(0..<32))
    }
  }
}
