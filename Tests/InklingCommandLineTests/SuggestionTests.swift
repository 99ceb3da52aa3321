import InklingCommandLine
import Testing

@Suite struct SuggestionTests {
  @Test func distanceCountsTranspositionsAsOneEdit() {
    #expect(Suggestion.distance("verison", "version") == 1)
    #expect(Suggestion.distance("", "abc") == 3)
    #expect(Suggestion.distance("kitten", "sitting") == 3)
  }

  @Test func suggestsOnlyCloseNames() {
    let commands = ["import", "list", "search", "show", "history", "restore", "gc"]
    #expect(Suggestion.nearest(to: "hsitory", among: commands) == "history")
    #expect(Suggestion.nearest(to: "lst", among: commands) == "list")
    #expect(Suggestion.nearest(to: "hist", among: commands) == "history")
    #expect(Suggestion.nearest(to: "ls", among: commands) == nil)
    #expect(Suggestion.nearest(to: "frobnicate", among: commands) == nil)
  }
}
