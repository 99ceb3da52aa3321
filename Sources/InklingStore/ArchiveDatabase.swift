// Opening an archive: the checks that tell our files from everyone else's, the pragmas
// every connection gets, and the migrations that bring an older archive up to date.
//
// An archive is a SQLite file whose header holds `PRAGMA application_id` = "INKA" and
// `PRAGMA user_version` = the number of the last migration applied
// (SQLite's file format, "Application ID").
//
// Invariants:
//   1. Nothing is ever written to a file before it is known to be ours or empty: the
//      header checks run first, and `journal_mode = WAL` is set only after them.
//   2. Each migration runs in its own `BEGIN IMMEDIATE` transaction that also sets
//      `user_version` (and, for the first, stamps `application_id`), so an archive is
//      always at exactly one schema version. Versions are re-read inside the write lock,
//      so two processes creating or upgrading the same archive apply each migration once.
//   3. Read-only opens never create a file and never write to one, except the one case
//      documented on `open`: upgrading an older schema before reading it.
//   4. The schema is verified before the first write (SchemaVerification, invariant 4): an
//      archive from elsewhere is refused before a migration, or WAL mode, touches it.

import CSQLite
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opens inkling archives.
package enum ArchiveDatabase {
  /// `PRAGMA application_id` of every archive: ASCII "INKA".
  package static let applicationID: Int32 = 0x494E_4B41

  /// How long a connection waits for another process's lock before failing with `.busy`.
  package static let busyTimeout: Int32 = 5000

  /// The schema version this build writes: the number of the last migration.
  package static var schemaVersion: Int32 { Migration.all.last?.version ?? 0 }

  /// Opens the archive at `path`, creating or upgrading it in `readWrite` mode.
  ///
  /// `readWrite` creates the parent folder and the file if missing, applies the missing
  /// migrations, and sets WAL journaling. `readOnly` needs an existing archive. An archive
  /// of an older schema opened `readOnly` is first upgraded through a short read-write
  /// connection (the same thing any write command would do), because this build reads
  /// only the current schema; if the file cannot be written, that fails with `.readOnly`.
  ///
  /// - Throws: `StoreError` with kind
  ///   - `.noArchive`: `readOnly` and there is no archive at `path` (or it is empty);
  ///   - `.folder`: `path` is a folder;
  ///   - `.notAnArchive`: not a SQLite database, or a SQLite database of someone else;
  ///   - `.newerSchema`: written by a newer build;
  ///   - `.corrupt`: SQLite reports damage, the file is shorter than its header says, or
  ///     (when `verifySchema`) the schema differs from what the migrations create;
  ///   - `.busy`: another process kept the archive locked beyond the busy timeout and
  ///     `BusyRetry.bound` more seconds;
  ///   - `.readOnly`, `.sqlite`: as SQLite reports.
  /// - Parameter verifySchema: compare the schema with the migrations' (SchemaVerification);
  ///   only `check`, which reports the differences itself, turns this off.
  package static func open(path: String, mode: Database.Mode, verifySchema: Bool = true) throws -> Database {
    // Opening has no effect that a retry would repeat wrongly: every write is a migration
    // that re-reads the version inside its write lock (invariant 2).
    try BusyRetry.run { try openOnce(path: path, mode: mode, verifySchema: verifySchema) }
  }

  private static func openOnce(path: String, mode: Database.Mode, verifySchema: Bool) throws -> Database {
    try checkFile(path, mode: mode)
    do {
      return try openConnection(path: path, mode: mode, verifySchema: verifySchema, immutable: false)
    } catch let error as StoreError where mode == .readOnly {
      guard try needsImmutableOpen(error, path: path) else { throw error }
      return try openConnection(path: path, mode: mode, verifySchema: verifySchema, immutable: true)
    }
  }

  private static func openConnection(
    path: String, mode: Database.Mode, verifySchema: Bool, immutable: Bool
  ) throws -> Database {
    let db = try Database(path: path, mode: mode, immutable: immutable)
    do {
      try checkHeader(db)
      try configure(db)
      let facts = try inspect(db)
      try check(facts, path: path, mode: mode)
      if verifySchema && !facts.isEmpty { try verifyBeforeWriting(db) }
      if mode == .readWrite {
        try configureWriter(db)
        guard facts.userVersion < schemaVersion else { return db }
        try migrate(db)
        if verifySchema { try verifyMatchesMigrations(db, atVersion: schemaVersion) }
        return db
      }
      guard facts.userVersion < schemaVersion else { return db }
      db.close()
      try upgrade(path: path, from: facts.userVersion)
      return try openOnce(path: path, mode: .readOnly, verifySchema: verifySchema)
    } catch {
      db.close()
      throw error
    }
  }

  /// Opens the archive at `path` read-only and never writes to it, not even to upgrade it:
  /// for reading another archive into this one (merging), whose file is someone else's.
  ///
  /// - Returns: the connection and the archive's schema version; a version below
  ///   `schemaVersion` means this build cannot read it as it is (copy it and upgrade the copy:
  ///   `Database.backup(toNewFile:)`, then `open(path:mode:)` on the copy). The schema of a
  ///   current archive is verified.
  /// - Throws: as `open(path:mode:)` in `readOnly` mode.
  package static func openUnchanged(path: String) throws -> (db: Database, schemaVersion: Int32) {
    try BusyRetry.run {
      try checkFile(path, mode: .readOnly)
      let db = try Database(path: path, mode: .readOnly)
      do {
        try checkHeader(db)
        try configure(db)
        let facts = try inspect(db)
        try check(facts, path: path, mode: .readOnly)
        try verifyMatchesMigrations(db, atVersion: facts.userVersion)
        return (db, facts.userVersion)
      } catch {
        db.close()
        throw error
      }
    }
  }

  // MARK: - Read-only media

  /// Whether a read-only open failed only because SQLite could not create the `-shm` file
  /// a WAL database is read through, in a folder this process cannot write (a CD, a share
  /// mounted read-only, another user's folder). With no `-wal` file beside it, the database
  /// file alone is the whole archive and no process has it open for writing (a writer keeps
  /// its `-wal` until it closes), so it can be read as immutable (wal.html#readonly).
  ///
  /// - Throws: `StoreError` `.unreadableLog` when a `-wal` file holds commits that only its
  ///   missing index could read: reading without it would show an older archive.
  private static func needsImmutableOpen(_ error: StoreError, path: String) throws -> Bool {
    // SQLITE_READONLY_DIRECTORY, SQLITE_READONLY_CANTINIT and SQLITE_CANTOPEN: macros
    // Swift does not import.
    guard [1544, 1288, SQLITE_CANTOPEN].contains(error.code) else { return false }
    var info = stat()
    guard stat(path + "-wal", &info) == 0, info.st_size > 0 else { return true }
    throw StoreError(kind: .unreadableLog, code: error.code, message: "\(path)-wal", path: path)
  }

  /// `verifyMatchesMigrations` at the version the archive has, read in the same snapshot as its
  /// schema: another process creating or upgrading it meanwhile commits a version and a schema
  /// together (invariant 2).
  private static func verifyBeforeWriting(_ db: Database) throws {
    let verify = {
      let version = try db.fetchOne("PRAGMA user_version") { Int32(truncatingIfNeeded: $0.int64(0)) } ?? 0
      try verifyMatchesMigrations(db, atVersion: version)
    }
    guard db.isAutocommit else { return try verify() }
    try db.readTransaction { try verify() }
  }

  /// Refuses an archive whose schema was changed outside this program (SchemaVerification):
  /// one stamp read when the schema is exactly what the migrations create, else the
  /// comparison object by object with what the migrations up to `version` create.
  private static func verifyMatchesMigrations(_ db: Database, atVersion version: Int32) throws {
    if version == schemaVersion, try SchemaVerification.isAsCreated(db) { return }
    let differences = try SchemaVerification.differences(in: db, atVersion: version)
    guard differences.isEmpty else { throw SchemaVerification.tamperedError(path: db.path, differences: differences) }
  }

  // MARK: - Before SQLite

  /// The checks SQLite cannot phrase well: a missing file, a folder, a file that is not
  /// a SQLite database at all (SQLite's file format, "The Database Header").
  private static func checkFile(_ path: String, mode: Database.Mode) throws {
    var info = stat()
    guard stat(path, &info) == 0 else {
      switch mode {
      case .readOnly:
        throw StoreError(kind: .noArchive, message: "no archive", path: path)
      case .readWrite:
        let folder = parentFolder(of: path)
        guard !folder.isEmpty else { return }
        do {
          try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
          throw StoreError(
            kind: .readOnly, message: "its folder \(folder) cannot be created: \(systemReason(error))", path: path)
        }
        return
      }
    }
    guard info.st_mode & S_IFMT != S_IFDIR else {
      throw StoreError(kind: .folder, message: "a folder", path: path)
    }
    // An empty file is not an archive to read. To write, it is one only when just made (by
    // mktemp, or by another process creating the archive this moment): an older one may be
    // what is left of an archive lost in a failed copy, and is not silently begun anew.
    guard info.st_size == 0, info.st_mode & S_IFMT == S_IFREG else { return }
    let age = time(nil) - info.st_mtim.tv_sec
    switch mode {
    case .readOnly:
      throw StoreError(kind: .notAnArchive, message: "it is an empty file", path: path)
    case .readWrite where age > 60:
      throw StoreError(
        kind: .notAnArchive,
        message: "it is an empty file, unchanged for \(roughly(seconds: age)); remove it to start a new archive there",
        path: path)
    case .readWrite:
      return
    }
  }

  /// `40 min`, `3 h`, `2 d`: how long, to the largest whole unit.
  private static func roughly(seconds: Int) -> String {
    seconds >= 86_400 ? "\(seconds / 86_400) d" : seconds >= 3600 ? "\(seconds / 3600) h" : "\(seconds / 60) min"
  }

  /// What the system said when `error` happened: the text of its errno, which FileManager's
  /// errors carry underneath (CocoaError's description is its code and user info, not a sentence).
  private static func systemReason(_ error: any Error) -> String {
    let posix = error as? POSIXError ?? (error as? CocoaError)?.underlying as? POSIXError
    guard let posix else { return String(describing: error) }
    return String(cString: strerror(posix.code.rawValue))
  }

  /// The folder part of `path`: "a/b/c" → "a/b", "/c" → "/", "c" → "" (what NSString's
  /// deletingLastPathComponent gives, without Foundation proper).
  static func parentFolder(of path: String) -> String {
    var path = Substring(path)
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    guard let slash = path.lastIndex(of: "/") else { return "" }
    if slash == path.startIndex { return "/" }
    var folder = path[..<slash]
    while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
    return String(folder)
  }

  /// The checks of the file's first 100 bytes, read through the connection's own descriptor
  /// (Database.readHeader explains why never through one of ours).
  private static func checkHeader(_ db: Database) throws {
    let path = db.path
    guard let header = db.readHeader(count: 100) else { return }  // SQLite will say why
    // An empty file is an empty database: SQLite writes the header on the first write.
    guard !header.isEmpty else { return }
    let magic = Array("SQLite format 3\0".utf8)
    guard header.count == 100, header.starts(with: magic) else {
      let looksLikeSQLite = header.starts(with: magic.prefix(header.count))
      let what =
        looksLikeSQLite
        ? "it is a truncated SQLite header of \(header.count) bytes" : "it is not a SQLite database"
      throw notAnArchive(path, because: what)
    }
    if let truncation = SchemaVerification.truncation(path: path, header: header) {
      throw StoreError(
        kind: .corrupt, code: SQLITE_CORRUPT,
        message: truncation, path: path)
    }
  }

  private static func notAnArchive(_ path: String, because reason: String) -> StoreError {
    StoreError(kind: .notAnArchive, message: reason, path: path)
  }

  // MARK: - Connection settings

  /// Settings every connection gets, before it reads anything.
  private static func configure(_ db: Database) throws {
    try db.setBusyTimeout(milliseconds: busyTimeout)
    // Schema-defined code (views, triggers) may not call functions with side effects, and
    // `writable_schema` and friends are off: an archive file from elsewhere cannot make
    // this process do more than read and write its tables (SQLite's "Defense Against The Dark
    // Arts").
    try db.configure(SQLITE_DBCONFIG_TRUSTED_SCHEMA, false)
    try db.configure(SQLITE_DBCONFIG_DEFENSIVE, true)
    // A b-tree cell whose size does not fit its page is reported as corruption before it is
    // read: what SQLite advises for a database file from elsewhere, which any archive may be
    // (SQLite's "Defense Against The Dark Arts", "untrusted database files").
    try db.execute("PRAGMA cell_size_check = ON")
    // Double-quoted strings are identifiers, never silently string literals (quirks.html#dblquote).
    try db.configure(SQLITE_DBCONFIG_DQS_DML, false)
    try db.configure(SQLITE_DBCONFIG_DQS_DDL, false)
    try db.execute("PRAGMA foreign_keys = ON")
    // inkling_fold and inkling_ink_bit, which the triggers and views call (NameFolding.swift).
    try db.registerArchiveFunctions()
  }

  /// Settings of a writing connection, once the file is known to be ours or empty.
  private static func configureWriter(_ db: Database) throws {
    // 8 MB of page cache instead of 2 MB for writers: an import's batch dirties up to 16 MB
    // of blob pages beside the index pages it keeps touching, and with a smaller cache the
    // writer evicts index pages it needs again, reading and writing them once more. A larger
    // one saves little more and adds to the import's peak memory. Readers keep SQLite's
    // default; an import runs a reader per worker, and its memory must stay flat (peak RSS).
    try db.execute("PRAGMA cache_size = -8192")
    if db.isReadOnlyFile {
      throw StoreError(
        kind: .readOnly, code: SQLITE_READONLY,
        message: "the file or its folder is read-only",
        path: db.path)
    }
    // WAL: readers never block the writer or each other, and a commit is one append.
    let journal = try db.fetchOne("PRAGMA journal_mode = WAL") { $0.string(0) }
    // NORMAL in WAL mode syncs only at checkpoints: a commit survives a crash or kill of
    // this process (the WAL is in the OS cache), and a power loss can only lose the last
    // commits, never corrupt the file (PRAGMA synchronous).
    // Without WAL (a file system without shared memory), keep FULL for the same guarantee.
    let synchronous = journal?.lowercased() == "wal" ? "NORMAL" : "FULL"
    try db.execute("PRAGMA synchronous = \(synchronous)")
  }

  // MARK: - What the file is

  /// What the header and schema say about a file.
  struct Facts {
    var applicationID: Int32
    var userVersion: Int32
    /// Tables not created by SQLite itself; counted only in a file that is not an archive
    /// (nil in one that is), to tell an empty database and to say what the file holds.
    var tables: Int?

    var isEmpty: Bool { applicationID == 0 && userVersion == 0 && tables == 0 }
  }

  static func inspect(_ db: Database) throws -> Facts {
    do {
      // One snapshot for all three: read apart, another process creating the archive could
      // commit between them, showing its tables beside a header not yet stamped.
      guard db.isAutocommit else { return try readFacts(db) }
      return try db.readTransaction { try readFacts(db) }
    } catch let error as StoreError where error.code & 0xFF == SQLITE_NOTADB {
      throw notAnArchive(db.path, because: "it is not a SQLite database")
    }
  }

  private static func readFacts(_ db: Database) throws -> Facts {
    // Plain pragmas rather than the table-valued pragma_application_id and
    // pragma_user_version: each of those declares a virtual table, parsing its CREATE
    // TABLE statement, at every open.
    let applicationID = try db.fetchOne("PRAGMA application_id") { Int32(truncatingIfNeeded: $0.int64(0)) } ?? 0
    let userVersion = try db.fetchOne("PRAGMA user_version") { Int32(truncatingIfNeeded: $0.int64(0)) } ?? 0
    var tables: Int?
    if applicationID != Self.applicationID {
      tables =
        try db.fetchOne(
          "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        ) { $0.int(0) } ?? 0
    }
    return Facts(applicationID: applicationID, userVersion: userVersion, tables: tables)
  }

  private static func check(_ facts: Facts, path: String, mode: Database.Mode) throws {
    if facts.isEmpty {
      guard mode == .readWrite else {
        throw StoreError(
          kind: .noArchive, message: "the file is an empty database",
          path: path)
      }
      return
    }
    guard facts.applicationID == applicationID else {
      let tables = facts.tables == 1 ? "1 table" : "\(facts.tables ?? 0) tables"
      throw notAnArchive(
        path, because: "it is a SQLite file with application_id \(facts.applicationID) and \(tables) of its own")
    }
    guard facts.userVersion <= schemaVersion else {
      throw StoreError(
        kind: .newerSchema,
        message: "schema \(facts.userVersion); this build knows up to \(schemaVersion)",
        path: path)
    }
  }

  // MARK: - Migrations

  /// Applies the missing migrations in order, each in its own transaction (invariant 2).
  private static func migrate(_ db: Database) throws {
    for migration in Migration.all {
      try db.transaction {
        let facts = try inspect(db)
        try check(facts, path: db.path, mode: .readWrite)
        guard facts.userVersion < migration.version else { return }
        if facts.applicationID == 0 {
          try db.execute("PRAGMA application_id = \(applicationID)")
        }
        try db.execute(migration.sql)
        try db.execute("PRAGMA user_version = \(migration.version)")
      }
    }
  }

  /// Brings an older archive up to date for a read-only open (see `open`).
  private static func upgrade(path: String, from version: Int32) throws {
    do {
      try open(path: path, mode: .readWrite).close()
    } catch let error as StoreError where error.kind == .readOnly {
      throw StoreError(
        kind: .readOnly, code: error.code,
        message: "it has schema \(version) and must be upgraded to schema \(schemaVersion) before this build "
          + "can read it, but it cannot be written (\(error.message))",
        path: path)
    }
  }
}

extension Database {
  /// Whether SQLite opened the main database read-only (a write-protected file opened
  /// read-write silently becomes read-only, sqlite3_open_v2).
  var isReadOnlyFile: Bool {
    guard let handle = try? handle else { return true }
    return sqlite3_db_readonly(handle, "main") == 1
  }
}
