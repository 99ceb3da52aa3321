// What the web pages read that the command line does not: drafts a page at a time in a sort's
// order continuing after a key (keyset pagination: a page deep in the archive costs what the
// first does, where OFFSET reads every row before it), a version by its row id (image and
// download URLs name versions by id, which never changes, while a version's number shifts
// when an older save is imported later), and the stroke keys of a draft's drawings for its
// timeline's added/removed counts.
//
// Orders are those of SearchCompiler.order in InklingArchive, so that a page continuing after
// the first (which the search compiler plans) lists drafts in the same order:
//   newest    latest_saved_ms DESC, first_saved_ms DESC, id DESC   (draft_by_latest)
//   oldest    latest_saved_ms, first_saved_ms, id                  (draft_by_latest)
//   name      name_folded, name                                    (draft_by_folded)
//   versions  version_count DESC, latest_saved_ms DESC, name       (draft_by_versions)
//   stars     stars (0 for none) DESC, then as newest              (draft_by_latest, sorted)

import InklingFormats

/// A draft with the columns that place it in every sort order, and its newest version.
package struct DraftPageRow: Sendable, Equatable {
  package var id: Int64
  package var name: String
  package var versionCount: Int
  package var latestSavedMilliseconds: Int64
  package var firstSavedMilliseconds: Int64
  package var latestVersionID: Int64
  /// 0 when it has none (migration 0019).
  package var stars: Int = 0
}

/// Where a page of drafts continues, in which order: the sort key of the last draft shown.
package enum DraftPageAfter: Sendable, Hashable {
  /// (latest_saved_ms, first_saved_ms, id), newest first.
  case newest(latest: Int64, first: Int64, id: Int64)
  /// (latest_saved_ms, first_saved_ms, id), oldest first.
  case oldest(latest: Int64, first: Int64, id: Int64)
  /// By name: the name (its folded form is computed again).
  case name(String)
  /// Most versions first: (version_count, latest_saved_ms, name).
  case versions(count: Int, latest: Int64, name: String)
  /// Most stars first, then newest: (stars, latest_saved_ms, first_saved_ms, id).
  case stars(stars: Int, latest: Int64, first: Int64, id: Int64)
}

package enum DraftPageRecords {
  static let columns =
    "d.id, d.name, d.version_count, d.latest_saved_ms, d.first_saved_ms, d.latest_version_id, coalesce(d.stars, 0)"

  static func row(_ row: Row) -> DraftPageRow {
    DraftPageRow(
      id: row.int64(0), name: row.string(1), versionCount: row.int(2), latestSavedMilliseconds: row.int64(3),
      firstSavedMilliseconds: row.int64(4), latestVersionID: row.int64(5), stars: row.int(6))
  }

  /// The drafts called `names` (stored names, NFC), in that order; names that are not drafts
  /// (or have no version any more) are left out. One look-up in the name's unique index each.
  package static func drafts(named names: [String], in db: Database) throws -> [DraftPageRow] {
    try names.compactMap { name in
      try db.fetchOne(
        "SELECT \(columns) FROM draft AS d WHERE d.name = ? AND d.version_count > 0", [name], row)
    }
  }

  /// At most `limit` live drafts (not in the trash) with versions that come after `after` in
  /// its order and satisfy `predicate` (an SQL condition on `draft AS d` with its bound
  /// arguments, "1" for every draft), in that order. draft_by_latest holds live drafts only
  /// (migration 0012), and SQLite uses it only for a query that says `deleted_ms IS NULL`.
  package static func page(
    after: DraftPageAfter, predicate: DraftPredicate, limit: Int, in db: Database
  ) throws -> [DraftPageRow] {
    let (index, condition, keyArguments, orderBy) = keyset(after)
    let sql = """
      SELECT \(columns) FROM draft AS d INDEXED BY \(index)
      WHERE \(condition) AND \(predicate.sql) AND d.version_count > 0 AND d.deleted_ms IS NULL ORDER BY \(orderBy) LIMIT \(max(0, limit))
      """
    var rows: [DraftPageRow] = []
    // Not cached: the text follows the query's predicate, and the cache keeps every text.
    try db.makeStatement(sql).forEach(keyArguments + predicate.arguments) { rows.append(Self.row($0)) }
    return rows
  }

  /// The index, the condition "after the key", its arguments and the ORDER BY of a page.
  private static func keyset(_ after: DraftPageAfter) -> (String, String, [(any DatabaseValueConvertible)?], String) {
    switch after {
    case .newest(let latest, let first, let id):
      return (
        "draft_by_latest", "(d.latest_saved_ms, d.first_saved_ms, d.id) < (?, ?, ?)", [latest, first, id],
        "d.latest_saved_ms DESC, d.first_saved_ms DESC, d.id DESC"
      )
    case .oldest(let latest, let first, let id):
      return (
        "draft_by_latest", "(d.latest_saved_ms, d.first_saved_ms, d.id) > (?, ?, ?)", [latest, first, id],
        "d.latest_saved_ms, d.first_saved_ms, d.id"
      )
    case .name(let name):
      return (
        "draft_by_folded", "(d.name_folded, d.name) > (?, ?)", [NameFolding.fold(name), name], "d.name_folded, d.name"
      )
    case .versions(let count, let latest, let name):
      // Two directions in one key, so not a row-value comparison: fewer versions, or as many
      // and saved earlier, or as many, saved at the same time and a later name.
      return (
        "draft_by_versions",
        """
        (d.version_count < ? OR (d.version_count = ? AND (d.latest_saved_ms < ? \
        OR (d.latest_saved_ms = ? AND d.name > ?))))
        """,
        [count, count, latest, latest, name], "d.version_count DESC, d.latest_saved_ms DESC, d.name"
      )
    case .stars(let stars, let latest, let first, let id):
      return (
        "draft_by_latest",
        "(coalesce(d.stars, 0) < ? OR (coalesce(d.stars, 0) = ? AND (d.latest_saved_ms, d.first_saved_ms, d.id) < (?, ?, ?)))",
        [stars, stars, latest, first, id],
        "coalesce(d.stars, 0) DESC, d.latest_saved_ms DESC, d.first_saved_ms DESC, d.id DESC"
      )
    }
  }
}

