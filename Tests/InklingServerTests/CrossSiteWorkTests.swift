// Another site cannot spend the server's work: a request that a page of another origin made
// (Sec-Fetch-Site cross-site or same-site, or an Origin that is not the server's) gets 403 on
// every route that computes, before anything is rendered or queued, while the user's own
// requests (same-origin, none, or a client that sends neither, as curl) are served as before;
// and long work asked in numbers does not make a thumbnail wait behind it.

import Foundation
import InklingArchive
import InklingCorpus
import Synchronization
import Testing

@testable import InklingServer

@Suite(.serialized) struct CrossSiteWorkTests {
  /// Every route that computes, for a draft and its first two versions.
  static func computingTargets(_ served: ServedArchive) throws -> [String] {
    let archive = try served.archive()
    let draft = try archive.timeline(of: .name(try archive.drafts()[0].name))
    let first = draft.versions[0].id
    let second = draft.versions[1].id
    return [
      "/versions/\(first)/thumbnail.png?size=\(GridView.thumbnailSize)", "/versions/\(first)/render.png?scale=1",
      "/versions/\(second)/changes.png?from=\(first)", "/versions/\(first)/file",
      "/draft/timelapse.mp4?id=\(draft.id)", "/draft/versions.zip?id=\(draft.id)", "/draft/marks?id=\(draft.id)",
      "/api/draft?id=\(draft.id)&version=1&strokes=1",
    ]
  }

  @Test func anotherSitesRequestForWorkIs403AndNothingIsDrawn() throws {
    let served = try ServedArchive(spec: CorpusSpec(drafts: 2, versionsPerDraft: 2...2, seed: 12), hostile: false)
    let own = "http://127.0.0.1:\(served.port)"
    let foreign: [[(String, String)]] = [
      [("Sec-Fetch-Site", "cross-site")], [("Sec-Fetch-Site", "same-site")],
      [("Origin", "http://evil.example")], [("Origin", "null")], [("Origin", "http://127.0.0.1:1")],
      [("Sec-Fetch-Site", "cross-site"), ("Origin", own)],
    ]
    for target in try Self.computingTargets(served) {
      for headers in foreign {
        let response = try served.get(target, headers: headers)
        #expect(response.status == 403, "\(target) \(headers): \(response.status)")
        #expect(response.text.contains("another site"))
      }
    }
    // Nothing was drawn for them: the thumbnail asked for is in no cache.
    served.server.flushThumbnails()
    let archive = try served.archive()
    let id = try archive.timeline(of: .name(try archive.drafts()[0].name)).versions[0].id
    #expect(try archive.readThumbnail(archive.lookUpThumbnail(of: .version(id), size: GridView.thumbnailSize)) == nil)
    // The pages stay reachable from a link on another site, as any web page is.
    #expect(try served.get("/", headers: [("Sec-Fetch-Site", "cross-site")]).status == 200)
  }

  @Test func theUsersOwnRequestsAreServedAsBefore() throws {
    let served = try ServedArchive(spec: CorpusSpec(drafts: 2, versionsPerDraft: 2...2, seed: 12), hostile: false)
    let own: [[(String, String)]] = [
      [], [("Sec-Fetch-Site", "same-origin")], [("Sec-Fetch-Site", "none")],
      [("Sec-Fetch-Site", "same-origin"), ("Origin", "http://127.0.0.1:\(served.port)")],
    ]
    for target in try Self.computingTargets(served) {
      for headers in own {
        let response = try served.get(target, headers: headers)
        #expect(response.status == 200, "\(target) \(headers): \(response.status) \(response.text.prefix(200))")
      }
    }
  }

  /// Six long renders asked at once, then a thumbnail: it is drawn on the worker long work
  /// leaves free, not after the renders queued before it.
  @Test func sixLongRendersDoNotMakeAThumbnailWait() throws {
    // A busy machine (the suites run in parallel) can slow one thumbnail more than the renders
    // beside it; a queue that made it wait behind them would do so every time.
    var attempts: [(renders: Int, seconds: Double)] = []
    while attempts.count < 3, attempts.last.map({ $0.renders > 1 }) ?? true {
      attempts.append(try thumbnailBehindSixRenders())
      print(
        "thumbnail behind six renders: \(String(format: "%.2f", attempts.last!.seconds)) s, after \(attempts.last!.renders) renders"
      )
    }
    #expect(attempts.contains { $0.renders <= 1 }, "the thumbnail came after \(attempts.map(\.renders)) renders")
  }

  /// How many of six long renders asked first were done when a thumbnail asked after them
  /// came, and how long it took.
  private func thumbnailBehindSixRenders() throws -> (renders: Int, seconds: Double) {
    var limits = ServerLimits()
    limits.workers = 2
    limits.queuedWork = 16
    let spec = CorpusSpec(drafts: 1, versionsPerDraft: 1...1, seed: 30, strokesPerVersion: 200_000...200_000)
    let served = try ServedArchive(spec: spec, limits: limits, threads: 8, hostile: false)
    let large = try served.archive().timeline(of: .name(try served.archive().drafts()[0].name)).versions[0].id
    // A small draft beside it, whose thumbnail is not drawn yet.
    let small = served.folder + "/Small"
    // A few strokes: its thumbnail is quick to draw even on a busy machine, so what the test
    // measures is whether it waited behind the renders, not how long it takes to draw.
    _ = try writeCorpus(
      CorpusSpec(drafts: 1, versionsPerDraft: 1...1, seed: 31, strokesPerVersion: 3...3),
      to: URL(fileURLWithPath: small))
    _ = try Archive(path: served.archivePath).importFiles(at: [small])
    let archive = try served.archive()
    let ids = try archive.drafts().map { try archive.timeline(of: .name($0.name)).versions[0].id }
    let thumbnail = try #require(ids.first { $0 != large })

    let finished = Atomic<Int>(0)
    let group = DispatchGroup()
    for index in 0..<6 {
      group.enter()
      Thread {
        // Long work runs one at a time here, so the last waits for five renders.
        let request =
          "GET /versions/\(large)/render.png?scale=1&n=\(index) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        let response = try? HTTPClient.parse(
          HTTPClient.exchange(served.port, Array(request.utf8), timeout: 300, halfClose: false))
        #expect(response?.status == 200)
        finished.add(1, ordering: .relaxed)
        group.leave()
      }.start()
    }
    // Once most are asked (one running, four or more waiting), at once: a loop that waited
    // for five could sleep on while the renders ran out, and find every one of them done.
    var polls = 0
    while served.server.waitingJobs < 4 && polls < 400 {
      usleep(25_000)
      polls += 1
    }
    #expect(served.server.waitingJobs >= 4)
    let started = Date()
    let response = try served.get("/versions/\(thumbnail)/thumbnail.png?size=\(GridView.thumbnailSize)")
    let seconds = Date().timeIntervalSince(started)
    let rendersDone = finished.load(ordering: .relaxed)
    #expect(response.status == 200)
    group.wait()
    return (rendersDone, seconds)
  }
}
