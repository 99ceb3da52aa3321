// Many files written with FileOutput's guarantees at the cost of one sync, not one per file.
//
// FileOutput.write makes a file durable before its name appears: temporary file, fsync, then
// link (or rename) into place. An fsync waits for the file system's journal to commit, a few
// milliseconds on ext4, which for an export of ten thousand small files is most of its time.
// A batch keeps the order of those steps for each file and shares the wait:
//   1. `add`: each file is written to its own temporary file beside its name (O_EXCL), with
//      its modification time, and closed;
//   2. `commit`: one syncfs(2) of their file system makes every staged file durable (on Linux;
//      elsewhere each file is fsynced when it is written), then each is linked into place (renamed over, when replacing was asked);
//      a name taken meanwhile is reported, and its temporary file removed.
// Invariants: a final name never shows a partly written or unsynced file; no temporary file
// outlives the batch (they are removed at commit, on error, and when the batch is released);
// nothing is written anywhere but the given paths and their temporary neighbours.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

final class FileBatch {
  /// How a staged file ended.
  enum Outcome: Equatable {
    case written
    /// Something took the name before the file could be linked there (or something that is
    /// not a regular file has it).
    case inTheWay
  }

  /// Files and bytes after which a batch should be committed: memory is not the limit (the
  /// bytes are on disk already), the time a crash would lose is.
  static let files = 512
  static let bytes = 64 << 20

  private struct Staged {
    var temporary: String
    var path: String
    var overwrite: Bool
  }

  private var staged: [Staged] = []
  private var stagedBytes = 0
  /// A descriptor on the file system the files are on, for syncfs.
  private var anchor: Int32 = -1

  deinit { discard() }

  /// Whether a commit is due.
  var isFull: Bool { staged.count >= Self.files || stagedBytes >= Self.bytes }
  var isEmpty: Bool { staged.isEmpty }

  /// Writes `bytes` to a temporary file beside `path`; the name appears at `commit`.
  ///
  /// - Throws: `ArchiveError.destinationIsFolder` for a path without a file name,
  ///   `.fileSystem` when the file cannot be written.
  func add(_ bytes: [UInt8], to path: String, modificationNanoseconds: Int64, overwrite: Bool) throws(ArchiveError) {
    guard let parts = OutputPath(path) else { throw .destinationIsFolder(path: path) }
    let temporary = FileOutput.temporaryPath(for: parts)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .fileSystem(path: parts.folder, operation: .create, code: errno) }
    staged.append(Staged(temporary: temporary, path: path, overwrite: overwrite))
    defer { close(descriptor) }
    try FileOutput.writeAll(bytes, to: descriptor, path: path)
    let time = timespec(
      tv_sec: time_t(modificationNanoseconds / 1_000_000_000), tv_nsec: Int(modificationNanoseconds % 1_000_000_000))
    var times = [time, time]
    if futimens(descriptor, &times) != 0 { throw .fileSystem(path: path, operation: .setModificationTime, code: errno) }
    #if !os(Linux)
      if fsync(descriptor) != 0 { throw .fileSystem(path: path, operation: .write, code: errno) }
    #endif
    if anchor < 0 { anchor = open(parts.folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    stagedBytes += bytes.count
  }

  /// Makes the staged files durable and gives each its name, in the order they were added.
  ///
  /// - Throws: `ArchiveError.fileSystem` when the sync or a link fails for another reason
  ///   than a name in the way; no temporary file is left.
  func commit() throws(ArchiveError) -> [Outcome] {
    defer { discard() }
    guard let first = staged.first else { return [] }
    #if os(Linux)
      guard anchor >= 0, Self.syncFileSystem(anchor) == 0 else {
        throw .fileSystem(path: first.path, operation: .write, code: errno)
      }
    #endif
    var outcomes: [Outcome] = []
    for file in staged {
      if file.overwrite {
        // Only a regular file is replaced: a link, FIFO or device that took the name since
        // the export looked stays (FileOutput.swift, rule 4).
        guard ExistingFile.isRegularOrAbsent(file.path) else {
          outcomes.append(.inTheWay)
          continue
        }
        guard rename(file.temporary, file.path) == 0 else {
          throw .fileSystem(path: file.path, operation: .replace, code: errno)
        }
        outcomes.append(.written)
      } else if link(file.temporary, file.path) == 0 {
        outcomes.append(.written)
      } else if errno == EEXIST {
        // link() refuses to replace a file that appeared meanwhile, which rename() would do silently.
        outcomes.append(.inTheWay)
      } else {
        throw .fileSystem(path: file.path, operation: .write, code: errno)
      }
    }
    return outcomes
  }

  #if os(Linux)
    /// syncfs(2): glibc declares it only under _GNU_SOURCE, which Swift's Glibc module does
    /// not define, so it is looked up by name; sync(2), which flushes every file system, is
    /// the fallback (a C library without syncfs).
    private static let syncFileSystem: @convention(c) (Int32) -> Int32 = {
      guard let symbol = dlsym(nil, "syncfs") else {
        return { _ in
          sync()
          return 0
        }
      }
      return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()
  #endif

  /// Removes what is staged and not committed.
  private func discard() {
    for file in staged { unlink(file.temporary) }
    staged.removeAll()
    stagedBytes = 0
    if anchor >= 0 { close(anchor) }
    anchor = -1
  }
}
