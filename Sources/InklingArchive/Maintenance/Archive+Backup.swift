// `backup`: a consistent copy of the archive, made while imports run, checked before it is
// put in place.
//
// How: SQLite's online backup API copies the pages of one read snapshot into a temporary
// file in the destination's folder (Database+Backup.swift explains why that API and why
// one snapshot); the copy is opened and checked like any archive; only a copy without
// problems is renamed into place, so DEST is always either absent, the previous file, or a
// complete, verified copy. A kill at any moment leaves at most a `.*.backup-*.tmp` file.
//
// Restoring from a backup: the copy is an ordinary archive in one file. Use it directly
// (`inkling-archive --archive COPY list`), or stop every inkling-archive command and put it
// in the archive's place (`cp COPY ~/.local/share/inkling-archive/drafts.sqlite`, after
// removing any `drafts.sqlite-wal` and `drafts.sqlite-shm` left beside the old archive).
//
// DEST follows the rules of every file the tool writes (FileOutput.swift): a symbolic link is
// followed, and a FIFO or a device is written into, never replaced (the copy is then made
// and checked in the temporary folder, $TMPDIR or /tmp, and poured into it).
//
// Invariants:
//   1. DEST is replaced only with `overwrite`, only when it is a regular file, and never by a
//      copy that failed its check.
//   2. The source is only read: backup works on archives opened read-only.

import FoundationEssentials
import Glibc
import InklingStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `backup` wrote.
public struct BackupReport: Sendable {
  /// The copy's path.
  public var path: String
  /// The copy's size in bytes.
  public var bytes: Int64
  /// The check run on the copy before it was put in place (healthy, or nothing was written).
  public var check: CheckReport
  public var seconds: Double
}

/// How far a backup has got.
public enum BackupProgress: Sendable {
  /// Pages copied so far, of the total.
  case copying(pages: Int, of: Int)
  /// The copy is being checked.
  case checking(CheckProgress)
}

extension Archive {
  /// Writes a consistent, checked copy of the archive to `destination`.
  ///
  /// ```swift
  /// let report = try Archive(path: path, mode: .readOnly).backup(to: "/Volumes/Backup/drafts.sqlite")
  /// ```
  /// If `destination` is an existing folder, the copy is written into it under the
  /// archive's file name.
  /// - Parameters:
  ///   - overwrite: replace an existing file at `destination`.
  ///   - fullCheck: run `check(full: true)` on the copy instead of the quick check.
  /// - Throws: `ArchiveError.destinationExists` (without `overwrite`), `.backupIsArchive`,
  ///   `.fileSystem` when it cannot be written; `.unusableArchive` when the archive cannot be
  ///   read, `.backupFailedCheck` when the copy fails its check (then nothing is written).
  @discardableResult
  public func backup(
    to destination: String, overwrite: Bool = false, fullCheck: Bool = false,
    onProgress: ((BackupProgress) -> Void)? = nil
  ) throws(ArchiveError) -> BackupReport {
    let started = Date()
    let (target, into) = try backupTarget(destination, overwrite: overwrite)
    guard let parts = OutputPath(target) else { throw .destinationIsFolder(path: target) }
    let temporaryFolder = into ? OutputPath.temporaryFolder : parts.folder
    let (temporary, report, size) = try checkedCopy(
      in: temporaryFolder, named: parts.name, reportedAs: target, fullCheck: fullCheck, onProgress: onProgress)
    if into {
      defer { Database.removeDatabaseFiles(temporary) }
      try FileOutput.pour(from: temporary, into: target)
    } else {
      try moveIntoPlace(temporary, target, overwrite: overwrite)
    }
    return BackupReport(path: target, bytes: size, check: report, seconds: Date().timeIntervalSince(started))
  }

  /// Hands a consistent, checked copy of the archive to `write`, a megabyte at a time, for a
  /// caller that sends it on (`backup -` writes it to standard output). The copy is made and
  /// checked in the temporary folder ($TMPDIR or /tmp) first, so `write` never gets a copy
  /// that failed its check; the report's path is `name`.
  ///
  /// - Throws: as `backup(to:)`, and what `write` throws.
  @discardableResult
  public func backup(
    reportedAs name: String, fullCheck: Bool = false, onProgress: ((BackupProgress) -> Void)? = nil,
    writingTo write: ([UInt8]) throws(ArchiveError) -> Void
  ) throws(ArchiveError) -> BackupReport {
    let started = Date()
    let (temporary, report, size) = try checkedCopy(
      in: OutputPath.temporaryFolder, named: OutputPath(path)?.name ?? "drafts.sqlite", reportedAs: name,
      fullCheck: fullCheck, onProgress: onProgress)
    defer { Database.removeDatabaseFiles(temporary) }
    try FileOutput.forEachPiece(of: temporary, size: 1 << 20, write)
    return BackupReport(path: name, bytes: size, check: report, seconds: Date().timeIntervalSince(started))
  }

