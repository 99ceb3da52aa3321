import Foundation
import InklingCorpus
import InklingStore
import InklingTestSupport
import Testing

/// A merge of another archive carries what people said about its drafts (stars, tags, notes,
/// version labels), through the built binary: both archives are made by `import`, `tag` and
/// `star`; notes and labels are written as rows through the store (the rows another archive
/// would hold), and hostile rows as an attacker would write them, past the CHECKs.
@Suite struct MergeOrganisingTests {
  let archives: OrganisedArchives
  var draft: String { archives.draft }
  var other: String { archives.other }
  var folder: TemporaryFolder { archives.folder }

  init() throws {
    archives = try OrganisedArchives("merge-organising")
  }

  @discardableResult
  func run(_ archive: String, _ arguments: [String]) throws -> ChildProcess.Result {
    try archives.run(archive, arguments)
  }

  @Test func tagsAndLabelsAreUnitedNotesOfBothKeptAndConflictsKeepOurs() throws {
    // Ours: one tag, three stars, a label and a note.
    try run("ours.sqlite", ["tag", draft, "portfolio"])
    try run("ours.sqlite", ["star", draft, "--stars", "3"])
    let ourVersions = try archives.versions(of: draft, in: "ours.sqlite")
    try archives.label("final", version: ourVersions[1], in: "ours.sqlite")
    try archives.note("ours", on: draft, in: "ours.sqlite")
    // Theirs: the same tag in other letters and a new one, other stars on both drafts, the
    // same label on another version and a new label, a note on the draft and one on a version.
    try run("anna.sqlite", ["tag", draft, "PORTFOLIO", "client:anna"])
    try run("anna.sqlite", ["tag", other, "sketch"])
    try run("anna.sqlite", ["star", draft, "--stars", "5"])
    try run("anna.sqlite", ["star", other, "--stars", "4"])
    let theirVersions = try archives.versions(of: draft, in: "anna.sqlite")
    try archives.label("Final", version: theirVersions[2], in: "anna.sqlite")
    try archives.label("sent to printer", version: theirVersions[0], in: "anna.sqlite")
    try archives.note("theirs\nsecond line", on: draft, in: "anna.sqlite")
    try archives.note("on version 2", on: draft, version: theirVersions[1], in: "anna.sqlite")

    let merged = try run("ours.sqlite", ["--json", "import", "anna.sqlite"])
    #expect(
      merged.stdout.contains(
        #""organising":{"tagsAdded":2,"starsSet":1,"notesAdded":2,"labelsAdded":1,"rowsRefused":0,"#
          + #""rowsWithoutMergedVersion":0,"conflictCount":2,"conflicts":[{"kind":"stars","draft":"\#(draft)","#
          + #""ours":3,"theirs":5},{"kind":"label","draft":"\#(draft)","label":"Final","oursVersion":2,"#
          + #""theirsVersion":3}]}"#), "\(merged.stdout)")

    let tags = try run("ours.sqlite", ["--json", "tags"])
    #expect(
      tags.stdout
        == #"{"tags":[{"name":"client:anna","drafts":1},{"name":"portfolio","drafts":1},"#
        + #"{"name":"sketch","drafts":1}]}"# + "\n", "\(tags.stdout)")
    #expect(try run("ours.sqlite", ["--json", "show", draft]).stdout.contains(#""stars":3"#))
    #expect(try run("ours.sqlite", ["--json", "show", other]).stdout.contains(#""stars":4"#))
    #expect(try archives.labels(in: "ours.sqlite") == ["\(draft) 1 sent to printer", "\(draft) 2 final"])
    let notes = ["\(draft) 0 ours", "\(draft) 0 theirs\nsecond line", "\(draft) 2 on version 2"]
    #expect(try archives.notes(in: "ours.sqlite") == notes)

    // Said in words too, without --json.
    let again = try run("ours.sqlite", ["import", "anna.sqlite"])
    #expect(
      again.stdout.contains("  Added 0 tags, 0 star ratings, 0 notes, 0 labels; 2 conflicts (this archive's kept).\n"))
    #expect(again.stdout.contains("  Conflict: \"\(draft)\" has 3 stars here, 5 there; kept 3.\n"), "\(again.stdout)")
    #expect(
      again.stdout.contains(
        "  Conflict: \"\(draft)\" label \"Final\" names version 2 here, version 3 there; kept version 2.\n"))
    // Merging the same archive again adds no note twice.
    #expect(try archives.notes(in: "ours.sqlite") == notes)
    #expect(try run("ours.sqlite", ["check"]).status == 0)
  }

  @Test func hostileRowsAreRefusedAndCountedNeverTrusted() throws {
    try run("anna.sqlite", ["tag", draft, "ok"])
    let theirVersions = try archives.versions(of: draft, in: "anna.sqlite")
    let otherVersions = try archives.versions(of: other, in: "anna.sqlite")
    try OrganisedArchives.sql(folder.path("anna.sqlite")) { db in
      try db.execute("PRAGMA ignore_check_constraints = ON")
      try db.execute("PRAGMA foreign_keys = OFF")
      let id = try db.fetchOne("SELECT id FROM draft WHERE name = ?", [draft]) { $0.int64(0) }!
      // Tags: a control character, text not in NFC, spaces around it, a tag row that is missing.
      for name in ["bell\u{7}", "e\u{301}te", " padded "] {
        try db.execute("INSERT INTO tag(name) VALUES (?)", [name])
        try db.execute("INSERT INTO draft_tag(draft_id, tag_id) VALUES (?, ?)", [id, db.lastInsertRowID])
      }
      try db.execute("INSERT INTO draft_tag(draft_id, tag_id) VALUES (?, 999999)", [id])
      // Stars out of range, and stars that are text.
      try db.execute("UPDATE draft SET stars = 9 WHERE id = ?", [id])
      try db.execute("UPDATE draft SET stars = 'five' WHERE name = ?", [other])
      // Notes: empty, a time past the year 9999, on another draft's version, on no version at all.
      let insertNote = "INSERT INTO note(draft_id, version_id, text, written_ms) VALUES (?, ?, ?, ?)"
      try db.execute(insertNote, [id, nil as Int64?, "", 1])
      try db.execute(insertNote, [id, nil as Int64?, "late", Int64.max])
      try db.execute(insertNote, [id, otherVersions[0], "elsewhere", 1])
      try db.execute(insertNote, [id, Int64(999_999), "nowhere", 1])
      try db.execute(insertNote, [id, theirVersions[0], "kept", 1])
      // Labels: a whole number, on another draft's version.
      let insertLabel = "INSERT INTO version_label(version_id, draft_id, name) VALUES (?, ?, ?)"
      try db.execute(insertLabel, [theirVersions[0], id, "42"])
      try db.execute(insertLabel, [otherVersions[0], id, "elsewhere"])
    }
    let merged = try run("ours.sqlite", ["--json", "import", "anna.sqlite"])
    #expect(
      merged.stdout.contains(
        #""organising":{"tagsAdded":1,"starsSet":0,"notesAdded":1,"labelsAdded":0,"rowsRefused":12,"#),
      "\(merged.stdout)")
    let tags = try run("ours.sqlite", ["--json", "tags"])
    #expect(tags.stdout == #"{"tags":[{"name":"ok","drafts":1}]}"# + "\n", "\(tags.stdout)")
    #expect(try archives.notes(in: "ours.sqlite") == ["\(draft) 1 kept"])
    #expect(try archives.labels(in: "ours.sqlite").isEmpty)
    let said = try run("ours.sqlite", ["import", "anna.sqlite"])
    #expect(
      said.stdout.contains("  Left out: 12 rows no command could have written, 0 rows about versions not merged.\n"))
    #expect(try run("ours.sqlite", ["check"]).status == 0)
  }
}
