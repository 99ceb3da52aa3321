// What each version's thumbnail is keyed by, remembered: a saved file's drawing and background
// never change and the renderer is this build's, so the thumbnail `Archive.lookUpThumbnail`
// finds for (id, size) is the same as long as the id names the same file. An id can name
// another file later: a purged version's id is given to the next version imported. So each
// request is remembered with the file's SHA-256, which the route reads anyway with the trash
// state (`Archive.versionNow`), and used only for that file. Remembering it leaves two
// SELECTs per cached thumbnail instead of four and a SHA-256.
// Bounded: past `limit` entries it starts again empty, which costs a recomputation each.

import InklingArchive
import Synchronization

final class ThumbnailKeys: Sendable {
  private let known = Mutex<[Key: (file: [UInt8], request: Thumbnail)]>([:])
  private let limit: Int

  private struct Key: Hashable {
    var id: VersionID
    var size: Int
  }

  init(limit: Int = 200_000) { self.limit = limit }

  /// The request for version `id` at `size` while the id names the file of SHA-256 `file`,
  /// computed by `make` the first time.
  func request(_ id: VersionID, size: Int, file: [UInt8], make: () throws -> Thumbnail) rethrows
    -> Thumbnail
  {
    let key = Key(id: id, size: size)
    if let known = known.withLock({ $0[key] }), known.file == file { return known.request }
    let request = try make()
    known.withLock { known in
      if known.count >= limit { known.removeAll(keepingCapacity: true) }
      known[key] = (file, request)
    }
    return request
  }
}
