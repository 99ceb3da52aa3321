// Who may read: a token on a server that has one (always beyond loopback), in a header, the
// query or the cookie it sets; and on loopback only requests that name a loopback host.

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
    // A page opened with the token sets the cookie and drops the token from the address.
    let opened = try served.get("/?q=name%3Aa&token=\(Self.token)")
    #expect(opened.status == 302)
    #expect(opened.header("Location") == "/?q=name%3Aa")
    let cookie = try #require(opened.header("Set-Cookie"))
    #expect(cookie.hasSuffix("=\(Self.token); Path=/; HttpOnly; SameSite=Strict"))
    let pair = String(cookie.prefix { $0 != ";" })
    #expect(try served.get("/?q=name%3Aa", headers: [("Cookie", "other=1; " + pair)]).status == 200)
    #expect(try served.get("/", headers: [("Cookie", pair + "x")]).status == 401)
  }

  @Test func anotherHostAlwaysHasAToken() throws {
    let served = try ServedArchive(host: "0.0.0.0", importNow: false)
    let token = try #require(served.server.token)
    #expect(token.count == 32)
    #expect(served.server.url == "http://0.0.0.0:\(served.port)/?token=\(token)")
    #expect(try served.get("/").status == 401)
    #expect(try served.get("/api/drafts", headers: [("Authorization", "Bearer \(token)")]).status == 200)
    // Any Host is fine then: the token decides.
    #expect(try HTTPClient.get(served.port, "/api/drafts?token=\(token)", host: "example.com").status == 200)
    #expect(AccessControl.newToken() != AccessControl.newToken())
  }

  @Test func loopbackAnswersOnlyLoopbackHosts() throws {
    let served = try SharedArchive.get()
    for host in [
      "127.0.0.1", "127.0.0.1:\(served.port)", "localhost:\(served.port)", "[::1]:\(served.port)", "LOCALHOST",
    ] {
      #expect(try HTTPClient.get(served.port, "/api/drafts?limit=1", host: host).status == 200, "\(host)")
    }
    for host in ["evil.example", "evil.example:\(served.port)", "127.0.0.1.evil.example", "[::2]", "0.0.0.0"] {
      #expect(try HTTPClient.get(served.port, "/api/drafts?limit=1", host: host).status == 403, "\(host)")
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
