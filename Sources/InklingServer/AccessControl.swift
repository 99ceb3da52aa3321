// Who may read the archive through the server.
//
//   - A token, when the server has one (`serve` always has: other accounts on the same
//     computer reach 127.0.0.1 as well as the user does). A request carries it as
//     `Authorization: Bearer TOKEN`, as a `token` query parameter, or as the first two segments
//     of its path, `/t/TOKEN/…`. Anything else gets 401. Tokens are compared in constant time.
//   - The path is how a browser carries it. A page opened with `?token=` is redirected to the
//     same page under `/t/TOKEN/`, and every link the server writes while answering a request
//     made that way starts with the same two segments (Links.prefix), so the pages need no
//     cookie. A cookie cannot carry it: cookies ignore ports, so the browser would send one to
//     every service on 127.0.0.1, and another account's server on another port would receive
//     it; whatever the cookie held (the token, a hash of it, a session of its own) would be
//     accepted here when that server sent it back, since a replayed value grants what the
//     value grants. A path goes only to the port it names; the Referer that could carry it
//     elsewhere is never sent (`Referrer-Policy: no-referrer` on every response and page).
//   - The Host header: a page of another site can make the browser send requests to this
//     server under its own name (DNS rebinding: the name first resolves to the attacker's
//     address, then to 127.0.0.1) and read the answers. Such a request always names a host
//     name, never an address, so the server answers only a Host that is a loopback address
//     literal (127.x.y.z with each label 0–255, `[::1]`), `localhost`, or the address it listens
//     on; on a wildcard address, whose names it cannot know, any address literal it can be
//     reached at (IPv4 on 0.0.0.0, IPv4 or IPv6 on ::). Anything else gets 403, token or not.

import Glibc
import Synchronization

struct AccessControl: Sendable {
  let token: String?
  /// The address the server listens on, as configured (`127.0.0.1`, `0.0.0.0`, `fe80::1`).
  let listenHost: String
  /// Host headers this server has accepted: a browser sends the same one with every request,
  /// and reading one again costs more than the rest of a cached thumbnail's answer.
  private let acceptedHosts = AcceptedHosts()

  init(token: String?, listenHost: String) {
    self.token = token
    self.listenHost = listenHost
  }

  /// A new random token: 32 letters and digits (190 bits) from the system's secure generator.
  static func newToken() -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    var generator = SystemRandomNumberGenerator()
    return String((0..<32).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
  }

