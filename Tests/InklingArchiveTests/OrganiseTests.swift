import Foundation
import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

/// Tags, notes and labels (migration 0019) through the library: searched through indexes, never a scan of
/// drafts; many drafts tagged in one transaction.
@Suite struct OrganiseTests {
  /// An archive of `count` drafts with one version's worth of columns each, written straight
  /// into `draft` (the search reads only those columns).
  static func archive(drafts count: Int, in folder: TemporaryFolder) throws -> Archive {
    let archive = try Archive(path: folder.path("archive.sqlite"))
    try archive.database.transaction {
      let insert = try archive.database.makeStatement(
        """
        INSERT INTO draft(name, created_ms, version_count, latest_saved_ms, first_saved_ms, first_imported_ms,
          latest_imported_ms) VALUES (?, 0, 1, ?, ?, 0, 0)
        """)
      for index in 0..<count {
        let saved = Int64(1_700_000_000_000) + Int64(index) * 60_000
        try insert.execute(["draft \(index)", saved, saved])
      }
    }
    return archive
  }

  /// `tag:X` and `tag:group:` find drafts through tag_by_folded and draft_tag's indexes:
  /// as the driver, and tested on each draft of another driver or walk.
  @Test func tagSearchesUseTheIndexes() throws {
    let folder = try TemporaryFolder("tags-plan")
    let archive = try Self.archive(drafts: 50, in: folder)
    try archive.tag(.matching(DraftQuery(search: "name:\"draft 1\"")), with: ["portfolio", "client:anna"])
    for search in [
      "tag:portfolio", "tag:client:", "tag:portfolio name:draft", "name:draft or tag:client:", "not tag:x",
    ] {
      for limit in [nil, 20] {
        let (sql, plan) = try archive.explain(DraftQuery(search: search), limit: limit)
        // A driver's own list (`c`, a subquery) is read whole; drafts, tags and their rows never.
        let scans = plan.filter { ["SCAN d", "SCAN draft", "SCAN dt", "SCAN draft_tag", "SCAN tag"].contains($0) }
        #expect(scans.isEmpty, "\(search): \(plan)\n\(sql)")
      }
    }
    let (_, plan) = try archive.explain(DraftQuery(search: "tag:portfolio"))
    #expect(plan.contains { $0.contains("draft_tag_by_tag") }, "\(plan)")
    #expect(plan.contains { $0.contains("tag_by_folded") }, "\(plan)")
    let (_, group) = try archive.explain(DraftQuery(search: "tag:client:"))
    #expect(
      group.contains { $0.contains("tag_by_folded") && $0.contains("name_folded>? AND name_folded<?") }, "\(group)")
    let tagged = try archive.search("tag:portfolio").map(\.name)
    #expect(tagged.count == 11)
    #expect(try tagged == archive.search("name:\"draft 1\"").map(\.name))
  }

  /// Ten thousand drafts tagged through a query, in one transaction: every one has the tag,
  /// and the tag is one row.
  @Test func manyDraftsAreTaggedInOneTransaction() throws {
    let folder = try TemporaryFolder("tags-many")
    let archive = try Self.archive(drafts: 10_000, in: folder)
    let start = ContinuousClock.now
    let change = try archive.tag(.matching(DraftQuery(search: "name:draft")), with: ["bulk"])
    let elapsed = ContinuousClock.now - start
    #expect(change == TagChange(drafts: 10_000, tags: ["bulk"], changed: 10_000))
    #expect(try archive.tags() == [TagUse(name: "bulk", drafts: 10_000)])
    #expect(try archive.draftCount(matching: DraftQuery(search: "tag:BULK"), upTo: 20_000) == 10_000)
    print("tagged 10,000 drafts through a query in \(elapsed)")
  }

  /// `note:TEXT` (no index of a note's words) reads the notes table only while it is small,
  /// and otherwise tests each draft through note_by_draft; `label:NAME` is a range of
  /// version_label_by_name, or one entry of version_label_by_draft per draft. Neither scans
  /// the drafts.
  @Test func noteAndLabelSearchesAreBounded() throws {
    let folder = try TemporaryFolder("notes-plan")
    let archive = try Self.archive(drafts: 50, in: folder)
    try archive.addNote(toDraft: "draft 7", text: "Sent to the PRINTER")
    for search in ["note:printer", "note:printer name:draft", "name:draft or note:printer", "not note:x"] {
      for limit in [nil, 20] {
        let (sql, plan) = try archive.explain(DraftQuery(search: search), limit: limit)
        let scans = plan.filter { ["SCAN d", "SCAN draft"].contains($0) }
        #expect(scans.isEmpty, "\(search): \(plan)\n\(sql)")
      }
    }
    // Few notes: the driver reads them all, one step each.
    let (_, driver) = try archive.explain(DraftQuery(search: "note:printer"))
    #expect(driver.contains { $0.hasPrefix("SCAN note") }, "\(driver)")
    // As a test on each draft: the draft's notes only.
    let (_, tested) = try archive.explain(DraftQuery(search: "not note:printer"), limit: 20)
    #expect(tested.contains { $0.contains("note_by_draft") }, "\(tested)")
    #expect(!tested.contains { $0.hasPrefix("SCAN note") }, "\(tested)")
    #expect(try archive.search("note:printer").map(\.name) == ["draft 7"])
    #expect(try archive.search("note:\"the printer\" name:7").map(\.name) == ["draft 7"])
  }
}
