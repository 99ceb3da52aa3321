// Where a request ends, when its head leaves it in doubt (RFC 9112 §6.1, §6.3). A request with
// both Transfer-Encoding and Content-Length, or a transfer coding whose last is not `chunked`,
// or Transfer-Encoding in HTTP/1.0, can be read as ending in two places: a proxy in front that
// reads it one way and this server another would take the bytes after it for a request of the
// proxy's client ("request smuggling"). The RFC's answer for a server is 400 and closing the
// connection, so that nothing after such a head is ever read as a request. No route reads a
// body, so nothing a client needs is lost.

import InklingFormats

enum MessageFraming {
  /// Why a request's framing is in doubt, or nil when it is not; `header` looks up a request
  /// header by name.
  static func problem(version: String, header: (String) -> String?) -> String? {
    guard let encoding = header("Transfer-Encoding") else { return nil }
    if header("Content-Length") != nil { return "both Transfer-Encoding and Content-Length" }
    if version == "HTTP/1.0" { return "Transfer-Encoding in an HTTP/1.0 request" }
    let last = encoding.split(separator: ",").last.map { $0.trimmingSpaces().lowercased() }
    return last == "chunked" ? nil : "a transfer coding that does not end in chunked"
  }

  /// The answer to a request whose framing is in doubt: 400, and the connection closed after it.
  static func response(_ problem: String, headers: [(String, String)]) -> HTTPResponse {
    let body = """
      <!doctype html><html lang="en"><title>400 Bad Request</title><h1>400 Bad Request</h1>\
      <p>The request's framing is in doubt: \(problem).</p>

      """
    var response = HTTPResponse(status: 400, contentType: HTTPResponse.html, body: Array(body.utf8), cache: .none)
    response.headers += headers.filter { $0.0.lowercased() != "content-type" } + [("Connection", "close")]
    return response
  }
}
