// What is at each address: a fixed list of paths, compared segment by segment, each answered
// by one view; anything else is 404. Which routes compute rather than look up (another site may
// not ask them: CrossSiteWork.swift), and what kind of work they queue, are decided here
// beside them. The order of the steps around routing is in RequestChain.swift; the URL scheme
// in Links.swift.

import InklingArchive

struct Router: Sendable {
  let pool: ArchivePool
  let writer: ThumbnailWriter?
  /// Whether the JSON answers give files' full paths: only to this machine (loopback).
  let fullPaths: Bool
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

  /// Whether `path` is a page a person opens (the token in its query moves it under the
  /// token's path: AccessControl.swift), rather than an API answer, a picture or an asset.
  static func isPage(_ path: [String]) -> Bool {
    let first = path.first
    return first != "api" && first != "versions" && first != "static" && first != "swatches"
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

  /// The kind of the work the route at `path` queues, for its share of the queue (WorkQueue.swift).
  static func kind(of path: [String]) -> WorkKind {
    path.first == "versions" && path.last == "thumbnail.png" ? .thumbnail : .long
  }

  /// The answer of the view at the context's path (RequestChain's step 5).
  func route(_ context: RequestContext) throws -> Answer<ViewWork> {
    let (request, target) = (context.request, context.target)
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
        fullPaths: fullPaths)
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
