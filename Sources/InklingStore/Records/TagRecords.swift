// Tags on drafts (migration 0019): a tag row per fold, spelled as first written, and a
// draft_tag row per (draft, tag). Each function is one step of an operation that InklingArchive
// runs inside its own transaction; none begins or commits one.
//
// Invariant 2 of 0019: a tag no draft has is removed by whoever removed its last row, so
// `removeUnused` follows every delete of draft_tag rows here.

/// A tag and how many live drafts have it.
package struct TagCount: Sendable, Equatable {
  package let name: String
  package let drafts: Int
}

package enum TagRecords {
  /// The longest tag, in characters (the CHECK of 0019).
  package static let maximumLength = 256

  /// The id of the tag that folds as `name` does, creating it (spelled `name`, NFC) when new.
  package static func id(creating name: String, in db: Database) throws -> Int64 {
    if let id = try db.fetchOne("SELECT id FROM tag WHERE name_folded = inkling_fold(?)", [name], { $0.int64(0) }) {
      return id
    }
    try db.execute("INSERT INTO tag(name) VALUES (?)", [name])
    return db.lastInsertRowID
  }

  /// The id of the tag that folds as `name` does, if there is one.
  package static func id(of name: String, in db: Database) throws -> Int64? {
    try db.fetchOne("SELECT id FROM tag WHERE name_folded = inkling_fold(?)", [name]) { $0.int64(0) }
  }

  /// The tag's name as written.
  package static func name(of id: Int64, in db: Database) throws -> String? {
    try db.fetchOne("SELECT name FROM tag WHERE id = ?", [id]) { $0.string(0) }
  }

  /// Gives each draft of `draftIDs` the tag `tagID`; returns how many did not have it.
  package static func add(_ tagID: Int64, to draftIDs: [Int64], in db: Database) throws -> Int {
    let insert = try db.makeStatement("INSERT OR IGNORE INTO draft_tag(draft_id, tag_id) VALUES (?, ?)")
    var added = 0
    for draftID in draftIDs {
      try insert.execute([draftID, tagID])
      added += db.changes
    }
    return added
  }

  /// Takes the tag `tagID` from each draft of `draftIDs`; returns how many had it.
  package static func remove(_ tagID: Int64, from draftIDs: [Int64], in db: Database) throws -> Int {
    let delete = try db.makeStatement("DELETE FROM draft_tag WHERE draft_id = ? AND tag_id = ?")
    var removed = 0
    for draftID in draftIDs {
      try delete.execute([draftID, tagID])
      removed += db.changes
    }
    try removeUnused(in: db)
    return removed
  }

  /// Removes the tags no draft has (invariant 2 of 0019).
  package static func removeUnused(in db: Database) throws {
    try db.execute("DELETE FROM tag WHERE NOT EXISTS (SELECT 1 FROM draft_tag WHERE tag_id = tag.id)")
  }

  /// The tags of a draft, as written, sorted by their fold.
  package static func tags(ofDraft draftID: Int64, in db: Database) throws -> [String] {
    try db.fetchAll(
      """
      SELECT t.name FROM draft_tag AS dt JOIN tag AS t ON t.id = dt.tag_id WHERE dt.draft_id = ?
      ORDER BY t.name_folded
      """, [draftID]
    ) { $0.string(0) }
  }

  /// Every tag a live draft has, with how many live drafts have it, sorted by fold; with
  /// `prefix` (folded), only those whose fold starts with it (a range of tag_by_folded).
  package static func counts(prefix: String? = nil, in db: Database) throws -> [TagCount] {
    let range = prefix.map { _ in " AND t.name_folded >= ? AND t.name_folded < ?" } ?? ""
    return try db.fetchAll(
      """
      SELECT t.name, count(*) FROM tag AS t JOIN draft_tag AS dt ON dt.tag_id = t.id
      JOIN draft AS d ON d.id = dt.draft_id WHERE d.deleted_ms IS NULL\(range)
      GROUP BY t.id ORDER BY t.name_folded
      """, prefix.map { [$0, $0 + "\u{10FFFF}"] } ?? []
    ) { TagCount(name: $0.string(0), drafts: $0.int(1)) }
  }

  /// Moves the tags of draft `source` to draft `target` (a rename that joins two drafts):
  /// the target has the tags of both.
  package static func move(fromDraft source: Int64, to target: Int64, in db: Database) throws {
    try db.execute(
      "INSERT OR IGNORE INTO draft_tag(draft_id, tag_id) SELECT ?, tag_id FROM draft_tag WHERE draft_id = ?",
      [target, source])
    try db.execute("DELETE FROM draft_tag WHERE draft_id = ?", [source])
  }
}
