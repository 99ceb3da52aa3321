// Pages that keep their place while pictures load: the compare page's versions carry their
// size, and the grid defers the thumbnails below the first screen.

import Foundation
import InklingArchive
import Testing

@testable import InklingServer

@Suite struct ImageLoadingTests {
  @Test func theVersionsComparedCarryTheirSize() throws {
    let served = try ServedArchive()
    let (draft, versions) = try CompareAndDownloadTests.twoSaves(served, name: "Harbour")
    let compare = try served.get("/draft/compare?id=\(draft)&from=1&version=2")
    #expect(compare.status == 200)
    for version in versions {
      let image = try #require(
        compare.text.firstMatch(of: try Regex(#"<img src="/versions/\#(version.rawValue)/render\.png[^>]*>"#)),
        "\(compare.text)")
      let tag = String(compare.text[image.range])
      #expect(tag.contains(try Regex(#" width="[1-9][0-9]*" height="[1-9][0-9]*""#)), "\(tag)")
    }
  }

  @Test func theGridDefersThumbnailsBelowTheFirstScreen() throws {
    let served = try SharedArchive.get()
    let first = try served.get("/")
    let thumbnails = first.text.matches(of: try Regex(#"<img src="/versions/[^"]*/thumbnail\.png[^>]*>"#))
    #expect(thumbnails.count == min(10, GridView.eagerThumbnails))
    #expect(!first.text.contains("loading=\"lazy\""))
    // The next page's cards, which "More drafts" adds below the first screen, all wait.
    let more = try #require(first.text.firstMatch(of: try Regex(#"id="more" rel="next" href="([^"]*)""#)))
    let next = try served.get(String(more.output[1].substring!).replacingOccurrences(of: "&amp;", with: "&"))
    let cards = next.text.matches(of: try Regex(#"<img src="/versions/[^"]*/thumbnail\.png[^>]*>"#))
    #expect(!cards.isEmpty)
    #expect(cards.allSatisfy { next.text[$0.range].contains(" loading=\"lazy\"") })
  }
}
