// Stars and tags on the grid's cards and a draft's page, and in their JSON twins: the stars in
// words beside their glyphs, each tag a link to the grid of exactly the drafts that have it,
// whatever the tag holds.

import Foundation
import InklingArchive
import Testing

@testable import InklingServer

@Suite struct MarksPageTests {
  static let tags = ["client:anna", "say \"hi\" <b>\\ x*", "portfolio"]

  @Test func aTagsLinkFindsItsDraftsAndTheStarsAreWords() throws {
    let served = try ServedArchive(pageSize: 60)
    let archive = try Archive(path: served.archivePath)
    let names = try archive.drafts().map(\.name)
    let tagged = [names[1], names[3]]
    for tag in Self.tags { try archive.tag(.matching(DraftQuery(.term(.name(.exact(tagged[0]))))), with: [tag]) }
    try archive.tag(.named(tagged[1]), with: ["client:anna"])
    try archive.star([.named(tagged[0])], stars: 4)

    let grid = try served.get("/")
    #expect(grid.status == 200)
    #expect(grid.text.contains("<span class=\"visually-hidden\">4 of 5 stars</span>"), "\(grid.text.prefix(2000))")
    // Each tag link, followed, is the grid of the drafts with exactly that tag.
    let links = Markup.attributes("href", in: grid.text).map(Markup.unescape).filter { $0.contains("?q=tag") }
    #expect(links.count == Self.tags.count + 1, "\(links)")
    for tag in Self.tags {
      let expected = try archive.drafts(matching: DraftQuery(.term(.tag(.exact(tag))))).map(\.name)
      let link = try #require(
        links.first { $0 == Links.grid(GridState(query: DraftQuery.searchText(tag: tag))).text }, "\(tag): \(links)")
      let page = try served.get(link)
      #expect(page.status == 200, "\(link)")
      #expect(Markup.texts(ofClass: "name", in: page.text) == expected, "\(tag)")
    }

    let id = try #require(try archive.drafts().first { $0.name == tagged[0] }?.id)
    let draft = try served.get("/draft?id=\(id.rawValue)")
    #expect(draft.status == 200)
    #expect(draft.text.contains("<span class=\"visually-hidden\">4 of 5 stars</span>"))
    #expect(draft.text.contains("&lt;b&gt;"), "the tag's markup is not escaped")
    #expect(!draft.text.contains("<b>\\"), "the tag's markup reached the page")
    let api = try JSONSerialization.jsonObject(with: Data(try served.get("/api/draft?id=\(id.rawValue)").body))
    let object = try #require(api as? [String: Any])
    #expect(object["stars"] as? Int == 4)
    #expect(object["tags"] as? [String] == ["client:anna", "portfolio", "say \"hi\" <b>\\ x*"])
    let cards = try JSONSerialization.jsonObject(with: Data(try served.get("/api/drafts?limit=5").body))
    let first = try #require(
      ((cards as? [String: Any])?["drafts"] as? [[String: Any]])?.first { $0["name"] as? String == tagged[0] })
    #expect(first["stars"] as? Int == 4)
  }

}
