// What an export writes, kept in the connection's temporary database so that memory stays
// flat at any archive size: the versions chosen, then the file name each gets. SQLite keeps
// temporary tables in its page cache and spills them to a temporary file past it
// (SQLite's "Temporary Files Used By SQLite"), and a read-only connection may still write its
// TEMP schema, so a read-only export can use them.
//
// Two orders: names are handed out in the order versions were archived (version id, the rule
// of FolderNaming in InklingArchive), files are written draft by draft in save order, so that
// each delta's base is the drawing read just before (BlobStore's cache of decoded bases).

/// A set of strings in a temporary table: FolderNaming's names given out, for a folder of any
/// size. Dropped when released.
package final class TemporaryKeySet {
  private let db: Database
  private let table: String
  private let insert: Statement

  /// Creates the table; `label` tells the tables of one connection apart.
  package init(_ db: Database, label: String) throws {
    self.db = db
    table = "temp.inkling_keys_\(label)"
    try db.execute("DROP TABLE IF EXISTS \(table)")
    try db.execute("CREATE TABLE \(table)(key TEXT PRIMARY KEY) WITHOUT ROWID")
    insert = try db.makeStatement("INSERT OR IGNORE INTO \(table)(key) VALUES (?)")
  }

  deinit { try? db.execute("DROP TABLE IF EXISTS \(table)") }

  /// Adds `key`; false when it was there already.
  package func insert(_ key: String) throws -> Bool {
    try insert.execute([key])
    return db.changes > 0
  }
}

/// One file an export writes.
package struct ExportItem: Sendable {
  package let version: VersionRow
  /// Its number in its draft's history (1 = oldest).
  package let number: Int
  /// The name it gets in the folder.
  package let fileName: String
  /// The names of its pictures beside it, by extension (`ExportSelection.pictureExtensions`),
  /// for the pictures the export writes.
  package let pictureNames: [String: String]
}

/// The versions an export writes and the names they get, in temporary tables.
package final class ExportSelection {
  private let db: Database
  private let versions = "temp.inkling_export_version"
  private let files = "temp.inkling_export_file"

  /// The picture formats an export can write beside a file, by extension: a column each.
  package static let pictureExtensions = ["png", "svg", "pdf"]
  private static let pictureColumns = pictureExtensions.map { "picture_\($0)" }

  package init(_ db: Database) throws {
    self.db = db
    for table in [versions, files] { try db.execute("DROP TABLE IF EXISTS \(table)") }
    try db.execute("CREATE TABLE \(versions)(version_id INTEGER PRIMARY KEY)")
    let pictures = Self.pictureColumns.map { "\($0) TEXT" }.joined(separator: ", ")
    try db.execute("CREATE TABLE \(files)(version_id INTEGER PRIMARY KEY, file_name TEXT NOT NULL, \(pictures))")
  }

  deinit {
    for table in [versions, files] { try? db.execute("DROP TABLE IF EXISTS \(table)") }
  }

  /// Turns off the memory map that a search of the same connection turned on
  /// (DraftSearchSQL.prepareForSearching): reading every blob of an export through the map
  /// would count the whole archive in the process's memory. Reads go through the connection's
  /// page cache instead, as an import's readers do.
  package func readThroughPageCache() throws {
    try db.execute("PRAGMA mmap_size = 0")
  }

  /// Adds the draft called `name`: its newest version, or every version.
  package func add(draftNamed name: String, allVersions: Bool) throws {
    if allVersions {
      try db.statement(
        "INSERT OR IGNORE INTO \(versions)(version_id) SELECT v.id FROM draft AS d JOIN version AS v ON v.draft_id = d.id WHERE d.name = ?"
      ).execute([name])
    } else {
      try db.statement(
        "INSERT OR IGNORE INTO \(versions)(version_id) SELECT latest_version_id FROM draft WHERE name = ? AND latest_version_id IS NOT NULL"
      ).execute([name])
    }
  }

  /// How many versions are chosen, and the bytes of their files.
  package func size() throws -> (versions: Int, bytes: Int64) {
    try db.fetchOne(
      "SELECT count(*), total(v.file_size) FROM \(versions) AS e JOIN main.version AS v ON v.id = e.version_id"
    ) { ($0.int(0), $0.int64Clamping(1)) } ?? (0, 0)
  }

  /// Calls `body` with each chosen version in the order they were archived (version id).
  package func forEachInArchiveOrder(_ body: (VersionRow) throws -> Void) throws {
    try db.makeStatement(
      """
      SELECT \(VersionRecords.columns) FROM \(versions) AS e JOIN main.version ON version.id = e.version_id
      JOIN main.draft ON draft.id = version.draft_id ORDER BY e.version_id
      """
    ).forEach { try body(VersionRecords.row($0)) }
  }

  /// Records the name version `versionID` gets, and its pictures', by extension (one of
  /// `pictureExtensions`).
  package func setFileName(_ name: String, pictures: [String: String], forVersion versionID: Int64) throws {
    precondition(pictures.keys.allSatisfy(Self.pictureExtensions.contains), "a picture format without a column")
    let columns = Self.pictureColumns.joined(separator: ", ")
    let places = Array(repeating: ", ?", count: Self.pictureColumns.count).joined()
    var values: [(any DatabaseValueConvertible)?] = [versionID, name]
    for ext in Self.pictureExtensions { values.append(pictures[ext]) }
    try db.statement("INSERT OR REPLACE INTO \(files)(version_id, file_name, \(columns)) VALUES (?, ?\(places))")
      .execute(values)
  }

  /// Calls `body` with each named version, draft by draft, oldest first within a draft, until
  /// it returns false.
  package func forEachToWrite(_ body: (ExportItem) throws -> Bool) throws {
    // Each version's number is its place in its draft's history (history's order: save
    // time, then id), so every version of a chosen draft is numbered, not only the chosen
    // ones: one window over each draft's versions numbers them in one pass through its
    // history, not one pass per version. The chosen drafts are found from the chosen files
    // (CROSS JOIN keeps them the outer loop), so a small export reads no other draft's rows.
    let statement = try db.makeStatement(
      """
      SELECT \(VersionRecords.columns), f.file_name, n.number, \(Self.pictureColumns.map { "f.\($0)" }.joined(separator: ", "))
      FROM (
        SELECT id, row_number() OVER (PARTITION BY draft_id ORDER BY saved_ms, id) AS number FROM main.version
        WHERE draft_id IN (SELECT v.draft_id FROM \(files) AS c CROSS JOIN main.version AS v ON v.id = c.version_id)
      ) AS n
      JOIN \(files) AS f ON f.version_id = n.id
      JOIN main.version ON version.id = n.id JOIN main.draft ON draft.id = version.draft_id
      ORDER BY version.draft_id, version.saved_ms, version.id
      """)
    defer { statement.finish() }
    while let row = try statement.step() {
      var pictures: [String: String] = [:]
      for (index, ext) in Self.pictureExtensions.enumerated() {
        let column = Int32(19 + index)
        if !row.isNull(column) { pictures[ext] = row.string(column) }
      }
      let item = ExportItem(
        version: VersionRecords.row(row), number: row.int(18), fileName: row.string(17), pictureNames: pictures)
      guard try body(item) else { return }
    }
  }
}
