@testable import InklingStore

/// An archive at `path` as a build with only migrations 1…`version` made it (for migration
/// tests), open for `body` to fill in, and closed after it; opening it with `Archive` then
/// runs the later migrations.
func withArchive<T>(atSchema version: Int32, path: String, _ body: (Database) throws -> T) throws -> T {
  let db = try Database(path: path, mode: .readWrite)
  defer { db.close() }
  try db.registerArchiveFunctions()
  try db.execute("PRAGMA application_id = \(ArchiveDatabase.applicationID)")
  for migration in Migration.all where migration.version <= version { try db.execute(migration.sql) }
  try db.execute("PRAGMA user_version = \(version)")
  return try body(db)
}
