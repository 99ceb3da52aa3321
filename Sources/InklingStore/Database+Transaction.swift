// Transactions and savepoints as closures: the body's effects commit together, or a
// throw rolls them back and the first error is rethrown (GRDB's `inTransaction`).
//
// Why `BEGIN IMMEDIATE` for writers: a deferred transaction that reads first and writes
// later must upgrade its lock, and in WAL mode that upgrade fails at once with
// SQLITE_BUSY_SNAPSHOT if another writer committed meanwhile; the busy timeout cannot help
// (SQLite's "Transaction"). IMMEDIATE takes the write lock up front,
// where the busy timeout applies.
//
// Whether SQLite already rolled back (it does on some errors: SQLITE_FULL, SQLITE_IOERR,
// SQLITE_BUSY, SQLITE_NOMEM, SQLite's "Response To Errors Within A Transaction")
// is read from sqlite3_get_autocommit, never guessed.

import CSQLite

extension Database {
  /// Runs `body` in a write transaction (`BEGIN IMMEDIATE` … `COMMIT`).
  ///
  /// If `body` or the commit throws, the transaction is rolled back (unless SQLite already
  /// did) and that first error is rethrown. Not nestable: use `savepoint` inside.
  /// - Throws: `StoreError` (`.busy` if another process holds the write lock beyond the
  ///   busy timeout), or what `body` throws.
  package func transaction<T>(_ body: () throws -> T) throws -> T {
    try run(begin: "BEGIN IMMEDIATE", body)
  }

  /// Runs `body` in a read transaction (`BEGIN DEFERRED` … `COMMIT`): every read inside
  /// sees the same snapshot of the archive, whatever other connections commit meanwhile.
  ///
  /// - Throws: `StoreError`, or what `body` throws (after rolling back).
  package func readTransaction<T>(_ body: () throws -> T) throws -> T {
    try run(begin: "BEGIN DEFERRED", body)
  }

  private func run<T>(begin: String, _ body: () throws -> T) throws -> T {
    try statement(begin).execute()
    do {
      let result = try body()
      try statement("COMMIT").execute()
      return result
    } catch {
      if !isAutocommit {
        // The first error is the one that matters; a failed rollback leaves nothing to do.
        try? statement("ROLLBACK").execute()
      }
      throw error
    }
  }

  /// Runs `body` inside a savepoint: nested in a transaction (or another savepoint), its
  /// effects are undone alone if it throws; outside any transaction it acts as one.
  ///
  /// - Throws: `StoreError`, or what `body` throws (after rolling back to the savepoint).
  package func savepoint<T>(_ body: () throws -> T) throws -> T {
    let name = nextSavepointName
    defer { savepointEnded() }
    // Cached: names repeat by depth, and importers take a savepoint per file.
    try statement("SAVEPOINT \(name)").execute()
    do {
      let result = try body()
      try statement("RELEASE \(name)").execute()
      return result
    } catch {
      // If SQLite rolled back the whole transaction on the error, the savepoint is gone.
      if !isAutocommit {
        try? statement("ROLLBACK TO \(name)").execute()
        try? statement("RELEASE \(name)").execute()
      }
      throw error
    }
  }
}

// MARK: - Transactions that span calls

extension Database {
  /// Begins a write transaction (`BEGIN IMMEDIATE`) that later calls end with `commit()` or
  /// `rollback()`: for a writer whose batches span many calls (the importer), where
  /// `transaction(_:)`'s closure cannot. Prefer `transaction(_:)` everywhere else.
  ///
  /// - Throws: `StoreError` (`.busy` if another process holds the write lock beyond the
  ///   busy timeout).
  package func beginImmediate() throws { try statement("BEGIN IMMEDIATE").execute() }

  /// Commits the transaction `beginImmediate()` began. A COMMIT that fails with SQLITE_BUSY
  /// leaves the transaction open, so retrying it is safe.
  ///
  /// - Throws: `StoreError`.
  package func commit() throws { try statement("COMMIT").execute() }

  /// Rolls the open transaction back, unless SQLite already did; a failure leaves nothing to do.
  package func rollback() {
    guard !isAutocommit else { return }
    try? statement("ROLLBACK").execute()
  }

  /// Runs `body` on one snapshot of the archive (a read transaction), then rolls back: for a
  /// reader that must not fail at the end, as a COMMIT can on a damaged file after `body`
  /// has already read and reported the damage.
  ///
  /// - Throws: what `body` throws, or `StoreError` if the transaction cannot begin.
  package func snapshot<T>(_ body: () throws -> T) throws -> T {
    try statement("BEGIN DEFERRED").execute()
    defer { rollback() }
    return try body()
  }

  /// Keeps SQLite's temporary tables and statement journals in memory (`true`) or where SQLite
  /// puts them by default (PRAGMA temp_store).
  ///
  /// - Throws: `StoreError`.
  package func keepTemporaryDataInMemory(_ inMemory: Bool) throws {
    try execute("PRAGMA temp_store = \(inMemory ? "MEMORY" : "DEFAULT")")
  }
}
