// Cached thumbnails answered from memory (HotThumbnails, ThumbnailService.swift) only while they are certainly
// still the archive's: through the server, a draft put in the trash or back is answered as such
// at once; alone, each of the memory's conditions.

import Foundation
import InklingArchive
import Testing

@testable import InklingServer

@Suite struct HotThumbnailsTests {
  @Test func aRememberedThumbnailFollowsTheTrashAtOnce() throws {
    let served = try ServedArchive(hostile: false)
    let writer = try Archive(path: served.archivePath)
    let draft = try #require(try writer.drafts().first)
    let id = try #require(try writer.timeline(of: draft.name).last?.id)
    let target = "/versions/\(id)/thumbnail.png?size=256"
    let first = try served.get(target)
    served.server.flushThumbnails()
    // Read again after the server's own write of it, then from memory.
    for _ in 0..<3 {
      let again = try served.get(target)
      #expect(again.status == 200 && again.body == first.body)
    }
    let tag = try #require(first.header("ETag"))
    #expect(try served.get(target, headers: [("If-None-Match", tag)]).status == 304)

    _ = try writer.delete(draft: draft.name)
    let trashed = try served.get(target)
    #expect(trashed.status == 404 && trashed.text.contains("in the trash"))
    #expect(try served.get(target + "&trash=1").status == 200)
    _ = try writer.undelete(draft: draft.name)
    #expect(try served.get(target).body == first.body)
  }

  @Test func anAnswerIsKeptOnlyWhileItIsTheArchives() {
    let file = FileIdentity(device: 1, inode: 2)
    let answer = HotThumbnails.Answer(tag: "t", draftInTrash: false, png: [1, 2, 3])
    let version = VersionID(rawValue: 7)
    let hot = HotThumbnails(limit: 5, trust: .seconds(60))
    hot.keep(answer, version: version, size: 256, file: file, writes: 4)
    #expect(hot.answer(version, size: 256, file: file, writes: 4)?.png == [1, 2, 3])
    #expect(hot.answer(version, size: 128, file: file, writes: 4) == nil)
    // Another file at the path.
    #expect(hot.answer(version, size: 256, file: FileIdentity(device: 1, inode: 3), writes: 4) == nil)
    // A write since: everything read before it is forgotten, and an answer read before it is
    // not kept.
    hot.keep(answer, version: version, size: 256, file: file, writes: 4)
    #expect(hot.answer(version, size: 256, file: file, writes: 5) == nil)
    hot.keep(answer, version: version, size: 256, file: file, writes: 4)
    #expect(hot.answer(version, size: 256, file: file, writes: 5) == nil)
    // Bounded by bytes: what does not fit is not kept, and nothing is dropped for it.
    hot.keep(answer, version: version, size: 256, file: file, writes: 5)
    hot.keep(answer, version: VersionID(rawValue: 8), size: 256, file: file, writes: 5)
    #expect(hot.answer(version, size: 256, file: file, writes: 5) != nil)
    #expect(hot.answer(VersionID(rawValue: 8), size: 256, file: file, writes: 5) == nil)
  }

  @Test func anAnswerIsTrustedOnlyThatLong() throws {
    let file = FileIdentity(device: 1, inode: 2)
    let hot = HotThumbnails(limit: 100, trust: .milliseconds(20))
    hot.keep(
      HotThumbnails.Answer(tag: "t", draftInTrash: true, png: [1]), version: VersionID(rawValue: 1), size: 64,
      file: file, writes: 0)
    #expect(hot.answer(VersionID(rawValue: 1), size: 64, file: file, writes: 0)?.draftInTrash == true)
    Thread.sleep(forTimeInterval: 0.05)
    #expect(hot.answer(VersionID(rawValue: 1), size: 64, file: file, writes: 0) == nil)
  }
}
