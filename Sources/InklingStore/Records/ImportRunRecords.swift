// The import log (migration 0001, tables import_run and import_problem): a row per run of
// `import`, finished when the run ends, and the files it could not import.

/// What an import run counted, as its row keeps it.
package struct ImportRunCounts: Sendable {
  package var versionsImported = 0
  package var draftsCreated = 0
  package var alreadyArchived = 0
  package var ignored = 0
  package var rejected = 0
  package var bytesRead: Int64 = 0

  package init(
    versionsImported: Int, draftsCreated: Int, alreadyArchived: Int, ignored: Int, rejected: Int, bytesRead: Int64
  ) {
    self.versionsImported = versionsImported
    self.draftsCreated = draftsCreated
    self.alreadyArchived = alreadyArchived
    self.ignored = ignored
    self.rejected = rejected
    self.bytesRead = bytesRead
  }
}

package enum ImportRunRecords {
  /// Logs a run started at `startedMilliseconds`; returns its id. One autocommit statement:
  /// retrying it after SQLITE_BUSY cannot insert it twice.
  ///
  /// - Throws: `StoreError`.
  package static func start(at startedMilliseconds: Int64, in db: Database) throws -> Int64 {
    try db.execute("INSERT INTO import_run(started_ms) VALUES (?)", [startedMilliseconds])
    return db.lastInsertRowID
  }

  /// Logs a file that run `runID` could not import, and why.
  ///
  /// - Throws: `StoreError`.
  package static func recordProblem(run runID: Int64, path: String, reason: String, in db: Database) throws {
    try db.execute("INSERT INTO import_problem(run_id, path, reason) VALUES (?, ?, ?)", [runID, path, reason])
  }

  /// Marks run `runID` finished at `finishedMilliseconds` with what it counted.
  ///
  /// - Throws: `StoreError`.
  package static func finish(
    run runID: Int64, at finishedMilliseconds: Int64, counts: ImportRunCounts, in db: Database
  ) throws {
    try db.execute(
      """
      UPDATE import_run SET finished_ms = ?, versions_imported = ?, drafts_created = ?, already_archived = ?,
        ignored = ?, rejected = ?, bytes_read = ? WHERE id = ?
      """,
      [
        finishedMilliseconds, counts.versionsImported, counts.draftsCreated, counts.alreadyArchived, counts.ignored,
        counts.rejected, counts.bytesRead, runID,
      ])
  }

  /// The ids of the runs that never finished, oldest first: killed, failed, or still running.
  ///
  /// - Throws: `StoreError`.
  package static func unfinished(in db: Database) throws -> [Int64] {
    try db.fetchAll("SELECT id FROM import_run WHERE finished_ms IS NULL ORDER BY id") { $0.int64(0) }
  }

  /// The id of the newest run that finished, nil before any did.
  ///
  /// - Throws: `StoreError`.
  package static func lastFinished(in db: Database) throws -> Int64? {
    try db.fetchOne("SELECT max(id) FROM import_run WHERE finished_ms IS NOT NULL") { $0.isNull(0) ? nil : $0.int64(0) }
      ?? nil
  }
}
