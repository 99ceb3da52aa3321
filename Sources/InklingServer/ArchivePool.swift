// Read-only connections for requests.
//
// An `Archive` holds one SQLite connection and is used by one thread at a time, so each
// request borrows a read-only one from the pool and gives it back: at most one per handler
// thread is ever open. In WAL mode each statement of a reader sees the newest committed data
// without waiting for an import's writer (SQLite's "Write-Ahead Logging"), so pages show new
// drafts on reload while an import runs.
//
// The server's one write, of thumbnails rendered on a miss, is not the pool's: it goes
// through ThumbnailService's writer, a connection of its own.
//
// The archive deleted or replaced while serving: an open connection keeps reading a deleted
// file, and one opened later reads the new file at the path, so connections would answer from
// two archives. Each request compares the path's device and inode with the file the pool's
// connections have open: a missing file answers 503; another file is opened afresh (its
// connections replace the old ones; `withArchiveAndFile` tells which file a connection reads,
// so that what is remembered of one file is never used for another).

import FoundationEssentials
import Glibc
import InklingArchive
import Synchronization

/// Which file a path names: its device and inode.
struct FileIdentity: Equatable, Sendable {
  var device: UInt64
  var inode: UInt64

  /// The file at `path` now, or nil when there is none.
  static func of(_ path: String) -> FileIdentity? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
  }
}

/// Read-only archive connections, opened on demand and reused.
final class ArchivePool: Sendable {
  private struct Idle {
    var archives: [Connection]
    /// The file the connections have open.
    var file: FileIdentity?
    var closed = false
  }
  /// An idle connection, which the thread that takes it uses alone until it gives it back.
  private struct Connection: @unchecked Sendable {
    let archive: Archive
  }
  private let idle: Mutex<Idle>
  let path: String

  /// Opens the first connection, so that an archive that cannot be read fails here.
  init(path: String) throws(ArchiveError) {
    self.path = path
    let file = FileIdentity.of(path)
    idle = Mutex(Idle(archives: [Connection(archive: try Self.open(path))], file: file))
  }

  /// Runs `body` with a connection of its own, to the file now at the path.
  ///
  /// - Throws: `RequestError` (503) when there is no archive at the path, `ArchiveError` when
  ///   no connection can be opened, or what `body` throws.
  func withArchive<T>(_ body: (Archive) throws -> T) throws -> T {
    try withArchiveAndFile { archive, _ in try body(archive) }
  }

  /// `withArchive`, also telling `body` which file the connection reads.
  func withArchiveAndFile<T>(_ body: (Archive, FileIdentity) throws -> T) throws -> T {
    let (archive, file) = try take()
    defer { giveBack(archive, file) }
    return try body(archive, file)
  }

  /// Closes the idle connections; those in use close when given back.
  func close() {
    idle.withLock { idle in
      idle.closed = true
      idle.archives.removeAll()
    }
  }

  private func take() throws -> (Archive, FileIdentity) {
    guard let now = FileIdentity.of(path) else {
      throw RequestError(
        503, "The archive file is gone (deleted or moved); this server answers again once it is back.")
    }
    let connection = idle.withLock { idle -> Connection? in
      guard idle.file == now else { return nil }
      return idle.archives.popLast()
    }
    if let connection { return (connection.archive, now) }
    let archive: Archive
    do {
      archive = try Self.open(path)
    } catch {
      guard case .unusableArchive(_, let reason) = error else { throw RequestError(error) }
      throw RequestError(
        503, "The file at the archive's path cannot be read as an archive now: \(RequestError.why(reason)).")
    }
    idle.withLock { idle in
      guard idle.file != now else { return }
      idle.file = now
      idle.archives.removeAll()
    }
    return (archive, now)
  }

  /// A reading connection. Not mapped (Archive.mapFileForReading): every page a thumbnail
  /// request touched would then stay in the server's resident memory, once for each
  /// connection, as long as the OS keeps it.
  private static func open(_ path: String) throws(ArchiveError) -> Archive {
    try Archive(path: path, mode: .readOnly)
  }

  private func giveBack(_ archive: Archive, _ file: FileIdentity) {
    let connection = Connection(archive: archive)
    idle.withLock { idle in
      if !idle.closed, idle.file == file { idle.archives.append(connection) }
    }
  }
}
