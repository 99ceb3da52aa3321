// `serve`: the archive's web pages and JSON API on an HTTP port, read-only (the only write is
// the thumbnail cache, ThumbnailService.swift), until stopped.
//
// States: running (from init) → stopped (stop(): no new connections, requests in flight
// answered within the grace period, connections and archive closed). Invariants:
//   1. a server listening on an address other than loopback always has a token, and answers
//      401 to every request without it (AccessControl.swift);
//   2. every response passes ResponseEncoding.finish (security headers, entity tag, gzip), as
//      the last step of RequestChain, the daemon's one handler.

import FoundationEssentials
import InklingArchive

/// How to serve an archive.
public struct ServerConfiguration: Sendable {
  public var archivePath: String
  /// An IPv4 or IPv6 address literal; loopback (127.0.0.1) by default.
  public var host: String
  /// 0 for any free port (the one chosen is `ArchiveServer.port`).
  public var port: UInt16
  /// The token every request must carry; nil for none, which only a loopback host may have
  /// (another host without one gets a generated token). `serve` always gives one: on a
  /// computer with other accounts, loopback is theirs too.
  public var token: String?
  /// Request threads; the machine's cores by default.
  public var threads: Int
  /// Drafts per page of the grid.
  public var pageSize: Int
  /// What the server allows its clients (tests lower them).
  var limits = ServerLimits()

  public init(
    archivePath: String, host: String = "127.0.0.1", port: UInt16 = 8377, token: String? = nil,
    threads: Int = ProcessInfo.processInfo.activeProcessorCount, pageSize: Int = 60
  ) {
    self.archivePath = archivePath
    self.host = host
    self.port = port
    self.token = token
    self.threads = threads
    self.pageSize = pageSize
  }

  /// Whether `token` can be a server's token: 8 to 128 letters, digits, `-` or `_` (what a URL
  /// carries as they are).
  public static func isValidToken(_ token: String) -> Bool { AccessControl.isValidToken(token) }

  /// The address of a server on `host` and `port` with `token`: `http://HOST:PORT/`, with
  /// `?token=…` when there is one (the server then moves a page opened so under the token's
  /// path, AccessControl.swift).
  public static func url(host: String, port: UInt16, token: String?) -> String {
    let name = host.contains(":") ? "[\(host)]" : host
    return "http://\(name):\(port)/" + (token.map { "?token=" + $0 } ?? "")
  }

  /// Whether `host` is a loopback address (127.0.0.0/8 or ::1), reachable from this machine only.
  public static func isLoopback(_ host: String) -> Bool {
    host == "::1" || host == "localhost" || AccessControl.ipv4Labels(host)?.first == 127
  }
}

/// How much the server's clients may hold of it.
struct ServerLimits: Sendable {
  /// Connections open at once before a new one cuts the oldest still sending its head.
  var connections = 512
  /// Connections open at once from one address.
  var connectionsPerAddress = 64
  /// Seconds a connection has to send a request's head.
  var headSeconds = 10
  /// Renders and other expensive answers running at once (WorkQueue.swift): each may take the
  /// memory of a large canvas, so few, whatever the request threads.
  var workers = 2
  /// Expensive answers waiting to run; more get 503 with Retry-After. A grid page asks for 60
  /// thumbnails at once, which may all be misses, so room for two pages of them.
  var queuedWork = 128
  /// Strokes in one answer of `/api/draft?…&strokes=1`: a page of them, so that a drawing of
  /// 200,000 strokes is not one 37 MB response built in memory at once.
  var strokesPerPage = 5000
  /// PNG bytes of thumbnails the server may add to the archive's cache while it runs (only
  /// at the sizes the pages show); past it, and for other sizes, thumbnails stay in memory.
  var thumbnailQuota = 64 << 20
  /// Bytes of original files in one draft's zip (`/draft/versions.zip`), which is built in
  /// memory on the work queue; a draft holding more is refused with a sentence.
  var zipBytes: Int64 = 64 << 20
  /// Bytes of a version's file, or of a drawing it is decoded through, that one answer of
  /// `/versions/ID/file` builds in memory: what a file import accepts, so that every file
  /// imported here is served, and a drawing someone else's archive claims is larger is not
  /// decoded at all.
  var fileBytes: Int64 = ImportOptions.defaultMaximumFileSize
  /// Bytes of thumbnails kept in memory.
  var thumbnailMemory = 32 << 20
  /// Bytes of cached thumbnails' answers kept in memory (ThumbnailService.swift).
  var hotThumbnailMemory = 32 << 20
  /// Bytes of the draft pages' time-lapse videos kept in memory.
  var videoMemory = 64 << 20
  /// Bytes of time-lapse plans' summaries (each save's place in a video not made yet) kept in
  /// memory: about 32 bytes a save, so a few hundred long histories.
  var planMemory = 4 << 20
}

