// A prepared SQLite statement and the rows it yields (GRDB's `Statement`, reduced to what
// the archive needs).
//
// States of a statement (sqlite3_stmt):
//   ready   — freshly prepared or reset; parameters may be bound.
//   running — `step()` returned a row; the `Row` is valid until the next step or reset.
//   done    — `step()` returned nil, or threw; `bind`/`execute` reset it to ready.
// Invariants:
//   1. The statement finalizes itself in `deinit`, and only there.
//   2. `bind` resets first, so a statement is never bound while running (SQLITE_MISUSE);
//      binding one parameter at a time starts with `reset()` for the same reason.
//   3. After `execute` (success or failure) the statement is reset and its bindings are
//      cleared, so SQLite keeps no copy of a large blob alive and holds no read lock.

import CSQLite

/// The SQLite connection shared by a `Database` and its statements: the handle, plus what
/// error messages need. Statements hold this rather than the `Database`, so a database's
/// statement cache does not form a reference cycle.
final class Connection {
  let handle: OpaquePointer
  let path: String
  var busyTimeout: Int32 = 0

  init(handle: OpaquePointer, path: String) {
    self.handle = handle
    self.path = path
  }

  /// The error for a failed call on this connection.
  func error(_ code: Int32, sql: String?) -> StoreError {
    StoreError(sqliteCode: code, connection: handle, sql: sql, path: path, busyTimeout: busyTimeout)
  }
}

