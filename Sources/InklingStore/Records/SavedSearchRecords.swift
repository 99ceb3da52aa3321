// Searches kept under a name (migration 0019, invariant 6): saved_search holds the query's text
// as given, which the operations layer parses again each time the search runs, so a saved
// search reads as the search language does then. Names are compared by their fold, as tags
// and draft names are searched. Each function is one step of an operation that
// InklingArchive runs inside its own transaction; none begins or commits one.

/// A saved search as stored.
package struct SavedSearchRow: Sendable, Equatable {
  package let name: String
  package let query: String
  package let savedMilliseconds: Int64
}

package enum SavedSearchRecords {
  /// The longest name, in characters (the CHECK of 0019).
  package static let maximumLength = 256

  private static let columns = "name, query, saved_ms"

  private static func row(_ row: Row) -> SavedSearchRow {
    SavedSearchRow(name: row.string(0), query: row.string(1), savedMilliseconds: row.int64(2))
  }

  /// The search whose name folds as `name` does, if there is one.
  package static func search(named name: String, in db: Database) throws -> SavedSearchRow? {
    try db.fetchOne("SELECT \(columns) FROM saved_search WHERE name_folded = inkling_fold(?)", [name], row)
  }

  /// Keeps `query` under `name`, replacing the search of that name (in any case and accents)
  /// and its spelling; returns the search replaced.
  package static func save(
    name: String, query: String, at milliseconds: Int64, in db: Database
  ) throws -> SavedSearchRow? {
    let replaced = try search(named: name, in: db)
    try db.execute(
      """
      INSERT INTO saved_search(name, query, saved_ms) VALUES (?1, ?2, ?3)
      ON CONFLICT(name_folded) DO UPDATE SET name = ?1, query = ?2, saved_ms = ?3
      """, [name, query, milliseconds])
    return replaced
  }

  /// Removes the search whose name folds as `name` does; returns it, or nil when there was none.
  package static func delete(named name: String, in db: Database) throws -> SavedSearchRow? {
    guard let found = try search(named: name, in: db) else { return nil }
    try db.execute("DELETE FROM saved_search WHERE name_folded = inkling_fold(?)", [name])
    return found
  }

  /// Every saved search, sorted by the fold of its name; with `prefix` (folded), only those
  /// whose fold starts with it (a range of saved_search_by_name).
  package static func all(prefix: String? = nil, limit: Int? = nil, in db: Database) throws -> [SavedSearchRow] {
    let range = prefix.map { _ in " WHERE name_folded >= ? AND name_folded < ?" } ?? ""
    var arguments: [(any DatabaseValueConvertible)?] = prefix.map { [$0, $0 + "\u{10FFFF}"] } ?? []
    if let limit { arguments.append(limit) }
    return try db.fetchAll(
      "SELECT \(columns) FROM saved_search\(range) ORDER BY name_folded\(limit == nil ? "" : " LIMIT ?")", arguments,
      row)
  }
}