extension VersionRecords {
  /// The version with row id `id`, if there is one.
  package static func version(id: Int64, in db: Database) throws -> VersionRow? {
    try db.fetchOne(
      "SELECT \(columns) FROM version JOIN draft ON draft.id = version.draft_id WHERE version.id = ?", [id], row)
  }
}

/// One stroke of the drawing index as a timeline compares them: hidden or not, and its UUID.
package struct StrokeKeyRow: Sendable, Equatable {
  package var hidden: Bool
  package var uuid: StrokeUUID?
}

package enum TimelineRecords {
  /// The stroke ids of each blob's drawing, for the blobs whose drawing is indexed and decodes
  /// (status 0); other blobs are left out.
  package static func strokeLists(blobIDs: [Int64], in db: Database) throws -> [Int64: StrokeRunList] {
    var lists: [Int64: StrokeRunList] = [:]
    for blobID in Set(blobIDs) {
      if let list = try strokeList(blobID: blobID, in: db) { lists[blobID] = list }
    }
    return lists
  }

  /// The stroke ids of the blob's drawing when it is indexed and decodes (status 0), else nil.
  package static func strokeList(blobID: Int64, in db: Database) throws -> StrokeRunList? {
    let runs = try db.fetchOne("SELECT strokes FROM drawing WHERE blob_id = ? AND status = 0", [blobID]) {
      $0.bytes(0)
    }
    guard let runs else { return nil }
    guard let list = StrokeRunList(runs) else {
      throw StoreError(
        kind: .damagedIndex, message: "the drawing index of blob \(blobID) has a malformed stroke list")
    }
    return list
  }

  /// The stroke rows `ids` name, read a run of consecutive ids at a time (a draft's saves share
  /// their rows, and a save's new strokes have consecutive ids).
  package static func strokeKeys(ids: some Collection<Int64>, in db: Database) throws -> [Int64: StrokeKeyRow] {
    let sorted = Set(ids).sorted()
    var keys: [Int64: StrokeKeyRow] = [:]
    keys.reserveCapacity(sorted.count)
    var start = 0
    while start < sorted.count {
      var end = start
      while end + 1 < sorted.count && sorted[end + 1] == sorted[end] + 1 { end += 1 }
      try db.statement("SELECT id, hidden, uuid FROM stroke WHERE id BETWEEN ? AND ?").forEach([
        sorted[start], sorted[end],
      ]) { row in
        keys[row.int64(0)] = StrokeKeyRow(hidden: row.int(1) != 0, uuid: row.isNull(2) ? nil : StrokeUUID(row.bytes(2)))
      }
      start = end + 1
    }
    for id in sorted where keys[id] == nil {
      throw StoreError(kind: .damagedIndex, message: "stroke \(id) of the drawing index is missing")
    }
    return keys
  }

  /// What tells the strokes `ids` apart as content, read a run of consecutive ids at a time:
  /// the same fingerprint and ink is the same stroke, even in two rows (the index shares rows
  /// only as far as its cache reaches).
  package static func strokeIdentities(ids: some Collection<Int64>, in db: Database) throws -> [Int64:
    StrokeIdentityRow]
  {
    let sorted = Set(ids).sorted()
    var rows: [Int64: StrokeIdentityRow] = [:]
    rows.reserveCapacity(sorted.count)
    var start = 0
    while start < sorted.count {
      var end = start
      while end + 1 < sorted.count && sorted[end + 1] == sorted[end] + 1 { end += 1 }
      try db.statement("SELECT id, fingerprint, ink_id, hidden, uuid FROM stroke WHERE id BETWEEN ? AND ?").forEach([
        sorted[start], sorted[end],
      ]) { row in
        rows[row.int64(0)] = StrokeIdentityRow(
          content: StrokeContent(fingerprint: row.bytes(1), inkID: row.int64(2), hidden: row.int(3) != 0),
          uuid: row.isNull(4) ? nil : row.bytes(4))
      }
      start = end + 1
    }
    for id in sorted where rows[id] == nil {
      throw StoreError(kind: .damagedIndex, message: "stroke \(id) of the drawing index is missing")
    }
    return rows
  }
}

/// One stroke of the drawing index as a time-lapse tells strokes apart: its content, and its
/// UUID (16 bytes), which a stroke the pixel eraser cut keeps.
package struct StrokeIdentityRow: Sendable {
  package var content: StrokeContent
  package var uuid: [UInt8]?
}

/// Equal for two rows of the same stroke.
package struct StrokeContent: Sendable, Hashable {
  package var fingerprint: [UInt8]
  package var inkID: Int64
  package var hidden: Bool
}
