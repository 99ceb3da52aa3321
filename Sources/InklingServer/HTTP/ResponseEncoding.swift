// What every response gets on its way out, in one place: the security headers, an entity tag
// and the cache policy, 304 for a matching If-None-Match, and gzip for text when the client
// accepts it. HEAD needs nothing here: MHD sends a HEAD response's headers (Content-Length
// included) without its body, so a HEAD is answered exactly as its GET would be.

import FoundationEssentials
import InklingFormats

enum ResponseEncoding {
  /// The Content-Security-Policy of every response (Fossil's `style_csp()`): only this
  /// server's own images, styles and scripts; no inline script or style, no frames, no
  /// plugins, forms only to this server.
  static let contentSecurityPolicy =
    "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; "
    + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

  /// The headers that keep a response from being framed, sniffed or leaking the address of
  /// the page it came from, on every response: the server's own and libmicrohttpd's.
  static let securityHeaders = [
    ("Content-Security-Policy", contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"), ("Cross-Origin-Resource-Policy", "same-origin"),
  ]

  /// The headers of the error responses libmicrohttpd writes itself (HTTPDBridge.h), whose
  /// bodies are short fixed HTML pages.
  static let libraryErrorHeaders =
    securityHeaders + [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")]

  /// Bodies smaller than this are sent as they are: gzip's header and the CPU cost more than
  /// the bytes saved.
  static let gzipThreshold = 1024

  /// What of a request the encoding depends on, kept past its handler (for a job's answer).
  struct Conditions: Sendable {
    var ifNoneMatch: String?
    var acceptEncoding: String?
    var range: String?
    var ifRange: String?

    init(_ request: HTTPRequest) {
      ifNoneMatch = request.header("If-None-Match")
      acceptEncoding = request.header("Accept-Encoding")
      range = request.header("Range")
      ifRange = request.header("If-Range")
    }
  }

  /// The response to send for a request with these conditions.
  static func finish(_ response: HTTPResponse, for request: Conditions) -> HTTPResponse {
    var response = response
    response.headers += securityHeaders
    response.headers.append(("Cache-Control", response.cache.header))
    let compressible = isCompressible(response.header("Content-Type") ?? "")
    if compressible { response.headers.append(("Vary", "Accept-Encoding")) }
    guard response.status == 200 else { return response }

    let tag = response.tag ?? "x" + hex(XXHash64.hash(response.body))
    let gzip = compressible && response.body.count >= gzipThreshold && acceptsGzip(request.acceptEncoding)
    // The compressed body is another representation, so another tag (RFC 9110 §8.8.3); a
    // request that names either gets 304, since both stand for the same resource state.
    let sent = gzip ? tag + "-gz" : tag
    response.headers.append(("ETag", "\"\(sent)\""))
    if let condition = request.ifNoneMatch, matches(condition, tags: [tag, tag + "-gz"]) {
      response.status = 304
      response.body = []
      response.headers.removeAll { $0.0 == "Content-Type" }
      return response
    }
    if response.ranges && !gzip {
      return ByteRanges.apply(response, range: request.range, ifRange: request.ifRange, tag: sent)
    }
    if gzip {
      response.body = Gzip.compress(response.body, level: 5)
      response.headers.append(("Content-Encoding", "gzip"))
    }
    return response
  }

  static func isCompressible(_ contentType: String) -> Bool {
    contentType.hasPrefix("text/") || contentType.hasPrefix("application/json")
      || contentType.hasPrefix("application/javascript") || contentType.hasPrefix("image/svg+xml")
  }

  /// Whether an Accept-Encoding value accepts gzip (`gzip`, `x-gzip` or `*`, without `q=0`).
  static func acceptsGzip(_ header: String?) -> Bool {
    guard let header else { return false }
    for item in header.split(separator: ",") {
      let parts = item.split(separator: ";").map { $0.trimmingSpaces().lowercased() }
      guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
      let refused = parts.dropFirst().contains { parameter in
        parameter.hasPrefix("q=") && (Double(parameter.dropFirst(2)) ?? 1) == 0
      }
      return !refused
    }
    return false
  }

  /// Whether an If-None-Match value names one of `tags` (weak comparison, RFC 9110 §13.1.2):
  /// `*`, or a list of `"tag"` and `W/"tag"`.
  static func matches(_ header: String, tags: [String]) -> Bool {
    for item in header.split(separator: ",") {
      var candidate = item.trimmingSpaces()
      if candidate == "*" { return true }
      if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
      guard candidate.count >= 2, candidate.hasPrefix("\""), candidate.hasSuffix("\"") else { continue }
      if tags.contains(String(candidate.dropFirst().dropLast())) { return true }
    }
    return false
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
