// Read-only means read-only (docs/decisions.md, "The server never grows the archive on a
// stranger's request"): the server adds to the archive only thumbnails at the sizes its pages
// show, and no more than its quota of them; any other size, and what is past the quota, is
// answered from memory.

import Foundation
import InklingArchive
import Testing

@testable import InklingServer

@Suite struct ThumbnailQuotaTests {
  /// Bytes of the archive and its write-ahead log.
  static func archiveBytes(_ served: ServedArchive) -> Int {
    [served.archivePath, served.archivePath + "-wal"].reduce(0) { total, path in
      total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
    }
  }

  @Test func oddSizesStayInMemoryAndPageSizesStopAtTheQuota() throws {
    var limits = ServerLimits()
    limits.thumbnailQuota = 64 << 10
    let served = try ServedArchive(limits: limits)
    let archive = try served.archive()
    let ids = try archive.drafts().flatMap { try archive.timeline(of: $0.name).map(\.id) }
    #expect(ids.count > 40)
    served.server.flushThumbnails()
    let before = Self.archiveBytes(served)
    // Sizes no page shows, a large one among them (each is rendered for every version).
    for size in [512, 128] {
      for id in ids {
        let response = try served.get("/versions/\(id)/thumbnail.png?size=\(size)")
        #expect(response.status == 200 && response.header("Content-Type") == "image/png")
      }
    }
    served.server.flushThumbnails()
    #expect(Self.archiveBytes(served) == before)
    // Asked again, the odd sizes come from memory, byte for byte what was rendered.
    let again = try served.get("/versions/\(ids[0])/thumbnail.png?size=512")
    #expect(again.status == 200 && again.body.count > 1000)
    // The grid's size is stored until the file and its log have grown by the quota (one
    // batch of the writer may pass it); then the rest is kept in memory.
    for id in ids { #expect(try served.get("/versions/\(id)/thumbnail.png?size=256").status == 200) }
    served.server.flushThumbnails()
    let grown = Self.archiveBytes(served) - before
    #expect(grown > 0)
    #expect(grown <= 2 * (64 << 10), "grew \(grown) bytes")
    let last = try served.get("/versions/\(ids[ids.count - 1])/thumbnail.png?size=256")
    #expect(last.status == 200 && last.header("Content-Type") == "image/png")
  }
}
