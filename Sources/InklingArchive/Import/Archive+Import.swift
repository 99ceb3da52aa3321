// `import`: files and folders into the archive.
//
// Threads: one walks the folders and queues each folder's versions of a draft; `workers`
// threads prepare them (read, parse, hash, compress, verify; VersionPreparer); the calling
// thread writes (VersionWriter). Both queues are bounded, so memory stays flat however
// large the folder: at most a few drafts' files are in flight at once.

import Foundation
import InklingFormats
import InklingStore

extension Archive {
  /// Imports every `.inkling` file at or under `paths`.
  ///
  /// Importing is idempotent: a file whose draft, save time and content are already in the
  /// archive counts as already archived. A file that cannot be imported is reported through
  /// `options.onEvent` and counted as rejected; the rest is imported all the same.
  ///
  /// - Throws: `ArchiveError` when the archive itself cannot be used (then the files of
  ///   the batch being written are not imported; importing again completes the work).
  public func importFiles(at paths: [String], options: ImportOptions = ImportOptions()) throws(ArchiveError)
    -> ImportSummary
  {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    let started = Date()
    let jobs = BlockingQueue<WalkEvent>(capacity: 8)
    // Room for the workers to go on preparing while the writer commits or writes a batch's
    // drawing index: with a short queue both workers wait for the writer, a core idle, and
    // the import takes longer. Each result is at most one chunk (`chunks`), and the queue
    // holds at most 32 MB of their files, however large they are.
    let results = BlockingQueue<WorkResult>(capacity: 48, maximumWeight: 32 << 20) { $0.fileBytes }
    let progress = ProgressCounter()

    // The walk.
    let walker = FileWalker(maximumFileSize: options.maximumFileSize)
    let walkThread = Thread {
      walker.walk(paths) { event in
        if case .drafts(let entries) = event {
          progress.found(files: entries.count, bytes: entries.reduce(0) { $0 + $1.size })
        }
        jobs.push(event)
      }
      progress.walkFinished()
      jobs.close()
    }
    walkThread.stackSize = 1 << 20

    // The workers: each opens its own read-only connection.
    let workerCount = max(1, options.workers)
    let remaining = WorkerCount(workerCount)
    let archivePath = path
    let maximumFileSize = options.maximumFileSize
    let indexDrawings = options.indexDrawings
    var workerThreads: [Thread] = []
    for _ in 0..<workerCount {
      workerThreads.append(
        Thread {
          defer { if remaining.finishOne() { results.close() } }
          let preparer: VersionPreparer
          do {
            preparer = try VersionPreparer(
              archivePath: archivePath, maximumFileSize: maximumFileSize, indexDrawings: indexDrawings)
          } catch {
            results.push(.failure(ArchiveError(error, path: archivePath)))
            while jobs.pop() != nil {}
            return
          }
          while let job = jobs.pop() {
            switch job {
            case .drafts(let entries):
              for chunk in Self.chunks(entries) {
                results.push(.files(preparer.prepare(chunk)))
              }
            case .ignored, .problem:
              results.push(.walk(job))
            }
          }
        })
    }

    let writer: VersionWriter
    do {
      writer = try VersionWriter(database: database)
    } catch {
      throw ArchiveError(error, path: path)
    }
    walkThread.start()
    workerThreads.forEach { $0.start() }

    var failure: ArchiveError?
    var lastProgress = Date.distantPast
    while let result = results.pop() {
      guard failure == nil else { continue }  // drain, so that the other threads can finish
      do {
        switch result {
        case .walk(.ignored(let path, let reason, let named)):
          writer.ignore()
          options.onEvent?(.ignored(path: path, reason: reason, named: named))
        case .walk(.problem(let path, let problem)):
          try writer.reject(path, problem)
          options.onEvent?(.rejected(path: path, problem: problem))
        case .walk(.drafts):
          break
        case .files(let files):
          for file in files {
            let result = try writer.write(file)
            switch (file, result) {
            case (.version(let version), .success(let outcome)):
              for note in version.notes { options.onEvent?(.note(path: version.entry.path, note: note)) }
              options.onEvent?(
                .archived(path: version.entry.path, draft: version.entry.name.draftName, outcome: outcome))
            case (.alreadyArchived(let path, let draft, _), _):
              options.onEvent?(.archived(path: path, draft: draft, outcome: .alreadyArchived))
            case (_, .failure(let problem)):
              options.onEvent?(.rejected(path: Self.path(of: file), problem: problem))
            default:
              break
            }
            progress.done(bytes: Self.size(of: file))
          }
        case .failure(let error):
          throw error
        }
      } catch {
        failure = ArchiveError(error, path: path)
      }
      if let onEvent = options.onEvent, Date().timeIntervalSince(lastProgress) >= 0.1 {
        lastProgress = Date()
        onEvent(.progress(progress.snapshot(since: started)))
      }
    }
    if let failure {
      writer.rollback()
      throw failure
    }
    do {
      let summary = try writer.finish(seconds: Date().timeIntervalSince(started))
      options.onEvent?(.progress(progress.snapshot(since: started)))
      return summary
    } catch {
      writer.rollback()
      throw ArchiveError(error, path: path)
    }
  }

