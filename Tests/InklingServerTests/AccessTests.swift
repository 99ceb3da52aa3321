// Who may read: a token on a server that has one (always beyond loopback, and `serve` always
// has one), in a header, the query or the path (`/t/TOKEN/…`), never a cookie; and on
// loopback only requests that name a loopback host.

import Foundation
import Testing

@testable import InklingServer

@Suite struct AccessTests {
  static let token = "s3cret-token_for-tests"

  @Test func aTokenIsRequiredWhenThereIsOne() throws {
    let served = try ServedArchive(token: Self.token, importNow: false)
    #expect(served.server.url == "http://127.0.0.1:\(served.port)/?token=\(Self.token)")
    for target in ["/", "/api/drafts", "/draft?name=x", "/versions/1/file", "/static/style.css", "/nowhere"] {
      let response = try served.get(target)
      #expect(response.status == 401, "\(target)")
      #expect(response.header("WWW-Authenticate") == "Bearer")
    }
    #expect(try served.get("/?token=wrong").status == 401)
    #expect(try served.get("/", headers: [("Authorization", "Bearer wrong")]).status == 401)
    #expect(try served.get("/api/drafts", headers: [("Authorization", "Bearer \(Self.token)")]).status == 200)
    #expect(try served.get("/api/drafts?token=\(Self.token)").status == 200)
    // A page opened with the token moves under the token's path; no cookie is set.
    let opened = try served.get("/?q=name%3Aa&token=\(Self.token)")
    #expect(opened.status == 302)
    #expect(opened.header("Location") == "/t/\(Self.token)/?q=name%3Aa")
    #expect(opened.header("Set-Cookie") == nil)
    // The redirect stays on this server, whatever the path: `//host` would be another site.
    for (path, location) in [("//evil.example", "/evil.example"), ("///evil.example/x", "/evil.example/x")] {
      let redirected = try served.get("\(path)?token=\(Self.token)")
      #expect(redirected.status == 302, "\(path)")
      #expect(redirected.header("Location") == "/t/\(Self.token)" + location, "\(path)")
    }
    #expect(try served.get(#"/\evil.example?token="# + Self.token).status == 400)
    // The token's path is read as the token, and anything else there as no token.
    #expect(try served.get("/t/\(Self.token)/?q=name%3Aa").status == 200)
    #expect(try served.get("/t/\(Self.token)/api/drafts").status == 200)
    for target in ["/t/wrong-token-1/", "/t/\(Self.token)x/api/drafts", "/t/", "/t", "/x/\(Self.token)/"] {
      #expect(try served.get(target).status == 401, "\(target)")
    }
    // A cookie grants nothing, whatever it holds: cookies go to every port of the host.
    for cookie in ["inkling-token-1d2c3b4a=\(Self.token)", "token=\(Self.token)", Self.token] {
      #expect(try served.get("/", headers: [("Cookie", cookie)]).status == 401, "\(cookie)")
    }
  }

  /// A browser keeps the token only by following links: every URL a page under the token's
  /// path names (links, images, the stylesheet, the script, the search form) carries the path,
  /// and so do the JSON twins' links.
  @Test func pagesUnderTheTokensPathLinkUnderIt() throws {
    let served = try ServedArchive(token: Self.token)
    let prefix = "/t/\(Self.token)/"
    let grid = try served.get(prefix)
    #expect(grid.status == 200)
    let html = String(decoding: try grid.decodedBody(), as: UTF8.self)
    let draft = try #require(Markup.attributes("href", in: html).first { $0.hasPrefix(prefix + "draft?id=") })
    var urls: [String] = []
    for page in [prefix, draft, draft + "&version=1", prefix + "trash"] {
      let response = try served.get(page)
      #expect(response.status == 200, "\(page)")
      let text = String(decoding: try response.decodedBody(), as: UTF8.self)
      urls += ["href", "src", "action", "data-src"].flatMap { Markup.attributes($0, in: text) }
    }
    let own = urls.filter { $0.hasPrefix("/") }
    #expect(own.count > 20)
    #expect(own.filter { !$0.hasPrefix(prefix) } == [])
    for url in Set(own) where url.contains("/versions/") || url.contains("/static/") || url.contains("/swatches/") {
      #expect(try served.get(url).status == 200, "\(url)")
    }
    let api = try #require(try served.get(prefix + "api/drafts?limit=2").json() as? [String: Any])
    #expect((api["next"] as? String)?.hasPrefix(prefix + "api/drafts?") == true)
    // A wrong token in the path, let in by the header, is not written into the links.
    let wrong = try served.get(
      "/t/%3Cb%3E/api/drafts?limit=2", headers: [("Authorization", "Bearer \(Self.token)")])
    #expect(((try wrong.json() as? [String: Any])?["next"] as? String)?.hasPrefix("/api/drafts?") == true)
    // Asked with the header, the same links are the server's plain paths, as scripts have them.
    let plain = try served.get("/api/drafts?limit=2", headers: [("Authorization", "Bearer \(Self.token)")])
    #expect(((try plain.json() as? [String: Any])?["next"] as? String)?.hasPrefix("/api/drafts?") == true)
  }

