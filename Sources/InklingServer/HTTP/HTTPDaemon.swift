// The one file that talks to libmicrohttpd (through HTTPDBridge): it starts a daemon, turns each
// request into an HTTPRequest, passes it to the handler and queues the HTTPResponse it returns.
//
// Threads: MHD's internal pool polls connections with epoll and runs the handler on the pool
// thread of the connection, so at most `threads` handlers run at once, whatever the number of
// connections. A connection idle for `timeout` seconds (a vanished client) is closed by MHD, one
// that takes longer than `headSeconds` to send a request's head (a slow one) by the bridge, and
// neither holds a thread: a thread only waits in epoll.
//
// Every request gets exactly one response, on the last call of MHD's access handler (when the
// request is complete: HTTPDBridge.h says why not the first). A body, which no route accepts,
// is read and dropped. The one exception is a head whose framing is in doubt
// (MessageFraming.swift): it is answered 400 on the first call, before its body, which makes
// MHD close the connection after the answer.

import CMicroHTTPD
import FoundationEssentials
import Glibc
import HTTPDBridge
import Synchronization

/// How a daemon listens.
struct HTTPDaemonSettings: Sendable {
  /// IPv4 or IPv6 literal.
  var host: String
  /// 0 for any free port.
  var port: UInt16
  var threads: Int
  /// Connections open at once before a new one cuts the oldest waiting for its head.
  var connectionLimit: Int = 512
  /// Connections open at once from one address: a browser opens about six per server, a
  /// benchmark 32.
  var perAddressLimit: Int = 64
  /// Seconds to send a request's head (HTTPDBridge.h): far more than any browser needs.
  var headSeconds: Int = 10
  var timeoutSeconds: Int = 30
  /// Jobs running at once, and waiting, on the work queue.
  var workers: Int = 2
  var queueLimit: Int = 128
  /// Request line and headers of one connection: larger requests get 414 or 431 from MHD.
  /// MHD clears this memory for every request, so it is kept at MHD's own default, which
  /// holds RequestTarget's longest path and query with room for the headers.
  var memoryLimit: Int = 32 * 1024
  /// The headers of the error responses MHD writes itself (HTTPDBridge.h says when it can).
  var errorHeaders: [(String, String)] = ResponseEncoding.libraryErrorHeaders
  /// The pages of those responses, by status (HTTPDBridge.h says when they are sent).
  var errorPages: [(status: Int, page: String)] = LibraryErrorPages.pages

  /// `errorHeaders` in HTTPDBridge's form: each name and value ended by a NUL byte, then one more.
  var errorHeaderList: [CChar] { Self.bridgeList(errorHeaders) }

  /// `errorPages` in HTTPDBridge's form: each status in decimal and its page, as the headers.
  var errorPageList: [CChar] { Self.bridgeList(errorPages.map { (String($0.status), $0.page) }) }

  private static func bridgeList(_ pairs: [(String, String)]) -> [CChar] {
    var list: [CChar] = []
    for (name, value) in pairs {
      for text in [name, value] { list += text.utf8.map { CChar(bitPattern: $0) } + [0] }
    }
    return list + [0]
  }
}

/// Why a daemon did not start.
struct HTTPDaemonError: Error, CustomStringConvertible {
  var description: String
}

/// A running libmicrohttpd daemon.
final class HTTPDaemon: @unchecked Sendable {
  // @unchecked: `httpd` is set once in init and cleared in stop(), which callers make once
  // after the last request (the server's stop); `handler` is immutable.
  typealias Handler = @Sendable (HTTPRequest) -> Answer<QueuedWork>

  private var httpd: OpaquePointer?
  private let handler: Handler
  private let work: WorkQueue
  /// The headers of the responses this file writes itself (as MHD's own error responses).
  private let errorHeaders: [(String, String)]
  private let abandoned = Atomic<Int>(0)
  /// Jobs dropped unrun because their client had gone (tests).
  var abandonedJobs: Int { abandoned.load(ordering: .relaxed) }
  /// Jobs running now (tests).
  var runningJobs: Int { work.runningJobs }
  /// Jobs waiting now (tests).
  var waitingJobs: Int { work.waitingJobs }
  /// The port listened on (the one chosen when 0 was asked for).
  private(set) var port: UInt16 = 0

