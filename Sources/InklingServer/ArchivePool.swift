// Read-only connections for requests, and the one writer that stores rendered thumbnails.
//
// An `Archive` holds one SQLite connection and is used by one thread at a time, so each
// request borrows a read-only one from the pool and gives it back: at most one per handler
// thread is ever open. In WAL mode each statement of a reader sees the newest committed data
// without waiting for an import's writer (SQLite's "Write-Ahead Logging"), so pages show new
// drafts on reload while an import runs.
//
// A thumbnail rendered on a miss is stored in the archive's cache, which takes the write
// lock: not on the request's thread (it may wait for an import's transaction), but by
// `ThumbnailWriter`, one read-write connection on a queue of its own that stores whatever
// accumulated in one transaction. When the archive cannot be opened for writing (a read-only
// file or folder), there is no writer and misses are rendered each time without being stored.
//
// The archive deleted or replaced while serving: an open connection keeps reading a deleted
// file, and one opened later reads the new file at the path, so connections would answer from
// two archives. Each request compares the path's device and inode with the file the pool's
// connections have open: a missing file answers 503; another file is opened afresh (its
// connections replace the old ones, and what was remembered of the old file, the thumbnail
// keys, is forgotten); the writer checks the same before each batch, so thumbnails are never
// written into a deleted file.

import Dispatch
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
  /// What each version's thumbnail is keyed by, for the file open now.
  let keys = Mutex(ThumbnailKeys())

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
    let (archive, file) = try take()
    defer { giveBack(archive, file) }
    return try body(archive)
  }

  /// The thumbnail keys of the file open now.
  var thumbnailKeys: ThumbnailKeys { keys.withLock { $0 } }

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
    let replaced = idle.withLock { idle -> Bool in
      guard idle.file != now else { return false }
      idle.file = now
      idle.archives.removeAll()
      return true
    }
    if replaced { keys.withLock { $0 = ThumbnailKeys() } }
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

/// The one read-write connection that stores thumbnails rendered by readers, up to a quota:
/// the server is a reader of the archive, and what it adds to it is bounded.
final class ThumbnailWriter: @unchecked Sendable {
  // @unchecked: `archive` and `file` are only used on `queue`.
  private var archive: Archive
  private var file: FileIdentity?
  private let queue = DispatchQueue(label: "inkling-archive.thumbnail-writer")
  private struct Pending {
    var thumbnails: [(thumbnail: Thumbnail, png: [UInt8])] = []
    var scheduled = false
    /// Set once the archive has grown by the quota: nothing more is stored.
    var full = false
  }
  private let pending = Mutex(Pending())
  /// Bytes this writer may add to the archive file and its write-ahead log while the server
  /// runs (a batch may pass it by its own size, once).
  let quota: Int
  private let path: String
  private let initialBytes: Int

  /// A writer, or nil when the archive cannot be opened for writing.
  init?(path: String, quota: Int) {
    guard let archive = try? Archive(path: path, mode: .readWrite) else { return nil }
    self.archive = archive
    file = FileIdentity.of(path)
    self.quota = quota
    self.path = path
    initialBytes = Self.bytes(path)
  }

  /// The sizes of the archive file and its write-ahead log.
  private static func bytes(_ path: String) -> Int {
    [path, path + "-wal"].reduce(0) { total, file in
      var status = stat()
      return total + (stat(file, &status) == 0 ? Int(status.st_size) : 0)
    }
  }

  /// Queues a thumbnail to store and returns at once; false once the archive has grown by the
  /// quota (it is then not stored).
  func store(_ thumbnail: Thumbnail, png: [UInt8]) -> Bool {
    let schedule = pending.withLock { pending -> Bool? in
      guard !pending.full else { return nil }
      pending.thumbnails.append((thumbnail, png))
      let unscheduled = !pending.scheduled
      pending.scheduled = true
      return unscheduled
    }
    guard let schedule else { return false }
    if schedule { queue.async { self.drain() } }
    return true
  }

  /// Stores what is queued and waits until it is written (for a clean stop and for tests).
  func flush() {
    queue.sync { self.drain() }
  }

  private func drain() {
    let batch = pending.withLock { pending in
      defer {
        pending.thumbnails = []
        pending.scheduled = false
      }
      return pending.thumbnails
    }
    guard !batch.isEmpty else { return }
    // Never into a deleted file; into a new one at the path through a connection of its own.
    guard let now = FileIdentity.of(path) else { return }
    if now != file {
      guard let reopened = try? Archive(path: path, mode: .readWrite) else { return }
      archive = reopened
      file = now
    }
    guard Self.bytes(path) - initialBytes < quota else {
      pending.withLock { $0.full = true }
      return
    }
    archive.storeThumbnails(batch)
  }
}