  /// A copy of the archive in `folder` under a temporary name for `name`, checked: its path,
  /// its check and its size. A copy that fails its check is removed, and reported as the
  /// backup to `target`.
  private func checkedCopy(
    in folder: String, named name: String, reportedAs target: String, fullCheck: Bool,
    onProgress: ((BackupProgress) -> Void)?
  ) throws(ArchiveError) -> (path: String, check: CheckReport, bytes: Int64) {
    Leftovers.remove(.backup, in: folder, name: name)
    let temporary = OutputPath.joining(folder, Leftovers.temporaryName(for: name, .backup))
    try storeCall {
      do {
        try database.backup(toNewFile: temporary) { copied, total in onProgress?(.copying(pages: copied, of: total)) }
      } catch let error as StoreError where error.kind == .sqlite {
        throw ArchiveError.unusableArchive(path: target, reason: .cannotWrite(detail: error.description))
      }
    }
    let report: CheckReport
    do {
      let copy = try Archive(checking: temporary)
      report = try copy.check(full: fullCheck, onProgress: onProgress.map { call in { call(.checking($0)) } })
    } catch {
      Database.removeDatabaseFiles(temporary)
      throw .backupFailedCheck(path: target, problemCount: 1, firstProblem: "\(error)")
    }
    guard report.isHealthy else {
      Database.removeDatabaseFiles(temporary)
      throw .backupFailedCheck(
        path: target, problemCount: report.problemCount, firstProblem: report.problems.first?.description)
    }
    var info = stat()
    return (temporary, report, stat(temporary, &info) == 0 ? Int64(info.st_size) : 0)
  }

  /// The file the copy goes to (symbolic links followed), after refusing the archive itself
  /// and existing files, and whether it is a FIFO or device to pour the copy into.
  private func backupTarget(_ destination: String, overwrite: Bool) throws(ArchiveError) -> (
    path: String, into: Bool
  ) {
    var target = destination
    if FileOutput.isFolder(destination) {
      target = OutputPath.joining(destination, OutputPath(path)?.name ?? "drafts.sqlite")
    }
    var archiveInfo = stat()
    var targetInfo = stat()
    if stat(path, &archiveInfo) == 0, stat(target, &targetInfo) == 0,
      archiveInfo.st_dev == targetInfo.st_dev, archiveInfo.st_ino == targetInfo.st_ino
    {
      throw .backupIsArchive(path: target)
    }
    switch try FileOutput.destination(target) {
    case .folder: throw .destinationIsFolder(path: target)
    case .special: return (target, true)
    case .absent(let resolved):
      // Said of the folder before the copy starts, not as SQLite's "unable to open" on a
      // temporary file after it.
      let folder = OutputPath(resolved)?.folder ?? "."
      var folderInfo = stat()
      guard stat(folder, &folderInfo) == 0 else { throw .fileSystem(path: folder, operation: .create, code: errno) }
      return (resolved, false)
    case .regularFile(let resolved):
      guard overwrite else { throw .destinationExists(path: target) }
      return (resolved, false)
    case .unlinkedFile: throw .destinationExists(path: target)
    }
  }

  /// Renames the checked copy into place (invariant 1), then syncs the folder so that the
  /// new name survives a power loss.
  private func moveIntoPlace(_ temporary: String, _ target: String, overwrite: Bool) throws(ArchiveError) {
    defer { Database.removeDatabaseFiles(temporary) }
    if overwrite {
      // A WAL left beside an old file at DEST would be replayed onto the copy.
      for suffix in ["-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: target + suffix) }
      guard renameFile(temporary, target) == 0 else { throw Self.backupIOError(target) }
    } else if link(temporary, target) != 0 {
      // link() refuses to replace a file that appeared meanwhile; rename() would not.
      if errno == EEXIST { throw .destinationExists(path: target) }
      throw Self.backupIOError(target)
    }
    let descriptor = open(OutputPath(target)?.folder ?? ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if descriptor >= 0 {
      fsync(descriptor)
      close(descriptor)
    }
  }

  private static func backupIOError(_ target: String) -> ArchiveError {
    .fileSystem(path: target, operation: .write, code: errno)
  }
}

/// rename(2); inside `Archive`, `rename` is the draft operation (Archive+Rename.swift).
private func renameFile(_ from: String, _ to: String) -> Int32 { rename(from, to) }
