// The work queue's shares (WorkQueue.swift), on the queue itself with jobs that wait for the
// test: long work never takes the last worker while there are two, a thumbnail asked after
// six long jobs runs before them, no kind fills the waiting places of the other, and every
// job still runs or is dropped once.

import Dispatch
import Glibc
import Synchronization
import Testing

@testable import InklingServer

@Suite struct WorkSharesTests {
  /// What the jobs did, in order.
  final class Log: Sendable {
    private let entries = Mutex<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
  }

  /// A job of `kind` that records its start in `log` and waits for `release` before it ends.
  static func job(_ kind: WorkKind, _ name: String, log: Log, release: DispatchSemaphore?) -> WorkQueue.Job {
    WorkQueue.Job(
      kind: kind,
      run: {
        log.add(name)
        release?.wait()
      },
      drop: { log.add("dropped " + name) })
  }

  /// Waits until `condition` holds, for a minute at most: a loaded machine can leave a thread
  /// unscheduled for seconds, and a test that went on before would race its own jobs.
  static func waitFor(_ condition: () -> Bool) {
    for _ in 0..<6000 where !condition() { usleep(10_000) }
  }

  @Test func aThumbnailAskedAfterSixLongJobsRunsFirst() {
    let queue = WorkQueue(workers: 2, queueLimit: 16)
    let log = Log()
    let release = DispatchSemaphore(value: 0)
    for index in 0..<6 { #expect(queue.submit(Self.job(.long, "long \(index)", log: log, release: release))) }
    Self.waitFor { !log.all.isEmpty }
    // One long job holds a worker; the other waits for thumbnails.
    #expect(queue.runningJobs == 1)
    #expect(queue.waitingJobs == 5)
    #expect(queue.submit(Self.job(.thumbnail, "thumbnail", log: log, release: nil)))
    Self.waitFor { log.all.contains("thumbnail") }
    #expect(log.all == ["long 0", "thumbnail"])
    for _ in 0..<6 { release.signal() }
    Self.waitFor { log.all.count == 7 }
    #expect(log.all == ["long 0", "thumbnail"] + (1..<6).map { "long \($0)" })
    queue.stop()
  }

  @Test func noKindFillsTheWaitingPlacesOfTheOther() {
    let queue = WorkQueue(workers: 1, queueLimit: 4)
    let log = Log()
    let release = DispatchSemaphore(value: 0)
    // One runs, three of the four places wait; the fourth place is the thumbnails'.
    for index in 0..<4 { #expect(queue.submit(Self.job(.long, "long \(index)", log: log, release: release))) }
    #expect(!queue.submit(Self.job(.long, "long 4", log: log, release: release)))
    #expect(queue.submit(Self.job(.thumbnail, "thumbnail", log: log, release: release)))
    #expect(!queue.submit(Self.job(.thumbnail, "thumbnail 2", log: log, release: release)))
    release.signal()
    Self.waitFor { log.all.count == 2 }
    // With one worker, long work may hold it; the oldest job it may start comes next.
    #expect(log.all == ["long 0", "long 1"])
    // Stopping drops what waits, in order, and lets the running job finish.
    let stopped = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      queue.stop()
      stopped.signal()
    }
    Self.waitFor { log.all.count == 5 }
    // Enough for any job that could be running: a test never hangs on its own semaphore.
    for _ in 0..<5 { release.signal() }
    #expect(stopped.wait(timeout: .now() + 60) == .success)
    #expect(
      log.all == ["long 0", "long 1", "dropped long 2", "dropped long 3", "dropped thumbnail"])
  }
}
