// Which view answers a request, and what an error becomes. The order of the checks:
//   1. the method: GET and HEAD only (the server changes nothing), else 405;
//   2. the target, read strictly (RequestTarget): 400 or 414 before anything else sees it;
//   3. access (AccessControl): the Host header on loopback, the token when there is one (a
//      path under `/t/TOKEN/` is routed without those segments, and its answer's links keep
//      them: Links.prefix);
//   4. who asks for work (CrossSiteWork): a route that computes refuses another site's
//      request, 403 before anything is looked up or queued;
//   5. the route: a fixed list of paths, compared segment by segment; anything else is 404.
// Errors thrown by a view become the 4xx/5xx page (or JSON under /api/) saying what was wrong.
// What costs more than a look-up (rendering a drawing, a drawing's stroke list) is answered
// `.later`, on the bounded work queue (HTTP/WorkQueue.swift), and 503 when that is full.
// Each job names its kind (`WorkKind`), which bounds its share of the queue.

import InklingArchive

struct Router: Sendable {
  let pool: ArchivePool
  let writer: ThumbnailWriter?
  let access: AccessControl
  let pageSize: Int
  let strokesPerPage: Int
  let zipBytes: Int64
  /// Bytes of a version's file, or of a drawing it is decoded through, in one answer.
  let fileBytes: Int64
  /// The archive as the pages' command lines name it: its absolute path on loopback, else
  /// nil (CommandsView.swift).
  let commandArchive: String?
  let memory: PictureMemory<[UInt8]>
  let hot: (answers: HotThumbnails, writes: ArchiveWrites)?
  let videos: PictureMemory<TimelapseVideo>

  func respond(to request: HTTPRequest) -> Answer<QueuedWork> {
    let api = request.target.hasPrefix("/api/")
    guard request.method == "GET" || request.method == "HEAD" else {
      return .now(
        ErrorView.response(
          status: 405, "This server only reads the archive: GET and HEAD, not \(request.method).", json: api,
          headers: [("Allow", "GET, HEAD")], standalone: true))
    }
    let target: RequestTarget
    do {
      target = try RequestTarget(request.target)
    } catch {
      return .now(ErrorView.response(status: error.status, error.message, json: api, standalone: true))
    }
    let (given, routed) = access.capability(of: target)
    let first = routed.segments.first
    let isPage = first != "api" && first != "versions" && first != "static" && first != "swatches"
    if let denied = access.check(request, routed, given: given, isPage: isPage) { return .now(denied) }
    if Self.computes(routed.segments), let refused = CrossSiteWork.refusal(request, json: first == "api") {
      return .now(refused)
    }
    let prefix = access.linkPrefix(given: given)
    // Bound only when there is one: a script's request (the header) costs no more than before.
    guard !prefix.isEmpty else { return answer(request, routed, json: first == "api", prefix: prefix) }
    return Links.$prefix.withValue(prefix) { answer(request, routed, json: first == "api", prefix: prefix) }
  }

  /// The answer to a request that may be made, its links under `prefix` (Links.prefix).
  private func answer(_ request: HTTPRequest, _ target: RequestTarget, json api: Bool, prefix: String)
    -> Answer<QueuedWork>
  {
    do {
      switch try route(request, target) {
      case .now(let response): return .now(response)
      case .later(let work):
        // Every route that queues work is among those that compute; this keeps it so.
        if let refused = CrossSiteWork.refusal(request, json: api) { return .now(refused) }
        return .later(
          QueuedWork(
            kind: WorkKind(target.segments),
            run: {
              let answer = { () -> HTTPResponse in
                do { return try work() } catch { return Self.failure(error, json: api) }
              }
              return prefix.isEmpty ? answer() : Links.$prefix.withValue(prefix, operation: answer)
            },
            busy: ErrorView.response(
              status: 503, "The server is busy drawing other images; try again in a moment.", json: api,
              headers: [("Retry-After", "2")])))
      }
    } catch {
      return .now(Self.failure(error, json: api))
    }
  }

  /// Whether the route of `path` computes (draws, encodes, rebuilds or packs) rather than
  /// looks up: the routes another site may not ask (CrossSiteWork.swift).
  static func computes(_ path: [String]) -> Bool {
    switch path.first {
    case "versions": true  // thumbnails, renders, changes, original files
    case "draft": ["timelapse.mp4", "versions.zip", "marks"].contains(path.dropFirst().first ?? "")
    case "api": path == ["api", "draft"]  // a drawing's stroke list
    default: false
    }
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

  private func route(_ request: HTTPRequest, _ target: RequestTarget) throws -> Answer<ViewWork> {
    let path = target.segments
    switch path.first {
    case nil: return .now(try GridView.page(target, pool: pool, pageSize: pageSize))
    case "draft" where path.count == 1: return .now(try DraftView.page(target, pool: pool, commands: commandArchive))
    case "draft" where path == ["draft", "timelapse.mp4"]:
      return try TimelapseView.video(target, request, pool: pool, videos: videos)
    case "draft" where path == ["draft", "compare"]:
      return .now(try CompareView.page(target, pool: pool, commands: commandArchive))
    case "draft" where path == ["draft", "versions.zip"]:
      return try VersionFiles.zip(target, pool: pool, limit: zipBytes)
    case "draft" where path == ["draft", "marks"]:
      return try TimelapseView.marksPage(target, pool: pool, videos: videos)
    case "api" where path == ["api", "drafts"]: return .now(try GridView.api(target, pool: pool, pageSize: pageSize))
    case "api" where path == ["api", "draft"]:
      return try DraftView.api(
        target, pool: pool, videos: videos, strokesPerPage: strokesPerPage,
        fullPaths: ServerConfiguration.isLoopback(access.listenHost))
    case "trash" where path.count == 1: return .now(try TrashView.page(pool: pool))
    case "api" where path == ["api", "trash"]: return .now(try TrashView.api(pool: pool))
    case "versions" where path.count == 3:
      let id = try VersionFiles.id(path[1])
      switch path[2] {
      case "thumbnail.png":
        return try VersionFiles.thumbnail(
          id, target, request, pool: pool, store: ThumbnailStore(writer: writer, memory: memory, hot: hot),
          keys: pool.thumbnailKeys)
      case "render.png": return try VersionFiles.render(id, target, request, pool: pool)
      case "render.svg": return try VersionFiles.render(id, target, request, pool: pool, format: .svg)
      case "render.pdf": return try VersionFiles.render(id, target, request, pool: pool, format: .pdf)
      case "changes.png": return try VersionFiles.changes(id, target, request, pool: pool)
      case "file": return try VersionFiles.file(id, target, request, pool: pool, limit: fileBytes)
      default: break
      }
    case "swatches" where path.count == 2: return .now(try VersionFiles.swatch(path[1]))
    case "static" where path.count == 2:
      if let asset = StaticAssets.response(name: path[1], target: target) { return .now(asset) }
    default: break
    }
    throw RequestError(404, "there is no page at this address")
  }
}
