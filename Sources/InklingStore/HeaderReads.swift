// Reading an archive's header ourselves, safely beside SQLite's own connections.
//
// Why this exists: POSIX advisory locks belong to a process, not to a descriptor, and
// closing *any* descriptor of a file drops every lock the process holds on it. `open` reads
// the first 100 bytes through its own descriptor; if a connection of this process already
// had the archive open (the importer's writer, when its worker threads open their readers),
// closing that descriptor silently dropped the writer's shared lock. Another process closing
// its last connection then saw no other user, checkpointed and deleted the WAL, and the
// writer went on committing into the deleted file: whole batches were lost
// (https://www.sqlite.org/howtocorrupt.html#_posix_advisory_locks_canceled_by_a_separate_thread_doing_close_).
//
// Invariants:
//   1. The header of a file (by device and inode) is read at most once per process, while
//      `lock` is held, so no connection to it can be opened meanwhile by this process.
//   2. A file whose check threw is not remembered: the next open checks it again.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation

enum HeaderReads {
  private struct FileID: Hashable {
    let device: UInt64
    let inode: UInt64
  }

  nonisolated(unsafe) private static var checked = Set<FileID>()  // only touched under `lock`
  private static let lock = NSLock()

  /// Runs `check` on the file at `path` unless it already passed in this process
  /// (invariant 1). A path that does not exist is always checked (nothing is open on it).
  static func once(_ path: String, _ check: () throws -> Void) throws {
    lock.lock()
    defer { lock.unlock() }
    var info = stat()
    guard stat(path, &info) == 0 else { return try check() }
    let id = FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    guard !checked.contains(id) else { return }
    try check()
    // An empty file gets its header on the first write: check it again next time.
    if info.st_size > 0 { checked.insert(id) }
  }
}
