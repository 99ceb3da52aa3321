// The draft page's time-lapse: `/draft/timelapse.mp4` is the library's MP4 of the draft, made
// once and kept in memory (the archive file does not change), answering ETag and Range as a
// player needs; `/draft/marks` and `/api/draft` place each save in it; a draft in the trash, or
// one whose drawings do not decode, has a sentence instead of a video.

import Foundation
import InklingArchive
import InklingCorpus
import InklingTestSupport
import Testing

@testable import InklingServer

@Suite struct TimelapseRouteTests {
  let served: ServedArchive

  init() throws {
    served = try ServedArchive(spec: CorpusSpec(drafts: 2, versionsPerDraft: 3...3, seed: 32), hostile: false)
    let garbage = Data((0..<400).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).base64EncodedString()
    let file = #"{"drawingData":"\#(garbage)","color":{"r":1,"g":1,"b":1,"a":1}}"#
    try Data(file.utf8).write(to: URL(fileURLWithPath: served.draftsFolder + "/Noise-2026-05-01T10:00:00Z.inkling"))
    _ = try Archive(path: served.archivePath).importFiles(at: [served.draftsFolder])
  }

  func draftID(_ name: String) throws -> Int64 { try served.archive().timeline(of: .name(name)).id.rawValue }

  func firstDraft() throws -> (name: String, id: Int64, versions: Int) {
    let archive = try served.archive()
    let name = try #require(try archive.drafts().map(\.name).first { $0 != "Noise" })
    let timeline = try archive.timeline(of: .name(name))
    return (name, timeline.id.rawValue, timeline.versions.count)
  }

  @Test func theVideoIsTheLibrarysMP4KeptInMemory() throws {
    let draft = try firstDraft()
    let sizeBefore = try FileManager.default.attributesOfItem(atPath: served.archivePath)[.size] as? Int
    let target = "/draft/timelapse.mp4?id=\(draft.id)"
    let first = try served.get(target)
    #expect(first.status == 200)
    #expect(first.header("Content-Type") == "video/mp4")
    #expect(first.header("Accept-Ranges") == "bytes")
    // An MP4 starts with its `ftyp` box; `+faststart` puts `moov` before the frames.
    #expect(first.body.count > 1000)
    #expect(String(decoding: first.body[4..<8], as: UTF8.self) == "ftyp")
    let text = String(decoding: first.body.prefix(4096), as: Unicode.ASCII.self)
    #expect(text.contains("moov"))

    let (video, summary) = try served.archive().timelapseVideo(of: draft.name, options: TimelapseView.options)
    // The same frames do not always encode to the same bytes: in full test runs (x264 on three
    // frame threads among many other tests) a few keyframes' slices have ended a byte apart.
    // The route's video must still be the library's: the same frame size, frames, durations
    // and keyframes.
    let index = MP4Index(first.body)
    #expect(index == MP4Index(video))
    #expect(index.width > 0 && index.height > 0 && index.samples > 0 && !index.keyframes.isEmpty)
    #expect(summary.marks.map(\.version) == Array(1...draft.versions))
    // The page's video keeps the limits of the H.264 level it is labelled with.
    let stream = try #require(H264Conformance(mp4: first.body))
    #expect(stream.violations(fps: summary.fps, bytes: first.body.count, seconds: summary.seconds) == [], "\(stream)")

    let tag = try #require(first.header("ETag"))
    let again = try served.get(target, headers: [("If-None-Match", tag)])
    #expect(again.status == 304)
    let part = try served.get(target, headers: [("Range", "bytes=100-199")])
    #expect(part.status == 206)
    #expect(part.body == Array(first.body[100...199]))
    #expect(part.header("Content-Range") == "bytes 100-199/\(first.body.count)")
    let sizeAfter = try FileManager.default.attributesOfItem(atPath: served.archivePath)[.size] as? Int
    #expect(sizeAfter == sizeBefore)
  }

