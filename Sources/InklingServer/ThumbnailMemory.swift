// Thumbnails the server keeps in memory rather than in the archive: sizes no page shows (a
// script asking for `size=1024` of every version grew an archive from 15 to 136 MB, issue 30,
// item 4), and any size once the server has added its quota to the archive. Bounded by bytes:
// past `limit` the oldest entries go first (they are rendered again on their next request).

import Synchronization

final class ThumbnailMemory: Sendable {
  private struct Entries {
    var pngs: [String: [UInt8]] = [:]
    var order: [String] = []
    var bytes = 0
  }
  private let entries = Mutex(Entries())
  let limit: Int

  init(limit: Int) { self.limit = limit }

  /// The PNG kept under `tag`.
  func png(_ tag: String) -> [UInt8]? { entries.withLock { $0.pngs[tag] } }

  /// Keeps `png` under `tag`, dropping the oldest entries while over the limit.
  func keep(_ png: [UInt8], as tag: String) {
    guard png.count <= limit else { return }
    entries.withLock { entries in
      guard entries.pngs.updateValue(png, forKey: tag) == nil else { return }
      entries.order.append(tag)
      entries.bytes += png.count
      while entries.bytes > limit, !entries.order.isEmpty {
        let oldest = entries.order.removeFirst()
        entries.bytes -= entries.pngs.removeValue(forKey: oldest)?.count ?? 0
      }
    }
  }
}
