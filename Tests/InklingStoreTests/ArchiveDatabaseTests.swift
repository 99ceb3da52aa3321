import CSQLite
import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

@testable import InklingStore

/// Runs SQL on a file with the bare SQLite C API, bypassing every check of the store.
func rawSQLite(_ path: String, _ sql: String) throws {
  var handle: OpaquePointer?
  defer { sqlite3_close(handle) }
  guard sqlite3_open(path, &handle) == SQLITE_OK else { throw TestError(name: "open \(path)") }
  var message: UnsafeMutablePointer<CChar>?
  guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
    defer { sqlite3_free(message) }
    throw TestError(name: message.map { String(cString: $0) } ?? "exec")
  }
}

@Suite struct ArchiveDatabaseTests {
  let folder: TemporaryFolder
  let path: String

  init() throws {
    folder = try TemporaryFolder()
    path = folder.path("nested/folders/drafts.sqlite")
  }

  private func pragma(_ db: Database, _ name: String) throws -> DatabaseValue? {
    try db.fetchOne("PRAGMA \(name)") { $0.value(0) }
  }

  @Test func newArchiveIsStampedMigratedAndInWALMode() throws {
    let db = try ArchiveDatabase.open(path: path, mode: .readWrite)
    #expect(try pragma(db, "application_id") == .integer(0x494E_4B41))
    #expect(try pragma(db, "user_version") == .integer(Int64(ArchiveDatabase.schemaVersion)))
    #expect(ArchiveDatabase.schemaVersion == Migration.all.last?.version)
    #expect(try pragma(db, "journal_mode") == .text("wal"))
    #expect(try pragma(db, "foreign_keys") == .integer(1))
    #expect(try pragma(db, "synchronous") == .integer(1))  // NORMAL
    #expect(try pragma(db, "trusted_schema") == .integer(0))
    let tables = try db.fetchAll("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { $0.string(0) }
    #expect(tables.contains("blob") && tables.contains("version") && tables.contains("draft"))
  }

  @Test func reopeningChangesNothing() throws {
    try ArchiveDatabase.open(path: path, mode: .readWrite).close()
    let schema = { (db: Database) in try db.fetchAll("SELECT sql FROM sqlite_master ORDER BY name") { $0.string(0) } }
    let first = try ArchiveDatabase.open(path: path, mode: .readWrite)
    let before = try schema(first)
    first.close()
    let second = try ArchiveDatabase.open(path: path, mode: .readWrite)
    #expect(try schema(second) == before)
    #expect(try pragma(second, "user_version") == .integer(Int64(ArchiveDatabase.schemaVersion)))
    second.close()
    let reader = try ArchiveDatabase.open(path: path, mode: .readOnly)
    #expect(try schema(reader) == before)
  }

  @Test func readOnlyConnectionsCannotWrite() throws {
    try ArchiveDatabase.open(path: path, mode: .readWrite).close()
    let reader = try ArchiveDatabase.open(path: path, mode: .readOnly)
    let error = storeError { try reader.execute("INSERT INTO import_run (started_ms) VALUES (1)") }
    #expect(error?.kind == .readOnly)
    #expect(error?.path == path)
  }

  @Test func someoneElsesDatabaseIsNotAnArchive() throws {
    let other = folder.path("other.sqlite")
    try rawSQLite(other, "CREATE TABLE notes (x); PRAGMA application_id = 1234")
    let before = try Data(contentsOf: URL(fileURLWithPath: other))
    for mode in [Database.Mode.readWrite, .readOnly] {
      let error = storeError { _ = try ArchiveDatabase.open(path: other, mode: mode) }
      #expect(error?.kind == .notAnArchive)
      #expect(
        error?.description == "it is a SQLite file with application_id 1234 and 1 table of its own")
      #expect(error?.path == other)
    }
    // Not touched: no WAL switch, no stamp.
    #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
  }

  @Test func databaseWithoutApplicationIDButTablesIsNotAnArchive() throws {
    let other = folder.path("other.sqlite")
    try rawSQLite(other, "CREATE TABLE a (x); CREATE TABLE b (y); CREATE TABLE c (z)")
    let error = storeError { _ = try ArchiveDatabase.open(path: other, mode: .readWrite) }
    #expect(error?.kind == .notAnArchive)
    #expect(error?.message.contains("application_id 0 and 3 tables of its own") == true)
  }

