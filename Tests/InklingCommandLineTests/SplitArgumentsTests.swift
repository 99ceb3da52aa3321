import InklingCommandLine
import Testing

@Suite struct SplitArgumentsTests {
  @Test func classifiesEveryKindOfWord() {
    let tokens = SplitArguments.split([
      "--json", "--archive=a.sqlite", "-qf", "-", "-5", "-0.5", "x", "--", "--json", "-q",
    ])
    #expect(
      tokens.map(\.kind) == [
        .long(name: "json", value: nil),
        .long(name: "archive", value: "a.sqlite"),
        .short(letters: ["q", "f"]),
        .value("-"),
        .value("-5"),
        .value("-0.5"),
        .value("x"),
        .terminator,
        .value("--json"),
        .value("-q"),
      ])
    #expect(tokens.map(\.index) == Array(0..<10))
    #expect(tokens[1].text == "--archive=a.sqlite")
  }

  @Test func emptyInlineValueIsKept() {
    #expect(SplitArguments.split(["--name="]).map(\.kind) == [.long(name: "name", value: "")])
  }

  @Test func dashFollowedByLettersIsNotANumber() {
    #expect(SplitArguments.split(["-e5"]).map(\.kind) == [.short(letters: ["e", "5"])])
  }
}
