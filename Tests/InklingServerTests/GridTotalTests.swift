// The grid says how many drafts match, in all, not only how many one page shows, and its JSON
// twin has the same number.

import Foundation
import InklingArchive
import Testing

@testable import InklingServer

@Suite struct GridTotalTests {
  @Test func theGridAndItsJSONCountEveryMatchingDraft() throws {
    let served = try SharedArchive.get()
    let archive = try served.archive()
    for text in ["", "versions:>=3", "name:a"] {
      let expected = try archive.drafts(matching: try DraftQuery(search: text)).count
      #expect(expected > 10, "more drafts than a page of the test server: \(text)")
      let page = try served.get("/?q=" + encoded(text))
      #expect(page.status == 200)
      #expect(page.text.contains("<p class=\"summary count\" id=\"count\">\(expected) drafts</p>"), "\(text)")
      let api = try #require(try served.get("/api/drafts?q=" + encoded(text)).json() as? [String: Any])
      #expect(api["total"] as? Int == expected)
      #expect(api["totalIsExact"] as? Bool == true)
      #expect((api["drafts"] as? [Any])?.count == 10)
    }
    // None: no count, the sentence that says so.
    let none = try served.get("/?q=name%3Azzzzzz")
    #expect(none.text.contains("<p class=\"summary count\" id=\"count\"></p>"))
    let api = try #require(try served.get("/api/drafts?q=name%3Azzzzzz").json() as? [String: Any])
    #expect(api["total"] as? Int == 0)
  }
}
