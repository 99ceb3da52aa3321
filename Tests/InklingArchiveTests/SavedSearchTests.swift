import Foundation
import InklingTestSupport
import Testing

@testable import InklingArchive

/// Saved searches through the library: `Archive.query` is the one reader of `@NAME`; the text
/// kept is the text given; and the search text the web's tag links are made of reads back as
/// exactly that tag, whatever it holds.
@Suite struct SavedSearchTests {
  @Test func queryReadsAtNameAndOnlyIt() throws {
    let folder = try TemporaryFolder("saved-query")
    let archive = try OrganiseTests.archive(drafts: 5, in: folder)
    let change = try archive.saveSearch(named: " @Two ", query: "name:\"draft 2\"")
    #expect(change.search.name == "Two" && change.replaced == nil)
    #expect(try archive.query("@two") == DraftQuery(search: "name:\"draft 2\""))
    #expect(try archive.drafts(matching: archive.query(" @TWO")).map(\.name) == ["draft 2"])
    #expect(try archive.search("@Two").map(\.name) == ["draft 2"])
    // Not a saved search's name: the search language, where `@` is a character of a name.
    #expect(try archive.query("x@two") == DraftQuery(search: "x@two"))
    #expect(throws: ArchiveError.noSuchSavedSearch(name: "three", saved: ["Two"])) { try archive.query("@three") }
    let replaced = try archive.saveSearch(named: "TWO", query: "name:\"draft 3\"")
    #expect(replaced.replaced?.query == "name:\"draft 2\"" && replaced.search.name == "TWO")
    #expect(try archive.savedSearches().map(\.name) == ["TWO"])
    #expect(try archive.forgetSearch(named: "two").query == "name:\"draft 3\"")
    #expect(throws: ArchiveError.noSuchSavedSearch(name: "two", saved: [])) { try archive.forgetSearch(named: "two") }
  }

  @Test func aQueryThatDoesNotParseIsNotSaved() throws {
    let folder = try TemporaryFolder("saved-syntax")
    let archive = try OrganiseTests.archive(drafts: 1, in: folder)
    #expect(throws: ArchiveError.self) { try archive.saveSearch(named: "bad", query: "(name:x") }
    #expect(try archive.savedSearches().isEmpty)
    #expect(throws: ArchiveError.invalidArgument(.savedSearchName("@", .empty))) {
      try archive.saveSearch(named: "@", query: "x")
    }
  }

  @Test(arguments: ["portfolio", "client:", "client:anna", "a*", "say \"hi\"", "back\\slash", "(and or not)", "tag:x"])
  func aTagLinksSearchFindsExactlyThatTag(tag: String) throws {
    let parsed = try DraftQuery(search: DraftQuery.searchText(tag: tag))
    #expect(parsed.expression == .term(.tag(.exact(tag))))
  }
}
