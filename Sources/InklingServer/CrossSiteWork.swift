// Work that another site asks for is refused. Any page the user visits can make the browser
// ask this server for a time-lapse, a render or a zip (`<video src>`, `<img src>`, a no-cors
// `fetch`) without being able to read the answer: enough to spend the server's renders, fill
// its cache and make the user's own pages wait. The browser says who asks: `Sec-Fetch-Site`
// is `same-origin` for this server's own pages and `none` for what the user typed, bookmarked
// or opened from another program; `cross-site` or `same-site` (another port of the same host
// is the same site) is another site. A request that sends `Origin` names the page's origin,
// which must be this server's own (`http://` and the Host the request names). A client that
// sends neither (curl, a script) is not a browser page acting for someone else, and is served.
//
// Only the routes that compute are guarded (Routes.computes): the pages and look-ups stay
// reachable from a link in another site, as a link to any web page is.

enum CrossSiteWork {
  /// The 403 for a request another site made, or nil when it may be served.
  static func refusal(_ request: HTTPRequest, json: Bool) -> HTTPResponse? {
    if let site = request.header("Sec-Fetch-Site")?.lowercased(), site != "same-origin", site != "none" {
      return refused(json: json)
    }
    if let origin = request.header("Origin") {
      guard let host = request.header("Host"), origin.lowercased() == "http://" + host.lowercased() else {
        return refused(json: json)
      }
    }
    return nil
  }

  private static func refused(json: Bool) -> HTTPResponse {
    ErrorView.response(
      status: 403, "This server draws and packs only for its own pages, not for another site's.", json: json,
      standalone: true)
  }
}
