// `search` answers as grep does: exit 1 when nothing matches, in every output form; a syntax
// error under --json is JSON on standard output; the message of an error in a long query shows
// the part around the problem, not the whole line.

import Foundation
import InklingTestSupport
import Testing

@Suite struct SearchExitTests {
  let runner: BinaryRunner

  init() throws {
    runner = try BinaryRunner(fresh: "search-exit", making: ["Drafts"])
    let empty = #"{"drawingData":"d3Jk8AEACAA=","color":{"r":1,"g":1,"b":1,"a":1}}"#
    try Data(empty.utf8).write(
      to: URL(fileURLWithPath: runner.workingDirectory + "/Drafts/Harbour-2025-10-05T14:03:12Z.inkling"))
    #expect(try runner.run(["--quiet", "import", runner.workingDirectory + "/Drafts"]).status == 0)
  }

  @Test func nothingMatchedIsExitOne() throws {
    for form in [[], ["--paths"], ["--ndjson"], ["--paths", "--null"]] {
      let found = try runner.run(["search"] + form + ["harbour"])
      #expect(found.status == 0, "\(form): \(found.stderr)")
      let none = try runner.run(["search"] + form + ["lighthouse"])
      #expect(none.status == 1, "\(form): \(none.stderr)")
      #expect(none.stdout.isEmpty, "\(form)")
    }
    let json = try runner.run(["--json", "search", "lighthouse"])
    #expect(json.status == 1)
    #expect(json.stdout == "{\"drafts\":[]}\n")
    // `list` lists: an empty list is an answer, not a miss.
    #expect(try runner.run(["list", "--name", "lighthouse"]).status == 0)
    // The help says so.
    #expect(try runner.run(["search", "--help"]).stdout.contains("1 when none did"))
  }

  @Test func aSyntaxErrorUnderJSONIsJSON() throws {
    let result = try runner.run(["--json", "search", "name:cat and ("])
    #expect(result.status == 2)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
    #expect(object["query"] as? String == "name:cat and (")
    #expect(object["column"] as? Int == 14)
    #expect((object["message"] as? String)?.isEmpty == false)
    #expect((object["error"] as? String)?.contains("^") == true)
    #expect(result.stderr.contains("^"), "the sentence is still on standard error")
  }

  @Test func aLongQueryIsShownAroundTheProblem() throws {
    let long = "name:\"" + String(repeating: "harbour ", count: 1_000) + "\" and saved:>=notadate"
    let result = try runner.run(["search", long])
    #expect(result.status == 2)
    #expect(result.stderr.count < 1_000, "\(result.stderr.count) characters")
    #expect(result.stderr.contains("…") && result.stderr.contains("harbour harbour"))
    #expect(result.stderr.contains("notadate"))
    let lines = result.stderr.split(separator: "\n")
    let query = try #require(lines.first { $0.hasPrefix("  …") })
    let caret = try #require(lines.first { $0.hasSuffix("^") && $0.allSatisfy { $0 == " " || $0 == "^" } })
    // The caret stands under the problem in the window.
    let index = query.index(query.startIndex, offsetBy: caret.count - 1)
    #expect(query[index...].hasPrefix("notadate"), "\(query)\n\(caret)")
  }
}
