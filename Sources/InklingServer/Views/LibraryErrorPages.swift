// The pages of the error responses libmicrohttpd writes itself, before any handler sees the
// request (HTTPDBridge.h): the release build's patched library sends these instead of its
// own, which have no doctype (quirks mode) and call a target that is too long a header too
// big. No request reached the server, so there is no token to link back with: each page only
// says what was wrong.

enum LibraryErrorPages {
  /// Each status libmicrohttpd answers by itself, and what it means for this server.
  static let sentences: [(status: Int, sentence: String)] = [
    (
      400,
      "The request is not well-formed HTTP: a line of its head does not read, an HTTP/1.1 request names no Host, or the length or chunks of its body do not read."
    ),
    (413, "The request's body is larger than this server reads; it answers GET and HEAD, which have none."),
    (414, "The address asked for is longer than this server reads: none of its pages has an address this long."),
    (431, "The request's headers are larger than this server reads."),
    (500, "The server had no memory left for this connection; try again."),
    (505, "The request is in an HTTP version this server does not speak: it answers HTTP/1.0 and HTTP/1.1."),
  ]

  /// The page for each status.
  static var pages: [(status: Int, page: String)] {
    sentences.map { entry in
      let title = "\(entry.status) \(HTTPResponse.reason(entry.status))"
      let page = Layout.standalone(title: title, main: "<h1>\(title)</h1>\n<p>\(entry.sentence)</p>")
      return (entry.status, page.markup)
    }
  }
}
