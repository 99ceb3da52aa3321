// `watch`: keeps importing folders as files land in them, through the import itself
// (`importFiles`, one call per burst and root), until asked to stop.
//
// The loop, on one thread:
//   1. watch every root's tree (WatchedFolders), say so, and import the roots whole, as
//      `import` would, on a thread of its own (WatchCatchUp) while the loop follows events: a
//      file that lands meanwhile is seen by both, and importing is idempotent; what events
//      ask to import waits until that first import ends (it has the archive until then), and
//      a file written since the watch began that it finds unfinished is left to steps 3-5;
//   2. wait in poll(2) on the inotify descriptor, the stop pipe (WatchStop) and the mount
//      table, with no timeout while nothing is pending: an idle watch costs no wake-ups;
//   3. turn events into work (WatchedFolders.Changes): files that are complete go to `ready`;
//      files created or written in place go to `settling` until they are closed, or their size
//      and modification time have not changed for `settle` seconds (the one timed wake-up, and
//      only while such a file waits);
//   4. import `ready` once events have paused for `quiet` seconds, or the oldest file has
//      waited `hold` seconds: a burst of files is one import (one run, batches of the
//      import's own size), each version reported once its batch commits;
//   5. a file that settled without being closed and is not yet a whole draft is taken for
//      one whose writer paused: it goes to `unfinished`, retried when it changes again, and
//      reported rejected only once it has stayed as it is for `unfinishedGrace` seconds.
// A stop is seen between imports, and by the import itself after each commit: what is
// committed is complete, and the next start imports the rest (step 1).

import FoundationEssentials
import InklingStore
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// How to watch.
public struct WatchOptions: Sendable {
  /// Seconds a file written in place (never closed after writing) must keep its size and
  /// modification time before it is imported.
  public var settle = Self.defaultSettle
  public static let defaultSettle = 2.0
  /// The source recorded for every version; nil for each folder watched, as an absolute path.
  public var source: String?
  /// Files larger than this are refused, and how many threads prepare files (as `import`).
  public var maximumFileSize = ImportOptions.defaultMaximumFileSize
  public var workers = ImportOptions.defaultWorkers
  /// Called on the watching thread for each event; keep it quick.
  public var onEvent: (@Sendable (WatchEvent) -> Void)?

  /// Seconds without events before the files ready are imported, and the longest a ready file
  /// waits for the burst it came in to end.
  static let quiet = 0.05
  static let hold = 0.4
  /// Seconds a file that settled unfinished (step 5) must stay as it is before it is
  /// reported rejected.
  var unfinishedGrace = 30.0

  public init() {}
}

/// Something a watch reports, in the order it happens.
public enum WatchEvent: Sendable {
  /// Every root is watched (`folders` watches in all); what they held is being imported.
  case watching(folders: Int)
  /// What the roots held when the watch started is imported (`caughtUp` of them were
  /// imported, the rest already archived or rejected).
  case caughtUp(versionsImported: Int, alreadyArchived: Int)
  /// A version was stored and its batch committed.
  case imported(ImportedVersion)
  /// A file was not imported, or a folder cannot be followed, and why.
  case rejected(path: String, problem: ImportProblem)
  /// Something to know about a file imported all the same (a fallback in its name, …).
  case note(path: String, note: ImportNote)
  /// A watched folder disappeared; it is watched again when it comes back.
  case folderGone(path: String)
  /// A watched folder is back; what it holds is imported.
  case folderBack(path: String)
  /// The kernel dropped events (its queue was full): every folder is imported again.
  case eventsLost
}

/// What a watch did until it stopped.
public struct WatchSummary: Sendable, Equatable {
  /// The imports it ran: the first, one per burst, one per folder that came back.
  public var imports = 0
  public var versionsImported = 0
  public var alreadyArchived = 0
  public var rejected = 0
  public var seconds = 0.0
}

