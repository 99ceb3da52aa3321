// Names with bidi controls stay inside their own isolate on every page: each shown name is in a
// <bdi> or between FSI and PDI, balanced so that it can close neither early nor late.

import Foundation
import InklingArchive
import Testing

@testable import InklingServer

@Suite struct BidiIsolationTests {
  /// `‮evil‭ gnp.exe` (RLO, LRO), a stray PDI, an isolate left open; each with a marker word.
  static let names = [
    "\u{202E}evil\u{202D} gnp.exe", "stray\u{2069}pdi\u{202E}x", "openiso\u{2067}late",
  ]
  static let markers = ["evil", "stray", "openiso"]

  static func served() throws -> ServedArchive {
    let served = try ServedArchive()
    let folder = served.draftsFolder + "/bidi"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let source = try FileManager.default.contentsOfDirectory(atPath: served.draftsFolder)
      .filter { $0.hasSuffix(".inkling") }.sorted()[1]
    let bytes = try Data(contentsOf: URL(fileURLWithPath: served.draftsFolder + "/" + source))
    for (index, name) in names.enumerated() {
      for hour in [10, 11] {
        let file = folder + "/" + name + String(format: "-2025-12-%02dT%d:00:00Z.inkling", index + 1, hour)
        try bytes.write(to: URL(fileURLWithPath: file))
      }
    }
    _ = try Archive(path: served.archivePath).importFiles(at: [folder])
    return served
  }

  /// The page with every isolated name, every link's address, every download attribute (a file
  /// name to save under, not shown) and the search box's value (a field of its own) taken out.
  static func withoutIsolatedText(_ html: String) -> String {
    var rest = html
    for pattern in [
      #"<bdi[^>]*>[^<]*</bdi>"#, #"href="[^"]*""#, #"download="[^"]*""#, #"value="[^"]*""#,
      "\u{2068}[^\u{2069}]*\u{2069}",
    ] {
      rest = rest.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
    }
    return rest
  }

  @Test func balancingClosesWhatANameOpensAndDropsWhatClosesNothing() {
    #expect(Escape.balanced("plain") == "plain")
    #expect(Escape.balanced("\u{202E}evil\u{202D} gnp.exe") == "\u{202E}evil\u{202D} gnp.exe")
    #expect(Escape.balanced("a\u{2069}b") == "ab")
    #expect(Escape.balanced("a\u{2067}b") == "a\u{2067}b\u{2069}")
    #expect(Escape.balanced("\u{2069}\u{2066}x\u{2069}\u{2069}\u{2068}") == "\u{2066}x\u{2069}\u{2068}\u{2069}")
    #expect(Escape.isolated("a\u{2069}b") == "\u{2068}ab\u{2069}")
    let html: HTML = "<p>\(name: "<b>\u{2069}")</p><img alt=\"\(attributeName: "\"x")\">"
    #expect(html.markup == "<p><bdi>&lt;b&gt;</bdi></p><img alt=\"\u{2068}&quot;x\u{2069}\">")
  }

  @Test func everyPageIsolatesEveryName() throws {
    let served = try Self.served()
    let archive = try served.archive()
    for (name, marker) in zip(Self.names, Self.markers) {
      let draft = try #require(try archive.drafts().first { $0.name == name })
      // Pages that show the name in markup, then error pages whose sentences name it.
      var pages = [
        "/?q=" + encoded("name:\(marker)"), "/draft?id=\(draft.id)", "/draft?id=\(draft.id)&version=1",
        "/draft?id=\(draft.id)&version=2",
      ]
      if marker == "evil" { pages.append("/draft?name=" + encoded(name)) }
      let errors = ["/draft?name=" + encoded(name + "x"), "/draft?id=\(draft.id)&version=3"]
      for target in pages + errors {
        let response = try served.get(target)
        #expect(response.status == (errors.contains(target) ? 404 : 200), "\(target)")
        let html = response.text
        let shown = Markup.escape(Escape.balanced(name))
        if pages.contains(target) {
          #expect(html.contains("<bdi>\(shown)") || html.contains("<bdi class=\"name\">\(shown)"), "\(target)")
        } else {
          #expect(
            html.contains("\u{2068}\(Markup.escape(Escape.balanced(name + "x")))\u{2069}")
              || html.contains("\u{2068}\(shown)\u{2069}"), "\(target)")
        }
        let rest = Self.withoutIsolatedText(html)
        #expect(!rest.contains(marker), "\(target) shows \(marker) outside an isolate")
      }
      // The title, which no element can isolate, is between FSI and PDI.
      let page = try served.get("/draft?id=\(draft.id)").text
      #expect(page.contains("<title>\u{2068}\(Markup.escape(Escape.balanced(name)))\u{2069} · inkling-archive</title>"))
    }
  }
}
