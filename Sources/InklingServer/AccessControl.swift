// Who may read the archive through the server.
//
//   - A token, when the server has one (always on a non-loopback address): a request carries
//     it as `Authorization: Bearer TOKEN`, as a `token` query parameter, or in the cookie that
//     a page opened with `?token=` sets (HttpOnly, SameSite=Strict) while redirecting to the
//     same address without it, so that the token leaves the address bar and the pages' links
//     need not carry it. Anything else gets 401. Tokens are compared in constant time.
//   - The Host header, on loopback: a page of another site can make the browser send requests
//     to 127.0.0.1 under its own name (DNS rebinding) and read the answers; a request naming
//     a host other than a loopback address or `localhost` gets 403.

import InklingFormats

struct AccessControl: Sendable {
  let token: String?
  let loopbackOnly: Bool

  /// A new random token: 32 letters and digits (190 bits) from the system's secure generator.
  static func newToken() -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    var generator = SystemRandomNumberGenerator()
    return String((0..<32).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
  }

  /// Whether `token` can travel in a URL and a cookie as it is.
  static func isValidToken(_ token: String) -> Bool {
    (8...128).contains(token.count)
      && token.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
      }
  }

  /// The cookie's name: one per token, so that servers on two ports of one host (cookies do not
  /// tell ports apart) do not overwrite each other's.
  var cookieName: String {
    let digits = String(XXHash64.hash(Array((token ?? "").utf8)), radix: 16)
    return "inkling-token-" + String(digits.prefix(8))
  }

  /// nil when the request may go on; else the response to send instead.
  func check(_ request: HTTPRequest, _ target: RequestTarget, isPage: Bool) -> HTTPResponse? {
    if loopbackOnly, let host = request.header("Host"), !Self.isLoopbackHost(host) {
      return ErrorView.response(
        status: 403, "This server answers only requests for 127.0.0.1 or localhost, not for \(host).", json: !isPage)
    }
    guard let token else { return nil }
    if let authorization = request.header("Authorization"), authorization.hasPrefix("Bearer "),
      Self.equal(String(authorization.dropFirst(7)), token)
    {
      return nil
    }
    if let given = target.parameter("token"), Self.equal(given, token) {
      guard isPage else { return nil }
      var rest = target
      rest.query.removeAll { $0.key == "token" }
      return HTTPResponse.redirect(
        to: Links.sameTarget(rest).text,
        headers: [("Set-Cookie", "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict")])
    }
    if let cookies = request.header("Cookie"),
      Self.cookie(cookieName, in: cookies).map({ Self.equal($0, token) }) == true
    {
      return nil
    }
    return ErrorView.response(
      status: 401,
      "This server needs its token: open the address with ?token=… that it printed when it started.",
      json: !isPage, headers: [("WWW-Authenticate", "Bearer")])
  }

  /// Whether a Host header names a loopback address or localhost (with or without a port).
  static func isLoopbackHost(_ header: String) -> Bool {
    var host = Substring(header.lowercased())
    if host.hasPrefix("[") {
      guard let end = host.firstIndex(of: "]") else { return false }
      return host[host.index(after: host.startIndex)..<end] == "::1"
    }
    if let colon = host.lastIndex(of: ":") { host = host[..<colon] }
    return host == "localhost" || (host.hasPrefix("127.") && host.split(separator: ".").count == 4)
  }

  /// The value of cookie `name` in a Cookie header.
  static func cookie(_ name: String, in header: String) -> String? {
    for pair in header.split(separator: ";") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      if parts.count == 2, parts[0].drop(while: { $0 == " " }) == name { return String(parts[1]) }
    }
    return nil
  }

  /// Compares without stopping at the first difference, so that timing tells nothing of the
  /// token.
  static func equal(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    var difference = UInt8(truncatingIfNeeded: x.count ^ y.count)
    for index in 0..<max(x.count, y.count) {
      difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
    }
    return difference == 0 && x.count == y.count
  }
}
