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
