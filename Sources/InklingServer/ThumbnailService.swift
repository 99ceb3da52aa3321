// A version's thumbnail as the server answers it, the grid's most frequent request, through
// the caches in front of the archive, in the order they are asked:
//   1. the memory of cached thumbnails' answers (HotThumbnails), good while the archive is not
//      written: no SQLite at all;
//   2. one connection for the rest of a cached thumbnail's answer: the version's trash state
//      and the file its id names (Archive.versionNow), its key (ThumbnailKeys, remembered for
//      that file, else Archive.lookUpThumbnail); 304 from the key alone; else the PNG from
//      the memory of pictures the archive does not keep (PictureMemory) or from the archive's
//      cache (Archive.readThumbnail);
//   3. a miss is rendered on the work queue (Archive.renderThumbnails) and kept: in the archive's
//      cache through the one writer (ThumbnailWriter, ArchivePool.swift) for the sizes the
//      pages show while its quota lasts, else in memory.

import InklingArchive

struct ThumbnailService: Sendable {
  let writer: ThumbnailWriter?
  let memory: PictureMemory<[UInt8]>
  /// Cached thumbnails' answers, while the archive is not written (HotThumbnails.swift); nil
  /// when its folder cannot be watched.
  let hot: (answers: HotThumbnails, writes: ArchiveWrites)?
  /// The sizes the pages show, which the archive's cache keeps.
  static let archivedSizes: Set = [GridView.thumbnailSize, DraftView.thumbnailSize]

  /// The answer to a request for version `id`'s thumbnail at `size`.
  func answer(_ id: VersionID, size: Int, _ context: RequestContext) throws -> Answer<ViewWork> {
    let (target, request, pool) = (context.target, context.request, context.pool)
    let keys = pool.thumbnailKeys
    // The count before the file's identity and before anything is read: a write after it
    // leaves what is read here out of the memory.
    let remembered = hot.flatMap { hot in FileIdentity.of(pool.path).map { (hot, $0, hot.writes.count) } }
    if let (hot, file, writes) = remembered, let answer = hot.answers.answer(id, size: size, file: file, writes: writes)
    {
      try VersionFiles.requireTrashAsked(answer.draftInTrash, target)
      // A matching If-None-Match gets 304 from ResponseEncoding, by the tag.
      return .now(
        HTTPResponse(
          contentType: HTTPResponse.png, body: answer.png, cache: VersionFiles.policy(target, content: answer.tag),
          tag: answer.tag))
    }
    // One connection for the whole answer of a cached thumbnail, the most frequent request.
    let (thumbnail, inTrash, found) = try pool.withArchive { archive throws -> (Thumbnail, Bool, [UInt8]?) in
      let now = try archive.versionNow(id)
      let inTrash = now.draftInTrash
      try VersionFiles.requireTrashAsked(inTrash, target)
      let thumbnail = try keys.request(id, size: size, file: now.fileSHA256) {
        try archive.lookUpThumbnail(of: .version(id), size: size)
      }
      if let condition = request.header("If-None-Match"), ResponseEncoding.matches(condition, tags: [thumbnail.tag]) {
        // Not modified: ResponseEncoding answers 304 from the tag, the PNG need not be read.
        return (thumbnail, inTrash, [])
      }
      return (thumbnail, inTrash, try memory.picture(thumbnail.tag) ?? archive.readThumbnail(thumbnail))
    }
    let policy = VersionFiles.policy(target, content: thumbnail.tag)
    if let found {
      if let (hot, file, writes) = remembered, !found.isEmpty {
        hot.answers.keep(
          HotThumbnails.Answer(tag: thumbnail.tag, draftInTrash: inTrash, png: found), version: id, size: size,
          file: file, writes: writes)
      }
      return .now(HTTPResponse(contentType: HTTPResponse.png, body: found, cache: policy, tag: thumbnail.tag))
    }
    return .later {
      // Another request may have stored it since: read before drawing.
      let (png, drawn) = try pool.withArchive { archive throws -> ([UInt8], Bool) in
        if let png = try archive.readThumbnail(thumbnail) { return (png, false) }
        return (try archive.renderThumbnails([thumbnail])[0], true)
      }
      if drawn { keep(thumbnail, png: png, draftInTrash: inTrash) }
      return HTTPResponse(contentType: HTTPResponse.png, body: png, cache: policy, tag: thumbnail.tag)
    }
  }

  /// Keeps a rendered thumbnail: in the archive's cache for the sizes the pages show, while the
  /// writer's quota lasts; in memory for the rest.
  private func keep(_ thumbnail: Thumbnail, png: [UInt8], draftInTrash: Bool) {
    if !draftInTrash, Self.archivedSizes.contains(thumbnail.size), writer?.store(thumbnail, png: png) == true { return }
    memory.keep(png, as: thumbnail.tag)
  }
}
