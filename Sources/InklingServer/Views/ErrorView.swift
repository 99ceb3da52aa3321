// 4xx and 5xx answers that say what was wrong: a page for people, `{"error": …}` under /api/.
// What each archive error means for a request is in ErrorSentences.swift.

import InklingArchive
import InklingFormats
import InklingPresentation

/// A request that cannot be answered as asked: its status, a sentence for the person, and
/// drafts they may have meant.
struct RequestError: Error {
  var status: Int
  var message: String
  /// The message for the API when it differs from the page's (names without isolates).
  var jsonMessage: String?
  var suggestions: [String] = []

  /// The message for the API.
  var apiMessage: String { jsonMessage ?? message }

  init(_ status: Int, _ message: String, suggestions: [String] = []) {
    self.status = status
    self.message = message
    self.suggestions = suggestions
  }
}

enum ErrorView {
  /// `standalone`: the answer comes before the request's token is known to be good, so the
  /// page has none of the links that need it (Layout.standalone).
  static func response(
    status: Int, _ message: String, json: Bool, suggestions: [String] = [], headers: [(String, String)] = [],
    standalone: Bool = false
  ) -> HTTPResponse {
    if json {
      var value: JSONValue = ["error": .string(message), "status": .int(status)]
      if !suggestions.isEmpty {
        value = JSONFields.adding([("suggestions", .array(suggestions.map { .string($0) }))], to: value)
      }
      return HTTPResponse(
        status: status, contentType: HTTPResponse.json, body: Escape.json(value), cache: .none, headers: headers)
    }
    let meant: HTML =
      suggestions.isEmpty
      ? ""
      : "<p>Did you mean: \(HTML(joining: suggestions.enumerated().map { "\($0.offset == 0 ? "" : ", ")<a href=\"\(Links.draft(named: $0.element))\">\(name: $0.element)</a>" }))?</p>"
    let title = "\(status) \(HTTPResponse.reason(status))"
    if standalone {
      let page = Layout.standalone(title: title, main: "<h1>\(title)</h1>\n<p>\(message)</p>")
      return HTTPResponse(
        status: status, contentType: HTTPResponse.html, body: page.bytes, cache: .none, headers: headers)
    }
    let page = Layout.page(
      title: title,
      main: """
        <section class="problem" role="alert">
        <h1>\(title)</h1>
        <p>\(message)</p>
        \(meant)
        <p><a href="\(Links.grid(GridState()))">All drafts</a></p>
        </section>
        """)
    return HTTPResponse(
      status: status, contentType: HTTPResponse.html, body: page.bytes, cache: .none, headers: headers)
  }

  static func response(_ error: RequestError, json: Bool) -> HTTPResponse {
    response(status: error.status, json ? error.apiMessage : error.message, json: json, suggestions: error.suggestions)
  }
}
