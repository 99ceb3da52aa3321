// The steps every request passes, in this order, here and nowhere else:
//   1. method: GET and HEAD only (the server changes nothing), else 405;
//   2. target, read strictly (RequestTarget): 400 or 414 before anything else sees it;
//   3. access (AccessControl): the Host header on loopback, the token when there is one (a
//      path under `/t/TOKEN/` is routed without those segments, and its answer's links keep
//      them: Links.prefix);
//   4. who asks for work (CrossSiteWork): a route that computes refuses another site's
//      request, 403 before anything is looked up or queued;
//   5. route (Routes.swift): the view at the path, given the request's context; 404 when
//      there is none;
//   6. errors: what a view throws, at once or in its work, becomes the 4xx/5xx page (or JSON
//      under /api/) saying what was wrong;
//   7. encoding (ResponseEncoding): the security headers, entity tag, 304, gzip, ranges, on
//      every response whichever step made it, once, on its way out.
// What costs more than a look-up (rendering a drawing, a drawing's stroke list) a view answers
// `.later` (Answer.swift): the daemon runs it on the bounded work queue, where steps 6 and 7
// finish it, and answers 503 when the queue is full. Each job names its kind (`WorkKind`),
// which bounds its share of the queue.
//
// The daemon calls `answer(_:)` for every request, and the network fuzzer calls the same
// (ArchiveServer.answer), running the work on its own thread.

import InklingArchive

struct RequestChain: Sendable {
  let access: AccessControl
  let server: ServerResources

  /// What `request` gets; called on the daemon's thread, while the request's headers can be read.
  func answer(_ request: HTTPRequest) -> Answer<QueuedWork> {
    let conditions = ResponseEncoding.Conditions(request)
    return respond(to: request).mapResponses { ResponseEncoding.finish($0, for: conditions) }
  }

  /// Steps 1 to 6.
  private func respond(to request: HTTPRequest) -> Answer<QueuedWork> {
    let context: RequestContext
    do {
      context = try admit(request)
    } catch {
      return .now(error.response)
    }
    let json = context.json
    let prefix = context.linkPrefix
    switch Self.linked(prefix, { Self.catching(json: json) { try Routes.answer(context) } }) {
    case .now(let response): return .now(response)
    case .later(let work):
      // Every route that queues work is among those that compute; this keeps it so.
      if let refused = CrossSiteWork.refusal(request, json: json) { return .now(refused) }
      let busy = Self.linked(prefix) {
        ErrorView.response(
          status: 503, "The server is busy drawing other images; try again in a moment.", json: json,
          headers: [("Retry-After", "2")])
      }
      return .later(
        QueuedWork(
          kind: Routes.kind(of: context.target.segments),
          run: { Self.linked(prefix) { Self.catching(json: json, work) } }, busy: busy))
    }
  }

  /// A request the chain answers before any view: the response it gets instead.
  struct Refusal: Error {
    var response: HTTPResponse
  }

  /// Steps 1 to 4: the context of a request that may be routed.
  private func admit(_ request: HTTPRequest) throws(Refusal) -> RequestContext {
    let api = request.target.hasPrefix("/api/")
    guard request.method == "GET" || request.method == "HEAD" else {
      throw Refusal(
        response: ErrorView.response(
          status: 405, "This server only reads the archive: GET and HEAD, not \(request.method).", json: api,
          headers: [("Allow", "GET, HEAD")], standalone: true))
    }
    let target: RequestTarget
    do {
      target = try RequestTarget(request.target)
    } catch {
      throw Refusal(response: ErrorView.response(status: error.status, error.message, json: api, standalone: true))
    }
    let (given, routed) = access.capability(of: target)
    let first = routed.segments.first
    if let denied = access.check(request, routed, given: given, isPage: Routes.isPage(routed.segments)) {
      throw Refusal(response: denied)
    }
    if Routes.computes(routed.segments), let refused = CrossSiteWork.refusal(request, json: first == "api") {
      throw Refusal(response: refused)
    }
    return RequestContext(
      request: request, target: routed, json: first == "api", linkPrefix: access.linkPrefix(given: given),
      server: server)
  }

  /// Step 6 for a view's answer: what it throws becomes the page that says so.
  private static func catching(json: Bool, _ view: () throws -> Answer<ViewWork>) -> Answer<ViewWork> {
    do { return try view() } catch { return .now(failure(error, json: json)) }
  }

  /// Step 6 for a view's work.
  private static func catching(json: Bool, _ work: ViewWork) -> HTTPResponse {
    do { return try work() } catch { return failure(error, json: json) }
  }

  /// What an error thrown by a view becomes.
  static func failure(_ error: any Error, json api: Bool) -> HTTPResponse {
    switch error {
    case let error as RequestError: ErrorView.response(error, json: api)
    case let error as ArchiveError: ErrorView.response(RequestError(error), json: api)
    case let error as SearchSyntaxError: ErrorView.response(status: 400, error.description, json: api)
    default: ErrorView.response(status: 500, "\(error)", json: api)
    }
  }

  /// `body` with the links it writes under `prefix` (Links.prefix); bound only when there is
  /// one, so that a script's request (the token in a header) costs no more.
  private static func linked<T>(_ prefix: String, _ body: () -> T) -> T {
    prefix.isEmpty ? body() : Links.$prefix.withValue(prefix, operation: body)
  }
}
