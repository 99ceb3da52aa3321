import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

/// A list of names only (`--paths`) does not read each draft's tags and stars, which it would
/// not print; every other list carries them.
@Suite struct NamesOnlyListingTests {
  @Test func draftsWithoutMarksReadNoTags() throws {
    let folder = try TemporaryFolder("names-only")
    let archive = try OrganiseTests.archive(drafts: 5, in: folder)
    try archive.tag(.matching(DraftQuery(search: "name:draft")), with: ["portfolio"])
    let query = try DraftQuery(search: "tag:portfolio")

    var marked: [DraftSummary] = []
    let withMarks = try BoundedWalkTests.statements(archive) {
      try archive.forEachDraft(matching: query, limit: 3) { marked.append($0) }
    }
    #expect(marked.count == 3 && marked.allSatisfy { $0.tags == ["portfolio"] })
    #expect(withMarks.contains { $0.contains("group_concat") }, "\(withMarks)")

    var bare: [DraftSummary] = []
    let withoutMarks = try BoundedWalkTests.statements(archive) {
      try archive.forEachDraft(matching: query, limit: 3, marks: false) { bare.append($0) }
    }
    #expect(bare.map(\.name) == marked.map(\.name))
    #expect(bare.allSatisfy { $0.tags.isEmpty && $0.stars == nil })
    #expect(!withoutMarks.contains { $0.contains("draft_tag AS dt") && $0.contains("group_concat") }, "\(withoutMarks)")
  }
}
