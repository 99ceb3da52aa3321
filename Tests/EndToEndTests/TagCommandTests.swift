import Foundation
import InklingTestSupport
import Testing

/// `tag`, `untag`, `tags` and `search 'tag:…'` through the built binary: what each prints,
/// its JSON, its exit status, and where lists, `show` and `history` show tags.
@Suite struct TagCommandTests: TinyDraftsSuite {
  let runner: BinaryRunner

  init() throws {
    runner = try BinaryRunner(fresh: "tags", making: ["Drafts"])
  }

  func importSample() throws {
    try write("Plan-B-2025-10-01T10:00:00Z.inkling", red: 1)
    try write("Plan-B-2025-10-02T10:00:00Z.inkling", red: 0.5)
    try write("Scratch-2025-09-01T10:00:00Z.inkling", red: 0.75)
    try write("Cat study-2025-08-01T10:00:00Z.inkling", red: 0.25)
    let imported = try runner.run(["import", folder + "/Drafts"])
    #expect(imported.status == 0, "\(imported.stderr)")
  }

  @Test func tagOneDraftThenSearchListShowAndHistory() throws {
    try importSample()
    let tagged = try run(["tag", "Plan-B", "Portfolio", "client:anna"])
    #expect(tagged.status == 0, "\(tagged.stderr)")
    #expect(tagged.stdout == "Tagged 1 draft \"Portfolio\", \"client:anna\" (2 added).\n")
    // Tags compare as names are searched: another case is the same tag, spelled as first written.
    let again = try run(["tag", "Plan-B", "PORTFOLIO"])
    #expect(again.stdout == "Tagged 1 draft \"Portfolio\" (0 added).\n")

    #expect(try run(["search", "--paths", "tag:portfolio"]).stdout == "Plan-B\n")
    #expect(try run(["search", "--paths", "tag:PORTFÓLIO"]).stdout == "Plan-B\n")
    #expect(try run(["search", "--paths", "tag:client:"]).stdout == "Plan-B\n")
    #expect(try run(["search", "--paths", "tag:cli*"]).stdout == "Plan-B\n")
    let none = try run(["search", "--paths", "tag:client"])
    #expect(none.status == 1 && none.stdout.isEmpty)
    #expect(try run(["search", "--paths", "not tag:portfolio"]).stdout == "Scratch\nCat study\n")
    #expect(try run(["search", "--paths", "tag:portfolio or name:cat"]).stdout == "Plan-B\nCat study\n")

    let list = try run(["list"])
    #expect(list.stdout.contains("STARS  TAGS"), "\(list.stdout)")
    #expect(list.stdout.contains("client:anna, Portfolio"), "\(list.stdout)")
    let json = try run(["list", "--json", "--limit", "1"])
    #expect(json.stdout.contains(#""tags":["client:anna","Portfolio"]"#), "\(json.stdout)")
    let scratch = try run(["list", "--json", "--exact", "Scratch"])
    #expect(!scratch.stdout.contains("tags"), "\(scratch.stdout)")

    let show = try run(["show", "Plan-B"])
    #expect(show.stdout.contains("\nTags:        client:anna, Portfolio\n"), "\(show.stdout)")
    #expect(try run(["--json", "show", "Plan-B"]).stdout.contains(#""tags":["client:anna","Portfolio"]"#))
    let history = try run(["history", "Plan-B"])
    #expect(history.stdout.hasSuffix("Tags:        client:anna, Portfolio\n"), "\(history.stdout)")
    #expect(try run(["--json", "history", "Plan-B"]).stdout.contains(#""tags":["client:anna","Portfolio"]"#))

    let tags = try run(["tags"])
    #expect(tags.stdout == "TAG          DRAFTS\nclient:anna       1\nPortfolio         1\n", "\(tags.stdout)")
    #expect(try run(["--json", "tags", "CLIENT:"]).stdout == #"{"tags":[{"name":"client:anna","drafts":1}]}"# + "\n")
  }

  @Test func untagForgetsATagNoDraftHas() throws {
    try importSample()
    #expect(try run(["tag", "Plan-B", "wip"]).status == 0)
    #expect(try run(["tag", "Scratch", "wip"]).status == 0)
    #expect(try run(["tags"]).stdout.contains("wip       2"))
    let untagged = try run(["untag", "Plan-B", "WIP", "never-given"])
    #expect(untagged.stdout == "Untagged 1 draft \"wip\", \"never-given\" (1 removed).\n", "\(untagged.stdout)")
    #expect(try run(["untag", "Scratch", "wip"]).status == 0)
    #expect(try run(["tags"]).stdout.isEmpty)
    // Written again after it was forgotten, the new spelling is the tag's.
    #expect(try run(["tag", "Scratch", "WIP"]).stdout == "Tagged 1 draft \"WIP\" (1 added).\n")
  }