/// A prepared statement. Finalizes itself in `deinit`.
///
/// Obtain one with `Database.statement(_:)` (cached) or `Database.makeStatement(_:)`.
package final class Statement {
  /// The SQL text, as given.
  package let sql: String
  let handle: OpaquePointer
  let connection: Connection

  /// Prepares one SQL statement.
  ///
  /// - Parameter persistent: a hint that the statement will be reused many times
  ///   (`SQLITE_PREPARE_PERSISTENT`), for cached statements.
  /// - Throws: `StoreError` if the SQL does not compile or holds more than one statement.
  init(connection: Connection, sql: String, persistent: Bool) throws {
    self.sql = sql
    self.connection = connection
    var statement: OpaquePointer?
    var remainder = ""
    let flags = UInt32(persistent ? SQLITE_PREPARE_PERSISTENT : 0)
    let code = sql.withCString { start -> Int32 in
      var tail: UnsafePointer<CChar>?
      let code = sqlite3_prepare_v3(connection.handle, start, -1, flags, &statement, &tail)
      if code == SQLITE_OK, let tail { remainder = String(cString: tail) }
      return code
    }
    guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
    guard let statement else {
      throw StoreError(kind: .sqlite, code: SQLITE_MISUSE, message: "no SQL statement", sql: sql, path: connection.path)
    }
    self.handle = statement
    if try Self.holdsStatement(remainder, connection: connection) {
      throw StoreError(
        kind: .sqlite, code: SQLITE_MISUSE,
        message: "more than one SQL statement; use Database.execute(_:) for a script", sql: sql,
        path: connection.path)
    }
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Whether `text` (the rest after a prepared statement) holds another statement rather
  /// than only spaces, semicolons and comments.
  private static func holdsStatement(_ text: String, connection: Connection) throws -> Bool {
    guard text.contains(where: { !$0.isWhitespace && $0 != ";" }) else { return false }
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v2(connection.handle, text, -1, &statement, nil)
    sqlite3_finalize(statement)
    return code != SQLITE_OK || statement != nil
  }

  // MARK: - Binding

  /// Resets the statement and binds `arguments` to its parameters, in order.
  ///
  /// - Throws: `StoreError` if the number of arguments differs from the number of parameters.
  package func bind(_ arguments: [(any DatabaseValueConvertible)?]) throws {
    sqlite3_reset(handle)
    let expected = Int(sqlite3_bind_parameter_count(handle))
    guard arguments.count == expected else {
      throw StoreError(
        kind: .sqlite, code: SQLITE_RANGE,
        message: "\(arguments.count) arguments for \(expected) parameters", sql: sql, path: connection.path)
    }
    for (offset, argument) in arguments.enumerated() {
      let code = bind(argument?.databaseValue ?? .null, at: Int32(offset + 1))
      guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
    }
  }

  private func bind(_ value: DatabaseValue, at index: Int32) -> Int32 {
    switch value {
    case .null:
      return sqlite3_bind_null(handle, index)
    case .integer(let v):
      return sqlite3_bind_int64(handle, index, v)
    case .real(let v):
      return sqlite3_bind_double(handle, index, v)
    case .text(var v):
      // A nil pointer would bind NULL, not "": bind a static empty string instead.
      if v.isEmpty { return sqlite3_bind_text64(handle, index, "", 0, nil, UInt8(SQLITE_UTF8)) }
      return v.withUTF8 { utf8 in
        utf8.withMemoryRebound(to: CChar.self) {
          sqlite3_bind_text64(
            handle, index, $0.baseAddress, sqlite3_uint64($0.count), inkling_sqlite_transient(), UInt8(SQLITE_UTF8))
        }
      }
    case .blob(let v):
      return v.withUnsafeBytes { bindBlob($0, at: index) }
    }
  }

  /// Binds a copy of `bytes` as a blob (empty included) to parameter `index`.
  private func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32) -> Int32 {
    // A nil pointer would bind NULL, not an empty blob (sqlite3_bind_blob).
    guard let start = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
    return sqlite3_bind_blob64(handle, index, start, sqlite3_uint64(bytes.count), inkling_sqlite_transient())
  }

  // MARK: - Binding one parameter at a time

  // For the import's hot inserts, which the drawing index's budget makes count
  // (docs/decisions.md, "The drawing index costs at most 15 % of an import"): no argument
  // array of existentials, no `DatabaseValue`, blobs copied from borrowed memory. Call
  // `reset()`, bind each parameter (numbered from 1), then `run()`; a parameter left unbound
  // is NULL.

  /// Back to ready, keeping the bindings (invariant 2).
  package func reset() { sqlite3_reset(handle) }

  /// Binds an integer, or NULL for nil, to parameter `index` (from 1).
  package func bind(_ value: Int64?, at index: Int32) throws {
    try check(value.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index))
  }

  /// Binds text, or NULL for nil, to parameter `index` (from 1).
  package func bind(text: String?, at index: Int32) throws {
    try check(bind(text.map(DatabaseValue.text) ?? .null, at: index))
  }

  /// Binds a copy of `bytes`, or NULL for nil, to parameter `index` (from 1).
  package func bind(blob bytes: [UInt8]?, at index: Int32) throws {
    guard let bytes else { return try check(sqlite3_bind_null(handle, index)) }
    try bytes.withUnsafeBytes { try bind(blob: $0, at: index) }
  }

  /// Binds a real, or NULL for nil, to parameter `index` (from 1).
  package func bind(_ value: Double?, at index: Int32) throws {
    try check(value.map { sqlite3_bind_double(handle, index, $0) } ?? sqlite3_bind_null(handle, index))
  }

  /// Binds a copy of `bytes` as a blob, or NULL for nil, to parameter `index` (from 1).
  package func bind(blob bytes: UnsafeRawBufferPointer?, at index: Int32) throws {
    guard let bytes else { return try check(sqlite3_bind_null(handle, index)) }
    try check(bindBlob(bytes, at: index))
  }

  private func check(_ code: Int32) throws {
    guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
  }

  /// Runs the statement bound one parameter at a time to completion, then resets it and
  /// clears its bindings (invariant 3).
  package func run() throws {
    defer { finish() }
    while try step() != nil {}
  }

  // MARK: - Running

  /// Runs the statement to its next row.
  ///
  /// - Returns: the row, valid until the next `step()` or reset; nil when done.
  /// - Throws: `StoreError`; the statement is reset.
  package func step() throws -> Row? {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW:
      return Row(handle: handle)
    case SQLITE_DONE:
      return nil
    default:
      let error = connection.error(code, sql: sql)
      sqlite3_reset(handle)
      throw error
    }
  }

  /// Binds `arguments`, runs the statement to completion, resets it and clears its bindings.
  ///
  /// - Throws: `StoreError`.
  package func execute(_ arguments: [(any DatabaseValueConvertible)?] = []) throws {
    defer { finish() }
    try bind(arguments)
    while try step() != nil {}
  }

  /// Binds `arguments` and calls `body` for each row.
  package func forEach(_ arguments: [(any DatabaseValueConvertible)?] = [], _ body: (Row) throws -> Void) throws {
    defer { finish() }
    try bind(arguments)
    while let row = try step() { try body(row) }
  }

  /// Back to ready: resets the statement (releasing its read lock) and clears its bindings.
  func finish() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  /// Whether the statement has stepped and not been reset (sqlite3_stmt_busy).
  var isRunning: Bool { sqlite3_stmt_busy(handle) != 0 }
}

