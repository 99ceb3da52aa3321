import Foundation
import InklingStore
import InklingTestSupport
import Testing

/// An export folder keeps what people said about its drafts in its manifest, and importing
/// the folder into an empty archive gives it back, through the built binary; a manifest
/// altered as an attacker would alter it gives back only what passes the checks.
@Suite struct ExportedMarksTests {
  let archives: OrganisedArchives
  var draft: String { archives.draft }
  var other: String { archives.other }

  init() throws {
    archives = try OrganisedArchives("exported-marks")
  }

  @discardableResult
  func run(_ archive: String, _ arguments: [String]) throws -> ChildProcess.Result {
    try archives.run(archive, arguments)
  }

  /// Tags, stars, notes and labels on the first draft of `ours.sqlite`, a tag on the other.
  func organise() throws {
    try run("ours.sqlite", ["tag", draft, "Portfolio", "client:anna"])
    try run("ours.sqlite", ["tag", other, "sketch"])
    try run("ours.sqlite", ["star", draft, "--stars", "4"])
    let versions = try archives.versions(of: draft, in: "ours.sqlite")
    try archives.note("for the \"spring\" issue\nsecond line", on: draft, in: "ours.sqlite")
    try archives.note("sent on Monday", on: draft, version: versions[2], written: 1_760_000_000_123, in: "ours.sqlite")
    try archives.label("final", version: versions[2], in: "ours.sqlite")
    try archives.label("first try", version: versions[0], in: "ours.sqlite")
  }

  @Test func anExportImportedIntoAnEmptyArchiveHasTheSameTagsStarsNotesAndLabels() throws {
    try organise()
    let out = archives.folder.path("out")
    try run("ours.sqlite", ["export", "--all-versions", "--to", out])
    let manifest = try String(contentsOfFile: out + "/inkling-export.json", encoding: .utf8)
    #expect(manifest.contains(#""drafts":["#), "\(manifest)")

    let imported = try run("new.sqlite", ["--json", "import", out])
    #expect(
      imported.stdout.contains(
        #""organising":{"tagsAdded":3,"starsSet":1,"notesAdded":2,"labelsAdded":2,"rowsRefused":0,"#),
      "\(imported.stdout)")
    // `show --json` differs by the sources (another folder), so stars are compared by search.
    let commands = [
      ["--json", "tags"], ["search", "--paths", "stars:>=4"], ["search", "--paths", "tag:sketch"],
      ["search", "--paths", "stars:<4"],
    ]
    for command in commands {
      let result = try archives.result("new.sqlite", command)
      #expect(result.stdout == (try archives.result("ours.sqlite", command).stdout), "\(command)")
    }
    #expect(try run("new.sqlite", ["--json", "show", draft]).stdout.contains(#""stars":4"#))
    #expect(try archives.notes(in: "new.sqlite") == archives.notes(in: "ours.sqlite"))
    #expect(try archives.labels(in: "new.sqlite") == archives.labels(in: "ours.sqlite"))
    #expect(try archives.labels(in: "new.sqlite") == ["\(draft) 1 first try", "\(draft) 3 final"])

    // Importing the folder again adds nothing, and exporting again writes the same manifest.
    let again = try run("new.sqlite", ["--json", "import", out])
    #expect(again.stdout.contains(#""organising":{"tagsAdded":0,"starsSet":0,"notesAdded":0,"labelsAdded":0,"#))
    #expect(try archives.notes(in: "new.sqlite").count == 2)
    let second = try run("ours.sqlite", ["--json", "export", "--all-versions", "--to", out])
    #expect(second.stdout.contains(#""manifestWritten":false"#), "\(second.stdout)")
  }

  @Test func aHostileManifestGivesBackOnlyWhatPassesTheChecks() throws {
    try organise()
    let out = archives.folder.path("out")
    try run("ours.sqlite", ["export", "--all-versions", "--to", out])
    let path = out + "/inkling-export.json"
    var manifest = try String(contentsOfFile: path, encoding: .utf8)
    // Seven stars, a tag with a control character, a note from past the year 9999, a label
    // that is a number, a version that is not one, and an entry that is not a draft.
    manifest = manifest.replacingOccurrences(of: #""stars":4"#, with: #""stars":7"#)
      .replacingOccurrences(of: #""tags":["client:anna","#, with: #""tags":["bell\u0007","client:anna","#)
      .replacingOccurrences(of: #""labels":["final"]"#, with: #""labels":["final","42"]"#)
      .replacingOccurrences(
        of: #""drafts":["#,
        with:
          #""drafts":[7,{"draft":"\#(draft)","stars":null,"tags":[],"notes":[{"text":"late","written":"99999-01-01T00:00:00Z"}],"#
          + #""versions":[{"version":9,"saved":"2020-01-01T00:00:00Z","sha256":"zz","labels":["x"],"notes":[]}]},"#)
    try manifest.write(toFile: path, atomically: true, encoding: .utf8)
    let imported = try run("new.sqlite", ["--json", "import", out])
    // Refused: the entry 7, the note, the label on a version that is not one, the stars, the
    // tag, the label 42.
    #expect(
      imported.stdout.contains(
        #""organising":{"tagsAdded":3,"starsSet":0,"notesAdded":2,"labelsAdded":2,"rowsRefused":6,"#),
      "\(imported.stdout)")
    let tags = try run("new.sqlite", ["--json", "tags"])
    #expect(!tags.stdout.contains("bell"))
    #expect(try archives.result("new.sqlite", ["search", "--paths", "stars:>=1"]).stdout.isEmpty)
    #expect(try archives.labels(in: "new.sqlite") == ["\(draft) 1 first try", "\(draft) 3 final"])
    #expect(try run("new.sqlite", ["check"]).status == 0)
  }
}
