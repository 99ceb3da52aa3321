// The server keeps answering while an import writes to the archive, and shows the new drafts
// on the next request; thumbnails rendered on a miss are stored by the one writer.

import Foundation
import InklingArchive
import InklingCorpus
import Testing

@Suite(.serialized) struct ConcurrentImportTests {
  @Test func readsGoOnDuringAnImport() throws {
    let served = try ServedArchive()
    let before = Set(try served.archive().drafts().map(\.name))
    let more = served.folder + "/More"
    let summary = try writeCorpus(
      CorpusSpec(drafts: 60, versionsPerDraft: 1...4, seed: 77), to: URL(fileURLWithPath: more))
    let entry = try #require(try served.archive().draftPage(limit: 1).drafts.first)
    let targets = [
      "/", "/api/drafts", "/draft?name=" + encoded(entry.draft.name), "/versions/\(entry.latestVersion)/thumbnail.png",
    ]
    let failures = Failures()
    let importing = DispatchGroup()
    let done = Flag()
    importing.enter()
    DispatchQueue.global().async {
      do {
        _ = try Archive(path: served.archivePath).importFiles(at: [more])
      } catch {
        failures.add("import: \(error)")
      }
      done.set()
      importing.leave()
    }
    let requests = Counter()
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      var index = worker
      while !done.isSet || requests.value < 40 {
        let target = targets[index % targets.count]
        index += 1
        do {
          let response = try served.get(target)
          if response.status != 200 { failures.add("\(target): \(response.status) \(response.text.prefix(200))") }
        } catch {
          failures.add("\(target): \(error)")
        }
        requests.increment()
      }
    }
    importing.wait()
    #expect(failures.all.isEmpty, "\(failures.all.prefix(5))")
    #expect(requests.value >= 40)
    // The new drafts, on the next request.
    let after = try served.archive().drafts()
    #expect(Set(after.map(\.name)) == before.union(summary.drafts.map(\.name.draftName)))
    let first = try served.get("/api/drafts?limit=500")
    let names = try #require((try first.json() as? [String: Any])?["drafts"] as? [[String: Any]]).compactMap {
      $0["name"] as? String
    }
    #expect(names == after.map(\.name))
  }

  @Test func missesAreStoredByTheWriter() throws {
    let served = try ServedArchive()
    #expect(served.server.storesThumbnails)
    let archive = try served.archive()
    #expect(try ThumbnailCache.size(in: archive).count == 0)
    let page = try archive.draftPage(limit: 5)
    for entry in page.drafts {
      // The grid's size: the only one the server stores (ThumbnailQuotaTests).
      #expect(try served.get("/versions/\(entry.latestVersion)/thumbnail.png?size=256").status == 200)
    }
    served.server.stop()  // stores what is queued
    #expect(try ThumbnailCache.size(in: archive).count > 0)
  }
}

/// Thread-safe test bookkeeping.
final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String] = []
  func add(_ item: String) { lock.withLock { items.append(item) } }
  var all: [String] { lock.withLock { items } }
}

final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}

final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var flag = false
  func set() { lock.withLock { flag = true } }
  var isSet: Bool { lock.withLock { flag } }
}
