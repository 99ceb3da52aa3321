// The expensive work of requests (rendering a drawing, building a large JSON answer), off MHD's
// threads and bounded: at most `workers` jobs run at once, at most `queueLimit` wait, and a
// request beyond that is answered 503 at once (HTTPDaemon). A job whose client has gone by the
// time it would start is dropped without running (HTTPDaemon checks before calling it).
//
// Why: a handler runs on the MHD thread that polls its connection and many others, so a render
// of half a second on it stalled every page of those connections, and sixteen in parallel took
// the memory of sixteen canvases. Here the connection is suspended while its job waits and
// runs, and MHD's threads go on answering everything else.
//
// Shares: a job is of a kind (WorkKind), and the kinds share the queue, so that long work
// asked in numbers (six time-lapses, a page of another site that got through, a script)
// cannot make the thumbnails of the user's pages wait behind it. Long work runs on at most
// `workers - 1` workers (all of them when there is one), so a worker is always left for
// thumbnails, which take a fraction of a second; a job that cannot start waits, and the next
// job a worker takes is the oldest it may start. Each kind holds at most three quarters of
// the waiting places, so neither fills the queue for the other. Kinds of work are the shares
// rather than clients, because no client can be told apart here: every account and every
// browser tab on the machine connects from 127.0.0.1, a browser spreads one page's requests
// over six connections and opens new ones at will, and another site's requests come from the
// user's own browser.
//
// States: running (from init) → stopped (stop(): queued jobs are dropped, running ones
// finish). Invariants, under `state`'s lock:
//   1. `running` ≤ `workers`, `runningLong` ≤ `longWorkers`, `waiting.count` ≤ `queueLimit`,
//      the waiting jobs of each kind ≤ `kindLimit`;
//   2. a job is started or dropped exactly once;
//   3. no waiting job could start: a worker that ends leaves none it may take.

import Dispatch
import Synchronization

/// What a job is, for its share of the work queue.
enum WorkKind: Sendable, Equatable {
  /// A version's thumbnail: the pictures of the grid and the draft pages, quick, many at once.
  case thumbnail
  /// Anything longer: a share image, a comparison, a time-lapse, a zip, a file, a stroke list.
  case long
}

final class WorkQueue: Sendable {
  /// One job: `run` does the work; `drop` is called instead when it never will (stop).
  struct Job: Sendable {
    let kind: WorkKind
    let run: @Sendable () -> Void
    let drop: @Sendable () -> Void
  }

  private struct State {
    var running = 0
    var runningLong = 0
    var waiting: [Job] = []
    var stopped = false
  }

  private let state = Mutex(State())
  private let idle = DispatchSemaphore(value: 0)
  let workers: Int
  /// Workers long work may hold at once.
  let longWorkers: Int
  let queueLimit: Int
  /// Waiting places one kind may hold.
  let kindLimit: Int
  /// Jobs running now (tests).
  var runningJobs: Int { state.withLock { $0.running } }
  /// Jobs waiting now (tests).
  var waitingJobs: Int { state.withLock { $0.waiting.count } }

  init(workers: Int, queueLimit: Int) {
    self.workers = max(1, workers)
    longWorkers = max(1, self.workers - 1)
    self.queueLimit = max(0, queueLimit)
    kindLimit = (self.queueLimit * 3 + 3) / 4
  }

  /// Starts `job` or queues it; false when there is no room for its kind (or the queue is
  /// stopped), and `job` is not kept.
  func submit(_ job: Job) -> Bool {
    let start = state.withLock { state -> Bool? in
      if state.stopped { return nil }
      if state.running < workers, mayStart(job.kind, state) {
        state.running += 1
        if job.kind == .long { state.runningLong += 1 }
        return true
      }
      guard state.waiting.count < queueLimit, state.waiting.count(where: { $0.kind == job.kind }) < kindLimit
      else { return nil }
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

  /// Whether a job of `kind` may start on a free worker.
  private func mayStart(_ kind: WorkKind, _ state: State) -> Bool {
    kind == .thumbnail || state.runningLong < longWorkers
  }

  private func work(_ first: Job) {
    var job = first
    while true {
      job.run()
      let (next, stopped) = state.withLock { state -> (Job?, Bool) in
        if job.kind == .long { state.runningLong -= 1 }
        if !state.stopped, let index = state.waiting.firstIndex(where: { mayStart($0.kind, state) }) {
          let next = state.waiting.remove(at: index)
          if next.kind == .long { state.runningLong += 1 }
          return (next, false)
        }
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
