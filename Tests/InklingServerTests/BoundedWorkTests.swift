// Bounded work: renders run on a small work queue off the request threads, so that pages answer
// meanwhile and a full queue answers 503 with Retry-After; work whose client has gone is
// dropped unrun; the stroke list comes in pages. The drawing is the generator's largest kind
// (about 200 long strokes: the generator spaces strokes in time, so it makes no 200,000-stroke
// drawing), whose render takes seconds in a debug build.

import Foundation
import InklingCorpus
import InklingTestSupport
import Synchronization
import Testing

@testable import InklingServer

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.serialized) struct BoundedWorkTests {
  /// One draft with one large version, served by eight request threads.
  static func served(workers: Int, queued: Int, strokesPerPage: Int = 5000) throws -> ServedArchive {
    var limits = ServerLimits()
    limits.workers = workers
    limits.queuedWork = queued
    limits.strokesPerPage = strokesPerPage
    let spec = CorpusSpec(drafts: 1, versionsPerDraft: 1...1, seed: 30, strokesPerVersion: 200_000...200_000)
    return try ServedArchive(spec: spec, limits: limits, threads: 8, hostile: false)
  }

  /// Runs `body` on `count` threads of their own at once and waits for all.
  static func inParallel(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
      group.enter()
      Thread {
        body(index)
        group.leave()
      }.start()
    }
    group.wait()
  }

  @Test func aFullQueueAnswers503AndPagesStayQuick() throws {
    let served = try Self.served(workers: 1, queued: 2)
    let id = try #require(try served.archive().timeline(of: try served.archive().drafts()[0].name).first?.id)
    let statuses = Mutex<[(Int, String?, String?)]>([])
    Self.inParallel(9) { index in
      if index == 8 {
        // While eight renders are asked for at once, the grid still answers within a second.
        usleep(200_000)
        for _ in 0..<3 { #expect((try? SlowClientTests.probe(served.port)) == 200) }
        return
      }
      let response = try? served.get("/versions/\(id)/render.png?scale=1")
      statuses.withLock {
        $0.append(
          (response?.status ?? 0, response?.header("Retry-After"), response?.header("Content-Security-Policy")))
      }
    }
    let answered = statuses.withLock { $0 }
    #expect(answered.count == 8)
    #expect(answered.allSatisfy { $0.0 == 200 || $0.0 == 503 }, "\(answered.map(\.0))")
    // One running and two waiting: the other five are told to come back.
    #expect(answered.filter { $0.0 == 200 }.count == 3)
    #expect(answered.filter { $0.0 == 503 }.allSatisfy { $0.1 == "2" && $0.2 != nil })
  }

  @Test func workForAClientThatHasGoneIsDropped() throws {
    let served = try Self.served(workers: 1, queued: 16)
    let id = try #require(try served.archive().timeline(of: try served.archive().drafts()[0].name).first?.id)
    Self.inParallel(2) { index in
      if index == 0 {
        #expect((try? served.get("/versions/\(id)/render.png?scale=1"))?.status == 200)
        return
      }
      // Once the first is running: on a loaded machine its request can reach the server after
      // the first of these, which would then run while its client is still there.
      for _ in 0..<400 where served.server.runningJobs == 0 { usleep(25_000) }
      for scale in [1, 2, 3, 1, 2] {
        let request = "GET /versions/\(id)/render.png?scale=\(scale)&n=\(scale) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        guard let socket = try? HTTPClient.connect(served.port) else { continue }
        HTTPClient.sendIgnoringErrors(socket, request)
        usleep(20_000)
        close(socket)
      }
    }
    // The five left while the first ran; once it is done, each is dropped when its turn comes.
    for _ in 0..<600 where served.server.abandonedJobs < 5 { usleep(50_000) }
    #expect(served.server.abandonedJobs == 5)
    #expect(try served.get("/").status == 200)
  }

  @Test func theStrokeListComesInPages() throws {
    let served = try Self.served(workers: 2, queued: 8, strokesPerPage: 50)
    let name = try served.archive().drafts()[0].name
    var next: String? = "/api/draft?name=\(encoded(name))&version=1&strokes=1"
    var strokes = 0
    var pages = 0
    var total = 0
    let work = try TemporaryFolder("stroke-pages")
    while let target = next {
      let response = try served.get(target)
      #expect(response.status == 200)
      #expect(response.body.count < 4 << 20)
      try Data(response.body).write(to: URL(fileURLWithPath: work.path("page-\(pages).json")))
      let drawing = try #require((try response.json() as? [String: Any])?["drawing"] as? [String: Any])
      let list = try #require(drawing["strokeList"] as? [Any])
      #expect(drawing["strokesFrom"] as? Int == strokes)
      total = drawing["strokes"] as? Int ?? 0
      strokes += list.count
      pages += 1
      next = drawing["strokesNext"] as? String
      #expect(next == nil || list.count == 50)
    }
    #expect(total > 150)
    #expect(strokes == total)
    #expect(pages == (total + 49) / 50)
    // Each page, the last one's `strokesNext: null` and the others' addresses alike, is what
    // the API's schema says (docs/schemas/api-version.json).
    let files = (0..<pages).map { work.path("page-\($0).json") }
    let valid = try ChildProcess.run(
      ["/usr/bin/python3", PackageFolder.path("Tests/Contract/contract_test.py"), "--validate", "api-version.json"]
        + files, timeout: 120)
    #expect(valid.status == 0, "\(valid.stderr)")
    #expect(valid.stdout == "contract test: \(pages) documents valid against api-version.json\n")
  }
}