  /// Nothing the server holds is for a shared cache: every response is `private`, and one
  /// named by its content is also immutable.
  @Test func responsesWithATokenArePrivate() throws {
    let served = try ServedArchive(token: Self.token, hostile: false)
    let prefix = "/t/\(Self.token)/"
    let html = String(decoding: try served.get(prefix).decodedBody(), as: UTF8.self)
    let thumbnail = try #require(Markup.attributes("src", in: html).first { $0.contains("/thumbnail.png") })
    let style = try #require(Markup.attributes("href", in: html).first { $0.contains("/static/style.css") })
    let first = try served.get(thumbnail)
    let hash = try #require(first.header("ETag")).dropFirst().prefix(16)
    for target in [prefix, prefix + "api/drafts", thumbnail, thumbnail + "&h=\(hash)", style, "/", "/nowhere"] {
      let policy = try #require(try served.get(target).header("Cache-Control"), "\(target)")
      #expect(!policy.contains("public"), "\(target): \(policy)")
      #expect(policy.hasPrefix("private") || policy == "no-store", "\(target): \(policy)")
    }
    #expect(try served.get(thumbnail + "&h=\(hash)").header("Cache-Control") == "private, max-age=31536000, immutable")
    #expect(try served.get(prefix).header("Cache-Control") == "private, no-cache")
  }

  @Test func anotherHostAlwaysHasAToken() throws {
    let served = try ServedArchive(host: "0.0.0.0", importNow: false)
    let token = try #require(served.server.token)
    #expect(token.count == 32)
    #expect(served.server.url == "http://0.0.0.0:\(served.port)/?token=\(token)")
    #expect(try served.get("/").status == 401)
    #expect(try served.get("/api/drafts", headers: [("Authorization", "Bearer \(token)")]).status == 200)
    // On a wildcard address any address literal is fine (the machine's addresses are not known),
    // but a name other than localhost is what a rebinding page sends: 403 even with the token.
    for host in ["192.168.1.5:\(served.port)", "10.0.0.7", "localhost"] {
      #expect(try HTTPClient.get(served.port, "/api/drafts?token=\(token)", host: host).status == 200, "\(host)")
    }
    for host in ["example.com", "127.rebind.attacker.com", "192.168.1.5.evil.example", "[fe80::1]"] {
      #expect(try HTTPClient.get(served.port, "/api/drafts?token=\(token)", host: host).status == 403, "\(host)")
    }
    #expect(AccessControl.newToken() != AccessControl.newToken())
  }

