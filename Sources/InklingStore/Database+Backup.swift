// A consistent copy of a live database with SQLite's online backup API
// (SQLite's "Online Backup API", sqlite3_backup_step).
//
// Why the backup API rather than `VACUUM INTO`: it copies pages as they are (no table or
// index is rebuilt, so it costs a sequential read and write and little CPU), it works in
// steps that report progress, and the copy is the archive's exact page image, so `check`
// on the copy vouches for the bytes that were actually copied.
//
// Why one read transaction around all the steps: a backup whose source is changed by
// another connection between steps starts over at the next step, and an import commits
// twice a second, so a step-by-step backup of a large archive might never finish. Holding
// one read transaction pins a single snapshot for the whole copy instead; in WAL mode a
// reader never blocks writers (SQLite's "Write-Ahead Logging", "Concurrency"), so imports
// carry on, and the copy is exactly the archive as of the moment the backup started. The
// cost: the WAL cannot be checkpointed past that snapshot until the copy is done.
//
// Invariants:
//   1. The destination is a new file owned by this call; on any failure it is deleted.
//   2. The copy is left in rollback-journal mode: one self-contained file, no -wal/-shm
//      beside it, that can be copied or moved like any other file.

import CSQLite
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Database {
  /// Copies this database into a new file at `path`.
  ///
  /// - Parameters:
  ///   - path: the file to create; it must not exist.
  ///   - pagesPerStep: pages copied between progress reports.
  ///   - progress: called after each step with (pages copied, pages in total).
  /// - Throws: `StoreError` when the copy cannot be made (the file is removed).
  package func backup(
    toNewFile path: String, pagesPerStep: Int32 = 4096, progress: (_ copied: Int, _ total: Int) -> Void = { _, _ in }
  ) throws {
    guard !FileManager.default.fileExists(atPath: path) else {
      throw StoreError(kind: .sqlite, code: SQLITE_CANTOPEN, message: "\(path) already exists", path: path)
    }
    let source = try live()
    let destination: Database
    do {
      destination = try Database(path: path, mode: .readWrite)
    } catch {
      Self.removeDatabaseFiles(path)
      throw error
    }
    do {
      try destination.setBusyTimeout(milliseconds: ArchiveDatabase.busyTimeout)
      try readTransaction {
        // The transaction starts at its first read: pin the snapshot before copying.
        _ = try fetchOne("SELECT count(*) FROM sqlite_master") { $0.int(0) }
        let target = try destination.live()
        guard let backup = sqlite3_backup_init(target.handle, "main", source.handle, "main") else {
          throw target.error(sqlite3_errcode(target.handle), sql: nil)
        }
        var code: Int32 = SQLITE_OK
        var busyWaits = 0
        while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED {
          code = sqlite3_backup_step(backup, pagesPerStep)
          let total = Int(sqlite3_backup_pagecount(backup))
          progress(total - Int(sqlite3_backup_remaining(backup)), total)
          if code == SQLITE_BUSY || code == SQLITE_LOCKED {
            // Only the new file can be busy, and nothing else knows it: bounded, to be safe.
            busyWaits += 1
            if busyWaits > 100 { break }
            usleep(20_000)
          }
        }
        let finish = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE else { throw target.error(code, sql: nil) }
        guard finish == SQLITE_OK else { throw target.error(finish, sql: nil) }
      }
      // Invariant 2. The copied header still says WAL; switching rewrites it.
      _ = try destination.fetchOne("PRAGMA journal_mode = DELETE") { $0.string(0) }
      destination.close()
    } catch {
      destination.close()
      Self.removeDatabaseFiles(path)
      throw error
    }
  }

  /// Removes a database file and the journal files SQLite may have left beside it.
  package static func removeDatabaseFiles(_ path: String) {
    for suffix in ["", "-journal", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
  }
}
