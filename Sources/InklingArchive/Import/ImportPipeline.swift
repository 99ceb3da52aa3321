// The import's threads, shared by every way versions come in: files and folders
// (Archive+Import.swift) and another archive (Archive+Merge.swift).
//
// Threads: one lists the work (walks the folders, or pages through the other archive's
// drafts) and queues jobs; `workers` threads prepare them (read, hash, compress or decode,
// verify: VersionPreparer, MergePreparer); the calling thread writes (VersionWriter). Both
// queues are bounded, so memory stays flat however much there is: at most a few drafts'
// versions are in flight at once.
//
// Stopping (`ImportOptions.shouldStop`, asked after each commit): the jobs queue is
// cancelled, its waiting jobs dropped, so the lister stops listing and the workers stop after
// the job in hand; the writer drops what they still hand over and closes the run. Everything committed is complete, and a
// later import of the same paths finds the rest (importing is idempotent).

import FoundationEssentials
import InklingStore
import Synchronization

/// One kind of work the pipeline runs.
protocol ImportSource: Sendable {
  associatedtype Job: Sendable
  /// What one worker thread keeps between jobs (its connections, its encoder).
  associatedtype Worker

  /// Lists the jobs on the lister's thread, handing each to `emit`, which returns false once
  /// the import stops (then listing should end); `isStopped` says so between jobs too.
  func produce(_ progress: ProgressCounter, isStopped: @escaping @Sendable () -> Bool, _ emit: (Job) -> Bool)
  /// Made on the worker's thread, before its first job.
  func makeWorker() throws -> Worker
  /// Prepares one job, handing its results to `push` in the order the writer must store
  /// them (as each is ready: a long history is several results, not one held whole).
  func prepare(_ job: Job, with worker: Worker, _ push: (WorkResult) -> Void)
}

/// What a worker hands to the writer.
enum WorkResult: Sendable {
  case files([PreparedFile])
  /// A path passed over; `named` when it is one of the paths given.
  case ignored(path: String, reason: IgnoredReason, named: Bool)
  /// A path or version that cannot be imported, and why.
  case problem(path: String, problem: ImportProblem)
  /// Something that ends the import: the worker could not start, or (merging without
  /// salvage) the other archive is damaged.
  case failure(ArchiveError)

  /// The size of the files whose prepared versions this holds: more than the versions keep
  /// (their drawings compressed), so a bound on it bounds their memory.
  var fileBytes: Int {
    guard case .files(let files) = self else { return 0 }
    return files.reduce(0) { total, file in
      guard case .version(let version) = file else { return total }
      return total + Int(clamping: version.fileSize)
    }
  }
}

