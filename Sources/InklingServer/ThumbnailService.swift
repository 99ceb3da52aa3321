// A version's thumbnail as the server answers it, the grid's most frequent request: the whole
// path in this file, through the caches in front of the archive in the order they are asked,
// to the library's three calls (Archive+Thumbnails.swift: look up, read, render):
//   1. the memory of cached thumbnails' answers (HotThumbnails, below), good while the archive
//      is not written: no SQLite at all;
//   2. one connection for the rest of a cached thumbnail's answer: the version's trash state
//      and the file its id names (Archive.versionNow), the thumbnail it has (LookUps, below:
//      remembered for that file, else Archive.lookUpThumbnail); 304 from its tag alone; else
//      the PNG from the memory of pictures the archive does not keep (PictureMemory) or from
//      the archive's cache (Archive.readThumbnail);
//   3. a miss is rendered on the work queue (Archive.renderThumbnails, on a read-only
//      connection, which stores nothing) and kept: in the archive's cache through the one
//      writer (ThumbnailWriter, below) for the sizes the pages show while its quota lasts, else
//      in memory.
// PictureMemory stays in a file of its own: the draft pages' time-lapse videos are kept in one
// too.

import Dispatch
import Glibc
import InklingArchive
import Synchronization

/// Versions' thumbnails through the server's caches, made once when the server starts.
struct ThumbnailService: Sendable {
  /// Nil when the archive cannot be opened for writing: misses are then kept in memory only.
  private let writer: ThumbnailWriter?
  private let memory: PictureMemory<[UInt8]>
  /// Cached thumbnails' answers, while the archive is not written; nil when its folder cannot
  /// be watched.
  private let hot: (answers: HotThumbnails, writes: ArchiveWrites)?
  private let lookUps = LookUps()
  /// The sizes the pages show, which the archive's cache keeps.
  static let archivedSizes: Set = [GridView.thumbnailSize, DraftView.thumbnailSize]

  init(archivePath: String, limits: ServerLimits) {
    writer = ThumbnailWriter(path: archivePath, quota: limits.thumbnailQuota)
    memory = PictureMemory(limit: limits.thumbnailMemory)
    hot = ArchiveWrites(archivePath: archivePath).map { (HotThumbnails(limit: limits.hotThumbnailMemory), $0) }
  }

  /// Whether thumbnails rendered on a miss are stored in the archive's cache.
  var storesInArchive: Bool { writer != nil }

  /// Stores the thumbnails queued for the archive and waits until they are written.
  func flush() { writer?.flush() }

  /// The answer to a request for version `id`'s thumbnail at `size`.
  func answer(_ id: VersionID, size: Int, _ context: RequestContext) throws -> Answer<ViewWork> {
    let (target, request, pool) = (context.target, context.request, context.pool)
    // The count before the file's identity and before anything is read: a write after it
    // leaves what is read here out of the memory.
    let remembered = hot.flatMap { hot in FileIdentity.of(pool.path).map { (hot, $0, hot.writes.count) } }
    if let (hot, file, writes) = remembered, let answer = hot.answers.answer(id, size: size, file: file, writes: writes)
    {
      try VersionFiles.requireTrashAsked(answer.draftInTrash, target)
      // A matching If-None-Match gets 304 from ResponseEncoding, by the tag.
      return .now(
        HTTPResponse(
          contentType: HTTPResponse.png, body: answer.png, cache: VersionFiles.policy(target, content: answer.tag),
          tag: answer.tag))
    }
    // One connection for the whole answer of a cached thumbnail, the most frequent request.
    let (thumbnail, inTrash, found) = try pool.withArchiveAndFile {
      archive, archiveFile throws -> (Thumbnail, Bool, [UInt8]?) in
      let now = try archive.versionNow(id)
      let inTrash = now.draftInTrash
      try VersionFiles.requireTrashAsked(inTrash, target)
      let thumbnail = try lookUps.thumbnail(id, size: size, archive: archiveFile, file: now.fileSHA256) {
        try archive.lookUpThumbnail(of: .version(id), size: size)
      }
      if let condition = request.header("If-None-Match"), ResponseEncoding.matches(condition, tags: [thumbnail.tag]) {
        // Not modified: ResponseEncoding answers 304 from the tag, the PNG need not be read.
        return (thumbnail, inTrash, [])
      }
      return (thumbnail, inTrash, try memory.picture(thumbnail.tag) ?? archive.readThumbnail(thumbnail))
    }
    let policy = VersionFiles.policy(target, content: thumbnail.tag)
    if let found {
      if let (hot, file, writes) = remembered, !found.isEmpty {
        hot.answers.keep(
          HotThumbnails.Answer(tag: thumbnail.tag, draftInTrash: inTrash, png: found), version: id, size: size,
          file: file, writes: writes)
      }
      return .now(HTTPResponse(contentType: HTTPResponse.png, body: found, cache: policy, tag: thumbnail.tag))
    }
    return .later {
      // Another request may have stored it since: read before drawing.
      let (png, drawn) = try pool.withArchive { archive throws -> ([UInt8], Bool) in
        if let png = try archive.readThumbnail(thumbnail) { return (png, false) }
        return (try archive.renderThumbnails([thumbnail])[0], true)
      }
      if drawn { keep(thumbnail, png: png, draftInTrash: inTrash) }
      return HTTPResponse(contentType: HTTPResponse.png, body: png, cache: policy, tag: thumbnail.tag)
    }
  }

  /// Keeps a rendered thumbnail: in the archive's cache for the sizes the pages show, while the
  /// writer's quota lasts; in memory for the rest.
  private func keep(_ thumbnail: Thumbnail, png: [UInt8], draftInTrash: Bool) {
    if !draftInTrash, Self.archivedSizes.contains(thumbnail.size), writer?.store(thumbnail, png: png) == true {
      return
    }
    memory.keep(png, as: thumbnail.tag)
  }
}

