// The expensive work of requests (rendering a drawing, building a large JSON answer), off MHD's
// threads and bounded: at most `workers` jobs run at once, at most `queueLimit` wait, and a
// request beyond that is answered 503 at once (HTTPDaemon). A job whose client has gone by the
// time it would start is dropped without running (HTTPDaemon checks before calling it).
//
// Why: a handler runs on the MHD thread that polls its connection and many others, so a render
// of half a second on it stalled every page of those connections, and sixteen in parallel took
// the memory of sixteen canvases (issue 30, item 3). Here the connection is suspended while
// its job waits and runs, and MHD's threads go on answering everything else.
//
// States: running (from init) → stopped (stop(): queued jobs are dropped, running ones
// finish). Invariants, under `state`'s lock:
//   1. `running` ≤ `workers`, `waiting.count` ≤ `queueLimit`;
//   2. a job is started or dropped exactly once.

import Dispatch
import Synchronization

final class WorkQueue: Sendable {
  /// One job: `run` does the work; `drop` is called instead when it never will (stop).
  struct Job: Sendable {
    let run: @Sendable () -> Void
    let drop: @Sendable () -> Void
  }

  private struct State {
    var running = 0
    var waiting: [Job] = []
    var stopped = false
  }

  private let state = Mutex(State())
  private let idle = DispatchSemaphore(value: 0)
  let workers: Int
  let queueLimit: Int
  /// Jobs running now (tests).
  var runningJobs: Int { state.withLock { $0.running } }

  init(workers: Int, queueLimit: Int) {
    self.workers = max(1, workers)
    self.queueLimit = max(0, queueLimit)
  }

  /// Starts `job` or queues it; false when the queue is full (or stopped), and `job` is not kept.
  func submit(_ job: Job) -> Bool {
    let start = state.withLock { state -> Bool? in
      if state.stopped { return nil }
      if state.running < workers {
        state.running += 1
        return true
      }
      guard state.waiting.count < queueLimit else { return nil }
      state.waiting.append(job)
      return false
    }
    guard let start else { return false }
    if start { DispatchQueue.global().async { self.work(job) } }
    return true
  }

  /// Drops the waiting jobs and waits for the running ones to finish.
  func stop() {
    let (dropped, running) = state.withLock { state in
      state.stopped = true
      defer { state.waiting.removeAll() }
      return (state.waiting, state.running)
    }
    dropped.forEach { $0.drop() }
    for _ in 0..<running { idle.wait() }
  }

  private func work(_ first: Job) {
    var job = first
    while true {
      job.run()
      let (next, stopped) = state.withLock { state -> (Job?, Bool) in
        if !state.stopped, !state.waiting.isEmpty { return (state.waiting.removeFirst(), false) }
        state.running -= 1
        return (nil, state.stopped)
      }
      guard let next else {
        if stopped { idle.signal() }  // stop() counted this job among the running
        return
      }
      job = next
    }
  }
}
