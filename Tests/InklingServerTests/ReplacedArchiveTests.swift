// The archive deleted or replaced while the server runs: requests get 503 with a sentence while
// there is no archive at the path, and the new archive once there is one, on every connection.

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

  /// A purged draft's ids are given to the next drafts and versions imported (SQLite reuses the
  /// largest rowid once it is deleted): the server then shows what the ids name now, never
  /// the purged drawings it remembered under them.
  @Test func idsOfPurgedVersionsNameTheNewOnes() throws {
    let served = try ServedArchive(
      spec: CorpusSpec(drafts: 1, versionsPerDraft: 2...2, seed: 41, strokesPerVersion: 2...4), hostile: false)
    let before = try served.archive().timeline(of: .name(try #require(try served.archive().drafts().first?.name)))
    let version = try #require(before.versions.last?.id)
    let thumbnail = "/versions/\(version)/thumbnail.png?size=256"
    let video = "/draft/timelapse.mp4?id=\(before.id.rawValue)"
    let oldPNG = try served.get(thumbnail)
    let oldVideo = try served.get(video)
    #expect(oldPNG.status == 200 && oldVideo.status == 200)
    #expect(try served.get(thumbnail).body == oldPNG.body)  // kept in memory now

    let writer = try Archive(path: served.archivePath)
    _ = try writer.delete(draft: before.name)
    _ = try writer.purge(drafts: [before.name])
    let other = served.folder + "/Other"
    try writeCorpus(
      CorpusSpec(drafts: 1, versionsPerDraft: 2...2, seed: 42, strokesPerVersion: 5...8),
      to: URL(fileURLWithPath: other))
    _ = try writer.importFiles(at: [other])
    let after = try served.archive().timeline(of: .id(before.id))
    try #require(after.name != before.name && after.versions.last?.id == version, "the ids were not reused")

    let newPNG = try served.get(thumbnail)
    #expect(newPNG.status == 200)
    #expect(newPNG.body != oldPNG.body)
    #expect(
      newPNG.header("ETag") == "\"\(try served.archive().lookUpThumbnail(of: .version(version), size: 256).tag)\"")
    let newVideo = try served.get(video)
    #expect(newVideo.status == 200)
    #expect(newVideo.header("ETag") != oldVideo.header("ETag"))
    #expect(newVideo.body != oldVideo.body)
    // A browser asking with the purged draft's tag gets the new video, not 304.
    let revalidated = try served.get(video, headers: [("If-None-Match", try #require(oldVideo.header("ETag")))])
    #expect(revalidated.status == 200)
  }

  /// A file at the path that is not an archive answers 503 with a sentence, not the library's
  /// error as Swift prints it.
  @Test func aFileThatIsNotAnArchiveAnswersWithASentence() throws {
    let served = try ServedArchive(spec: CorpusSpec(drafts: 1, versionsPerDraft: 1...1, seed: 43), hostile: false)
    Self.remove(served.archivePath)
    try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: served.archivePath))
    let response = try served.get("/")
    #expect(response.status == 503)
    #expect(
      response.text.contains(
        "The file at the archive&#39;s path cannot be read as an archive now: the file at its path is not an inkling archive."
      ), "\(response.text)")
    #expect(!response.text.contains("notAnArchive"))
  }

  @Test func versionURLsAreImmutableOnlyWhenTheyNameTheirContent() throws {
    let served = try SharedArchive.get()
    let archive = try served.archive()
    let entry = try #require(try archive.timeline(of: try archive.drafts()[0].name).first)
    let byID = try served.get("/versions/\(entry.id)/file")
    #expect(byID.header("Cache-Control") == "private, no-cache")
    let hash = String(entry.version.fileSHA256.prefix(16))
    let byContent = try served.get("/versions/\(entry.id)/file?h=\(hash)")
    #expect(byContent.header("Cache-Control") == "private, max-age=31536000, immutable")
    let wrong = try served.get("/versions/\(entry.id)/file?h=0000000000000000")
    #expect(wrong.header("Cache-Control") == "private, no-cache")
  }
}
