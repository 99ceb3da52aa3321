// Pages that keep their place while pictures load: the compare page's versions and the
// picture of what changed carry their size, and the grid and a long timeline defer the
// thumbnails below the first screen.

import Foundation
import InklingArchive
import InklingCorpus
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
    // The picture of what changed draws both versions' strokes: it is at least as large as
    // either version's picture.
    let sizePattern = try Regex(#" width="([0-9]+)" height="([0-9]+)""#)
    func size(_ tag: Substring) throws -> (Int, Int) {
      let match = try #require(tag.firstMatch(of: sizePattern), "\(tag)")
      return (Int(String(match.output[1].substring!))!, Int(String(match.output[2].substring!))!)
    }
    let changes = try #require(compare.text.firstMatch(of: try Regex(#"<img src="[^"]*/changes\.png[^>]*>"#)))
    let (width, height) = try size(compare.text[changes.range])
    let sides = try compare.text.matches(of: try Regex(#"<img src="/versions/[0-9]+/render\.png[^>]*>"#)).map {
      try size(compare.text[$0.range])
    }
    #expect(sides.count == 2)
    #expect(sides.allSatisfy { $0.0 <= width && $0.1 <= height }, "\(width) × \(height), versions \(sides)")
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

  @Test func aLongTimelineDefersTheThumbnailsBelowItsFirstScreen() throws {
    let saves = DraftView.eagerThumbnails + 3
    let served = try ServedArchive(
      spec: CorpusSpec(drafts: 1, versionsPerDraft: saves...saves, seed: 5), hostile: false)
    let archive = try Archive(path: served.archivePath)
    let draft = try #require(try archive.drafts().first)
    let page = try served.get("/draft?id=\(draft.id)")
    #expect(page.status == 200)
    let thumbnails = page.text.matches(of: try Regex(#"<a class="thumb"[^>]*><img [^>]*>"#)).map {
      String(page.text[$0.range])
    }
    #expect(thumbnails.count == saves)
    // Newest first: the first screen's load at once, the rest as they are scrolled to.
    #expect(thumbnails.prefix(DraftView.eagerThumbnails).allSatisfy { !$0.contains("loading=") })
    #expect(thumbnails.dropFirst(DraftView.eagerThumbnails).allSatisfy { $0.contains(" loading=\"lazy\"") })
  }
}
