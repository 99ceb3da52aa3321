// Hostile names show as text: in the grid, a draft's page, a version's page, attributes,
// URLs (which lead back to the same draft) and JSON. Nothing of a name ever becomes markup.

import Foundation
import InklingArchive
import Testing

@testable import InklingServer

@Suite struct EscapingTests {
  @Test func escapeFunctionsCoverTheirContexts() {
    #expect(Escape.text("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;")
    #expect(Escape.attribute("\"><img src=x onerror=alert(1)>") == "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;")
    #expect(Escape.text("Tom & Jerry's") == "Tom &amp; Jerry&#39;s")
    #expect(Escape.text("plain name") == "plain name")
    #expect(Escape.urlComponent("a/b?c=d&e#f %2F+猫") == "a%2Fb%3Fc%3Dd%26e%23f%20%252F%2B%E7%8C%AB")
    #expect(Escape.urlComponent("..") == "..")
    let json = String(decoding: Escape.json(["name": "</script>\u{2028}\"\\"]), as: UTF8.self)
    #expect(json == #"{"name":"</script>\u2028\"\\"}"#)
    let name = "\"><img src=x onerror=alert(1)>"
    let html: HTML = "<a href=\"\(Links.draft(named: name))\" title=\"\(attribute: name)\">\(name)</a>"
    #expect(
      html.markup
        == "<a href=\"/draft?name=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E\" "
        + "title=\"&quot;&gt;&lt;img src=x onerror=alert(1)&gt;\">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</a>")
  }

  @Test(arguments: ServedArchive.hostileNames)
  func aHostileNameIsTextEverywhere(name: String) throws {
    let served = try SharedArchive.get()
    let escaped = Markup.escape(name)
    // The grid sorted by name shows it as text, and its link leads to its own page.
    let grid = try served.get("/?q=" + encoded("name:=\"\(name.replacingOccurrences(of: "\"", with: "\\\""))\""))
    #expect(grid.status == 200)
    #expect(Markup.texts(ofClass: "name", in: grid.text) == [name])
    let link = try #require(Markup.attributes("href", in: grid.text).first { $0.hasPrefix("/draft?") })
    let page = try served.get(link)
    #expect(page.status == 200, "\(link)")
    #expect(page.text.contains("<h1><bdi>\(escaped)</bdi></h1>"))
    for html in [grid.text, page.text] {
      #expect(!html.contains("<img src=x"))
      #expect(!html.contains("<script>alert"))
      #expect(!html.contains("onerror=alert(1)>"))
    }
    // A version's page, its attributes too (alt, download).
    let version = try served.get(link + "&version=1")
    #expect(version.status == 200)
    #expect(version.text.contains("alt=\"\u{2068}\(escaped)\u{2069}, version 1\""))
    #expect(!version.text.contains("<img src=x"))
    // JSON holds the name as it is.
    let api = try served.get("/api/draft?name=" + encoded(name))
    let object = try #require(try api.json() as? [String: Any])
    #expect(object["draft"] as? String == name)
    // Every script on the page is the server's own file: no inline script at all.
    for html in [grid.text, page.text, version.text] {
      let scripts = html.components(separatedBy: "<script").dropFirst()
      #expect(scripts.count == 1)
      #expect(scripts.allSatisfy { $0.hasPrefix(" src=\"/static/app.js?v=") })
    }
  }
}
