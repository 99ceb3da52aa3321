import Foundation
import InklingStore
import InklingTestSupport
import Testing

/// Stars, tags, notes and labels through a draft's life, through the built binary: kept by a
/// rename (one that joins two drafts too), the trash and undelete, and `backup`; gone with a
/// purge, with the tags no draft has any more.
@Suite struct OrganisingLifecycleTests {
  let archives: OrganisedArchives
  var draft: String { archives.draft }
  var other: String { archives.other }
  let archive = "ours.sqlite"

  init() throws {
    archives = try OrganisedArchives("organising-life")
  }

  @discardableResult
  func run(_ arguments: [String]) throws -> ChildProcess.Result {
    try archives.run(archive, arguments)
  }

  /// Tags, stars, a note on the draft and one on its second version, a label on its third.
  func organise(_ name: String, tag: String, stars: Int, label: String) throws {
    try run(["tag", name, tag])
    try run(["star", name, "--stars", "\(stars)"])
    let versions = try archives.versions(of: name, in: archive)
    try archives.note("about \(name)", on: name, in: archive)
    try archives.note("version 2 of \(name)", on: name, version: versions[1], in: archive)
    try archives.label(label, version: versions[2], in: archive)
  }

  func count(_ table: String) throws -> Int {
    try OrganisedArchives.sql(archives.folder.path(archive)) { db in
      try db.fetchOne("SELECT count(*) FROM \(table)") { $0.int(0) } ?? -1
    }
  }

  @Test func aRenameKeepsThemAll() throws {
    try organise(draft, tag: "portfolio", stars: 4, label: "final")
    try run(["rename", draft, "Renamed"])
    #expect(try run(["--json", "tags"]).stdout == #"{"tags":[{"name":"portfolio","drafts":1}]}"# + "\n")
    #expect(try run(["--json", "show", "Renamed"]).stdout.contains(#""stars":4"#))
    #expect(try archives.notes(in: archive) == ["Renamed 0 about \(draft)", "Renamed 2 version 2 of \(draft)"])
    #expect(try archives.labels(in: archive) == ["Renamed 3 final"])
  }

  @Test func aRenameThatJoinsTwoDraftsKeepsBothSidesAndTheTargetsLabel() throws {
    try organise(draft, tag: "portfolio", stars: 2, label: "final")
    try organise(other, tag: "client:anna", stars: 5, label: "Final")
    let otherVersions = try archives.versions(of: other, in: archive)
    try archives.label("sent", version: otherVersions[0], in: archive)
    // The second draft's label on another name, and one the target has under the same fold.
    let draftVersions = try archives.versions(of: draft, in: archive)
    try archives.label("proof", version: draftVersions[0], in: archive)
    let joined = try run(["rename", other, draft, "--merge"])
    #expect(joined.status == 0, "\(joined.stderr)")
    #expect(
      try run(["--json", "tags"]).stdout
        == #"{"tags":[{"name":"client:anna","drafts":1},{"name":"portfolio","drafts":1}]}"# + "\n")
    #expect(try run(["--json", "show", draft]).stdout.contains(#""stars":5"#))
    let notes = try archives.notes(in: archive)
    #expect(notes.count == 4, "\(notes)")
    #expect(notes.contains { $0.hasSuffix(" about \(other)") } && notes.contains { $0.hasSuffix(" about \(draft)") })
    let labels = try archives.labels(in: archive)
    #expect(labels.contains { $0.hasSuffix(" final") } && !labels.contains { $0.hasSuffix(" Final") }, "\(labels)")
    #expect(labels.contains { $0.hasSuffix(" sent") } && labels.contains { $0.hasSuffix(" proof") }, "\(labels)")
    #expect(try run(["check"]).status == 0)
  }

  @Test func theTrashAndUndeleteKeepThemAndAPurgeTakesThem() throws {
    try organise(draft, tag: "portfolio", stars: 3, label: "final")
    try run(["tag", other, "shared"])
    try run(["tag", draft, "shared"])
    try run(["delete", draft])
    #expect(try count("draft_tag") == 3 && count("note") == 2 && count("version_label") == 1)
    try run(["undelete", draft])
    #expect(try run(["--json", "show", draft]).stdout.contains(#""stars":3"#))
    #expect(
      try run(["--json", "tags"]).stdout
        == #"{"tags":[{"name":"portfolio","drafts":1},{"name":"shared","drafts":2}]}"# + "\n")
    #expect(try archives.notes(in: archive).count == 2)
    #expect(try archives.labels(in: archive) == ["\(draft) 3 final"])

    try run(["delete", draft])
    try run(["purge", draft])
    // The tag only it had is gone; the one another draft has stays.
    #expect(try run(["--json", "tags"]).stdout == #"{"tags":[{"name":"shared","drafts":1}]}"# + "\n")
    #expect(try count("tag") == 1 && count("note") == 0 && count("version_label") == 0)
    #expect(try run(["check"]).status == 0)
  }

  @Test func aBackupHoldsThemAll() throws {
    try organise(draft, tag: "portfolio", stars: 3, label: "final")
    try run(["backup", archives.folder.path("backup.sqlite")])
    let tags = try archives.run("backup.sqlite", ["--json", "tags"])
    #expect(tags.stdout == #"{"tags":[{"name":"portfolio","drafts":1}]}"# + "\n")
    #expect(try archives.run("backup.sqlite", ["--json", "show", draft]).stdout.contains(#""stars":3"#))
    #expect(try archives.notes(in: "backup.sqlite") == archives.notes(in: archive))
    #expect(try archives.labels(in: "backup.sqlite") == ["\(draft) 3 final"])
  }
}