  @Test func loopbackAnswersOnlyLoopbackHosts() throws {
    let served = try SharedArchive.get()
    for host in [
      "127.0.0.1", "127.0.0.1:\(served.port)", "localhost:\(served.port)", "[::1]:\(served.port)", "LOCALHOST",
    ] {
      #expect(try HTTPClient.get(served.port, "/api/drafts?limit=1", host: host).status == 200, "\(host)")
    }
    for host in ["127.0.0.2", "127.255.1.0:80", "[0:0::1]"] {
      #expect(try HTTPClient.get(served.port, "/api/drafts?limit=1", host: host).status == 200, "\(host)")
    }
    // Names a DNS-rebinding page can have (one that resolves to 127.0.0.1 would otherwise read
    // the archive), and spellings of 127.0.0.1 that are not one browsers send.
    for host in [
      "evil.example", "evil.example:\(served.port)", "127.0.0.1.evil.example", "[::2]", "0.0.0.0",
      "127.rebind.attacker.com", "127.rebind.attacker.com:\(served.port)", "127.0.0.evil", "127.256.0.1", "127.0.0.01",
      "127.1", "0x7f.0.0.1", "127..0.1", "localhost.evil.example", "127.0.0.1:", "127.0.0.1:80x", "[::1", "[::1]x",
      "[evil]", "192.168.1.5",
    ] {
      #expect(try HTTPClient.get(served.port, "/api/drafts?limit=1", host: host).status == 403, "\(host)")
    }
  }

  /// HTTP/1.1 requires a Host header (RFC 9112, section 3.2); only HTTP/1.0 may leave it out.
  @Test func anHTTP11RequestWithoutHostIsRefused() throws {
    let served = try SharedArchive.get()
    let request = { (version: String) throws -> RawResponse in
      let bytes = Array("GET /api/drafts?limit=1 \(version)\r\nConnection: close\r\n\r\n".utf8)
      return try HTTPClient.parse(try HTTPClient.exchange(served.port, bytes, halfClose: false))
    }
    let withoutHost = try request("HTTP/1.1")
    #expect(withoutHost.status == 400)
    #expect(try withoutHost.json() is [String: Any])
    #expect(try request("HTTP/1.0").status == 200)
  }

  /// Accepted Host headers are remembered (AcceptedHosts): remembering never admits another.
  @Test func rememberedHostsAdmitOnlyThemselves() throws {
    let access = AccessControl(token: nil, listenHost: "kitchen.local")
    let target = try RequestTarget("/")
    let status = { (host: String) -> Int in
      let request = HTTPRequest(method: "GET", target: "/") { $0 == "Host" ? host : nil }
      return access.check(request, target, isPage: true)?.status ?? 200
    }
    // More accepted hosts than are remembered, twice: each is accepted every time.
    for _ in 0..<2 {
      for label in 0..<20 { #expect(status("127.0.0.\(label):8377") == 200) }
    }
    #expect(status("kitchen.local") == 200)
    for host in ["\u{212A}itchen.local", "127.rebind.attacker.com", "kitchen.local.evil", "127.0.0.1:8377x"] {
      #expect(status(host) == 403, "\(host)")
    }
  }

  @Test func aGivenAddressIsAnsweredUnderItsOwnName() {
    #expect(AccessControl.accepts(host: "192.168.1.5:8080", listeningOn: "192.168.1.5"))
    #expect(AccessControl.accepts(host: "[FE80::0:1]", listeningOn: "fe80::1"))
    #expect(AccessControl.accepts(host: "localhost", listeningOn: "192.168.1.5"))
    #expect(!AccessControl.accepts(host: "192.168.1.6", listeningOn: "192.168.1.5"))
    #expect(!AccessControl.accepts(host: "nas.local", listeningOn: "192.168.1.5"))
  }

  @Test func loopbackIsTheWholeOf127AndNothingElse() {
    for host in ["127.0.0.1", "127.3.2.1", "::1", "localhost"] {
      #expect(ServerConfiguration.isLoopback(host), "\(host)")
    }
    for host in ["127.example.com", "127.0.0.1.evil", "127.300.0.1", "1.127.0.0", "0.0.0.0", "::"] {
      #expect(!ServerConfiguration.isLoopback(host), "\(host)")
    }
  }

  @Test func tokensAreChecked() {
    #expect(AccessControl.isValidToken(Self.token))
    #expect(!AccessControl.isValidToken("short"))
    #expect(!AccessControl.isValidToken("has space in it"))
    #expect(!AccessControl.isValidToken("semi;colon;token"))
    #expect(throws: ServerError.self) {
      try ArchiveServer(ServerConfiguration(archivePath: "/nonexistent", port: 0, token: "bad token"))
    }
    #expect(
      AccessControl.equal("abc", "abc") && !AccessControl.equal("abc", "abd") && !AccessControl.equal("abc", "ab"))
  }
}
