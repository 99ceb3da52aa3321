// Every page over real HTTP: the grid and its pages, sorts, date filters and searches (with a
// syntax error's caret message), a draft's timeline, a version's page and downloads.

import Foundation
import InklingArchive
import InklingRendering
import Testing

@testable import InklingServer

@Suite struct PageTests {
  /// The names on a grid page and its next page's link.
  func grid(_ served: ServedArchive, _ target: String) throws -> (names: [String], next: String?, html: String) {
    let response = try served.get(target)
    #expect(response.status == 200, "\(target): \(response.text.prefix(300))")
    #expect(response.header("Content-Type") == "text/html; charset=utf-8")
    let html = response.text
    return (Markup.texts(ofClass: "name", in: html), Markup.link(id: "more", in: html), html)
  }

  /// Every name of a grid, following its "More drafts" links.
  func allNames(_ served: ServedArchive, _ target: String) throws -> [String] {
    var names: [String] = []
    var next: String? = target
    var pages = 0
    while let target = next {
      let page = try grid(served, target)
      names += page.names
      next = page.next
      pages += 1
      #expect(pages < 100)
    }
    return names
  }

  @Test func theGridListsEveryDraftNewestFirstAPageAtATime() throws {
    let served = try SharedArchive.get()
    let expected = try served.archive().drafts().map(\.name)
    let first = try grid(served, "/")
    #expect(first.names == Array(expected.prefix(10)))
    #expect(Markup.cardCount(first.html) == 10)
    #expect(first.next != nil)
    #expect(try allNames(served, "/") == expected)
    // Each card's thumbnail is the draft's newest version's.
    let sources = Markup.attributes("src", in: first.html).filter { $0.contains("/thumbnail.png") }
    #expect(sources.count == 10)
    for source in sources {
      let image = try served.get(source)
      #expect(image.status == 200)
      #expect(image.header("Content-Type") == "image/png")
      #expect(image.body.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }
  }

  @Test(arguments: DraftSort.allCases)
  func everySortPagesLikeList(sort: DraftSort) throws {
    let served = try SharedArchive.get()
    let expected = try served.archive().drafts(sort: sort).map(\.name)
    #expect(try allNames(served, "/?sort=\(sort.rawValue)") == expected)
  }

  @Test func searchesAndDateFiltersAreTheArchive() throws {
    let served = try SharedArchive.get()
    let archive = try served.archive()
    for text in ["versions:>=3", "name:a", "not versions:1 and saved:>=2024"] {
      let expected = try archive.drafts(matching: try DraftQuery(search: text)).map(\.name)
      #expect(try allNames(served, "/?q=" + encoded(text)) == expected, "\(text)")
      // The search box shows the query; the title says what was searched.
      let page = try grid(served, "/?q=" + encoded(text))
      #expect(Markup.attributes("value", in: page.html).contains(text))
    }
    let dated = try archive.drafts(matching: try DraftQuery(since: "2024-01", until: "2024-12")).map(\.name)
    #expect(!dated.isEmpty)
    #expect(try allNames(served, "/?since=2024-01&until=2024-12") == dated)
    let both = try archive.drafts(
      matching: DraftQuery(
        try DraftQuery(search: "versions:>=2").expression && (try DraftQuery(since: "2024").expression))
    ).map(\.name)
    #expect(try allNames(served, "/?q=versions%3A%3E%3D2&since=2024&sort=newest") == both)
    let none = try grid(served, "/?q=name%3Azzzzzz")
    #expect(none.names.isEmpty)
    #expect(none.html.contains("No drafts match."))
  }

  @Test func aSyntaxErrorShowsItsCaretMessage() throws {
    let served = try SharedArchive.get()
    let response = try served.get("/?q=" + encoded("name:cat and (strokes:>3"))
    #expect(response.status == 400)
    let html = response.text
    var syntaxError: SearchSyntaxError?
    do {
      _ = try DraftQuery(search: "name:cat and (strokes:>3")
    } catch {
      syntaxError = error
    }
    let expected = try #require(syntaxError)
    #expect(html.contains(">" + Markup.escape(expected.description) + "</pre>"))
    #expect(Markup.cardCount(html) == 0)
    let bad = try served.get("/?since=notadate")
    #expect(bad.status == 400)
    #expect(bad.text.contains("notadate"))
    #expect(try served.get("/?sort=sideways").status == 400)
    #expect(try served.get("/?after=n.1.2").status == 400)
    #expect(
      try served.get("/?after=" + (try served.archive().draftPage(sort: .name, limit: 1).next!.token)).status == 400)
  }