  @Test func theMarksAreEachSaveInOrder() throws {
    let draft = try firstDraft()
    let api = try #require(try served.get("/api/draft?id=\(draft.id)").json() as? [String: Any])
    let timelapse = try #require(api["timelapse"] as? [String: Any])
    #expect(timelapse["video"] as? String == "/draft/timelapse.mp4?id=\(draft.id)")
    #expect(timelapse["fps"] as? Int == 30)
    let seconds = try #require(timelapse["seconds"] as? Double)
    #expect(abs(seconds - 30) < 0.05)
    let marks = try #require(timelapse["marks"] as? [[String: Any]])
    #expect(marks.compactMap { $0["version"] as? Int } == Array(1...draft.versions))
    let times = marks.compactMap { $0["seconds"] as? Double }
    #expect(times == times.sorted() && times.count == draft.versions)
    #expect(times.allSatisfy { $0 >= 0 && $0 <= seconds - 2 })
    let width = try #require(timelapse["width"] as? Int)
    let height = try #require(timelapse["height"] as? Int)
    #expect(max(width, height) == 720)

    let page = try served.get("/draft/marks?id=\(draft.id)")
    #expect(page.status == 200)
    for (index, time) in times.enumerated() {
      let link = "href=\"/draft?id=\(draft.id)&amp;version=\(index + 1)\""
      #expect(page.text.contains(link), "\(link)")
      #expect(page.text.contains("data-seconds=\"\(String(format: "%.3f", time))\""), "\(time)")
    }
    let draftPage = try served.get("/draft?id=\(draft.id)")
    #expect(draftPage.text.contains("<video id=\"timelapse-video\""))
    #expect(draftPage.text.contains("src=\"/draft/timelapse.mp4?id=\(draft.id)\""))
    #expect(draftPage.header("Content-Security-Policy")?.contains("media-src 'self'") == true)
  }

  /// The JSON's marks are planned once for each state of the draft, before the video is made:
  /// the same answer again, and a label or a save added since is in the next one.
  @Test func theMarksFollowLabelsAndSavesAddedSince() throws {
    let draft = try firstDraft()
    func marks() throws -> [[String: Any]] {
      let api = try #require(try served.get("/api/draft?id=\(draft.id)").json() as? [String: Any])
      let timelapse = try #require(api["timelapse"] as? [String: Any])
      return try #require(timelapse["marks"] as? [[String: Any]])
    }
    let first = try marks()
    #expect(first.compactMap { $0["version"] as? Int } == Array(1...draft.versions))
    #expect(try marks().compactMap { $0["seconds"] as? Double } == first.compactMap { $0["seconds"] as? Double })

    let archive = try Archive(path: served.archivePath)
    try archive.label(draft: draft.name, version: .number(2), as: "halfway")
    let labelled = try marks()
    #expect(labelled[1]["labels"] as? [String] == ["halfway"])

    // The newest file saved again, a year after every save of the corpus.
    let newest = try #require(try archive.timeline(of: .name(draft.name)).versions.last)
    let bytes = try archive.originalFile(of: newest.id).bytes
    let stem = try #require(newest.version.fileName.components(separatedBy: "-20").first)
    let later = served.folder + "/later/" + stem + "-2099-01-01T00:00:00Z.inkling"
    try FileManager.default.createDirectory(atPath: served.folder + "/later", withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: later))
    _ = try archive.importFiles(at: [later])
    #expect(try marks().compactMap { $0["version"] as? Int } == Array(1...draft.versions + 1))
  }

  @Test func aDraftWithoutReadableDrawingsOrInTheTrashHasASentence() throws {
    let noise = try draftID("Noise")
    let video = try served.get("/draft/timelapse.mp4?id=\(noise)")
    #expect(video.status == 404)
    #expect(video.text.contains("none of its drawings can be read"))
    let api = try #require(try served.get("/api/draft?id=\(noise)").json() as? [String: Any])
    let timelapse = try #require(api["timelapse"] as? [String: Any])
    #expect((timelapse["error"] as? String)?.contains("none of its drawings can be read") == true)

    let draft = try firstDraft()
    _ = try Archive(path: served.archivePath).delete(draft: draft.name)
    let trashed = try served.get("/draft/timelapse.mp4?id=\(draft.id)")
    #expect(trashed.status == 404)
    #expect(trashed.text.contains("is in the trash"))
    let page = try served.get("/draft?id=\(draft.id)")
    #expect(!page.text.contains("<video"))
  }
}