  @Test func randomBytesAreNotAnArchive() throws {
    let junk = folder.path("junk.sqlite")
    let bytes = SeededRandom.bytes(4096, seed: 1)
    try Data(bytes).write(to: URL(fileURLWithPath: junk))
    for mode in [Database.Mode.readWrite, .readOnly] {
      let error = storeError { _ = try ArchiveDatabase.open(path: junk, mode: mode) }
      #expect(error?.kind == .notAnArchive)
      #expect(
        error?.description == "it is not a SQLite database")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: junk)) == Data(bytes))
  }

  @Test func aTruncatedHeaderIsNotAnArchive() throws {
    let short = folder.path("short.sqlite")
    try Data("SQLite format 3\0 and then nothing".utf8).write(to: URL(fileURLWithPath: short))
    let error = storeError { _ = try ArchiveDatabase.open(path: short, mode: .readWrite) }
    #expect(error?.kind == .notAnArchive)
    #expect(
      error?.message == "it is a truncated SQLite header of 33 bytes", "\(String(describing: error))")
  }

  @Test func aSQLiteHeaderFollowedByGarbageNeverCrashes() throws {
    let fake = folder.path("fake.sqlite")
    let bytes = Array("SQLite format 3\0".utf8) + SeededRandom.bytes(8192, seed: 2)
    try Data(bytes).write(to: URL(fileURLWithPath: fake))
    let error = storeError { _ = try ArchiveDatabase.open(path: fake, mode: .readWrite) }
    #expect(error?.kind == .notAnArchive || error?.kind == .corrupt)
    #expect(error?.path == fake)
  }

  @Test func aNewerSchemaIsRefused() throws {
    try ArchiveDatabase.open(path: path, mode: .readWrite).close()
    try rawSQLite(path, "PRAGMA user_version = 99")
    for mode in [Database.Mode.readWrite, .readOnly] {
      let error = storeError { _ = try ArchiveDatabase.open(path: path, mode: mode) }
      #expect(error?.kind == .newerSchema)
      #expect(
        error?.description == "schema 99; this build knows up to \(ArchiveDatabase.schemaVersion)")
    }
  }

  @Test func aTruncatedArchiveIsReportedNotCrashedOn() throws {
    let db = try ArchiveDatabase.open(path: path, mode: .readWrite)
    try db.transaction {
      for i in 0..<2000 {
        try db.execute(
          "INSERT INTO draft (name, created_ms) VALUES (?, ?)", ["draft \(i) " + String(repeating: "x", count: 40), i])
      }
    }
    db.close()  // checkpoints the WAL into the file
    let url = URL(fileURLWithPath: path)
    let whole = try Data(contentsOf: url)
    #expect(whole.count > 16 * 4096)
    try whole.prefix(whole.count / 2).write(to: url)
    for mode in [Database.Mode.readWrite, .readOnly] {
      let error = thrownError {
        let db = try ArchiveDatabase.open(path: path, mode: mode)
        _ = try db.fetchAll("SELECT name FROM draft") { $0.string(0) }
      }
      let storeError = try #require(error as? StoreError)
      #expect(storeError.kind == .corrupt)
      #expect(storeError.code == 11)  // SQLITE_CORRUPT
      // Opening compares the header's page count with the file's size, so a truncated
      // archive is caught before SQLite reads a missing page.
      let pages = whole.count / 4096
      #expect(
        storeError.description
          == "the file is truncated: its header says \(pages) pages of 4096 bytes "
          + "(\(whole.count) bytes), but it holds \(whole.count / 2) bytes")
    }
  }

  @Test func readOnlyNeedsAnArchive() throws {
    let error = storeError { _ = try ArchiveDatabase.open(path: path, mode: .readOnly) }
    #expect(error?.kind == .noArchive)
    #expect(error?.path == path)
    #expect(!FileManager.default.fileExists(atPath: path))

    let empty = folder.path("empty.sqlite")
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    // An empty file is a file, not a missing archive: said as what it is.
    let read = storeError { _ = try ArchiveDatabase.open(path: empty, mode: .readOnly) }
    #expect(read?.kind == .notAnArchive && read?.message == "it is an empty file")
  }

  @Test func anEmptyFileBecomesAnArchive() throws {
    let empty = folder.path("empty.sqlite")
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    let db = try ArchiveDatabase.open(path: empty, mode: .readWrite)
    #expect(try pragma(db, "application_id") == .integer(0x494E_4B41))
  }

  @Test func aFolderIsNotAnArchive() throws {
    let error = storeError { _ = try ArchiveDatabase.open(path: folder.path, mode: .readWrite) }
    #expect(error?.kind == .folder)
    #expect(error?.path == folder.path)
  }

  @Test func readOnlyOpenUpgradesAnOlderSchema() throws {
    // A stamped archive that no migration has run on yet: schema 0.
    let old = folder.path("old.sqlite")
    try rawSQLite(old, "PRAGMA application_id = \(ArchiveDatabase.applicationID)")
    let reader = try ArchiveDatabase.open(path: old, mode: .readOnly)
    #expect(try pragma(reader, "user_version") == .integer(Int64(ArchiveDatabase.schemaVersion)))
    #expect(storeError { try reader.execute("INSERT INTO import_run (started_ms) VALUES (1)") }?.kind == .readOnly)
  }

  @Test func aLockedArchiveIsBusyWithASentence() throws {
    let writer = try ArchiveDatabase.open(path: path, mode: .readWrite)
    let other = try ArchiveDatabase.open(path: path, mode: .readWrite)
    try other.setBusyTimeout(milliseconds: 100)
    try writer.transaction {
      try writer.execute("INSERT INTO import_run (started_ms) VALUES (1)")
      let error = storeError { try other.transaction {} }
      #expect(error?.kind == .busy)
      #expect(error?.code == SQLITE_BUSY)
      #expect(error?.message.hasPrefix("for more than 0.1 s") == true)
      #expect(other.isAutocommit)
    }
    try other.transaction { try other.execute("INSERT INTO import_run (started_ms) VALUES (2)") }
  }

  /// A step retried past its bound says the whole wait, busy timeouts included, and not the
  /// SQL it ran (which stays in the error's `sql`).
  @Test func aRetriedStepSaysHowLongItWaited() throws {
    let writer = try ArchiveDatabase.open(path: path, mode: .readWrite)
    let other = try ArchiveDatabase.open(path: path, mode: .readWrite)
    try other.setBusyTimeout(milliseconds: 400)
    try writer.transaction {
      try writer.execute("INSERT INTO import_run (started_ms) VALUES (1)")
      let started = Date()
      let error = storeError {
        try BusyRetry.run(bound: 1) { try other.execute("INSERT INTO import_run (started_ms) VALUES (2)") }
      }
      let waited = Int(Date().timeIntervalSince(started))
      #expect(error?.kind == .busy)
      // Measured a moment before the clock here: a second boundary may fall between the two.
      let said = [waited, waited - 1].map { "for more than \($0) s, SQLite error 5" }
      #expect(said.contains(error?.message ?? ""), "\(error?.message ?? "")")
      #expect(waited >= 1)
      #expect(error?.sql == "INSERT INTO import_run (started_ms) VALUES (2)")
    }
  }

  @Test func readTransactionsSeeOneSnapshot() throws {
    let writer = try ArchiveDatabase.open(path: path, mode: .readWrite)
    let reader = try ArchiveDatabase.open(path: path, mode: .readOnly)
    let count = { try reader.fetchOne("SELECT count(*) FROM import_run") { $0.int(0) } }
    try reader.readTransaction {
      #expect(try count() == 0)
      try writer.execute("INSERT INTO import_run (started_ms) VALUES (1)")
      #expect(try count() == 0)
    }
    #expect(try count() == 1)
  }

  @Test func concurrentCreationAppliesEachMigrationOnce() throws {
    let shared = path
    let failures = LockedList()
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      do {
        try ArchiveDatabase.open(path: shared, mode: .readWrite).close()
      } catch {
        failures.append("\(error)")
      }
    }
    #expect(failures.items.isEmpty)
    let db = try ArchiveDatabase.open(path: path, mode: .readOnly)
    #expect(try pragma(db, "user_version") == .integer(Int64(ArchiveDatabase.schemaVersion)))
  }
}

/// Strings appended from several threads.
final class LockedList: @unchecked Sendable {  // every access holds `lock`
  private let lock = NSLock()
  private var storage: [String] = []
  func append(_ item: String) { lock.withLock { storage.append(item) } }
  var items: [String] { lock.withLock { storage } }
}