  @Test func aDraftsTimelineHasOneEntryPerVersionNewestFirst() throws {
    let served = try SharedArchive.get()
    let archive = try served.archive()
    for draft in try archive.drafts().prefix(8) {
      let response = try served.get("/draft?name=" + encoded(draft.name))
      #expect(response.status == 200)
      let html = response.text
      let timeline = try archive.timeline(of: draft.name)
      let entries = html.components(separatedBy: "<li class=\"entry\"").count - 1
      #expect(entries == timeline.count)
      let ids = Markup.attributes("id", in: html).filter { $0.hasPrefix("v") && Int($0.dropFirst()) != nil }
      #expect(ids == timeline.reversed().map { "v\($0.version.number)" })
      // A thumbnail and a download per version, of that version.
      let downloads = Markup.attributes("href", in: html).filter { $0.hasSuffix("/file") }
      #expect(downloads == timeline.reversed().map { "/versions/\($0.id)/file" })
      for entry in timeline where entry.version.number > 1 {
        let changes = try #require(entry.changes)
        // Only the counts that are not zero.
        #expect(html.contains("+\(changes.added) added") == (changes.added > 0))
        #expect(html.contains("−\(changes.removed) removed") == (changes.removed > 0))
      }
      #expect(!html.contains("−0 removed") && !html.contains("+0 added"))
      for entry in timeline {
        if let same = entry.version.sameDrawingAs { #expect(html.contains("Same drawing as <a href=\"#v\(same)\">")) }
      }
      #expect(html.contains("/swatches/"))
    }
  }

  @Test func downloadsAreTheImportedFilesUnderTheirNames() throws {
    let served = try SharedArchive.get()
    let archive = try served.archive()
    for name in ["\"><img src=x onerror=alert(1)>", "Café 猫 🎨"] + (try archive.drafts().prefix(3).map(\.name)) {
      for entry in try archive.timeline(of: name) {
        let response = try served.get("/versions/\(entry.id)/file")
        #expect(response.status == 200)
        #expect(response.body == (try served.importedFile(entry.version.fileName)))
        #expect(response.header("Content-Type") == "application/octet-stream")
        let disposition = try #require(response.header("Content-Disposition"))
        #expect(disposition.hasPrefix("attachment; filename=\""))
        #expect(disposition.hasSuffix("filename*=UTF-8''" + encoded(entry.version.fileName)))
        #expect(response.header("ETag") == "\"\(entry.version.fileSHA256)\"")
      }
    }
  }

  /// A name's control, invisible and direction-changing characters become `_` in a download's
  /// name: `rtl\u{202E}gnp.exe` would be saved showing as `rtlexe.png`.
  @Test func downloadNamesCannotLie() {
    let disposition = VersionFiles.contentDisposition("new\nline\r\nrtl\u{202E}gnp.exe")
    #expect(disposition == "attachment; filename=\"new_line__rtl_gnp.exe\"; filename*=UTF-8''new_line__rtl_gnp.exe")
    #expect(VersionFiles.contentDisposition("a/b\\c\u{200B}d.zip").hasSuffix("''a_b_c_d.zip"))
    #expect(VersionFiles.contentDisposition("Café.inkling").hasSuffix("''Caf%C3%A9.inkling"))
  }

  @Test func aVersionPageShowsItLarge() throws {
    let served = try SharedArchive.get()
    let archive = try served.archive()
    let draft = try #require(try archive.drafts().first { $0.versionCount >= 3 })
    let timeline = try archive.timeline(of: draft.name)
    let response = try served.get("/draft?name=\(encoded(draft.name))&version=2")
    #expect(response.status == 200)
    let html = response.text
    #expect(html.contains("version 2 of \(timeline.count)"))
    let srcset = try #require(Markup.attributes("srcset", in: html).first)
    let id = timeline[1].id
    let r = Renderer.version
    // Each scale by its pixel width (LargeViewTests checks the widths).
    let sources = srcset.components(separatedBy: ", ").map { $0.components(separatedBy: " ") }
    #expect(sources.map(\.[0]) == [1, 2, 3].map { "/versions/\(id)/render.png?scale=\($0)&r=\(r)" })
    #expect(sources.allSatisfy { $0.count == 2 && $0[1].hasSuffix("w") && Int($0[1].dropLast()) != nil })
    #expect(Markup.attributes("href", in: html).contains("/draft?id=\(draft.id)&version=1"))
    #expect(Markup.attributes("href", in: html).contains("/draft?id=\(draft.id)&version=3"))
    for scale in [1, 2, 3] {
      let image = try served.get("/versions/\(id)/render.png?scale=\(scale)")
      #expect(image.status == 200)
      #expect(image.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
    #expect(try served.get("/versions/\(id)/render.png?scale=4").status == 400)
    #expect(try served.get("/draft?name=\(encoded(draft.name))&version=\(timeline.count + 1)").status == 404)
    #expect(try served.get("/draft?name=\(encoded(draft.name))&version=0").status == 400)
    #expect(try served.get("/draft?name=\(encoded(draft.name))&version=two").status == 400)
  }

  @Test func missingThingsAre404AndSaySo() throws {
    let served = try SharedArchive.get()
    let missing = try served.get("/draft?name=No%20such%20draft")
    #expect(missing.status == 404)
    #expect(missing.text.contains("No such draft"))
    #expect(missing.header("Content-Type") == "text/html; charset=utf-8")
    #expect(try served.get("/draft").status == 400)
    #expect(try served.get("/versions/99999999/thumbnail.png").status == 404)
    #expect(try served.get("/versions/abc/thumbnail.png").status == 404)
    #expect(try served.get("/versions/1/thumbnail.png?size=100").status == 400)
    #expect(try served.get("/nowhere").status == 404)
    #expect(try served.get("/static/nothing.css").status == 404)
    #expect(try served.get("/swatches/zz.svg").status == 404)
    let swatch = try served.get("/swatches/1a1a1fff.svg")
    #expect(swatch.status == 200)
    #expect(swatch.text.contains("fill=\"#1a1a1f\""))
  }
}