// MARK: - Thumbnails looked up, remembered

/// What each version's thumbnail is, remembered: a saved file's drawing and background never
/// change and the renderer is this build's, so the thumbnail `Archive.lookUpThumbnail` finds
/// for (id, size) is the same as long as the id names the same file. An id can name another
/// file later: a purged version's id is given to the next version imported. So each is
/// remembered with the file's SHA-256, which the answer reads anyway with the trash state
/// (`Archive.versionNow`), and used only for that file; and all are forgotten when the path
/// names another archive file (what a thumbnail draws is a blob of that file). Remembering
/// leaves two SELECTs per cached thumbnail instead of four and a SHA-256. Bounded: past
/// `limit` entries it starts again empty, which costs a look-up each.
private final class LookUps: Sendable {
  private struct Key: Hashable {
    var id: VersionID
    var size: Int
  }
  private struct State {
    /// The archive file the entries were looked up in.
    var archive: FileIdentity?
    var known: [Key: (file: [UInt8], thumbnail: Thumbnail)] = [:]
  }
  private let state = Mutex(State())
  private let limit: Int

  init(limit: Int = 200_000) { self.limit = limit }

  /// The thumbnail of version `id` at `size` in archive file `archive` while the id names the
  /// saved file of SHA-256 `file`, looked up by `make` the first time.
  func thumbnail(
    _ id: VersionID, size: Int, archive: FileIdentity, file: [UInt8], make: () throws -> Thumbnail
  ) rethrows -> Thumbnail {
    let key = Key(id: id, size: size)
    let known = state.withLock { state in state.archive == archive ? state.known[key] : nil }
    if let known, known.file == file { return known.thumbnail }
    let thumbnail = try make()
    state.withLock { state in
      if state.archive != archive || state.known.count >= limit {
        state = State(archive: archive)
      }
      state.known[key] = (file, thumbnail)
    }
    return thumbnail
  }
}

// MARK: - Cached thumbnails' answers, in memory

// Cached thumbnails' answers kept in memory: the grid's most frequent request answered without
// SQLite (its read lock, the trash check, the PNG's pages read from the file). An answer is
// used only while it is certainly still the archive's:
//   - the archive's files were not written since it was read (ArchiveWrites: the count it was
//     read under), so no draft went to the trash or came back and no version was purged;
//   - the path still names the file it was read from (FileIdentity, as every request checks);
//   - it was read at most `trust` ago: what ArchiveWrites cannot see (a file system shared
//     with another machine) is noticed that late at most.
// Bounded by bytes: entries are admitted while there is room and leave when stale, never to
// make room, so that a client cycling through more thumbnails than fit still finds those that
// do (evicting the oldest would leave none it meets again).
final class HotThumbnails: Sendable {
  struct Answer: Sendable {
    let tag: String
    let draftInTrash: Bool
    let png: [UInt8]
  }

  private struct Key: Hashable {
    var version: VersionID
    var size: Int
  }

  private struct Entry {
    let answer: Answer
    let file: FileIdentity
    let read: ContinuousClock.Instant
  }

  private struct State {
    /// The ArchiveWrites count the entries were read under.
    var writes: UInt64 = 0
    var entries: [Key: Entry] = [:]
    var bytes = 0
    /// When the stale entries were last removed to make room.
    var swept = ContinuousClock.now
  }

  private let state = Mutex(State())
  let limit: Int
  let trust: Duration

  init(limit: Int, trust: Duration = .seconds(1)) {
    self.limit = limit
    self.trust = trust
  }

  /// The answer for version `version` at `size`, if one is kept that is still the archive's.
  func answer(_ version: VersionID, size: Int, file: FileIdentity, writes: UInt64) -> Answer? {
    let now = ContinuousClock.now
    return state.withLock { state in
      guard state.writes == writes else {
        state = State(writes: writes)
        return nil
      }
      let key = Key(version: version, size: size)
      guard let entry = state.entries[key] else { return nil }
      guard entry.file == file, now - entry.read <= trust else {
        state.entries[key] = nil
        state.bytes -= entry.answer.png.count
        return nil
      }
      return entry.answer
    }
  }

  /// Keeps `answer`, read under the ArchiveWrites count `writes` (taken before the archive was
  /// read) from `file`, when there is room.
  func keep(_ answer: Answer, version: VersionID, size: Int, file: FileIdentity, writes: UInt64) {
    let now = ContinuousClock.now
    state.withLock { state in
      if state.writes != writes {
        // Read under another count: only when it is the newest may it start the memory anew.
        guard writes > state.writes else { return }
        state = State(writes: writes)
      }
      if state.bytes + answer.png.count > limit, now - state.swept > trust {
        state.entries = state.entries.filter { now - $0.value.read <= trust }
        state.bytes = state.entries.values.reduce(0) { $0 + $1.answer.png.count }
        state.swept = now
      }
      guard state.bytes + answer.png.count <= limit else { return }
      let key = Key(version: version, size: size)
      state.bytes -= state.entries[key]?.answer.png.count ?? 0
      state.entries[key] = Entry(answer: answer, file: file, read: now)
      state.bytes += answer.png.count
    }
  }
}

// MARK: - The one writer

/// The one read-write connection that stores thumbnails rendered by readers, up to a quota:
/// the server is a reader of the archive, and what it adds to it is bounded. Not on the
/// request's thread (the write lock may wait for an import's transaction): on a queue of its
/// own that stores whatever accumulated in one transaction. It checks the path names the file
/// it has open before each batch, so thumbnails are never written into a deleted file.
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