  init(_ settings: HTTPDaemonSettings, handler: @escaping Handler) throws(HTTPDaemonError) {
    self.handler = handler
    errorHeaders = settings.errorHeaders
    work = WorkQueue(workers: settings.workers, queueLimit: settings.queueLimit)
    var storage = sockaddr_storage()
    guard Self.address(settings.host, settings.port, into: &storage) else {
      throw HTTPDaemonError(description: "\(settings.host) is not an IPv4 or IPv6 address")
    }
    let context = Unmanaged.passUnretained(self).toOpaque()
    let started = withUnsafePointer(to: &storage) { address in
      address.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        settings.errorHeaderList.withUnsafeBufferPointer { errorHeaders in
          settings.errorPageList.withUnsafeBufferPointer { errorPages in
            var bridge = inkling_httpd_settings(
              address: address, threads: UInt32(max(1, settings.threads)),
              connection_limit: UInt32(settings.connectionLimit), per_address_limit: UInt32(settings.perAddressLimit),
              head_seconds: UInt32(settings.headSeconds), timeout_seconds: UInt32(settings.timeoutSeconds),
              memory_limit: settings.memoryLimit, error_headers: errorHeaders.baseAddress,
              error_pages: errorPages.baseAddress)
            return inkling_httpd_start(&bridge, accessHandler, context)
          }
        }
      }
    }
    guard let started else {
      throw HTTPDaemonError(
        description: "cannot listen on \(settings.host) port \(settings.port): \(String(cString: strerror(errno)))")
    }
    httpd = started
    port = inkling_httpd_port(started)
  }

  /// Stops accepting connections, waits up to `grace` seconds for the requests in flight to
  /// be answered, then closes every connection and joins MHD's threads.
  func stop(grace: Double) {
    guard let httpd else { return }
    inkling_httpd_quiesce(httpd)
    let deadline = Date().addingTimeInterval(grace)
    while inkling_httpd_in_flight(httpd) > 0 && Date() < deadline { usleep(10_000) }
    work.stop()  // before MHD's stop, which frees the connections the jobs would resume
    inkling_httpd_stop(httpd)
    self.httpd = nil
  }

  deinit { stop(grace: 0) }

  // MARK: - Requests

  fileprivate func handle(
    _ connection: OpaquePointer, method: String, version: String, uploadSize: UnsafeMutablePointer<Int>?,
    requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
  ) -> MHD_Result {
    if let uploadSize, uploadSize.pointee > 0 {
      uploadSize.pointee = 0  // a body no route reads
      return MHD_Result.YES
    }
    guard let httpd else { return MHD_Result.NO }
    switch inkling_httpd_next_step(httpd, connection, requestState) {
    case INKLING_HTTPD_ANSWER: break
    case INKLING_HTTPD_RESUMED:
      guard let answer = inkling_httpd_take_answer(requestState) else { return MHD_Result.NO }
      let box = Unmanaged<JobOutcome>.fromOpaque(answer).takeRetainedValue()
      // No response: the client went away before its job started; closing is all that is left.
      guard let response = box.response else { return MHD_Result.NO }
      return Self.queue(response, on: connection)
    case INKLING_HTTPD_WAIT:
      let problem = MessageFraming.problem(version: version) { name in
        MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
      }
      guard let problem else { return MHD_Result.YES }
      return Self.queue(MessageFraming.response(problem, headers: errorHeaders), on: connection)
    default: return MHD_Result.YES
    }
    var length = 0
    guard let uri = inkling_httpd_raw_uri(requestState, &length) else {
      let response = HTTPResponse(
        status: 500, contentType: "text/plain; charset=utf-8", body: Array("out of memory\n".utf8))
      return Self.queue(response, on: connection)
    }
    let target = String(decoding: UnsafeRawBufferPointer(start: uri, count: length), as: UTF8.self)
    let request = HTTPRequest(method: method, version: version, target: target) { name in
      MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
    }
    switch handler(request) {
    case .now(let response): return Self.queue(response, on: connection)
    case .later(let queued):
      let waiting = Waiting(connection: connection, request: inkling_httpd_request(requestState))
      // Suspended before the job can resume it; MHD polls the connection no more until then.
      MHD_suspend_connection(connection)
      let job = WorkQueue.Job(
        kind: queued.kind,
        run: {
          guard !inkling_httpd_client_gone(waiting.connection) else {
            self.abandoned.add(1, ordering: .relaxed)
            return waiting.resume(with: nil)
          }
          waiting.resume(with: queued.run())
        },
        drop: { waiting.resume(with: nil) })
      if !work.submit(job) { waiting.resume(with: queued.busy) }
      return MHD_Result.YES
    }
  }

  /// What a job leaves for its request.
  private final class JobOutcome {
    let response: HTTPResponse?
    init(_ response: HTTPResponse?) { self.response = response }
  }

  /// A suspended request, which one job resumes once.
  private struct Waiting: @unchecked Sendable {
    // @unchecked: MHD keeps both pointers valid while the connection is suspended, and
    // resuming from any thread is what MHD_ALLOW_SUSPEND_RESUME allows.
    let connection: OpaquePointer
    let request: UnsafeMutableRawPointer?

    func resume(with response: HTTPResponse?) {
      inkling_httpd_resume(connection, request, Unmanaged.passRetained(JobOutcome(response)).toOpaque())
    }
  }

  private static func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let made = response.body.withUnsafeBytes { body -> OpaquePointer? in
      guard let base = body.baseAddress, !body.isEmpty else {
        return MHD_create_response_from_buffer(0, nil, MHD_ResponseMemoryMode.RESPMEM_PERSISTENT)
      }
      return MHD_create_response_from_buffer(
        body.count, UnsafeMutableRawPointer(mutating: base), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
    }
    guard let made else { return MHD_Result.NO }  // out of memory: MHD closes the connection
    defer { MHD_destroy_response(made) }
    for (name, value) in response.headers {
      // Header values are ours; a CR or LF in one would be our bug, and MHD refuses them.
      _ = MHD_add_response_header(made, name, value)
    }
    return MHD_queue_response(connection, UInt32(response.status), made)
  }

  // MARK: - Addresses

  private static func address(_ host: String, _ port: UInt16, into storage: inout sockaddr_storage) -> Bool {
    withUnsafeMutableBytes(of: &storage) { raw in
      var v4 = sockaddr_in()
      if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
        v4.sin_family = sa_family_t(AF_INET)
        v4.sin_port = port.bigEndian
        withUnsafeBytes(of: v4) { raw.copyMemory(from: $0) }
        return true
      }
      var v6 = sockaddr_in6()
      if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
        v6.sin6_family = sa_family_t(AF_INET6)
        v6.sin6_port = port.bigEndian
        withUnsafeBytes(of: v6) { raw.copyMemory(from: $0) }
        return true
      }
      return false
    }
  }
}

/// MHD's access handler: finds the daemon from its context pointer and hands the request on.
private let accessHandler: MHD_AccessHandlerCallback = {
  context, connection, _, method, version, _, uploadSize, requestState in
  guard let context, let connection else { return MHD_Result.NO }
  let daemon = Unmanaged<HTTPDaemon>.fromOpaque(context).takeUnretainedValue()
  let name = method.map { String(cString: $0) } ?? ""
  let protocolVersion = version.map { String(cString: $0) } ?? ""
  return daemon.handle(
    connection, method: name, version: protocolVersion, uploadSize: uploadSize, requestState: requestState)
}
