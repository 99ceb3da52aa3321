// Pictures the server keeps in memory rather than in the archive, which it only reads:
// thumbnails at sizes no page shows, any thumbnail once the server has added its quota to the
// archive, and the draft pages' time-lapse videos (docs/decisions.md, "The server never grows
// the archive on a stranger's request"). Bounded by bytes: past `limit` the oldest entries go
// first (they are made again on their next request).

import Synchronization

/// What a picture costs the memory it is kept in.
protocol MemorySized: Sendable {
  var byteCount: Int { get }
}

extension [UInt8]: MemorySized {
  var byteCount: Int { count }
}

final class PictureMemory<Picture: MemorySized>: Sendable {
  private struct Entries: Sendable {
    var pictures: [String: Picture] = [:]
    var order: [String] = []
    var bytes = 0
  }
  private let entries = Mutex(Entries())
  let limit: Int

  init(limit: Int) { self.limit = limit }

  /// The picture kept under `tag`.
  func picture(_ tag: String) -> Picture? { entries.withLock { $0.pictures[tag] } }

  /// Keeps `picture` under `tag`, dropping the oldest entries while over the limit.
  func keep(_ picture: Picture, as tag: String) {
    guard picture.byteCount <= limit else { return }
    entries.withLock { entries in
      guard entries.pictures.updateValue(picture, forKey: tag) == nil else { return }
      entries.order.append(tag)
      entries.bytes += picture.byteCount
      while entries.bytes > limit, !entries.order.isEmpty {
        let oldest = entries.order.removeFirst()
        entries.bytes -= entries.pictures.removeValue(forKey: oldest)?.byteCount ?? 0
      }
    }
  }
}
