import CSQLite
import Foundation
import InklingTestSupport
import Testing

@testable import InklingStore

struct TestError: Error, Equatable { let name: String }

@Suite struct DatabaseTests {
  let folder: TemporaryFolder
  let db: Database

  init() throws {
    folder = try TemporaryFolder()
    db = try Database(path: folder.path("test.sqlite"), mode: .readWrite)
    try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v ANY) STRICT; CREATE TABLE u (k TEXT UNIQUE)")
  }

  private func count(_ table: String = "t") throws -> Int64 {
    try db.fetchOne("SELECT count(*) FROM \(table)") { $0.int64(0) } ?? -1
  }

  @Test func valuesRoundTrip() throws {
    let values: [DatabaseValue] = [
      .null, .integer(0), .integer(Int64.min), .integer(Int64.max), .real(-1.5), .real(.infinity),
      .text(""), .text("Çat 🐈"), .text("a\u{0}b"), .blob([]), .blob([0, 1, 2, 255]),
    ]
    for value in values { try db.execute("INSERT INTO t (v) VALUES (?)", [value]) }
    let read = try db.fetchAll("SELECT v FROM t ORDER BY id") { $0.value(0) }
    #expect(read == values)
    // An empty string and an empty blob stay what they are, not NULL.
    #expect(try db.fetchOne("SELECT count(*) FROM t WHERE v IS NULL") { $0.int(0) } == 1)
  }

  /// Binding one parameter at a time (the import's hot inserts) stores what `execute` stores,
  /// and a statement bound that way comes back ready with no bindings left.
  @Test func bindingOneParameterAtATimeRoundTrips() throws {
    let insert = try db.statement("INSERT INTO t (v) VALUES (?), (?), (?), (?), (?), (?), (?), (?)")
    insert.reset()
    try insert.bind(Int64.min, at: 1)
    try insert.bind(nil as Int64?, at: 2)
    try insert.bind(-1.5, at: 3)
    try insert.bind(nil as Double?, at: 4)
    try insert.bind(text: "Çat 🐈", at: 5)
    try [UInt8]([0, 1, 255]).withUnsafeBytes { try insert.bind(blob: $0, at: 6) }
    try insert.bind(blob: [UInt8](), at: 7)
    try insert.bind(blob: nil as [UInt8]?, at: 8)
    try insert.run()
    let read = try db.fetchAll("SELECT v FROM t ORDER BY id") { $0.value(0) }
    #expect(
      read == [.integer(Int64.min), .null, .real(-1.5), .null, .text("Çat 🐈"), .blob([0, 1, 255]), .blob([]), .null])
    // Bindings were cleared: running it again inserts eight NULLs.
    try db.statement("INSERT INTO t (v) VALUES (?), (?), (?), (?), (?), (?), (?), (?)").run()
    #expect(try db.fetchOne("SELECT count(*) FROM t WHERE v IS NULL") { $0.int(0) } == 3 + 8)
    #expect(throws: StoreError.self) { try insert.bind(Int64(1), at: 9) }
  }

  @Test func swiftTypesRoundTrip() throws {
    try db.execute("CREATE TABLE s (i, i64, i32, d, s, b, yes, none)")
    let bytes: [UInt8] = [9, 8, 7]
    try db.execute(
      "INSERT INTO s VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      [42, Int64(1) << 40, Int32(-7), 2.25, "text", bytes, true, nil as Int?])
    let row = try #require(
      try db.fetchOne("SELECT * FROM s") { row in
        (
          try row.get(0, as: Int.self), try row.get(1, as: Int64.self), try row.get(2, as: Int32.self),
          try row.get(3, as: Double.self), try row.get(4, as: String.self), try row.get(5, as: [UInt8].self),
          try row.get(6, as: Bool.self), try row.get(7, as: Int?.self), row.isNull(7)
        )
      })
    #expect(row.0 == 42 && row.1 == 1 << 40 && row.2 == -7 && row.3 == 2.25)
    #expect(row.4 == "text" && row.5 == bytes && row.6 == true && row.7 == nil && row.8)
  }

  @Test func conversionsRefuseWhatDoesNotFit() {
    #expect(Int32.fromDatabaseValue(.integer(Int64(Int32.max) + 1)) == nil)
    #expect(Int64.fromDatabaseValue(.real(2.5)) == nil)
    #expect(Int64.fromDatabaseValue(.real(3)) == 3)
    #expect(Int64.fromDatabaseValue(.text("3")) == nil)
    #expect(Double.fromDatabaseValue(.integer(2)) == 2)
    #expect(String.fromDatabaseValue(.blob([65])) == nil)
    #expect([UInt8].fromDatabaseValue(.text("A")) == [65])
    #expect(Bool.fromDatabaseValue(.integer(2)) == true)
    #expect(Int?.fromDatabaseValue(.null) == .some(nil))
    #expect(Int?.fromDatabaseValue(.text("x")) == nil)
  }

  @Test func typedReadOfNullThrows() throws {
    try db.execute("INSERT INTO t (v) VALUES (NULL)")
    let error = storeError { _ = try db.fetchOne("SELECT v FROM t") { try $0.get(0, as: String.self) } }
    #expect(error?.code == SQLITE_MISMATCH)
    #expect(error?.description.contains("NULL") == true)
    // The non-throwing accessors follow SQLite's conversions.
    let loose = try #require(
      try db.fetchOne("SELECT v FROM t") { row -> (Int64, String, [UInt8]) in
        (row.int64(0), row.string(0), row.bytes(0))
      })
    #expect(loose.0 == 0 && loose.1 == "" && loose.2 == [])
  }

  @Test func withUnsafeBytesSeesTheBlob() throws {
    let big = [UInt8](repeating: 7, count: 1 << 20)
    try db.execute("INSERT INTO t (v) VALUES (?)", [big])
    let sum = try db.fetchOne("SELECT v FROM t") { row in row.withUnsafeBytes(0) { $0.reduce(0) { $0 + Int($1) } } }
    #expect(sum == 7 << 20)
  }

  @Test func statementsAreCachedAndComeBackReady() throws {
    let sql = "SELECT ?"
    let first = try db.statement(sql)
    try first.bind([5])
    #expect(try first.step()?.int(0) == 5)
    // The same SQL while the first is still running gets its own statement.
    let second = try db.statement(sql)
    #expect(second !== first)
    first.finish()
    let again = try db.statement(sql)
    #expect(again === first)
    // Bindings were cleared: the parameter reads as NULL.
    #expect(try again.step()?.isNull(0) == true)
  }

  @Test func nestedFetchOfTheSameSQL() throws {
    for v in 1...3 { try db.execute("INSERT INTO t (v) VALUES (?)", [v]) }
    let sql = "SELECT v FROM t ORDER BY id"
    let pairs = try db.fetchAll(sql) { outer in
      (outer.int(0), try db.fetchAll(sql) { $0.int(0) }.count)
    }
    #expect(pairs.map(\.0) == [1, 2, 3] && pairs.allSatisfy { $0.1 == 3 })
  }

  @Test func scriptsRunEveryStatement() throws {
    try db.execute(
      """
      -- a comment
      INSERT INTO t (v) VALUES (1);
      INSERT INTO t (v) VALUES (2);  /* another */
      """)
    #expect(try count() == 2)
    let error = storeError { try db.execute("INSERT INTO t (v) VALUES (3); INSERT INTO nowhere VALUES (4)") }
    #expect(error?.sql == "INSERT INTO nowhere VALUES (4)")
    #expect(error?.message.contains("no such table: nowhere") == true)
  }

  @Test func oneStatementAtATime() throws {
    let error = storeError { _ = try db.statement("SELECT 1; SELECT 2") }
    #expect(error?.code == SQLITE_MISUSE)
    _ = try db.statement("SELECT 1; -- trailing comment")
  }

  @Test func argumentCountIsChecked() throws {
    let error = storeError { try db.execute("INSERT INTO t (v) VALUES (?)", [1, 2]) }
    #expect(error?.code == SQLITE_RANGE)
  }

  @Test func errorsDescribeCodeMessageAndSQLButNotValues() throws {
    try db.execute("INSERT INTO u (k) VALUES (?)", ["secret-value"])
    let error = try #require(storeError { try db.execute("INSERT INTO u (k) VALUES (?)", ["secret-value"]) })
    #expect(error.kind == .sqlite)
    #expect(error.code == 2067)  // SQLITE_CONSTRAINT_UNIQUE
    #expect(
      error.description
        == "SQLite error 2067 (UNIQUE constraint failed: u.k) while executing `INSERT INTO u (k) VALUES (?)`")
    #expect(!error.description.contains("secret-value"))
  }

  @Test func insertFacts() throws {
    try db.execute("INSERT INTO t (id, v) VALUES (41, 'x')")
    #expect(db.lastInsertRowID == 41)
    try db.execute("INSERT INTO t (v) VALUES ('y'), ('z')")
    try db.execute("UPDATE t SET v = 'w'")
    #expect(db.changes == 3)
    #expect(try db.fetchOne("SELECT v FROM t WHERE id = ?", [1000]) { $0.string(0) } == nil)
  }

  @Test func transactionCommits() throws {
    let value = try db.transaction {
      try db.execute("INSERT INTO t (v) VALUES (1)")
      return 7
    }
    let rows = try count()
    #expect(value == 7 && rows == 1 && db.isAutocommit)
  }

  @Test func transactionRollsBackAndRethrowsTheFirstError() throws {
    let error = thrownError {
      try db.transaction {
        try db.execute("INSERT INTO t (v) VALUES (1)")
        throw TestError(name: "first")
      }
    }
    #expect(error as? TestError == TestError(name: "first"))
    #expect(try count() == 0)
    #expect(db.isAutocommit)
  }

  @Test func transactionRollsBackOnSQLErrors() throws {
    try db.execute("INSERT INTO u (k) VALUES ('a')")
    let error = storeError {
      try db.transaction {
        try db.execute("INSERT INTO t (v) VALUES (1)")
        try db.execute("INSERT INTO u (k) VALUES ('a')")
      }
    }
    #expect(error?.code == 2067)
    let rows = try count()
    #expect(rows == 0 && db.isAutocommit)
  }

  @Test func transactionsDoNotNest() throws {
    let error = storeError { try db.transaction { try db.transaction {} } }
    #expect(error?.message.contains("within a transaction") == true)
    #expect(db.isAutocommit)
  }

  @Test func savepointsNest() throws {
    try db.transaction {
      try db.execute("INSERT INTO t (v) VALUES (1)")
      try db.savepoint {
        try db.execute("INSERT INTO t (v) VALUES (2)")
        let inner = thrownError {
          try db.savepoint {
            try db.execute("INSERT INTO t (v) VALUES (3)")
            throw TestError(name: "inner")
          }
        }
        #expect(inner as? TestError == TestError(name: "inner"))
        try db.execute("INSERT INTO t (v) VALUES (4)")
      }
    }
    #expect(try db.fetchAll("SELECT v FROM t ORDER BY id") { $0.int(0) } == [1, 2, 4])
    // Outside a transaction a savepoint is one.
    _ = thrownError {
      try db.savepoint {
        try db.execute("INSERT INTO t (v) VALUES (5)")
        throw TestError(name: "outer")
      }
    }
    let rows = try count()
    #expect(rows == 3 && db.isAutocommit)
  }

  @Test func closeFinalizesAndLaterCallsThrow() throws {
    let held = try db.statement("SELECT 1")
    db.close()
    db.close()
    #expect(storeError { try db.execute("SELECT 1") }?.code == SQLITE_MISUSE)
    #expect(storeError { _ = try db.statement("SELECT 1") }?.code == SQLITE_MISUSE)
    _ = held.sql  // released after the close: the zombie connection goes with it
  }
}
