// The one error type of the store: what went wrong, SQLite's extended result code and
// message, and the SQL text (never the bound values, which may be large or private).
//
// Kinds about the archive as a whole (`noArchive`, `folder`, `notAnArchive`, `newerSchema`,
// `changedSchema`, `busy`, `corrupt`, `damagedIndex`, `readOnly`, `full`) carry in `message` what is wrong, without
// the file's path or advice: the layers above phrase the sentence a person reads. `sqlite`
// errors are our own bugs or I/O trouble and describe themselves the way GRDB does:
// "SQLite error 19 (UNIQUE constraint failed: blob.sha256) while executing `INSERT …`".

import CSQLite

/// An error from the archive store.
package struct StoreError: Error, CustomStringConvertible, Sendable {
  /// What kind of trouble this is; the command line maps these to exit statuses.
  package enum Kind: Sendable, Hashable {
    /// The file is not a SQLite database, or is a SQLite database of someone else.
    case notAnArchive
    /// The path is a folder.
    case folder
    /// The archive was written by a newer build with a schema this build does not know.
    case newerSchema
    /// The schema differs from what the migrations create: it was changed outside this program.
    case changedSchema
    /// Another process held a lock on the archive for longer than the busy timeout.
    case busy
    /// The archive is damaged: SQLite reports corruption, or a blob does not decode to its hash.
    case corrupt
    /// The drawing index is damaged: it is derived from the drawings, which are whole, and
    /// can be built again from them.
    case damagedIndex
    /// A write was attempted on an archive that cannot be written.
    case readOnly
    /// The disk (or the file-size limit) left no room for the write.
    case full
    /// A WAL archive in a folder this process cannot write, whose `-wal` file holds changes
    /// SQLite reads only through the `-shm` index it cannot create there.
    case unreadableLog
    /// Any other SQLite error (I/O, constraint, misuse); `description` has code, message, SQL.
    case sqlite
    /// There is no archive at the path (read-only opens never create one).
    case noArchive
    /// A row that other rows refer to does not exist.
    case notFound
    /// Freshly encoded data did not decode back to the bytes it was made from; nothing was stored.
    case verification
  }

  package let kind: Kind
  /// SQLite's extended result code (`SQLITE_CONSTRAINT_UNIQUE` = 2067, …), or 0 when the
  /// error does not come from SQLite.
  package let code: Int32
  /// For `sqlite`, SQLite's message; for every other kind, what is wrong in a few words.
  package let message: String
  /// The SQL being executed, without its bound values.
  package let sql: String?
  /// The archive's path, when known.
  package let path: String?

  package init(kind: Kind, code: Int32 = 0, message: String, sql: String? = nil, path: String? = nil) {
    self.kind = kind
    self.code = code
    self.message = message
    self.sql = sql
    self.path = path
  }

  package var description: String {
    guard kind == .sqlite else { return message }
    var text = "SQLite error \(code) (\(message))"
    if let sql {
      text += " while executing `\(sql)`"
    } else if let path {
      text += " on \(path)"  // e.g. opening it: without SQL, the file is the context
    }
    return text
  }
}

// MARK: - From SQLite result codes

extension StoreError {
  /// The error for a failed SQLite call, classified by its primary result code.
  ///
  /// - Parameters:
  ///   - code: the extended result code the call returned.
  ///   - connection: the `sqlite3*` whose `sqlite3_errmsg` describes the failure, if any.
  ///   - busyTimeout: the connection's busy timeout in milliseconds, for the `busy` sentence.
  package init(
    sqliteCode code: Int32, connection: OpaquePointer?, sql: String?, path: String?,
    busyTimeout: Int32 = 0
  ) {
    let sqliteMessage: String
    if let connection, let text = sqlite3_errmsg(connection) {
      sqliteMessage = String(cString: text)
    } else {
      sqliteMessage = String(cString: sqlite3_errstr(code))
    }
    self.init(sqliteCode: code, message: sqliteMessage, sql: sql, path: path, busyTimeout: busyTimeout)
  }

  /// The error for SQLite result `code` with SQLite's `message`.
  package init(
    sqliteCode code: Int32, message sqliteMessage: String, sql: String?, path: String?, busyTimeout: Int32 = 0
  ) {
    // The message stays readable: the SQL is in `sql`, not in the message.
    let detail = "SQLite error \(code): \(sqliteMessage)"
    switch code & 0xFF {
    case SQLITE_BUSY, SQLITE_LOCKED:
      let wait = busyTimeout > 0 ? "for more than \(Self.seconds(busyTimeout)), " : ""
      self.init(kind: .busy, code: code, message: wait + detail, sql: sql, path: path)
    case SQLITE_FULL:
      self.init(kind: .full, code: code, message: detail, sql: sql, path: path)
    case SQLITE_CORRUPT, SQLITE_NOTADB:
      self.init(kind: .corrupt, code: code, message: detail, sql: sql, path: path)
    case SQLITE_READONLY:
      // SQLITE_READONLY_DIRECTORY (a macro Swift does not import): the folder, not the file.
      let message =
        code == 1544
        ? "its folder cannot be written, so SQLite cannot create the -wal and -shm files beside it"
        : detail
      self.init(kind: .readOnly, code: code, message: message, sql: sql, path: path)
    default:
      self.init(kind: .sqlite, code: code, message: sqliteMessage, sql: sql, path: path)
    }
  }

  private static func seconds(_ milliseconds: Int32) -> String {
    milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
  }
}
