// What is at each address: a fixed list of paths, compared segment by segment, each answered
// by one view given the request's context (RequestContext); anything else is 404. Which routes
// compute rather than look up (another site may not ask them: CrossSiteWork.swift), and what
// kind of work they queue, are decided here beside them. The URL scheme is in Links.swift.

import InklingArchive

enum Routes {
  /// The answer of the view at the context's path (RequestChain's step 5).
  static func answer(_ context: RequestContext) throws -> Answer<ViewWork> {
    let path = context.target.segments
    switch path.first {
    case nil: return .now(try GridView.page(context))
    case "draft" where path.count == 1: return .now(try DraftView.page(context))
    case "draft" where path == ["draft", "timelapse.mp4"]: return try TimelapseView.video(context)
    case "draft" where path == ["draft", "compare"]: return .now(try CompareView.page(context))
    case "draft" where path == ["draft", "versions.zip"]: return try VersionFiles.zip(context)
    case "draft" where path == ["draft", "marks"]: return try TimelapseView.marksPage(context)
    case "api" where path == ["api", "drafts"]: return .now(try GridView.api(context))
    case "api" where path == ["api", "draft"]: return try DraftView.api(context)
    case "trash" where path.count == 1: return .now(try TrashView.page(context))
    case "api" where path == ["api", "trash"]: return .now(try TrashView.api(context))
    case "versions" where path.count == 3:
      let id = try VersionFiles.id(path[1])
      switch path[2] {
      case "thumbnail.png": return try VersionFiles.thumbnail(id, context)
      case "render.png": return try VersionFiles.render(id, context)
      case "render.svg": return try VersionFiles.render(id, context, format: .svg)
      case "render.pdf": return try VersionFiles.render(id, context, format: .pdf)
      case "changes.png": return try VersionFiles.changes(id, context)
      case "file": return try VersionFiles.file(id, context)
      default: break
      }
    case "swatches" where path.count == 2: return .now(try VersionFiles.swatch(path[1]))
    case "static" where path.count == 2:
      if let asset = StaticAssets.response(name: path[1], target: context.target) { return .now(asset) }
    default: break
    }
    throw RequestError(404, "there is no page at this address")
  }

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
}
