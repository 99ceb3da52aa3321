import InklingTestSupport
import Testing

@testable import InklingStore

/// The stamp every open compares first (SchemaVerification.isAsCreated), and the full
/// comparison it falls back to.
@Suite struct SchemaStampTests {
  let folder: TemporaryFolder
  let path: String

  init() throws {
    folder = try TemporaryFolder("stamp")
    path = folder.path("drafts.sqlite")
    try ArchiveDatabase.open(path: path, mode: .readWrite).close()
  }

  private func isAsCreated() throws -> Bool {
    let db = try ArchiveDatabase.open(path: path, mode: .readOnly)
    defer { db.close() }
    return try SchemaVerification.isAsCreated(db)
  }

  @Test func anArchiveTheMigrationsMadeMatchesTheStamp() throws {
    #expect(try isAsCreated())
  }

  @Test func statisticsTablesLeaveTheStampAlone() throws {
    try rawSQLite(path, "ANALYZE")
    #expect(try isAsCreated())
  }

  @Test func aSpacingOnlyEditTakesTheFullComparisonAndIsAccepted() throws {
    // The schema of an archive made before a migration's layout was edited: the stored text
    // differs, its normalised form does not.
    try rawSQLite(
      path,
      """
      PRAGMA writable_schema = ON;
      UPDATE sqlite_master SET sql = replace(sql, 'ON blob(base_id)', 'ON blob( base_id )')
        WHERE name = 'blob_by_base';
      PRAGMA writable_schema = OFF;
      """)
    #expect(try isAsCreated() == false)
    let db = try ArchiveDatabase.open(path: path, mode: .readOnly)
    defer { db.close() }
    #expect(try SchemaVerification.differences(in: db).isEmpty)
  }

  @Test func anAddedTriggerChangesTheStampAndIsRefused() throws {
    try rawSQLite(path, "CREATE TRIGGER evil AFTER INSERT ON version BEGIN DELETE FROM version; END")
    let error = storeError { try ArchiveDatabase.open(path: path, mode: .readOnly).close() }
    #expect(error?.kind == .changedSchema)
    #expect(error?.message.contains("trigger evil is not part of the archive's schema") == true)
  }

  @Test func aTriggerNamedLikeAnExpectedIndexIsRefused() throws {
    // Triggers have a namespace of their own, so this one can carry an index's name: compared
    // by name alone, one of the two hid the other.
    try rawSQLite(
      path, "CREATE TRIGGER version_by_draft AFTER INSERT ON version BEGIN UPDATE blob SET data = x''; END")
    let error = storeError { try ArchiveDatabase.open(path: path, mode: .readOnly).close() }
    #expect(error?.kind == .changedSchema)
    #expect(error?.message == "trigger version_by_draft is not part of the archive's schema")
  }

  @Test func onlySQLitesOwnStatisticsTablesAreExempt() throws {
    // A trigger put into sqlite_master under a statistics table's name, as writable_schema
    // allows: the name alone exempts nothing.
    for name in ["sqlite_stat1", "sqlite_stat9"] {
      let hidden = folder.path("\(name).sqlite")
      try ArchiveDatabase.open(path: hidden, mode: .readWrite).close()
      try rawSQLite(
        hidden,
        """
        PRAGMA writable_schema = ON;
        INSERT INTO sqlite_master(type, name, tbl_name, rootpage, sql) VALUES ('trigger', '\(name)', 'version', 0,
          'CREATE TRIGGER \(name) AFTER INSERT ON version BEGIN UPDATE blob SET data = x''''; END');
        """)
      let error = storeError { try ArchiveDatabase.open(path: hidden, mode: .readWrite).close() }
      #expect(error?.kind == .changedSchema, "\(name)")
      #expect(error?.message == "trigger \(name) is not part of the archive's schema")
    }
    // What ANALYZE writes stays accepted.
    try rawSQLite(path, "ANALYZE")
    #expect(try isAsCreated())
    // A statistics table in another form is not SQLite's own.
    try rawSQLite(
      path,
      "PRAGMA writable_schema = ON; "
        + "UPDATE sqlite_master SET sql = 'CREATE TABLE sqlite_stat1(tbl,idx,stat,extra)' WHERE name = 'sqlite_stat1'")
    let error = storeError { try ArchiveDatabase.open(path: path, mode: .readOnly).close() }
    #expect(error?.message == "table sqlite_stat1 is not part of the archive's schema")
  }

  @Test func anOlderArchiveIsVerifiedBeforeItsUpgradeWritesAnything() throws {
    // The migrations up to the archive's own version are its schema; a trigger hidden there
    // would run during the upgrade, so the open refuses before any migration, or WAL mode.
    let version = ArchiveDatabase.schemaVersion - 1
    func olderArchive(_ name: String, extra: String?) throws -> String {
      let older = folder.path(name)
      let db = try Database(path: older, mode: .readWrite)
      defer { db.close() }
      try db.registerArchiveFunctions()
      try db.execute("PRAGMA application_id = \(ArchiveDatabase.applicationID)")
      for migration in Migration.all where migration.version <= version { try db.execute(migration.sql) }
      try db.execute("PRAGMA user_version = \(version)")
      if let extra { try db.execute(extra) }
      return older
    }
    let plain = try olderArchive("older.sqlite", extra: nil)
    #expect(throws: Never.self) { try ArchiveDatabase.open(path: plain, mode: .readWrite).close() }

    let hidden = try olderArchive(
      "hidden.sqlite", extra: "CREATE TRIGGER evil AFTER UPDATE ON draft BEGIN DELETE FROM version; END")
    let error = storeError { try ArchiveDatabase.open(path: hidden, mode: .readWrite).close() }
    #expect(error?.kind == .changedSchema)
    #expect(error?.message == "trigger evil is not part of the archive's schema")
    let after = try Database(path: hidden, mode: .readOnly)
    defer { after.close() }
    #expect(try after.fetchOne("PRAGMA user_version") { $0.int(0) } == Int(version))
    #expect(try after.fetchOne("PRAGMA journal_mode") { $0.string(0) } == "delete")
  }

  @Test func theStampChangesWithAnyByteOfARow() throws {
    let db = try Database(path: ":memory:", mode: .readWrite)
    defer { db.close() }
    try db.execute("CREATE TABLE t(a)")
    let one = try SchemaVerification.schemaStamp(in: db)
    try db.execute("DROP TABLE t; CREATE TABLE t(b)")
    let other = try SchemaVerification.schemaStamp(in: db)
    #expect(one.count == 64)
    #expect(one != other)
  }
}
