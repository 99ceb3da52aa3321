// A watch's first import of its roots (step 1 of Archive+Watch.swift), on a thread of its
// own, so that the watch follows the folders from its first moment instead of after reading
// a large folder: files saved meanwhile are seen by inotify and imported once it ends (or
// by it, if its walk reaches them; importing is idempotent).
//
// Invariants:
//   1. While it runs, the watch loop does not touch the archive: the archive's connection
//      serves one thread at a time, and this thread writes through it. The loop imports
//      nothing until `finish()` has joined the thread.
//   2. `finished` becomes readable once the thread has ended, whatever the outcome, so that
//      the loop's poll wakes for it.

import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc

  final class WatchCatchUp: @unchecked Sendable {
    // @unchecked: `archive` is used by the thread alone until `finish()` joins it
    // (invariant 1); the outcome is behind a lock; the pipe is its own synchronisation.
    private let archive: Archive
    private let imports: [(paths: [String], options: ImportOptions)]
    private let outcome = Mutex<Result<[ImportSummary], ArchiveError>?>(nil)
    /// A self-pipe, written once when the thread ends (invariant 2).
    private let finished: WatchStop
    private var thread: SystemThread?

    /// Starts importing each of `imports` in turn on a new thread.
    ///
    /// - Throws: `ArchiveError.cannotWatch` when the pipe cannot be made,
    ///   `.cannotStartThread` when the thread cannot be started.
    init(archive: Archive, imports: [(paths: [String], options: ImportOptions)]) throws(ArchiveError) {
      self.archive = archive
      self.imports = imports
      finished = try WatchStop()
      do {
        thread = try SystemThread(stackSize: nil) { [self] in run() }
      } catch {
        throw .cannotStartThread(code: error.code)
      }
    }

    /// Polled for POLLIN: readable once the thread has ended.
    var descriptor: Int32 { finished.readDescriptor }

    var isFinished: Bool { finished.isRequested }

    private func run() {
      defer { finished.request() }
      var summaries: [ImportSummary] = []
      do {
        for (paths, options) in imports {
          summaries.append(try archive.importFiles(at: paths, options: options))
          if options.shouldStop?() == true { break }
        }
        outcome.withLock { $0 = .success(summaries) }
      } catch {
        outcome.withLock { $0 = .failure(error) }
      }
    }

    /// Waits for the thread, and returns what each import did (fewer than asked when a stop
    /// ended it early).
    ///
    /// - Throws: the `ArchiveError` that ended an import.
    func finish() throws(ArchiveError) -> [ImportSummary] {
      thread?.join()
      thread = nil
      let result = outcome.withLock { $0 } ?? .success([])
      return try result.get()
    }
  }
#endif
