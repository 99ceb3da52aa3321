import Foundation
import InklingTestSupport
import Testing

/// Saved searches through the built binary: `search --save`, `@NAME` wherever a query goes,
/// `search --saved`, `search --forget`, the error for an unknown name, and their completion.
@Suite struct SavedSearchCommandTests: TinyDraftsSuite {
  let runner: BinaryRunner

  init() throws {
    runner = try BinaryRunner(fresh: "saved", making: ["Drafts"])
  }

  func importSample() throws {
    try write("Plan-B-2025-10-01T10:00:00Z.inkling", red: 1)
    try write("Plan-B-2025-10-02T10:00:00Z.inkling", red: 0.5)
    try write("Scratch-2025-09-01T10:00:00Z.inkling", red: 0.75)
    try write("Cat study-2025-08-01T10:00:00Z.inkling", red: 0.25)
    let imported = try runner.run(["import", folder + "/Drafts"])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(try run(["tag", "Plan-B", "portfolio"]).status == 0)
    #expect(try run(["tag", "Cat study", "portfolio"]).status == 0)
  }

  @Test func saveRunReplaceListAndForget() throws {
    try importSample()
    let saved = try run(["search", "--paths", "--save", "Best", "tag:portfolio"])
    #expect(saved.status == 0, "\(saved.stderr)")
    #expect(saved.stdout == "Plan-B\nCat study\n")
    #expect(saved.stderr == "Saved the search @Best: \"tag:portfolio\".\n")
    // Named in any case and accents, as tags are.
    #expect(try run(["search", "--paths", "@BEST"]).stdout == "Plan-B\nCat study\n")
    #expect(try run(["search", "--paths", "  @best "]).stdout == "Plan-B\nCat study\n")

    let replaced = try run(["search", "--paths", "--save", "best", "tag:portfolio name:cat"])
    #expect(replaced.stdout == "Cat study\n")
    #expect(
      replaced.stderr
        == "Replaced the saved search @best: \"tag:portfolio name:cat\" (it was \"tag:portfolio\", saved as @Best).\n",
      "\(replaced.stderr)")
    #expect(try run(["search", "--paths", "@Best"]).stdout == "Cat study\n")
    #expect(try run(["search", "--quiet", "--save", "@all", ""]).status == 0)

