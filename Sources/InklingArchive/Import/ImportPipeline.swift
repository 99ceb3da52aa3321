// One import run, shared by every way versions come in: files and folders
// (Archive+Import.swift) and another archive (Archive+Merge.swift).
//
// Threads (ImportThreads.swift): one lists the work (walks the folders, or pages through the
// other archive's drafts) and queues jobs; `workers` threads prepare them (read, hash, compress
// or decode, verify: VersionPreparer, MergePreparer); the calling thread writes (VersionWriter)
// and reports each file as an ImportEvent.
//
// Stopping (`ImportOptions.shouldStop`, asked after each commit): the jobs queue is
// cancelled, its waiting jobs dropped, so the lister stops listing and the workers stop after
// the job in hand; the writer drops what they still hand over and closes the run. Everything
// committed is complete, and a later import of the same paths finds the rest (importing is
// idempotent).

import FoundationEssentials
import InklingStore

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

/// What a worker hands to the writer. `origin` says which of the source's inputs the files or
/// the problem came from (the archives of a merge), to count them apart; 0 when it has one.
enum WorkResult: Sendable {
  case files([PreparedFile], origin: Int = 0)
  /// A path passed over; `named` when it is one of the paths given.
  case ignored(path: String, reason: IgnoredReason, named: Bool)
  /// A path or version that cannot be imported, and why.
  case problem(path: String, problem: ImportProblem, origin: Int = 0)
  /// Something that ends the import: the worker could not start, or (merging without
  /// salvage) the other archive is damaged.
  case failure(ArchiveError)

  /// The size of the files whose prepared versions this holds: more than the versions keep
  /// (their drawings compressed), so a bound on it bounds their memory.
  var fileBytes: Int {
    guard case .files(let files, _) = self else { return 0 }
    return files.reduce(0) { total, file in
      guard case .version(let version) = file else { return total }
      return total + Int(clamping: version.fileSize)
    }
  }
}

extension Archive {
  /// Runs `source` through the threads and the writer; see the file comment. Returns what
  /// the run did in all, and for each origin of the work (`WorkResult`) that stored, found or
  /// left out anything.
  ///
  /// - Throws: `ArchiveError` when the archive itself cannot be used (`importStopped` when it
  ///   could not be written on part way), or a job failed (`WorkResult.failure`); the batch
  ///   being written is then rolled back.
  func runImport<Source: ImportSource>(_ source: Source, options: ImportOptions) throws(ArchiveError)
    -> (total: ImportSummary, byOrigin: [Int: ImportSummary])
  {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    let started = Date()
    let threads = try ImportThreads(source, workers: max(1, options.workers), archivePath: path)
    let onEvent = options.onEvent
    let writer: VersionWriter
    do {
      writer = try VersionWriter(
        database: database,
        onCommitted: options.reportsVersions ? { versions in versions.forEach { onEvent?(.imported($0)) } } : nil)
    } catch {
      threads.stop()
      throw ArchiveError(error, path: path)
    }
    defer { threads.join() }
    return try drain(threads, into: writer, options: options, started: started)
  }

  /// Writes what the workers hand over until the results queue closes, then commits the last
  /// batch. After a failure or a stop it goes on draining, so that the other threads can end
  /// (ImportThreads, invariant 1), but writes nothing more.
  private func drain<Source>(
    _ threads: ImportThreads<Source>, into writer: VersionWriter, options: ImportOptions, started: Date
  ) throws(ArchiveError) -> (total: ImportSummary, byOrigin: [Int: ImportSummary]) {
    let onEvent = options.onEvent
    var failure: ArchiveError?
    var stopped = false
    var lastProgress = Date.distantPast
    while let result = threads.results.pop() {
      guard failure == nil, !stopped else { continue }
      do {
        switch result {
        case .ignored(let path, let reason, let named):
          writer.ignore(reason)
          onEvent?(.ignored(path: path, reason: reason, named: named))
        case .problem(let path, let problem, let origin):
          try writer.reject(path, problem, origin: origin)
          onEvent?(.rejected(path: path, problem: problem))
        case .files(let files, let origin):
          for file in files where !stopped {
            let (result, committed) = try writer.write(file, origin: origin)
            Self.report(file, result, to: onEvent)
            threads.progress.done(bytes: Self.size(of: file))
            if committed, options.shouldStop?() == true {
              stopped = true
              threads.cancelJobs()
            }
          }
        case .failure(let error):
          throw error
        }
      } catch {
        failure = ArchiveError(error, path: path)
        threads.cancelJobs()
      }
      if let onEvent, Date().timeIntervalSince(lastProgress) >= 0.1 {
        lastProgress = Date()
        onEvent(.progress(threads.progress.snapshot(since: started)))
      }
    }
    if let failure {
      writer.rollback()
      throw importEnd(failure, committed: writer.committed)
    }
    do {
      let summary = try writer.finish(seconds: Date().timeIntervalSince(started))
      onEvent?(.progress(threads.progress.snapshot(since: started)))
      return (summary, writer.summaryByOrigin)
    } catch {
      writer.rollback()
      throw importEnd(ArchiveError(error, path: path), committed: writer.committed)
    }
  }

  /// The events of one file the writer has written: its notes and where it went, or why not.
  private static func report(
    _ file: PreparedFile, _ result: Result<ImportOutcome, ImportProblem>, to onEvent: (@Sendable (ImportEvent) -> Void)?
  ) {
    guard let onEvent else { return }
    switch (file, result) {
    case (.version(let version), .success(let outcome)):
      for note in version.notes { onEvent(.note(path: version.path, note: note)) }
      onEvent(.archived(path: version.path, draft: version.draftName, outcome: outcome))
    case (.alreadyArchived(let archived), _):
      onEvent(.archived(path: archived.path, draft: archived.draftName, outcome: .alreadyArchived))
    case (_, .failure(let problem)):
      onEvent(.rejected(path: path(of: file), problem: problem))
    default:
      break
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
