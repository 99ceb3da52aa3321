// 4xx and 5xx answers that say what was wrong: a page for people, `{"error": …}` under /api/.

import InklingArchive
import InklingCommandLine

/// A request that cannot be answered as asked: its status and a sentence for the person.
struct RequestError: Error {
  var status: Int
  var message: String

  init(_ status: Int, _ message: String) {
    self.status = status
    self.message = message
  }

  /// What an archive operation's error means for a request: a malformed request (a bad date,
  /// a size that is not offered) is 400, something that is not there 404, an archive that
  /// cannot be read 500.
  init(_ error: ArchiveError) {
    switch error.kind {
    case .invalidRequest: self.init(400, error.message)
    case .failed: self.init(404, error.message)
    case .unusableArchive: self.init(500, error.message)
    }
  }
}

enum ErrorView {
  static func response(status: Int, _ message: String, json: Bool, headers: [(String, String)] = []) -> HTTPResponse {
    if json {
      return HTTPResponse(
        status: status, contentType: HTTPResponse.json,
        body: Escape.json(["error": .string(message), "status": .int(status)]), cache: .none, headers: headers)
    }
    let title = "\(status) \(HTTPResponse.reason(status))"
    let page = Layout.page(
      title: title,
      main: """
        <section class="problem" role="alert">
        <h1>\(title)</h1>
        <p>\(message)</p>
        <p><a href="\(Links.grid(GridState()))">All drafts</a></p>
        </section>
        """)
    return HTTPResponse(
      status: status, contentType: HTTPResponse.html, body: page.bytes, cache: .none, headers: headers)
  }

  static func response(_ error: RequestError, json: Bool) -> HTTPResponse {
    response(status: error.status, error.message, json: json)
  }
}
