// The drafts a contact sheet or a portfolio shows, in their order, kept in the connection's
// temporary database (as an export's versions are, ExportSelection.swift) so that a selection
// of every draft of a large archive costs a row of SQLite's page cache a draft, spilled to a
// temporary file past it, rather than a list in memory. They are read back a sheet or a page
// at a time, by position.
//
// Invariants: positions are 0, 1, 2, … in the order the drafts were added (the table's rowid,
// less one); a draft may be added twice and is then shown twice, as a list of names would be.

/// Drafts in an order, in a temporary table; read back a range of positions at a time.
/// Dropped when released.
package final class SelectedDrafts {
  private let db: Database
  private let table: String
  private let insert: Statement

  /// Creates the table; `label` tells the tables of one connection apart.
  package init(_ db: Database, label: String) throws {
    self.db = db
    table = "temp.inkling_selected_\(label)"
    try db.execute("DROP TABLE IF EXISTS \(table)")
    try db.execute("CREATE TABLE \(table)(position INTEGER PRIMARY KEY, draft_id INTEGER NOT NULL)")
    insert = try db.makeStatement("INSERT INTO \(table)(draft_id) VALUES (?)")
  }

  deinit { try? db.execute("DROP TABLE IF EXISTS \(table)") }

  /// Adds draft `id` after those added before.
  package func add(draftID id: Int64) throws {
    try insert.execute([id])
  }

  /// Adds the draft called exactly `name` (NFC), in the trash or not, if it has versions;
  /// false when there is no such draft.
  package func add(draftNamed name: String) throws -> Bool {
    guard
      let id = try db.fetchOne("SELECT id FROM draft WHERE name = ? AND version_count > 0", [name], { $0.int64(0) })
    else { return false }
    try add(draftID: id)
    return true
  }

  /// How many drafts were added.
  package func count() throws -> Int {
    try db.fetchOne("SELECT count(*) FROM \(table)") { $0.int(0) } ?? 0
  }

  /// The latest save time of any draft added, in milliseconds; nil when none has versions.
  package func latestSave() throws -> Int64? {
    try db.fetchOne(
      "SELECT max(draft.latest_saved_ms) FROM \(table) AS s JOIN draft ON draft.id = s.draft_id"
    ) { $0.isNull(0) ? nil : $0.int64(0) } ?? nil
  }

  /// Turns off the memory map that a search of the same connection turned on
  /// (DraftSearchSQL.prepareForSearching), as an export does (ExportSelection): the pages a
  /// search walked through the map, and every thumbnail and drawing read after it, would count
  /// in the process's memory as the archive grows. Reads go through the page cache instead.
  package func readThroughPageCache() throws {
    try db.execute("PRAGMA mmap_size = 0")
  }

  /// The newest version of the drafts at `positions`, in order, as
  /// `VersionRecords.newestVersions` gives them; a draft left without versions since it was
  /// added (purged meanwhile) is left out.
  package func newestVersions(_ positions: Range<Int>) throws -> [NewestVersion] {
    try db.fetchAll(
      VersionRecords.newestVersionSQL(from: "\(table) AS s JOIN draft ON draft.id = s.draft_id")
        + "WHERE s.position > ? AND s.position <= ? AND draft.version_count > 0 ORDER BY s.position",
      [positions.lowerBound, positions.upperBound], VersionRecords.newestVersion)
  }
}
