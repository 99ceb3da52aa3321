// Whether an archive's files were written since a moment: a count that moves with every write
// to the archive file, its write-ahead log or rollback journal, and with their creation,
// removal or renaming (inotify(7) on their folder). What a reader keeps in memory about the
// archive is good as long as the count has not moved (the server's thumbnails, InklingServer's
// ThumbnailService).
//
// Read on the caller's thread, never by a thread of its own: the kernel queues a write's event
// before the write returns, so a read of the count after a write completed (by any process)
// sees it. The queue is drained under a lock, so no caller can see the count before another
// has added the events it took.
//
// Not seen, and so bounded by its users in time: writes on another machine to a shared file
// system, and writes through another name of the file (a hard link in another folder). A
// folder that goes away ends the watch: from then on every read is a new count.

#if canImport(Glibc)
  import Glibc
  import Synchronization

  public final class ArchiveWrites: Sendable {
    private struct State {
      let inotify: Inotify
      var count: UInt64 = 0
      /// The watch ended (the folder deleted, moved or unmounted): nothing is seen any more.
      var blind = false
    }
    private let state: Mutex<State>
    /// The archive file's name and the names SQLite writes beside it.
    private let names: Set<String>

    private static let mask = UInt32(
      IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE_SELF
        | IN_MOVE_SELF | IN_ONLYDIR)

    /// Watches the folder of the archive at `path` (its real path: a symbolic link is followed
    /// to the folder that is written); nil when it cannot be watched (no such file, inotify's
    /// limits reached).
    public init?(archivePath path: String) {
      guard let resolved = realpath(path, nil) else { return nil }
      let real = String(cString: resolved)
      free(resolved)
      guard let slash = real.lastIndex(of: "/") else { return nil }
      let folder = slash == real.startIndex ? "/" : String(real[..<slash])
      let name = String(real[real.index(after: slash)...])
      guard let inotify = try? Inotify(mask: Self.mask), (try? inotify.watch(folder)) != nil else { return nil }
      names = [name, name + "-wal", name + "-journal"]
      state = Mutex(State(inotify: inotify))
    }

    /// A number that differs from every earlier answer when one of the archive's files was
    /// written, created, removed or renamed in between.
    public var count: UInt64 {
      state.withLock { state in
        for event in state.inotify.events() {
          if event.has(IN_IGNORED) || event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) || event.has(IN_UNMOUNT) {
            state.blind = true
          }
          // An event without a name is the folder's own, or the queue's overflow: any may be ours.
          if event.name.map(names.contains) ?? true { state.count += 1 }
        }
        if state.blind { state.count += 1 }
        return state.count
      }
    }
  }
#endif
