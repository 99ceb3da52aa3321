// Which view answers a request, and what an error becomes. The order of the checks:
//   1. the method: GET and HEAD only (the server changes nothing), else 405;
//   2. the target, read strictly (RequestTarget): 400 or 414 before anything else sees it;
//   3. access (AccessControl): the Host header on loopback, the token when there is one;
//   4. the route: a fixed list of paths, compared segment by segment; anything else is 404.
// Errors thrown by a view become the 4xx/5xx page (or JSON under /api/) saying what was wrong.

import InklingArchive

struct Router: Sendable {
  let pool: ArchivePool
  let writer: ThumbnailWriter?
  let keys = ThumbnailKeys()
  let access: AccessControl
  let pageSize: Int

  func respond(to request: HTTPRequest) -> HTTPResponse {
    let api = request.target.hasPrefix("/api/")
    guard request.method == "GET" || request.method == "HEAD" else {
      return ErrorView.response(
        status: 405, "This server only reads the archive: GET and HEAD, not \(request.method).", json: api,
        headers: [("Allow", "GET, HEAD")])
    }
    let target: RequestTarget
    do {
      target = try RequestTarget(request.target)
    } catch {
      return ErrorView.response(status: error.status, error.message, json: api)
    }
    let first = target.segments.first
    let isPage = first != "api" && first != "versions" && first != "static" && first != "swatches"
    if let denied = access.check(request, target, isPage: isPage) { return denied }
    do {
      return try route(request, target)
    } catch let error as RequestError {
      return ErrorView.response(error, json: api)
    } catch let error as ArchiveError {
      return ErrorView.response(RequestError(error), json: api)
    } catch let error as SearchSyntaxError {
      return ErrorView.response(status: 400, error.description, json: api)
    } catch {
      return ErrorView.response(status: 500, "\(error)", json: api)
    }
  }

  private func route(_ request: HTTPRequest, _ target: RequestTarget) throws -> HTTPResponse {
    let path = target.segments
    switch path.first {
    case nil: return try GridView.page(target, pool: pool, pageSize: pageSize)
    case "draft" where path.count == 1: return try DraftView.page(target, pool: pool)
    case "api" where path == ["api", "drafts"]: return try GridView.api(target, pool: pool, pageSize: pageSize)
    case "api" where path == ["api", "draft"]: return try DraftView.api(target, pool: pool)
    case "trash" where path.count == 1: return try TrashView.page(pool: pool)
    case "api" where path == ["api", "trash"]: return try TrashView.api(pool: pool)
    case "versions" where path.count == 3:
      let id = try VersionFiles.id(path[1])
      switch path[2] {
      case "thumbnail.png":
        return try VersionFiles.thumbnail(id, target, request, pool: pool, writer: writer, keys: keys)
      case "render.png": return try VersionFiles.render(id, target, request, pool: pool)
      case "file": return try VersionFiles.file(id, pool: pool)
      default: break
      }
    case "swatches" where path.count == 2: return try VersionFiles.swatch(path[1])
    case "static" where path.count == 2:
      if let asset = StaticAssets.response(name: path[1], target: target) { return asset }
    default: break
    }
    throw RequestError(404, "there is no page at this address")
  }
}