    let table = try run(["search", "--saved"])
    #expect(table.status == 0)
    let lines = table.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 4, "\(table.stdout)")
    #expect(lines.first?.hasPrefix("NAME   QUERY                   SAVED") == true, "\(table.stdout)")
    #expect(lines.dropFirst().first?.hasPrefix("@all   \"\"   ") == true, "\(table.stdout)")
    #expect(lines.dropFirst(2).first?.hasPrefix("@best  tag:portfolio name:cat  ") == true, "\(table.stdout)")
    let json = try run(["--json", "search", "--saved"])
    #expect(json.stdout.hasPrefix(#"{"searches":[{"name":"all","query":"","saved":""#), "\(json.stdout)")
    #expect(json.stdout.contains(#"{"name":"best","query":"tag:portfolio name:cat","saved":""#), "\(json.stdout)")

    let forgot = try run(["search", "--forget", "BEST"])
    #expect(forgot.status == 0, "\(forgot.stderr)")
    #expect(forgot.stdout == "Forgot the saved search @best (\"tag:portfolio name:cat\").\n")
    let gone = try run(["search", "@best"])
    #expect(gone.status == 1)
    #expect(
      gone.stderr.hasPrefix(
        "Error: no saved search named \"best\"; the saved search is @all. (`name:@TEXT` searches names for @TEXT.)\n"),
      "\(gone.stderr)")
    let again = try run(["search", "--forget", "best"])
    #expect(again.status == 1)
    #expect(again.stderr.hasPrefix("Error: no saved search named \"best\";"), "\(again.stderr)")
  }

  /// `@NAME` is read by the library wherever a query goes: list, export, contact-sheet, tag
  /// and star all choose the drafts the saved search finds.
  @Test func everyQueryTakesASavedSearch() throws {
    try importSample()
    #expect(try run(["search", "--quiet", "--save", "folio", "tag:portfolio"]).status == 0)
    #expect(try run(["list", "--paths", "@folio"]).stdout == "Plan-B\nCat study\n")
    // With list's own filters, both hold.
    #expect(try run(["list", "--paths", "@folio", "--name", "cat"]).stdout == "Cat study\n")
    let export = try run(["--json", "export", "--query", "@folio", "--to", folder + "/out"])
    #expect(export.status == 0, "\(export.stderr)")
    #expect(export.stdout.contains(#""drafts":2"#), "\(export.stdout)")
    let sheet = try run(["--json", "contact-sheet", "--query", "@FOLIO", "-o", folder + "/sheet.png"])
    #expect(sheet.status == 0, "\(sheet.stderr)")
    #expect(sheet.stdout.contains(#""drafts":2"#), "\(sheet.stdout)")
    #expect(try run(["tag", "--query", "@folio", "shown"]).stdout == "Tagged 2 drafts \"shown\" (2 added).\n")
    #expect(try run(["star", "--query", "@folio", "--stars", "4"]).status == 0)
    #expect(try run(["search", "--paths", "tag:shown stars:4"]).stdout == "Plan-B\nCat study\n")
    for arguments in [
      ["list", "@nope"], ["export", "--query", "@nope", "--to", folder + "/none"],
      ["contact-sheet", "--query", "@nope", "-o", folder + "/none.png"], ["tag", "--query", "@nope", "x"],
      ["star", "--query", "@nope"],
    ] {
      let refused = try run(arguments)
      #expect(refused.status == 1, "\(arguments)")
      #expect(
        refused.stderr.hasPrefix("Error: no saved search named \"nope\"; the saved search is @folio."),
        "\(arguments): \(refused.stderr)")
    }
  }

  /// The text is kept as given and read again each time: the search finds what matches now.
  @Test func aSavedSearchIsReadAgainEachTime() throws {
    try importSample()
    let none = try run(["search", "--save", "later", "tag:later"])
    #expect(none.status == 1 && none.stdout.isEmpty)
    #expect(try run(["tag", "Scratch", "later"]).status == 0)
    #expect(try run(["search", "--paths", "@later"]).stdout == "Scratch\n")
    #expect(
      try sqlite3(folder + "/archive.sqlite", "SELECT name, query FROM saved_search") == "later|tag:later")
    // Saving @OTHER keeps a copy of that search's text.
    #expect(try run(["search", "--quiet", "--save", "copy", "@later"]).status == 0)
    #expect(try run(["search", "--quiet", "--forget", "later"]).status == 0)
    #expect(try run(["search", "--paths", "@copy"]).stdout == "Scratch\n")
  }

  @Test func refusals() throws {
    try importSample()
    let none = try run(["search", "@weekly"])
    #expect(none.status == 1)
    #expect(
      none.stderr.hasPrefix(
        "Error: no saved search named \"weekly\"; there are none yet (`inkling-archive search --save NAME QUERY` "
          + "saves one)."), "\(none.stderr)")
    let json = try run(["--json", "search", "@weekly"])
    #expect(json.status == 1 && json.stdout.contains(#""status":1"#), "\(json.stdout)")
    let badQuery = try run(["search", "--save", "x", "tag:>x"])
    #expect(badQuery.status == 2)
    let emptyName = try run(["search", "--save", " @ ", "tag:x"])
    #expect(emptyName.status == 2)
    #expect(emptyName.stderr.hasPrefix("Error: a saved search's name needs a letter;"), "\(emptyName.stderr)")
    let control = try run(["search", "--save", "a\tb", "tag:x"])
    #expect(control.status == 2)
    #expect(try run(["--json", "search", "--saved"]).stdout == #"{"searches":[]}"# + "\n")
    #expect(try run(["search", "--saved"]).stdout.isEmpty)
    #expect(try run(["search", "--saved", "tag:x"]).status == 2)
    #expect(try run(["search", "--saved", "--forget", "x"]).status == 2)
    #expect(try run(["search", "--saved", "--paths"]).status == 2)
    let noQuery = try run(["search"])
    #expect(noQuery.status == 2)
    #expect(
      noQuery.stderr.hasPrefix("Error: give a QUERY (or --saved to list the saved searches)"), "\(noQuery.stderr)")
    // A search that could not run is not kept; a --query's ink is checked with export's filters too.
    let inky = try run(["search", "--save", "inky", "ink:nosuch"])
    #expect(inky.status == 2 && inky.stderr.contains("unknown ink 'nosuch'"), "\(inky.stderr)")
    #expect(try run(["search", "--saved"]).stdout.isEmpty)
    let export = try run(["export", "--since", "2025", "--query", "ink:nosuch", "--to", folder + "/inky"])
    #expect(export.status == 2 && export.stderr.contains("unknown ink 'nosuch'"), "\(export.stderr)")
    let listQuery = try run(["list", "tag:x"])
    #expect(listQuery.status == 2)
    #expect(listQuery.stderr.hasPrefix("Error: list takes a saved search as @NAME"), "\(listQuery.stderr)")
  }

  @Test func completionOffersSavedSearchesAfterAnAt() throws {
    try importSample()
    #expect(try run(["search", "--quiet", "--save", "Weekly", "saved:<7d"]).status <= 1)
    #expect(try run(["search", "--quiet", "--save", "wip", "tag:wip"]).status <= 1)
    #expect(try run(["complete-names", "--saved", "--", "@we"]).stdout == "@Weekly\0")
    #expect(try run(["complete-names", "--saved", "--", "@W"]).stdout == "@Weekly\0@wip\0")
    #expect(try run(["complete-names", "--saved", "--", "we"]).stdout.isEmpty)
    let script = try run(["completions", "bash"])
    #expect(script.stdout.contains("complete-names --saved"), "the bash script never asks for saved searches")
    // bash splits `@we` into "@" and "we" (COMP_WORDBREAKS) but readline replaces the whole
    // word: the script completes it whole, as a query and as an option's value.
    try Data(script.stdout.utf8).write(to: URL(fileURLWithPath: folder + "/c.bash"))
    func complete(_ words: [String]) throws -> [String] {
      let quoted = words.map { "'\($0)'" }.joined(separator: " ")
      let path = BinaryRunner.binFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
      let result = try ChildProcess.run(
        [
          "/usr/bin/env", "bash", "-c",
          "source c.bash; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _inkling_archive; "
            + "printf '%s\\n' \"${COMPREPLY[@]}\"",
        ], environment: ["PATH": path, "INKLING_ARCHIVE": folder + "/archive.sqlite"], workingDirectory: folder)
      return result.stdout.split(separator: "\n").map(String.init)
    }
    #expect(try complete(["inkling-archive", "search", "@", "We"]) == ["@Weekly"])
    #expect(try complete(["inkling-archive", "search", "@"]).sorted() == ["@Weekly", "@wip"])
    #expect(try complete(["inkling-archive", "export", "--query", "@", "wi"]) == ["@wip"])
    #expect(try complete(["inkling-archive", "list", "@", "W"]) == ["@Weekly"])
    #expect(try complete(["inkling-archive", "tag", "--query", "@", "We"]) == ["@Weekly"])
  }
}
