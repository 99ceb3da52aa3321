// What each version's thumbnail is keyed by, remembered: a version id names one saved file
// (its drawing and background never change) and the renderer is this build's, so the request
// `Archive.thumbnailRequest` computes for (id, size) is the same every time. Remembering it
// leaves one SELECT (the PNG by its key) per cached thumbnail instead of three and a SHA-256.
// Bounded: past `limit` entries it starts again empty, which costs a recomputation each.

import InklingArchive
import Synchronization

final class ThumbnailKeys: Sendable {
  private let known = Mutex<[Key: ThumbnailRequest]>([:])
  private let limit: Int

  private struct Key: Hashable {
    var id: VersionID
    var size: Int
  }

  init(limit: Int = 200_000) { self.limit = limit }

  /// The request for version `id` at `size`, computed by `make` the first time.
  func request(_ id: VersionID, size: Int, make: () throws -> ThumbnailRequest) rethrows -> ThumbnailRequest {
    let key = Key(id: id, size: size)
    if let request = known.withLock({ $0[key] }) { return request }
    let request = try make()
    known.withLock { known in
      if known.count >= limit { known.removeAll(keepingCapacity: true) }
      known[key] = request
    }
    return request
  }
}