  /// Splits one draft's files so that no job holds much more than a few megabytes.
  static func chunks(_ entries: [DraftFileEntry]) -> [[DraftFileEntry]] {
    var chunks: [[DraftFileEntry]] = []
    var current: [DraftFileEntry] = []
    var bytes: Int64 = 0
    for entry in entries {
      if !current.isEmpty && (bytes + entry.size > 4 << 20 || current.count >= 64) {
        chunks.append(current)
        current = []
        bytes = 0
      }
      current.append(entry)
      bytes += entry.size
    }
    if !current.isEmpty { chunks.append(current) }
    return chunks
  }

  static func size(of file: PreparedFile) -> Int64 {
    switch file {
    case .version(let version): version.entry.size
    case .alreadyArchived(_, _, let bytes), .rejected(_, _, let bytes): bytes
    }
  }

  static func path(of file: PreparedFile) -> String {
    switch file {
    case .version(let version): version.entry.path
    case .alreadyArchived(let path, _, _), .rejected(let path, _, _): path
    }
  }
}

/// What a worker hands to the writer.
enum WorkResult: Sendable {
  case files([PreparedFile])
  case walk(WalkEvent)
  /// The worker could not start (its connection failed); the import stops.
  case failure(ArchiveError)

  /// The size of the files whose prepared versions this holds: more than the versions keep
  /// (their drawings compressed), so a bound on it bounds their memory.
  var fileBytes: Int {
    guard case .files(let files) = self else { return 0 }
    return files.reduce(0) { total, file in
      guard case .version(let version) = file else { return total }
      return total + Int(clamping: version.entry.size)
    }
  }
}

/// Counts the workers still running; the last one to finish closes the results queue.
final class WorkerCount: @unchecked Sendable {
  // @unchecked: `count` is only touched under `lock`.
  private let lock = NSLock()
  private var count: Int
  init(_ count: Int) { self.count = count }
  func finishOne() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    count -= 1
    return count == 0
  }
}

/// Progress shared between the walk and the writer.
final class ProgressCounter: @unchecked Sendable {
  // @unchecked: every property is only touched under `lock`.
  private let lock = NSLock()
  private var filesFound = 0
  private var bytesFound: Int64 = 0
  private var filesDone = 0
  private var bytesDone: Int64 = 0
  private var walkDone = false

  func found(files: Int, bytes: Int64) {
    lock.lock()
    defer { lock.unlock() }
    filesFound += files
    bytesFound += bytes
  }

  func done(bytes: Int64) {
    lock.lock()
    defer { lock.unlock() }
    filesDone += 1
    bytesDone += bytes
  }

  func walkFinished() {
    lock.lock()
    defer { lock.unlock() }
    walkDone = true
  }

  func snapshot(since start: Date) -> ImportProgress {
    lock.lock()
    defer { lock.unlock() }
    return ImportProgress(
      filesDone: filesDone, bytesDone: bytesDone, filesFound: filesFound, bytesFound: bytesFound,
      walkFinished: walkDone, seconds: Date().timeIntervalSince(start))
  }
}
