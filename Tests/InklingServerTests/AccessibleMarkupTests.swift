// What the accessibility checker (axe-core, in the browser test) asks of the pages' markup,
// held here where it is made: the grid has a level-one heading, landmarks of a kind are told
// apart by their labels, a block of text that may scroll sideways can be reached by the keys
// (and says what it is), the time-lapse's saves are a labelled scrubber, not a div with a
// label it may not carry, and a page answered before the token is checked links nothing the
// token would be needed for.

import Foundation
import InklingArchive
import Testing

@testable import InklingServer

@Suite struct AccessibleMarkupTests {
  @Test func theGridHasALevelOneHeading() throws {
    let grid = try SharedArchive.get().get("/")
    #expect(grid.status == 200)
    #expect(grid.text.contains("<h1"), "\(grid.text.prefix(2000))")
  }

  @Test func versionPagesLabelEachNavigationAndTheCommandsCanBeScrolledByTheKeys() throws {
    let served = try ServedArchive()
    let (draft, _) = try CompareAndDownloadTests.twoSaves(served, name: "Lighthouse")
    for target in ["/draft?id=\(draft)&version=2", "/draft/compare?id=\(draft)&from=1&version=2"] {
      let page = try served.get(target)
      #expect(page.status == 200)
      let navs = page.text.matches(of: try Regex(#"<nav[^>]*>"#)).map { String(page.text[$0.range]) }
      let label = try Regex(#"aria-label="([^"]+)""#)
      let labels = navs.compactMap { $0.firstMatch(of: label).map { String($0.output[1].substring!) } }
      #expect(!navs.isEmpty && labels.count == navs.count && Set(labels).count == labels.count, "\(target): \(navs)")
      let pre = try #require(page.text.firstMatch(of: try Regex(#"<pre[^>]*><code>"#)), "\(target)")
      let tag = String(page.text[pre.range])
      #expect(tag.contains("tabindex=\"0\"") && tag.contains("aria-label=\""), "\(target): \(tag)")
    }
  }

  @Test func theTimelapsesSavesAreALabelledScrubber() throws {
    let served = try ServedArchive()
    let (draft, _) = try CompareAndDownloadTests.twoSaves(served, name: "Orchard")
    let page = try served.get("/draft?id=\(draft)")
    #expect(page.status == 200)
    #expect(page.text.contains(#"<label for="saves">"#), "\(page.text)")
    #expect(page.text.contains(try Regex(#"<input type="range" id="saves"[^>]* step="1""#)), "\(page.text)")
    #expect(!page.text.contains(try Regex(#"<div[^>]* aria-label="#)), "\(page.text)")
  }

  @Test func answersBeforeTheTokenIsCheckedHaveNoLinksThatNeedIt() throws {
    let served = try ServedArchive(token: "open-sesame")
    let long = String(repeating: "a", count: RequestTarget.maxPathBytes + 1)
    for (target, status) in [("/", 401), ("/t/open-sesame/" + long, 414)] {
      let page = try served.get(target)
      #expect(page.status == status)
      #expect(page.text.hasPrefix("<!doctype html>\n<html lang=\"en\">"), "\(page.text)")
      #expect(page.text.contains("<h1>\(status) \(HTTPResponse.reason(status))</h1>"), "\(page.text)")
      // The bar's links, the stylesheet and the script would each be refused without the token.
      #expect(!page.text.contains("class=\"bar\"") && !page.text.contains("<link") && !page.text.contains("<script"))
    }
  }
}
