// What a request gets: a response now, or work that makes one on the bounded work queue
// (WorkQueue.swift) while its connection waits. The views and the daemon answer in this one
// shape; only their work differs. A view's may throw (RequestChain turns what it throws into
// the page that says so); the daemon's cannot, and says what kind of work it is and what to
// send when the queue has no room for it.

enum Answer<Work> {
  case now(HTTPResponse)
  case later(Work)
}

/// The expensive part of a view's answer.
typealias ViewWork = @Sendable () throws -> HTTPResponse

/// Work as the daemon queues it.
struct QueuedWork: Sendable {
  /// Its share of the queue.
  var kind: WorkKind
  var run: @Sendable () -> HTTPResponse
  /// What the request gets instead when the queue has no room.
  var busy: HTTPResponse
}

extension Answer where Work == QueuedWork {
  /// The same answer with `finish` applied to each response it can give: the one now, or the
  /// work's and the busy one.
  func mapResponses(_ finish: @escaping @Sendable (HTTPResponse) -> HTTPResponse) -> Self {
    switch self {
    case .now(let response): .now(finish(response))
    case .later(let work): .later(QueuedWork(kind: work.kind, run: { finish(work.run()) }, busy: finish(work.busy)))
    }
  }

  /// The response, its work run on the calling thread: the daemon's answer, the work queue aside.
  func runHere() -> HTTPResponse {
    switch self {
    case .now(let response): response
    case .later(let work): work.run()
    }
  }
}
