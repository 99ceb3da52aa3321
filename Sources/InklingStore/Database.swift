// One SQLite connection with a cache of prepared statements (GRDB's `Database`, reduced).
//
// A `Database` is not Sendable: SQLite connections and their statements must be used by
// one thread at a time, and the cache is unsynchronised. Open one connection per thread
// (the importer's single writer, each reader) on the thread that uses it.
//
// Invariants:
//   1. Every statement handed out by `statement(_:)` is ready (reset, bindings cleared).
//   2. `close()` finalizes the cached statements before closing the connection; statements
//      still held elsewhere keep a "zombie" connection alive until they are released
//      (sqlite3_close_v2), so nothing dangles.
//   3. After `close()` every call throws; none touches a closed handle.

import CSQLite
import InklingFormats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A connection to a SQLite database file.
package final class Database {
  /// How a file is opened.
  package enum Mode: Sendable, Hashable {
    /// Read and write; the file is created if missing.
    case readWrite
    /// Read only; the file must exist.
    case readOnly
  }

  /// The path given to `init`.
  package let path: String
  package let mode: Mode
  private var connection: Connection?
  private var cache: [String: Statement] = [:]
  /// Told the SQL of every statement asked of this connection, cached or not: a test reads
  /// the plans of the queries an operation runs (`EXPLAIN QUERY PLAN`).
  package var statementPrepared: ((String) -> Void)?
  private var savepointDepth = 0
  /// State that higher layers keep per connection, one object per type (see `companion`).
  private var companions: [ObjectIdentifier: AnyObject] = [:]

  /// Opens (and in `readWrite` mode creates) the database file at `path`.
  ///
  /// This is the plain connection; `ArchiveDatabase.open` adds the archive's checks,
  /// pragmas and migrations on top.
  /// - Parameter immutable: (`readOnly` only) tell SQLite that nothing changes the file while
  ///   it is open, so it takes no locks and needs no `-shm` file: the one way to read a WAL
  ///   database in a folder this process cannot write (the `immutable` URI parameter).
  /// - Throws: `StoreError` if SQLite cannot open the file.
  package init(path: String, mode: Mode, immutable: Bool = false) throws {
    _ = Self.configureSQLite
    self.path = path
    self.mode = mode
    var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    flags |= mode == .readWrite ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY
    var name = path
    if immutable && mode == .readOnly {
      flags |= SQLITE_OPEN_URI
      name = "file:" + Self.uriPath(path) + "?immutable=1"
    }
    if mode == .readWrite { Self.createPrivately(path) }
    var handle: OpaquePointer?
    let code = sqlite3_open_v2(name, &handle, flags, nil)
    guard code == SQLITE_OK, let handle else {
      let error = StoreError(sqliteCode: code, connection: handle, sql: nil, path: path)
      sqlite3_close_v2(handle)
      throw error
    }
    sqlite3_extended_result_codes(handle, 1)
    connection = Connection(handle: handle, path: path)
  }

  deinit {
    close()
  }

  /// Makes the file at `path`, when nothing is there, readable and writable by its owner
  /// alone. SQLite would create it 0644 (less the umask), and gives the `-wal`, `-shm` and
  /// `-journal` files beside it the database file's own mode, so an archive made here stays
  /// private on a computer with other accounts. An empty file is an empty database to SQLite;
  /// a file already there keeps the mode its owner gave it.
  private static func createPrivately(_ path: String) {
    guard !path.isEmpty, path != ":memory:" else { return }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    #if canImport(Glibc)
      if descriptor >= 0 { Glibc.close(descriptor) }
    #else
      if descriptor >= 0 { Darwin.close(descriptor) }
    #endif
  }

  /// `path` as the path of a `file:` URI: every byte but the unreserved ones and `/`
  /// percent-encoded, so `?`, `#` and `%` in a file name stay part of it (uri.html#uri_filenames).
  private static func uriPath(_ path: String) -> String {
    // An absolute path after an empty authority (file:///…), so a path starting "//" is
    // never read as a host name.
    var uri = path.hasPrefix("/") ? "//" : ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"), UInt8(ascii: "/"):
        uri.append(Character(Unicode.Scalar(byte)))
      default:
        let hex = Array("0123456789ABCDEF")
        uri += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
      }
    }
    return uri
  }

  /// Applies `inkling_sqlite_configure` once per process, before the first connection
  /// initialises SQLite (after that sqlite3_config refuses, harmlessly).
  private static let configureSQLite: Void = { _ = inkling_sqlite_configure() }()

  /// The live connection.
  ///
  /// - Throws: `StoreError` (SQLITE_MISUSE) after `close()`.
  func live() throws -> Connection {
    guard let connection else {
      throw StoreError(kind: .sqlite, code: SQLITE_MISUSE, message: "the connection is closed", path: path)
    }
    return connection
  }

  /// The `sqlite3*` handle, for the few C calls the store makes directly.
  var handle: OpaquePointer {
    get throws { try live().handle }
  }

  // MARK: - Executing

  /// Executes one or more SQL statements separated by semicolons, without arguments.
  ///
  /// - Throws: `StoreError` naming the statement that failed.
  package func execute(_ sql: String) throws {
    let connection = try live()
    try sql.withCString { start in
      var next: UnsafePointer<CChar>? = start
      while let current = next, current.pointee != 0 {
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let code = sqlite3_prepare_v2(connection.handle, current, -1, &statement, &tail)
        let text = Self.text(from: current, to: tail)
        guard code == SQLITE_OK else { throw connection.error(code, sql: text) }
        next = tail
        guard let statement else { continue }  // only spaces or a comment
        defer { sqlite3_finalize(statement) }
        var step = sqlite3_step(statement)
        while step == SQLITE_ROW { step = sqlite3_step(statement) }
        guard step == SQLITE_DONE else { throw connection.error(step, sql: text) }
      }
    }
  }

  private static func text(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>?) -> String {
    guard let end else { return String(cString: start) }
    let bytes = UnsafeRawBufferPointer(start: start, count: end - start)
    return String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
  }

  /// Executes one SQL statement with `arguments` bound to its parameters (`?`).
  ///
  /// - Throws: `StoreError`.
  package func execute(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?]) throws {
    try statement(sql).execute(arguments)
  }

  /// The cached prepared statement for `sql`, ready to bind.
  ///
  /// If the cached statement is still running (a caller iterates it while running the
  /// same SQL again), a fresh uncached statement is returned instead, so that neither
  /// disturbs the other.
  /// - Throws: `StoreError` if the SQL does not compile.
  package func statement(_ sql: String) throws -> Statement {
    let connection = try live()
    statementPrepared?(sql)
    if let cached = cache[sql] {
      if cached.isRunning { return try Statement(connection: connection, sql: sql, persistent: false) }
      cached.finish()
      return cached
    }
    let statement = try Statement(connection: connection, sql: sql, persistent: true)
    cache[sql] = statement
    return statement
  }

  /// A new statement that is not cached: for SQL that runs once, or (`persistent`) for a
  /// caller that keeps the statement and runs it many times (SQLITE_PREPARE_PERSISTENT).
  package func makeStatement(_ sql: String, persistent: Bool = false) throws -> Statement {
    statementPrepared?(sql)
    return try Statement(connection: live(), sql: sql, persistent: persistent)
  }

  /// Every row of `sql` with `arguments`, each turned into a value by `row`.
  ///
  /// - Throws: `StoreError`, or what `row` throws.
  package func fetchAll<T>(
    _ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = [], _ row: (Row) throws -> T
  ) throws -> [T] {
    var values: [T] = []
    try statement(sql).forEach(arguments) { values.append(try row($0)) }
    return values
  }

  /// The first row of `sql` with `arguments` turned into a value by `row`, or nil if none.
  ///
  /// - Throws: `StoreError`, or what `row` throws.
  package func fetchOne<T>(
    _ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = [], _ row: (Row) throws -> T
  ) throws -> T? {
    let statement = try statement(sql)
    defer { statement.finish() }
    try statement.bind(arguments)
    return try statement.step().map(row)
  }

  /// The rowid of the last successful INSERT on this connection.
  package var lastInsertRowID: Int64 {
    connection.map { sqlite3_last_insert_rowid($0.handle) } ?? 0
  }

  /// The number of rows changed by the last INSERT, UPDATE or DELETE.
  package var changes: Int {
    connection.map { Int(sqlite3_changes64($0.handle)) } ?? 0
  }

  /// The number of rows changed by INSERT, UPDATE and DELETE on this connection since it
  /// opened (sqlite3_total_changes64): with `PRAGMA data_version`, which changes when another
  /// connection commits, it tells whether anything was written since it was last read.
  package var totalChanges: Int64 {
    connection.map { sqlite3_total_changes64($0.handle) } ?? 0
  }

  /// The bytes of the database file's pages (page size × page count; the WAL is not counted).
  ///
  /// - Throws: `StoreError`.
  package func fileBytes() throws -> Int64 {
    let pageSize = try fetchOne("PRAGMA page_size") { $0.int64(0) } ?? 0
    let pageCount = try fetchOne("PRAGMA page_count") { $0.int64(0) } ?? 0
    return pageSize * pageCount
  }

  /// Rebuilds the file without its free pages (SQLite's VACUUM).
  ///
  /// - Throws: `StoreError`.
  package func vacuum() throws { try execute("VACUUM") }

  /// `PRAGMA data_version`: changes when another connection commits to the file
  /// (PRAGMA data_version); see `totalChanges`.
  ///
  /// - Throws: `StoreError`.
  package func dataVersion() throws -> Int64 {
    try fetchOne("PRAGMA data_version") { $0.int64(0) } ?? 0
  }

  /// Whether no transaction is open (sqlite3_get_autocommit).
  package var isAutocommit: Bool {
    connection.map { sqlite3_get_autocommit($0.handle) != 0 } ?? true
  }

  /// Waits up to `milliseconds` for other connections' locks before failing with busy.
  package func setBusyTimeout(milliseconds: Int32) throws {
    let connection = try live()
    let code = sqlite3_busy_timeout(connection.handle, milliseconds)
    guard code == SQLITE_OK else { throw connection.error(code, sql: nil) }
    connection.busyTimeout = milliseconds
  }

  /// Sets a `sqlite3_db_config` boolean option (`SQLITE_DBCONFIG_DEFENSIVE`, …).
  package func configure(_ option: Int32, _ enabled: Bool) throws {
    let connection = try live()
    var result: Int32 = 0
    let code = inkling_sqlite_db_config_int(connection.handle, option, enabled ? 1 : 0, &result)
    guard code == SQLITE_OK else { throw connection.error(code, sql: nil) }
  }

  /// The connection's one object of type `T`, made by `make` on first use: per-connection
  /// state of a higher layer (the blob reader's zstd context and cache), so that values
  /// made afresh for each call over the same connection share it.
  func companion<T: AnyObject>(_ type: T.Type, make: () -> T) -> T {
    if let existing = companions[ObjectIdentifier(type)] as? T { return existing }
    let made = make()
    companions[ObjectIdentifier(type)] = made
    return made
  }

  // MARK: - Closing

  /// Finalizes the cached statements and closes the connection. Safe to call twice.
  package func close() {
    guard let connection else { return }
    cache.removeAll()
    companions.removeAll()
    self.connection = nil
    // close_v2 defers the close while a statement held by a caller is alive (invariant 2).
    sqlite3_close_v2(connection.handle)
  }

  /// Nesting depth of `savepoint` calls, used to name them.
  var nextSavepointName: String {
    savepointDepth += 1
    return "inkling_\(savepointDepth)"
  }

  func savepointEnded() { savepointDepth -= 1 }
}