// MARK: - Row

/// The current row of a statement: a light view, valid until the next step or reset.
///
/// Columns are numbered from 0. The throwing `get` is the primary read; the typed
/// accessors below follow SQLite's own conversions (NULL reads as 0, "" or []).
package struct Row {
  let handle: OpaquePointer

  /// The number of columns.
  package var count: Int32 { sqlite3_column_count(handle) }

  /// The name of column `i`.
  package func columnName(_ i: Int32) -> String {
    sqlite3_column_name(handle, i).map { String(cString: $0) } ?? ""
  }

  /// The value of column `i` converted to `T`.
  ///
  /// - Throws: `StoreError` (SQLITE_MISMATCH) when the stored value does not convert,
  ///   e.g. NULL read as a non-optional type.
  package func get<T: DatabaseValueConvertible>(_ i: Int32, as type: T.Type = T.self) throws -> T {
    let stored = value(i)
    guard let converted = T.fromDatabaseValue(stored) else {
      let sql = sqlite3_sql(handle).map { String(cString: $0) }
      throw StoreError(
        kind: .sqlite, code: SQLITE_MISMATCH,
        message: "column \(i) (\(columnName(i))) holds \(Self.describe(stored)), not \(T.self)", sql: sql)
    }
    return converted
  }

  /// The stored value of column `i`, in its storage class.
  package func value(_ i: Int32) -> DatabaseValue {
    assertSelected(i)
    switch sqlite3_column_type(handle, i) {
    case SQLITE_NULL: return .null
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, i))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, i))
    case SQLITE_TEXT: return .text(string(i))
    default: return .blob(bytes(i))
    }
  }

  package func isNull(_ i: Int32) -> Bool {
    assertSelected(i)
    return sqlite3_column_type(handle, i) == SQLITE_NULL
  }

  package func int64(_ i: Int32) -> Int64 {
    assertSelected(i)
    return sqlite3_column_int64(handle, i)
  }

  package func int(_ i: Int32) -> Int {
    assertSelected(i)
    return Int(sqlite3_column_int64(handle, i))
  }

  package func double(_ i: Int32) -> Double {
    assertSelected(i)
    return sqlite3_column_double(handle, i)
  }

  /// A real column (`total()` of integers) as an integer, clamped to Int64's range: a sum of
  /// hostile values in another archive reaches 2^63, which `Int64(_:)` traps on.
  package func int64Clamping(_ i: Int32) -> Int64 {
    let value = double(i)
    return Int64(exactly: value.rounded(.towardZero)) ?? (value > 0 ? .max : value < 0 ? .min : 0)
  }

  package func string(_ i: Int32) -> String {
    assertSelected(i)
    // Text first, then its length (sqlite3_column_bytes).
    guard let text = sqlite3_column_text(handle, i) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, i))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  package func bytes(_ i: Int32) -> [UInt8] {
    withUnsafeBytes(i) { [UInt8]($0) }
  }

  /// Calls `body` with the bytes of column `i` in place, without copying them.
  /// The buffer is valid only inside `body`.
  package func withUnsafeBytes<R>(_ i: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    assertSelected(i)
    let start = sqlite3_column_blob(handle, i)
    let count = Int(sqlite3_column_bytes(handle, i))
    return try body(UnsafeRawBufferPointer(start: count > 0 ? start : nil, count: count))
  }

  /// SQLite reads a column past the selected ones as NULL, which the typed reads give as 0 or
  /// "": a decoder reading by position beyond its statement's column list (a `columns` string
  /// and its `row` function out of step) would be silently wrong. Debug builds, and so every
  /// test, stop there instead; release builds skip the check, which every read would pay.
  private func assertSelected(_ i: Int32) {
    assert(
      i >= 0 && i < count,
      "column \(i) is read, but the statement selects \(count): `\(sqlite3_sql(handle).map { String(cString: $0) } ?? "")`"
    )
  }

  private static func describe(_ value: DatabaseValue) -> String {
    switch value {
    case .null: return "NULL"
    case .integer: return "an integer"
    case .real: return "a real"
    case .text: return "text"
    case .blob: return "a blob"
    }
  }
}
