// The threads of one import run and the two queues between them (ImportPipeline.swift says
// who does what). Both queues are bounded, so memory stays flat however much there is: at most
// a few drafts' versions are in flight at once.
//
// Invariants:
//   1. Every thread started ends once the results are drained: the lister when the jobs are
//      listed or the jobs queue is cancelled, the workers when the jobs queue is empty and
//      closed (or cancelled); the last worker to end closes the results queue.
//   2. `stop()` ends them early: both queues refuse and drop everything, so no thread waits
//      on a queue the writer no longer reads.

import FoundationEssentials
import Synchronization

/// The lister and workers of one import run, and the queues they fill.
final class ImportThreads<Source: ImportSource> {
  let jobs = BlockingQueue<Source.Job>(capacity: 8)
  /// Room for the workers to go on preparing while the writer commits or writes a batch's
  /// drawing index. Each result is at most one chunk, and the queue holds at most 32 MB of
  /// their files, however large they are.
  let results = BlockingQueue<WorkResult>(capacity: 48, maximumWeight: 32 << 20) { $0.fileBytes }
  let progress = ProgressCounter()
  private var threads: [SystemThread] = []

  /// Starts the lister and `workers` workers over `source`. The threads start before the run
  /// is recorded, so that a system that refuses one leaves the archive as it was.
  ///
  /// - Throws: `ArchiveError.cannotStartThread`, after stopping those that started.
  init(_ source: Source, workers: Int, archivePath: String) throws(ArchiveError) {
    let (jobs, results, progress) = (jobs, results, progress)
    let remaining = WorkerCount(workers)
    do {
      try start(stackSize: 1 << 20) {
        source.produce(progress, isStopped: { jobs.isClosed }) { jobs.push($0) }
        progress.walkFinished()
        jobs.close()
      }
      for _ in 0..<workers {
        try start(stackSize: nil) {
          defer { if remaining.finishOne() { results.close() } }
          // The workers keep the process's priority, as the writer does: niced, they would
          // yield to every other process of the machine as well as to the writer, and on a
          // busy machine an import would wait for the rest of the machine to be idle. Who
          // runs an import in the background lowers the whole process (`nice`, the watch
          // service's Nice=).
          let worker: Source.Worker
          do {
            worker = try source.makeWorker()
          } catch {
            results.push(.failure(ArchiveError(error, path: archivePath)))
            while jobs.pop() != nil {}
            return
          }
          while let job = jobs.pop() {
            source.prepare(job, with: worker) { results.push($0) }
          }
        }
      }
    } catch {
      stop()
      throw .cannotStartThread(code: error.code)
    }
  }

  private func start(stackSize: Int?, _ body: @escaping @Sendable () -> Void) throws(ThreadStartError) {
    threads.append(try SystemThread(stackSize: stackSize, body))
  }

  /// Ends the run early: the lister stops listing, the workers after the job in hand.
  func cancelJobs() { jobs.cancel() }

  /// Stops every thread at once and waits for them (invariant 2).
  func stop() {
    jobs.cancel()
    results.cancel()
    join()
  }

  /// Waits for every thread to end (invariant 1: after the results are drained, or `stop`).
  func join() {
    threads.forEach { $0.join() }
  }
}

/// Counts the workers still running; the last one to finish closes the results queue.
final class WorkerCount: Sendable {
  private let count: Mutex<Int>
  init(_ count: Int) { self.count = Mutex(count) }
  func finishOne() -> Bool {
    count.withLock { count in
      count -= 1
      return count == 0
    }
  }
}

/// Progress shared between the lister and the writer.
final class ProgressCounter: Sendable {
  private struct Counts {
    var filesFound = 0
    var bytesFound: Int64 = 0
    var filesDone = 0
    var bytesDone: Int64 = 0
    var walkDone = false
  }
  private let counts = Mutex(Counts())

  /// Saturating: a merged archive's rows may claim sizes whose sum overflows.
  func found(files: Int, bytes: Int64) {
    counts.withLock {
      $0.filesFound += files
      let (sum, overflow) = $0.bytesFound.addingReportingOverflow(bytes)
      $0.bytesFound = overflow ? .max : sum
    }
  }

  func done(bytes: Int64) {
    counts.withLock {
      $0.filesDone += 1
      $0.bytesDone += bytes
    }
  }

  func walkFinished() {
    counts.withLock { $0.walkDone = true }
  }

  func snapshot(since start: Date) -> ImportProgress {
    let now = counts.withLock { $0 }
    return ImportProgress(
      filesDone: now.filesDone, bytesDone: now.bytesDone, filesFound: now.filesFound,
      bytesFound: now.bytesFound, walkFinished: now.walkDone, seconds: Date().timeIntervalSince(start))
  }
}