  /// Whether `token` can travel in a URL as it is.
  static func isValidToken(_ token: String) -> Bool {
    (8...128).contains(token.count)
      && token.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
      }
  }

  /// The first segment of a path that carries the token in its second (`/t/TOKEN/…`).
  static let capabilitySegment = "t"

  /// `target` without the token segments it starts with, and the token they carry; the same
  /// target and nil when it has none (or the server needs no token: its paths are its own).
  func capability(of target: RequestTarget) -> (token: String?, rest: RequestTarget) {
    guard token != nil, target.segments.count >= 2, target.segments[0] == Self.capabilitySegment else {
      return (nil, target)
    }
    var rest = target
    rest.segments.removeFirst(2)
    // `/t/TOKEN/` is the grid, as `/` is.
    if rest.segments == [""] { rest.segments = [] }
    return (target.segments[1], rest)
  }

  /// The path prefix of the pages of a request that carried `token` in its path.
  static func linkPrefix(token: String) -> String { "/" + capabilitySegment + "/" + token }

  /// What the links answering a request start with: the token's segments when it carried the
  /// token in its path, else nothing (a wrong one let in by its header is not written back).
  func linkPrefix(given: String?) -> String {
    guard let given, let token, Self.equal(given, token) else { return "" }
    return Self.linkPrefix(token: token)
  }

  /// nil when the request may go on; else the response to send instead. `target` is the
  /// request's without the token segments, `given` the token they carried (capability(of:)).
  func check(_ request: HTTPRequest, _ target: RequestTarget, given: String? = nil, isPage: Bool) -> HTTPResponse? {
    guard let host = request.header("Host") else {
      // HTTP/1.0 may leave the Host out; a browser never does, so no page can use that.
      guard request.version == "HTTP/1.0" else {
        return ErrorView.response(
          status: 400, "An HTTP/1.1 request names its host in a Host header.", json: !isPage,
          standalone: true)
      }
      return check(token: request, target, given: given, isPage: isPage)
    }
    if !acceptedHosts.contains(host) {
      guard Self.accepts(host: host, listeningOn: listenHost) else {
        let names = ServerConfiguration.isLoopback(listenHost) ? "127.0.0.1 or localhost" : "its address or localhost"
        return ErrorView.response(
          status: 403, "This server answers only requests for \(names), not for \(host).", json: !isPage,
          standalone: true)
      }
      acceptedHosts.add(host)
    }
    return check(token: request, target, given: given, isPage: isPage)
  }

  /// nil when the request carries the token (or none is needed); else the 401, or the
  /// redirect of a page asked for with `?token=` to its address under the token's path.
  private func check(token request: HTTPRequest, _ target: RequestTarget, given: String?, isPage: Bool)
    -> HTTPResponse?
  {
    guard let token else { return nil }
    if let given, Self.equal(given, token) { return nil }
    if let authorization = request.header("Authorization"), authorization.hasPrefix("Bearer "),
      Self.equal(String(authorization.dropFirst(7)), token)
    {
      return nil
    }
    if given == nil, let parameter = target.parameter("token"), Self.equal(parameter, token) {
      guard isPage else { return nil }
      var rest = target
      rest.query.removeAll { $0.key == "token" }
      return HTTPResponse.redirect(to: Self.linkPrefix(token: token) + Links.sameTarget(rest).text)
    }
    return ErrorView.response(
      status: 401,
      "This server needs its token: open the address with ?token=… that it printed when it started.",
      json: !isPage, headers: [("WWW-Authenticate", "Bearer")], standalone: true)
  }

  /// Whether a Host header (a name or address, with an optional `:port`) is one this server
  /// answers when listening on `listenHost` (see the top of this file).
  static func accepts(host header: String, listeningOn listenHost: String) -> Bool {
    // A Host is ASCII (a browser sends a name's IDNA form); lowercasing other text can give
    // ASCII (a Kelvin sign becomes a k), so a name could pass as one it is not.
    guard header.utf8.allSatisfy({ $0 < 0x80 }), let host = hostPart(header.lowercased()) else { return false }
    let listen = listenHost.lowercased()
    if host == "localhost" || ipv4Labels(host)?.first == 127 || canonicalIPv6(host) == canonicalIPv6("::1") {
      return true
    }
    if host == listen || (listen == "localhost" && host == "127.0.0.1") { return true }
    if isIPv6(host), isIPv6(listen), canonicalIPv6(host) == canonicalIPv6(listen) { return true }
    switch listen {
    case "0.0.0.0": return ipv4Labels(host) != nil
    case "::", "0:0:0:0:0:0:0:0": return ipv4Labels(host) != nil || isIPv6(host)
    default: return false
    }
  }

  /// The host of a Host header without its port: `[::1]:80` is `::1`, `localhost:8377` is
  /// `localhost`; nil when the port is not 1 to 5 digits or the brackets do not close.
  static func hostPart(_ header: String) -> String? {
    var host = Substring(header)
    var port: Substring?
    if host.hasPrefix("[") {
      guard let end = host.firstIndex(of: "]") else { return nil }
      let rest = host[host.index(after: end)...]
      if !rest.isEmpty {
        guard rest.hasPrefix(":") else { return nil }
        port = rest.dropFirst()
      }
      host = host[host.index(after: host.startIndex)..<end]
      guard isIPv6(String(host)) else { return nil }
    } else if let colon = host.firstIndex(of: ":") {
      port = host[host.index(after: colon)...]
      host = host[..<colon]
    }
    if let port, !(1...5).contains(port.count) || !port.allSatisfy({ ("0"..."9").contains($0) }) { return nil }
    return host.isEmpty ? nil : String(host)
  }

  /// The four labels of a dotted-decimal IPv4 address written as browsers write one (each
  /// label 0–255 in decimal, no leading zero, nothing else), or nil: `127.1`, `0x7f.0.0.1`,
  /// `127.000.0.1` and `127.0.0.1.evil.example` are not addresses here.
  static func ipv4Labels(_ text: String) -> [Int]? {
    let labels = text.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count == 4 else { return nil }
    var values: [Int] = []
    for label in labels {
      guard (1...3).contains(label.count), label.allSatisfy({ ("0"..."9").contains($0) }),
        label == "0" || !label.hasPrefix("0"), let value = Int(label), value <= 255
      else { return nil }
      values.append(value)
    }
    return values
  }

  static func isIPv6(_ text: String) -> Bool { canonicalIPv6(text) != nil }

  /// The 16 bytes of an IPv6 literal, so that `::1` and `0:0::1` compare equal.
  private static func canonicalIPv6(_ text: String) -> [UInt8]? {
    guard text.contains(":") else { return nil }
    var address = in6_addr()
    guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
    return withUnsafeBytes(of: address) { Array($0) }
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

/// The last few Host headers accepted, in the order they were first accepted. Only accepted
/// ones are kept, so a client can do no more than make the server read its own names again.
private final class AcceptedHosts: Sendable {
  private static let capacity = 8
  private let hosts = Mutex<[String]>([])

  // Byte for byte: String's == would also take a header canonically equivalent to an accepted
  // one (a Kelvin sign for a K) as that one.
  func contains(_ host: String) -> Bool { hosts.withLock { $0.contains { $0.utf8.elementsEqual(host.utf8) } } }

  func add(_ host: String) {
    hosts.withLock { hosts in
      guard !hosts.contains(where: { $0.utf8.elementsEqual(host.utf8) }) else { return }
      if hosts.count == Self.capacity { hosts.removeFirst() }
      hosts.append(host)
    }
  }
}
