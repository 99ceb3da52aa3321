// The archive deleted or replaced while the server runs (issue 30, item 7): requests get 503
// with a sentence while there is no archive at the path, and the new archive once there is one,
// on every connection.

import Foundation
import InklingArchive
import InklingCorpus
import Testing

@testable import InklingServer

@Suite struct ReplacedArchiveTests {
  static func names(_ served: ServedArchive) throws -> [String] {
    let response = try served.get("/api/drafts?limit=100")
    #expect(response.status == 200)
    let drafts = try #require((try response.json() as? [String: Any])?["drafts"] as? [[String: Any]])
    return drafts.compactMap { $0["name"] as? String }.sorted()
  }

  static func remove(_ path: String) {
    for file in [path, path + "-wal", path + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
  }

  @Test func aDeletedArchiveAnswers503AndANewOneIsServed() throws {
    let served = try ServedArchive()
    let before = try Self.names(served)
    #expect(before.count > 20)
    let archive = try served.archive()
    let id = try archive.timeline(of: before[0]).first!.id
    Self.remove(served.archivePath)
    for target in ["/", "/api/drafts", "/versions/\(id)/thumbnail.png?size=256", "/versions/\(id)/file"] {
      let response = try served.get(target)
      #expect(response.status == 503, "\(target)")
      #expect(response.text.contains("The archive file is gone"), "\(target)")
    }
    served.server.flushThumbnails()
    #expect(!FileManager.default.fileExists(atPath: served.archivePath))
    // Another archive at the path, with other drafts: every request reads it.
    let other = served.folder + "/Other"
    try writeCorpus(CorpusSpec(drafts: 3, versionsPerDraft: 1...2, seed: 77), to: URL(fileURLWithPath: other))
    _ = try Archive(path: served.archivePath).importFiles(at: [other])
    let after = try Self.names(served)
    #expect(after == (try Archive(path: served.archivePath, mode: .readOnly).drafts().map(\.name).sorted()))
    #expect(after != before && after.count == 3)
    #expect(try served.get("/").status == 200)
  }

  @Test func versionURLsAreImmutableOnlyWhenTheyNameTheirContent() throws {
    let served = try SharedArchive.get()
    let archive = try served.archive()
    let entry = try #require(try archive.timeline(of: try archive.drafts()[0].name).first)
    let byID = try served.get("/versions/\(entry.id)/file")
    #expect(byID.header("Cache-Control") == "no-cache")
    let hash = String(entry.version.fileSHA256.prefix(16))
    let byContent = try served.get("/versions/\(entry.id)/file?h=\(hash)")
    #expect(byContent.header("Cache-Control") == "public, max-age=31536000, immutable")
    let wrong = try served.get("/versions/\(entry.id)/file?h=0000000000000000")
    #expect(wrong.header("Cache-Control") == "no-cache")
  }
}
