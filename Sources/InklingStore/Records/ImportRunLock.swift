// Telling a running import from an interrupted one. An import's row in import_run has no
// finished time until the import ends, whether it is still running or was killed; so while a
// run is under way, its writer holds a lock on byte `run id` of the file `<archive>-imports`
// beside the archive, and `check` tests that byte: held, the run is running; free (or no such
// file), it was interrupted. The operating system drops the lock when the process ends, however
// it ends, so a killed import is never mistaken for a running one.
//
// The locks are open-file-description locks (F_OFD_SETLK, Linux): they belong to the open file,
// not the process, so a check in the same process as an import sees the import's lock, and no
// other descriptor of the file can release it by being closed. Elsewhere they are POSIX record
// locks, which a check in the importing process itself does not see.
//
// Invariants:
//   1. The lock is taken after the run's row is inserted and released after its finish is
//      committed: a run with a free lock and no finished time is not running.
//   2. The file only ever holds locks, never data. The last import to finish deletes it (when
//      it can lock the whole file, no other import holds a byte), so it is there only while
//      imports run; an import that finds, once it holds its byte, that the path no longer
//      names the file it locked (deleted meanwhile) starts again with a new one.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The lock a running import holds on its run's byte of `<archive>-imports`.
package final class ImportRunLock {
  private let descriptor: Int32

  /// The lock file of the archive at `archivePath`.
  package static func path(forArchive archivePath: String) -> String { archivePath + "-imports" }

  /// Takes the lock of run `runID`; nil when the lock file cannot be opened or locked (a
  /// folder that cannot be written): the run then counts as interrupted if `check` runs
  /// while it does, which is all that is lost.
  package init?(run runID: Int64, archivePath: String) {
    let path = Self.path(forArchive: archivePath)
    for _ in 0..<8 {
      let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { return nil }
      var lock = Self.range(from: runID, length: 1, type: F_WRLCK)
      guard fcntl(descriptor, Self.setLock, &lock) == 0 else {
        close(descriptor)
        return nil
      }
      // Invariant 2: the file locked must still be the one the path names.
      var opened = stat()
      var named = stat()
      if fstat(descriptor, &opened) == 0, stat(path, &named) == 0, opened.st_dev == named.st_dev,
        opened.st_ino == named.st_ino
      {
        self.descriptor = descriptor
        self.path = path
        return
      }
      close(descriptor)
    }
    return nil
  }

  private let path: String

  /// Releases the lock (closing the file does, for the locks of this open file only), and
  /// deletes the file when no other import holds a byte of it (invariant 2).
  deinit {
    var whole = Self.range(from: 0, length: 0, type: F_WRLCK)
    if fcntl(descriptor, Self.setLock, &whole) == 0 { unlink(path) }
    close(descriptor)
  }

  /// Whether a running import holds the lock of run `runID` of the archive at `archivePath`.
  package static func isHeld(run runID: Int64, archivePath: String) -> Bool {
    let descriptor = open(path(forArchive: archivePath), O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var lock = range(from: runID, length: 1, type: F_WRLCK)
    guard fcntl(descriptor, getLock, &lock) == 0 else { return false }
    return Int32(lock.l_type) != F_UNLCK
  }

  /// `length` bytes from `start` (0: to the end of any file).
  private static func range(from start: Int64, length: Int64, type: Int32) -> flock {
    var lock = flock()
    lock.l_type = Int16(type)
    lock.l_whence = Int16(SEEK_SET)
    lock.l_start = off_t(start)
    lock.l_len = off_t(length)
    return lock
  }

  #if os(Linux)
    // F_OFD_SETLK and F_OFD_GETLK of <fcntl.h> (Linux 3.15), which Glibc's module leaves out.
    private static let setLock: Int32 = 37
    private static let getLock: Int32 = 36
  #else
    private static let setLock = F_SETLK
    private static let getLock = F_GETLK
  #endif
}
