// What a view is given, in one value: the request, its target as routed, and what the server
// holds for every request (the archive's connections, the memories of pictures, the limits).
// A view takes what it needs from it; the chain (RequestChain.swift) makes one per request.

import InklingArchive

/// One request as the views see it.
struct RequestContext {
  let request: HTTPRequest
  /// The target without the token's segments (AccessControl.capability).
  let target: RequestTarget
  /// Whether the answer is JSON: the path is under `/api/`.
  let json: Bool
  /// What the links of the answer start with: the token's segments when the request carried
  /// them, else nothing (Links.prefix).
  let linkPrefix: String
  let server: ServerResources

  /// The archive's read-only connections.
  var pool: ArchivePool { server.pool }
}

/// What the server holds for every request, made once when it starts.
struct ServerResources: Sendable {
  let pool: ArchivePool
  /// Versions' thumbnails through the server's caches.
  let thumbnails: ThumbnailService
  /// The draft pages' time-lapse videos.
  let videos: PictureMemory<TimelapseVideo>
  /// The summaries of the time-lapses planned for the draft pages' JSON and marks, until
  /// their videos are made.
  let plans: PictureMemory<TimelapsePlanned>
  /// Drafts per page of the grid.
  let pageSize: Int
  /// Strokes per page of a drawing's stroke list.
  let strokesPerPage: Int
  /// Bytes of original files in one draft's zip.
  let zipBytes: Int64
  /// Bytes of a version's file, or of a drawing it is decoded through, in one answer.
  let fileBytes: Int64
  /// The archive as the pages' command lines name it: its absolute path on loopback, else
  /// nil (CommandsView.swift).
  let commandArchive: String?
  /// Whether the JSON answers give files' full paths: only to this machine (loopback).
  let fullPaths: Bool
}