#if canImport(Glibc)
  extension Archive {
    /// Imports `folders` (recursively), then every draft file that lands in them, until `stop`
    /// is requested. Deleted or changed files never remove anything from the archive.
    ///
    /// - Throws: `ArchiveError.cannotWatch` for a folder that is missing or not a folder at the
    ///   start, or when the inotify limits are reached; `ArchiveError` about the archive.
    public func watch(_ folders: [String], options: WatchOptions = WatchOptions(), stop: WatchStop) throws(ArchiveError)
      -> WatchSummary
    {
      guard mode == .readWrite else { throw .openedReadOnly(path: path) }
      var loop = try WatchLoop(archive: self, folders: folders, options: options, stop: stop)
      return try loop.run()
    }
  }

  /// The state of one watch (see the file comment).
  private struct WatchLoop {
    let archive: Archive
    let options: WatchOptions
    let stop: WatchStop
    let inotify: Inotify
    let tree: WatchedFolders
    /// /proc/self/mounts, polled for POLLPRI: the mount table changed (proc(5)).
    let mounts: Int32
    var ready: [(root: Int, path: String)] = []
    var readySet = Set<String>()
    var firstReady: Double?
    var lastEvent = 0.0
    /// Files waiting to settle: their root, size and modification time when last looked at,
    /// and when to look again.
    var settling: [String: (root: Int, size: Int64, modified: Int64, due: Double)] = [:]
    /// Files that became ready by keeping still, never closed: their writer may only have paused.
    var settledOpen = Set<String>()
    /// Such files that were not whole drafts (step 5): why, as they were then, and when to
    /// report them if they have not changed.
    var unfinished: [String: (root: Int, problem: ImportProblem, size: Int64, modified: Int64, due: Double)] = [:]
    var summary = WatchSummary()
    let started = Date()
    /// The first import of the roots while it runs (step 1), and the roots whose events asked
    /// for a whole import meanwhile.
    var catchUp: WatchCatchUp?
    var rescanAfterCatchUp = Set<Int>()
    /// What the first import found unfinished in files written since the watch began: theirs
    /// is the loop's to judge (step 5), as their events say when they are whole.
    let heldByCatchUp = HeldRejections()

    init(archive: Archive, folders: [String], options: WatchOptions, stop: WatchStop) throws(ArchiveError) {
      self.archive = archive
      var options = options
      // The first import reports from its own thread while the loop reports on this one.
      if let onEvent = options.onEvent {
        let lock = EventLock()
        options.onEvent = { event in lock.run { onEvent(event) } }
      }
      self.options = options
      self.stop = stop
      do {
        inotify = try Inotify()
      } catch {
        throw .cannotWatch(path: folders.first ?? "", reason: error)
      }
      let workingDirectory = FileWalker.workingDirectory()
      tree = WatchedFolders(
        roots: folders.map { ($0, options.source ?? SourceLabel.absolute($0, in: workingDirectory)) }, inotify: inotify)
      mounts = open("/proc/self/mounts", O_RDONLY | O_CLOEXEC)
    }

    mutating func run() throws(ArchiveError) -> WatchSummary {
      defer { if mounts >= 0 { close(mounts) } }
      // The coarse clock that stamps files may run a few milliseconds behind this one.
      let watchStarted = Self.wallClockNanoseconds() - 50_000_000
      try tree.start()
      options.onEvent?(.watching(folders: tree.watchCount))
      let held = heldByCatchUp
      catchUp = try WatchCatchUp(
        archive: archive,
        imports: tree.roots.indices.map { root in
          var importOptions = importOptions(root: root)
          let report = importOptions.onEvent
          importOptions.onEvent = { event in
            if case .rejected(let path, let problem) = event, Self.mayBeUnfinished(problem),
              let modified = Self.sizeAndTime(path)?.modified, modified >= watchStarted
            {
              held.add(path, problem)
            } else {
              report?(event)
            }
          }
          return ([tree.roots[root].path], importOptions)
        })
      while !stop.isRequested {
        guard try wait() else { break }
        if catchUp?.isFinished == true { try endCatchUp() }
        for event in inotify.events() { try tree.handle(event) }
        try act(on: Self.now())
      }
      // Stopped: the first import stops after its next commit.
      if catchUp != nil { try endCatchUp() }
      summary.seconds = Date().timeIntervalSince(started)
      return summary
    }

    /// Waits for the first import to end and counts what it did.
    mutating func endCatchUp() throws(ArchiveError) {
      guard let running = catchUp else { return }
      catchUp = nil
      let results = try running.finish()
      for result in results {
        summary.imports += 1
        summary.versionsImported += result.versionsImported
        summary.alreadyArchived += result.alreadyArchived
        summary.rejected += result.rejected
      }
      summary.rejected -= heldByCatchUp.taken.count
      if !stop.isRequested {
        options.onEvent?(
          .caughtUp(
            versionsImported: results.reduce(0) { $0 + $1.versionsImported },
            alreadyArchived: results.reduce(0) { $0 + $1.alreadyArchived }))
      }
    }

    static func wallClockNanoseconds() -> Int64 {
      var time = timespec()
      clock_gettime(CLOCK_REALTIME, &time)
      return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    static func now() -> Double {
      var time = timespec()
      clock_gettime(CLOCK_MONOTONIC, &time)
      return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Waits for an event, a stop, a mount change or the next deadline; false on a stop.
    mutating func wait() throws(ArchiveError) -> Bool {
      var entries = [
        pollfd(fd: inotify.descriptor, events: Int16(POLLIN), revents: 0),
        pollfd(fd: stop.readDescriptor, events: Int16(POLLIN), revents: 0),
        pollfd(fd: mounts, events: Int16(POLLPRI), revents: 0),
        // The first import's end wakes the loop: what waited for it is imported then.
        pollfd(fd: catchUp?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
      ]
      var timeout: Int32 = -1  // nothing pending: sleep until something happens
      if let deadline = nextDeadline() {
        timeout = Int32(max(0, min(60_000, ((deadline - Self.now()) * 1000).rounded(.up))))
      }
      // poll(2) passes over an entry whose descriptor is negative.
      let count = poll(&entries, 4, timeout)
      guard count >= 0 || errno == EINTR else {
        throw .cannotWatch(path: tree.roots.first?.path ?? "", reason: .system(call: "poll", code: errno))
      }
      if entries[1].revents != 0 { return false }
      if count > 0 && entries[0].revents != 0 { lastEvent = Self.now() }
      if mounts >= 0 && entries[2].revents & Int16(POLLPRI | POLLERR) != 0 { try tree.mountsChanged() }
      return true
    }

    func nextDeadline() -> Double? {
      var deadlines = settling.values.map(\.due) + unfinished.values.map(\.due)
      // Ready files wait for the first import, whose end wakes the loop (`wait`).
      if let firstReady, catchUp == nil {
        deadlines += [min(lastEvent + WatchOptions.quiet, firstReady + WatchOptions.hold)]
      }
      return deadlines.min()
    }

    /// Moves what the events asked for into the loop's state, and imports what is due.
    mutating func act(on now: Double) throws(ArchiveError) {
      let changes = tree.changes
      tree.changes = WatchedFolders.Changes()
      for problem in changes.problems { options.onEvent?(.rejected(path: problem.path, problem: problem.problem)) }
      for root in changes.gone { options.onEvent?(.folderGone(path: tree.roots[root].path)) }
      for root in changes.back { options.onEvent?(.folderBack(path: tree.roots[root].path)) }
      if changes.overflowed { options.onEvent?(.eventsLost) }
      for (root, path) in changes.settling {
        unfinished[path] = nil
        let facts = Self.sizeAndTime(path)
        settling[path] = (root, facts?.size ?? -1, facts?.modified ?? -1, now + options.settle)
      }
      for (root, path) in changes.ready {
        settling[path] = nil
        unfinished[path] = nil
        settledOpen.remove(path)
        markReady(root, path, now)
      }
      // Settled files: unchanged since they were last looked at, `settle` seconds ago.
      for (path, entry) in settling where entry.due <= now {
        guard let facts = Self.sizeAndTime(path) else {
          settling[path] = nil  // gone (renamed or deleted): nothing to import
          continue
        }
        if facts.size == entry.size && facts.modified == entry.modified {
          settling[path] = nil
          settledOpen.insert(path)
          markReady(entry.root, path, now)
        } else {
          settling[path] = (entry.root, facts.size, facts.modified, now + options.settle)
        }
      }
      // Unfinished files that stayed as they were: rejected after all.
      for (path, entry) in unfinished where entry.due <= now {
        unfinished[path] = nil
        guard let facts = Self.sizeAndTime(path) else { continue }
        if facts.size == entry.size && facts.modified == entry.modified {
          summary.rejected += 1
          options.onEvent?(.rejected(path: path, problem: entry.problem))
        } else {
          markReady(entry.root, path, now)
        }
      }
      rescanAfterCatchUp.formUnion(changes.rescan)
      guard catchUp == nil else { return }  // the archive is the first import's (step 1)
      for root in rescanAfterCatchUp.sorted() {
        ready.removeAll { $0.root == root }
        try importPaths([tree.roots[root].path], root: root)
      }
      rescanAfterCatchUp = []
      if let firstReady, now >= min(lastEvent + WatchOptions.quiet, firstReady + WatchOptions.hold) {
        try importReady()
      }
    }

    mutating func markReady(_ root: Int, _ path: String, _ now: Double) {
      guard readySet.insert(path).inserted else { return }
      ready.append((root, path))
      if firstReady == nil { firstReady = now }
    }

    /// Imports the ready files, one import per root; files gone since are skipped.
    mutating func importReady() throws(ArchiveError) {
      let batch = ready
      ready = []
      readySet = []
      firstReady = nil
      for root in Set(batch.map(\.root)).sorted() {
        let paths = batch.filter { $0.root == root }.map(\.path).filter { Self.sizeAndTime($0) != nil }
        // A burst's files are each a job at most: no more workers than files (each opens
        // its own connection to the archive).
        if !paths.isEmpty { try importPaths(paths, root: root, workers: min(options.workers, paths.count)) }
        guard !stop.isRequested else { return }
      }
    }

    /// How the files of `root` are imported, reporting what `watch` reports.
    func importOptions(root: Int, workers: Int? = nil) -> ImportOptions {
      var importOptions = ImportOptions()
      importOptions.source = tree.roots[root].label
      importOptions.maximumFileSize = options.maximumFileSize
      importOptions.workers = workers ?? options.workers
      importOptions.reportsVersions = true
      let stop = self.stop
      importOptions.shouldStop = { stop.isRequested }
      let onEvent = options.onEvent
      importOptions.onEvent = { event in
        switch event {
        case .imported(let version): onEvent?(.imported(version))
        case .rejected(let path, let problem): onEvent?(.rejected(path: path, problem: problem))
        case .note(let path, let note): onEvent?(.note(path: path, note: note))
        case .progress, .ignored, .archived, .filesImported, .merged: break
        }
      }
      return importOptions
    }

    mutating func importPaths(_ paths: [String], root: Int, workers: Int? = nil) throws(ArchiveError) {
      var importOptions = importOptions(root: root, workers: workers)
      // Files that settled unopened whose contents are not a whole draft yet (step 5).
      let mayBeUnfinished = settledOpen.intersection(paths)
      settledOpen.subtract(paths)
      let held = HeldRejections()
      let report = importOptions.onEvent
      importOptions.onEvent = { event in
        if case .rejected(let path, let problem) = event, mayBeUnfinished.contains(path),
          Self.mayBeUnfinished(problem)
        {
          held.add(path, problem)
        } else {
          report?(event)
        }
      }
      let result = try archive.importFiles(at: paths, options: importOptions)
      summary.imports += 1
      summary.versionsImported += result.versionsImported
      summary.alreadyArchived += result.alreadyArchived
      let unfinishedNow = held.taken
      summary.rejected += result.rejected - unfinishedNow.count
      let now = Self.now()
      for (path, problem) in unfinishedNow {
        guard let facts = Self.sizeAndTime(path) else { continue }
        unfinished[path] = (root, problem, facts.size, facts.modified, now + options.unfinishedGrace)
      }
    }

    /// Whether a file that fails so may be a draft still being written: cut short, it is
    /// not valid JSON, or it changed while it was read.
    static func mayBeUnfinished(_ problem: ImportProblem) -> Bool {
      switch problem {
      case .notADraft, .shrank: true
      default: false
      }
    }

    /// A regular file's size and modification time (ns), or nil if it is not one now.
    static func sizeAndTime(_ path: String) -> (size: Int64, modified: Int64)? {
      var info = stat()
      guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
      return (Int64(info.st_size), FileTime.nanoseconds(info.st_mtim))
    }
  }
#endif

/// Runs the watch's reports one at a time: the first import reports from its own thread.
private final class EventLock: Sendable {
  private let mutex = Mutex(())

  func run(_ body: () -> Void) { mutex.withLock { _ in body() } }
}

/// Rejections an import reported, kept back by the watch (step 5); the import reports from
/// its own threads.
private final class HeldRejections: Sendable {
  private let items = Mutex<[(path: String, problem: ImportProblem)]>([])

  func add(_ path: String, _ problem: ImportProblem) { items.withLock { $0.append((path, problem)) } }

  var taken: [(path: String, problem: ImportProblem)] { items.withLock { $0 } }
}