extension Archive {
  /// Runs `source` through the threads and the writer; see the file comment.
  ///
  /// - Throws: `ArchiveError` when the archive itself cannot be used (`importStopped` when it
  ///   could not be written on part way), or a job failed (`WorkResult.failure`); the batch
  ///   being written is then rolled back.
  func runImport<Source: ImportSource>(_ source: Source, options: ImportOptions) throws(ArchiveError)
    -> ImportSummary
  {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    let started = Date()
    let jobs = BlockingQueue<Source.Job>(capacity: 8)
    // Room for the workers to go on preparing while the writer commits or writes a batch's
    // drawing index. Each result is at most one chunk, and the queue holds at most 32 MB of
    // their files, however large they are.
    let results = BlockingQueue<WorkResult>(capacity: 48, maximumWeight: 32 << 20) { $0.fileBytes }
    let progress = ProgressCounter()

    let archivePath = path
    let startList = { () throws(ThreadStartError) in
      try SystemThread(stackSize: 1 << 20) {
        source.produce(progress, isStopped: { jobs.isClosed }) { jobs.push($0) }
        progress.walkFinished()
        jobs.close()
      }
    }
    // The workers: each opens its own connections.
    let workerCount = max(1, options.workers)
    let remaining = WorkerCount(workerCount)
    let startWorker = { () throws(ThreadStartError) in
      try SystemThread {
        defer { if remaining.finishOne() { results.close() } }
        // The writer is the one thread that cannot be parallel: when the workers compete
        // with it for the cores, the whole import waits on the writer's share.
        SystemThread.lowerCurrentPriority(by: 10)
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

    // The threads start before the run is recorded, so that a system that refuses one
    // leaves the archive as it was.
    var threads: [SystemThread] = []
    // The threads that started stop at once: both queues refuse and drop everything.
    func stopThreads() {
      jobs.cancel()
      results.cancel()
      threads.forEach { $0.join() }
    }
    do {
      threads.append(try startList())
      for _ in 0..<workerCount { threads.append(try startWorker()) }
    } catch {
      stopThreads()
      throw .cannotStartThread(code: error.code)
    }
    let onEvent = options.onEvent
    let writer: VersionWriter
    do {
      writer = try VersionWriter(
        database: database,
        onCommitted: options.reportsVersions ? { versions in versions.forEach { onEvent?(.imported($0)) } } : nil)
    } catch {
      stopThreads()
      throw ArchiveError(error, path: path)
    }
    // Every thread ends once the results are drained: the lister when the jobs are listed or
    // closed, the workers when the jobs queue is empty and closed.
    defer { threads.forEach { $0.join() } }

    var failure: ArchiveError?
    var stopped = false
    var lastProgress = Date.distantPast
    while let result = results.pop() {
      // Drain, so that the other threads can finish.
      guard failure == nil, !stopped else { continue }
      do {
        switch result {
        case .ignored(let path, let reason, let named):
          writer.ignore()
          onEvent?(.ignored(path: path, reason: reason, named: named))
        case .problem(let path, let problem):
          try writer.reject(path, problem)
          onEvent?(.rejected(path: path, problem: problem))
        case .files(let files):
          for file in files where !stopped {
            let (result, committed) = try writer.write(file)
            switch (file, result) {
            case (.version(let version), .success(let outcome)):
              for note in version.notes { onEvent?(.note(path: version.path, note: note)) }
              onEvent?(.archived(path: version.path, draft: version.draftName, outcome: outcome))
            case (.alreadyArchived(let archived), _):
              onEvent?(.archived(path: archived.path, draft: archived.draftName, outcome: .alreadyArchived))
            case (_, .failure(let problem)):
              onEvent?(.rejected(path: Self.path(of: file), problem: problem))
            default:
              break
            }
            progress.done(bytes: Self.size(of: file))
            if committed, options.shouldStop?() == true {
              stopped = true
              jobs.cancel()
            }
          }
        case .failure(let error):
          throw error
        }
      } catch {
        failure = ArchiveError(error, path: path)
        jobs.cancel()
      }
      if let onEvent, Date().timeIntervalSince(lastProgress) >= 0.1 {
        lastProgress = Date()
        onEvent(.progress(progress.snapshot(since: started)))
      }
    }
    if let failure {
      writer.rollback()
      throw importEnd(failure, committed: writer.committed)
    }
    do {
      let summary = try writer.finish(seconds: Date().timeIntervalSince(started))
      onEvent?(.progress(progress.snapshot(since: started)))
      return summary
    } catch {
      writer.rollback()
      throw importEnd(ArchiveError(error, path: path), committed: writer.committed)
    }
  }

  /// `failure` as the import's end: when this archive itself could not be written on, the
  /// error also says what the batches before it committed.
  private func importEnd(_ failure: ArchiveError, committed: ArchiveError.CommittedImport) -> ArchiveError {
    guard case .unusableArchive(let failedPath, let reason) = failure, failedPath == path else { return failure }
    switch reason {
    case .diskFull:
      return .importStopped(path: path, committed: committed, reason: reason)
    case .failed, .cannotWrite, .locked:
      // Before any commit, the archive's own sentence says all there is.
      return committed.versions > 0 ? .importStopped(path: path, committed: committed, reason: reason) : failure
    case .missing, .folder, .notAnArchive, .newerSchema, .changedSchema, .damaged, .unreadableLog:
      return failure
    }
  }

  static func path(of file: PreparedFile) -> String {
    switch file {
    case .version(let version): version.path
    case .alreadyArchived(let archived): archived.path
    case .rejected(let path, _, _): path
    }
  }

  static func size(of file: PreparedFile) -> Int64 {
    switch file {
    case .version(let version): version.fileSize
    case .alreadyArchived(let archived): archived.bytes
    case .rejected(_, _, let bytes): bytes
    }
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

  func found(files: Int, bytes: Int64) {
    counts.withLock {
      $0.filesFound += files
      $0.bytesFound += bytes
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
