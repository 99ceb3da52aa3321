// Correct HTTP: content types, security headers on every response, entity tags and 304,
// HEAD, gzip where the client takes it, and what may be cached for how long.

import Foundation
import InklingArchive
import InklingRendering
import Testing

@testable import InklingServer

@Suite struct HTTPBehaviourTests {
  func targets(_ served: ServedArchive) throws -> [String] {
    let archive = try served.archive()
    let entry = try #require(try archive.draftPage(limit: 1).drafts.first)
    let id = entry.latestVersion
    return [
      "/", "/?q=versions%3A%3E1", "/draft?name=" + encoded(entry.draft.name), "/api/drafts",
      "/api/draft?name=" + encoded(entry.draft.name), "/versions/\(id)/thumbnail.png?size=128&r=\(Renderer.version)",
      "/versions/\(id)/render.png?scale=1", "/versions/\(id)/file", Links.asset(StaticAssets.style).text,
      Links.asset(StaticAssets.script).text, "/swatches/ffffffff.svg",
    ]
  }

  @Test func everyResponseCarriesTheSecurityHeaders() throws {
    let served = try SharedArchive.get()
    for target in try targets(served) + ["/nowhere", "/../x", "/?q=%28"] {
      let response = try served.get(target)
      #expect(response.header("Content-Security-Policy") == ResponseEncoding.contentSecurityPolicy, "\(target)")
      #expect(response.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
      #expect(response.header("X-Content-Type-Options") == "nosniff")
      #expect(response.header("X-Frame-Options") == "DENY")
      #expect(response.header("Content-Type") != nil)
    }
  }

  @Test func entityTagsGive304() throws {
    let served = try SharedArchive.get()
    for target in try targets(served) {
      let first = try served.get(target)
      #expect(first.status == 200, "\(target)")
      let tag = try #require(first.header("ETag"), "\(target)")
      let again = try served.get(target, headers: [("If-None-Match", tag)])
      #expect(again.status == 304, "\(target)")
      #expect(again.body.isEmpty)
      #expect(again.header("ETag") == tag)
      #expect(try served.get(target, headers: [("If-None-Match", "W/\(tag), \"other\"")]).status == 304)
      #expect(try served.get(target, headers: [("If-None-Match", "\"other\"")]).status == 200)
    }
  }

  @Test func headIsGetWithoutTheBody() throws {
    let served = try SharedArchive.get()
    for target in try targets(served) {
      let get = try served.get(target)
      let head = try served.get(target, method: "HEAD")
      #expect(head.status == get.status)
      #expect(head.header("Content-Length") == String(get.body.count), "\(target)")
      #expect(head.header("ETag") == get.header("ETag"))
      #expect(head.header("Content-Type") == get.header("Content-Type"))
      // Nothing after the head: the raw bytes end at the blank line.
      let raw = try HTTPClient.exchange(
        served.port, Array("HEAD \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8),
        halfClose: false)
      #expect(String(decoding: raw, as: UTF8.self).hasSuffix("\r\n\r\n"))
    }
  }

  @Test func textIsGzippedForClientsThatTakeIt() throws {
    let served = try SharedArchive.get()
    for target in ["/", "/api/drafts", Links.asset(StaticAssets.style).text] {
      let plain = try served.get(target)
      #expect(plain.header("Content-Encoding") == nil)
      #expect(plain.header("Vary") == "Accept-Encoding")
      let gzipped = try served.get(target, headers: [("Accept-Encoding", "br, gzip;q=0.8")])
      #expect(gzipped.header("Content-Encoding") == "gzip", "\(target)")
      #expect(gzipped.body.count < plain.body.count)
      #expect(try gzipped.decodedBody() == plain.body)
      #expect(gzipped.header("ETag") != plain.header("ETag"))
      // Either tag names the same page.
      #expect(try served.get(target, headers: [("If-None-Match", plain.header("ETag")!)]).status == 304)
      let refused = try served.get(target, headers: [("Accept-Encoding", "gzip;q=0, identity")])
      #expect(refused.header("Content-Encoding") == nil)
    }
    let png = try served.get(try targets(served)[5], headers: [("Accept-Encoding", "gzip")])
    #expect(png.header("Content-Encoding") == nil)
  }

  @Test func cachePoliciesFollowWhatCanChange() throws {
    let served = try SharedArchive.get()
    let all = try targets(served)
    #expect(try served.get(all[0]).header("Cache-Control") == "private, no-cache")
    #expect(try served.get(all[3]).header("Cache-Control") == "private, no-cache")
    // A version id alone may name other bytes once another archive is at the path: immutable
    // only with the content's hash (`h`) too (ReplacedArchiveTests).
    let thumbnail = try served.get(all[5])
    #expect(thumbnail.header("Cache-Control") == "private, no-cache")
    let tag = try #require(thumbnail.header("ETag")).dropFirst().prefix(16)
    #expect(
      try served.get(all[5] + "&h=\(tag)").header("Cache-Control") == "private, max-age=31536000, immutable")
    // Without the renderer in the URL a thumbnail may change (a new build draws differently).
    #expect(try served.get(all[6]).header("Cache-Control") == "private, no-cache")
    #expect(try served.get(all[8]).header("Cache-Control") == "private, max-age=31536000, immutable")
    #expect(try served.get("/static/style.css?v=old").header("Cache-Control") == "private, no-cache")
    #expect(try served.get("/nowhere").header("Cache-Control") == "no-store")
    #expect(try served.get(all[8]).header("Content-Type") == "text/css; charset=utf-8")
    #expect(try served.get(all[9]).header("Content-Type") == "text/javascript; charset=utf-8")
    #expect(try served.get(all[10]).header("Content-Type") == "image/svg+xml")
  }

  @Test func connectionsAreKeptAlive() throws {
    let served = try SharedArchive.get()
    let socket = try HTTPClient.connect(served.port, timeout: 30)
    defer { close(socket) }
    // Two requests on one connection, the second asking to close it after its answer.
    let request = "GET /api/drafts?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    try HTTPClient.send(socket, Array((request + "\r\n" + request + "Connection: close\r\n\r\n").utf8))
    let text = String(decoding: try HTTPClient.receiveAll(socket), as: UTF8.self)
    #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count - 1 == 2)
  }

  @Test func onlyGetAndHead() throws {
    let served = try SharedArchive.get()
    for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "BREW"] {
      let response = try served.get("/", method: method)
      #expect(response.status == 405, "\(method)")
      #expect(response.header("Allow") == "GET, HEAD")
    }
    let body = "POST /api/drafts HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"
    #expect(try HTTPClient.parse(try HTTPClient.exchange(served.port, Array(body.utf8))).status == 405)
  }
}