  @Test func tagManyDraftsThroughAQueryInOneTransaction() throws {
    try importSample()
    let tagged = try run(["--json", "tag", "--query", "saved:>=2025-09", "autumn", "recent"])
    #expect(tagged.status == 0, "\(tagged.stderr)")
    #expect(tagged.stdout == #"{"drafts":2,"tags":["autumn","recent"],"changed":4}"# + "\n")
    #expect(try run(["search", "--paths", "tag:autumn"]).stdout == "Plan-B\nScratch\n")
    let untagged = try run(["untag", "--query", "tag:autumn name:scratch", "autumn"])
    #expect(untagged.stdout == "Untagged 1 draft \"autumn\" (1 removed).\n")
    #expect(try run(["tags"]).stdout == "TAG     DRAFTS\nautumn       1\nrecent       2\n")
  }

  @Test func refusedTagsAndDrafts() throws {
    try importSample()
    let empty = try run(["tag", "Plan-B", "  "])
    #expect(empty.status == 2)
    #expect(empty.stderr.hasPrefix("Error: a tag needs a letter; \"  \" is empty\n"), "\(empty.stderr)")
    let control = try run(["tag", "Plan-B", "a\nb"])
    #expect(control.status == 2)
    #expect(control.stderr.hasPrefix("Error: a tag is one line of text;"), "\(control.stderr)")
    let long = try run(["tag", "Plan-B", String(repeating: "x", count: 257)])
    #expect(long.status == 2)
    #expect(long.stderr.contains("a tag is at most 256 characters;"), "\(long.stderr)")
    let missing = try run(["tag", "Plan-C", "x"])
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("Error: no draft named \"Plan-C\""), "\(missing.stderr)")
    let noTag = try run(["tag", "Plan-B"])
    #expect(noTag.status == 2)
    #expect(noTag.stderr.hasPrefix("Error: give at least one TAG after the draft's name"), "\(noTag.stderr)")
    let badQuery = try run(["tag", "--query", "tag:>x", "y"])
    #expect(badQuery.status == 2)
    #expect(try run(["tags"]).stdout.isEmpty)
  }

  /// A backup is the archive whole: its copy lists the same tags and stars.
  @Test func aBackupKeepsTagsAndStars() throws {
    try importSample()
    #expect(try run(["tag", "Plan-B", "portfolio"]).status == 0)
    #expect(try run(["star", "Plan-B", "--stars", "4"]).status == 0)
    let backup = try run(["backup", folder + "/copy.sqlite"])
    #expect(backup.status == 0, "\(backup.stderr)")
    #expect(try run(["untag", "Plan-B", "portfolio"]).status == 0)
    let copy = try runner.run(["--archive", folder + "/copy.sqlite", "search", "--json", "tag:portfolio stars:4"])
    #expect(copy.stdout.contains(#""stars":4,"tags":["portfolio"]"#), "\(copy.stdout)")
  }

  @Test func tagsGoWithTheDraftThroughRenameAndTrash() throws {
    try importSample()
    #expect(try run(["tag", "Plan-B", "keep"]).status == 0)
    #expect(try run(["tag", "Scratch", "scrap"]).status == 0)
    #expect(try run(["rename", "Plan-B", "Plan C"]).status == 0)
    #expect(try run(["search", "--paths", "tag:keep"]).stdout == "Plan C\n")
    #expect(try run(["rename", "Scratch", "Plan C", "--merge"]).status == 0)
    #expect(try run(["show", "Plan C"]).stdout.contains("Tags:        keep, scrap\n"))
    #expect(try run(["delete", "Plan C"]).status == 0)
    // A trashed draft leaves searches and counts, and keeps its tags.
    #expect(try run(["search", "tag:keep"]).status == 1)
    #expect(try run(["list", "--trash", "--json"]).stdout.contains(#""tags":["keep","scrap"]"#))
    #expect(try run(["list", "--trash"]).stdout.contains("keep, scrap"))
    #expect(try run(["tags"]).stdout.isEmpty)
    let refused = try run(["tag", "Plan C", "x"])
    #expect(refused.status == 1)
    #expect(refused.stderr.hasPrefix("Error: \"Plan C\" is in the trash"), "\(refused.stderr)")
    #expect(try run(["undelete", "Plan C"]).status == 0)
    #expect(try run(["search", "--paths", "tag:keep tag:scrap"]).stdout == "Plan C\n")
    #expect(try run(["delete", "Plan C"]).status == 0)
    #expect(try run(["purge"]).status == 0)
    #expect(
      try sqlite3(folder + "/archive.sqlite", "SELECT count(*) FROM tag; SELECT count(*) FROM draft_tag;") == "0\n0")
  }
}