/// Why a server could not start.
public enum ServerError: Error, CustomStringConvertible, Sendable {
  /// The archive cannot be opened for reading.
  case archive(ArchiveError)
  /// The address or port cannot be listened on.
  case listen(String)
  /// A token that cannot travel in a URL.
  case invalidToken
  /// The file that keeps `serve`'s token cannot be made or read (TokenFile).
  case tokenFile(path: String, reason: String)

  public var description: String {
    switch self {
    case .archive(let error): error.description
    case .listen(let message): message
    case .invalidToken: "a token is 8 to 128 letters, digits, '-' or '_'"
    case .tokenFile(let path, let reason): "cannot keep the server's token in \(path): \(reason)"
    }
  }
}

/// A running server.
public final class ArchiveServer: @unchecked Sendable {
  // @unchecked: every stored property is immutable except through stop(), which the owner
  // calls once (HTTPDaemon and the pool guard their own state).
  private let daemon: HTTPDaemon
  private let pool: ArchivePool
  private let thumbnails: ThumbnailService
  /// What every request passes (RequestChain.swift): the daemon's handler.
  private let chain: RequestChain
  public let configuration: ServerConfiguration
  /// The token requests must carry (the configuration's, or generated for a non-loopback host).
  public let token: String?
  /// The port listened on.
  public var port: UInt16 { daemon.port }

  /// Opens the archive and starts listening.
  ///
  /// - Throws: `ServerError` when the archive cannot be read or the address not listened on.
  public init(_ configuration: ServerConfiguration) throws(ServerError) {
    self.configuration = configuration
    if let token = configuration.token, !AccessControl.isValidToken(token) { throw .invalidToken }
    token = configuration.token ?? (ServerConfiguration.isLoopback(configuration.host) ? nil : AccessControl.newToken())
    do {
      pool = try ArchivePool(path: configuration.archivePath)
    } catch {
      throw .archive(error)
    }
    let thumbnails = ThumbnailService(archivePath: configuration.archivePath, limits: configuration.limits)
    self.thumbnails = thumbnails
    let loopback = ServerConfiguration.isLoopback(configuration.host)
    let chain = RequestChain(
      access: AccessControl(token: token, listenHost: configuration.host),
      server: ServerResources(
        pool: pool, thumbnails: thumbnails, videos: PictureMemory(limit: configuration.limits.videoMemory),
        plans: PictureMemory(limit: configuration.limits.planMemory),
        pageSize: configuration.pageSize, strokesPerPage: configuration.limits.strokesPerPage,
        zipBytes: configuration.limits.zipBytes, fileBytes: configuration.limits.fileBytes,
        commandArchive: loopback ? ArchiveLocation.absolute(configuration.archivePath) : nil, fullPaths: loopback))
    self.chain = chain
    let host = configuration.host == "localhost" ? "127.0.0.1" : configuration.host
    do {
      daemon = try HTTPDaemon(
        HTTPDaemonSettings(
          host: host, port: configuration.port, threads: max(1, configuration.threads),
          connectionLimit: configuration.limits.connections,
          perAddressLimit: configuration.limits.connectionsPerAddress, headSeconds: configuration.limits.headSeconds,
          workers: configuration.limits.workers, queueLimit: configuration.limits.queuedWork),
        handler: chain.answer)
    } catch {
      pool.close()
      throw .listen(error.description)
    }
  }

  /// What the server sends for `request`: what the daemon's handler answers (RequestChain),
  /// its work run on the calling thread rather than queued. The network fuzzer's way in past
  /// libmicrohttpd's parsing.
  func answer(_ request: HTTPRequest) -> HTTPResponse {
    chain.answer(request).runHere()
  }

  /// Whether thumbnails rendered on a miss are stored in the archive's cache (false when the
  /// archive cannot be written: they are then rendered each time).
  public var storesThumbnails: Bool { thumbnails.storesInArchive }

  /// The address to open: `http://HOST:PORT/`, with `?token=…` when a token is needed.
  public var url: String { ServerConfiguration.url(host: configuration.host, port: port, token: token) }

  /// Stops accepting connections, lets the requests in flight finish (up to `grace` seconds),
  /// stores the thumbnails still queued and closes the archive.
  public func stop(grace: Double = 5) {
    daemon.stop(grace: grace)
    thumbnails.flush()
    pool.close()
  }

  /// Expensive answers dropped unrun because their client had gone (tests).
  var abandonedJobs: Int { daemon.abandonedJobs }
  /// Expensive answers being worked on now (tests).
  var runningJobs: Int { daemon.runningJobs }
  /// Expensive answers waiting to be worked on (tests).
  var waitingJobs: Int { daemon.waitingJobs }

  /// Stores the thumbnails rendered so far and waits until they are written (tests).
  func flushThumbnails() { thumbnails.flush() }
}
