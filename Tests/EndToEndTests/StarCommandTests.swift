import Foundation
import InklingTestSupport
import Testing

/// `star`, `unstar`, `list --starred`, `--sort stars` and `search 'stars:…'` through the
/// built binary.
@Suite struct StarCommandTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "stars", making: ["Drafts"])
    for (name, red) in [
      ("Plan-B-2025-10-02T10:00:00Z", 0.5), ("Scratch-2025-09-01T10:00:00Z", 0.75),
      ("Cat study-2025-08-01T10:00:00Z", 0.25),
    ] {
      let url = URL(fileURLWithPath: folder + "/Drafts/\(name).inkling")
      try Data(#"{"drawingData":"d3Jk8AEACAA=","color":{"r":\#(red),"g":1,"b":1,"a":1}}"#.utf8).write(to: url)
    }
    let imported = try runner.run(["import", folder + "/Drafts"])
    #expect(imported.status == 0, "\(imported.stderr)")
  }

  func paths(_ arguments: [String]) throws -> String {
    try runner.run(arguments + ["--paths"]).stdout
  }

  @Test func starListSortAndSearch() throws {
    let starred = try runner.run(["star", "Cat study", "--stars", "5"])
    #expect(starred.status == 0, "\(starred.stderr)")
    #expect(starred.stdout == "Starred 1 draft ★★★★★ (1 changed).\n")
    #expect(try runner.run(["star", "Scratch"]).stdout == "Starred 1 draft ★ (1 changed).\n")
    #expect(
      try runner.run(["star", "Scratch", "Cat study", "--stars", "5"]).stdout == "Starred 2 drafts ★★★★★ (1 changed).\n"
    )
    #expect(try runner.run(["star", "Scratch", "--stars", "3"]).status == 0)

    #expect(try paths(["list", "--starred"]) == "Scratch\nCat study\n")
    #expect(try paths(["list", "--sort", "stars"]) == "Cat study\nScratch\nPlan-B\n")
    #expect(try paths(["search", "stars:>=4"]) == "Cat study\n")
    #expect(try paths(["search", "stars:0"]) == "Plan-B\n")
    #expect(try paths(["search", "stars:<4"]) == "Plan-B\nScratch\n")
    #expect(try paths(["search", "stars:>=1 name:scratch"]) == "Scratch\n")

    let list = try runner.run(["list"])
    #expect(list.stdout.contains("★★★★★"), "\(list.stdout)")
    #expect(try runner.run(["list", "--json", "--exact", "Scratch"]).stdout.contains(#""stars":3"#))
    #expect(try runner.run(["show", "Scratch"]).stdout.contains("\nStars:       ★★★\n"))
    #expect(try runner.run(["--json", "history", "Scratch"]).stdout.contains(#""stars":3"#))

    let unstarred = try runner.run(["--json", "unstar", "--query", "stars:>=4"])
    #expect(unstarred.stdout == #"{"drafts":1,"stars":null,"changed":1}"# + "\n", "\(unstarred.stdout)")
    #expect(try paths(["list", "--starred"]) == "Scratch\n")
  }

  @Test func refusals() throws {
    let tooMany = try runner.run(["star", "Scratch", "--stars", "6"])
    #expect(tooMany.status == 2)
    #expect(tooMany.stderr.hasPrefix("Error: --stars must be 1 to 5, not 6\n"), "\(tooMany.stderr)")
    let badSearch = try runner.run(["search", "stars:>9"])
    #expect(badSearch.status == 2)
    #expect(badSearch.stderr.contains("'9' is not a number of stars"), "\(badSearch.stderr)")
    let both = try runner.run(["star", "Scratch", "--query", "name:x"])
    #expect(both.status == 2)
    let none = try runner.run(["unstar"])
    #expect(none.status == 2)
    #expect(try sqlite3(folder + "/archive.sqlite", "SELECT count(*) FROM draft WHERE stars IS NOT NULL") == "0")
  }
}
