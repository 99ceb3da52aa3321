// What a person said about a draft that lists show beside it: its stars and its tags
// (migration 0019). A list reads them draft by draft after the search found the drafts, so
// that no search plan changes for them; an archive where nobody tagged or starred a live
// draft is not read at all (`anyMarks`, one step into each of two indexes).

/// A draft's stars and tags.
package struct DraftMarkRow: Sendable, Equatable {
  /// 1 to 5, or nil when not starred.
  package var stars: Int?
  /// As written, sorted by their fold.
  package var tags: [String]
}

/// Reads the marks of drafts one by one through one prepared statement.
package final class DraftMarks {
  private let statement: Statement

  package init(_ db: Database) throws {
    // Tags are one line of text each (Archive.tagName refuses control characters), so the
    // unit separator cannot be inside one.
    statement = try db.makeStatement(
      """
      SELECT d.stars, (SELECT group_concat(name, char(31)) FROM (SELECT t.name AS name FROM draft_tag AS dt \
      JOIN tag AS t ON t.id = dt.tag_id WHERE dt.draft_id = d.id ORDER BY t.name_folded)) FROM draft AS d WHERE d.id = ?
      """)
  }

  /// Whether any live draft has stars or a tag; when not, no list needs to read marks.
  package static func anyMarks(in db: Database) throws -> Bool {
    try db.fetchOne(
      """
      SELECT EXISTS (SELECT 1 FROM draft_tag) OR EXISTS (SELECT 1 FROM draft INDEXED BY draft_by_stars \
      WHERE stars IS NOT NULL AND deleted_ms IS NULL)
      """
    ) { $0.int(0) != 0 } ?? false
  }

  /// Whether any draft in the trash has stars or a tag (a walk of draft_in_trash: the trash
  /// holds what a person deleted, a small part of the archive).
  package static func anyMarksInTrash(in db: Database) throws -> Bool {
    try db.fetchOne(
      """
      SELECT EXISTS (SELECT 1 FROM draft AS d INDEXED BY draft_in_trash WHERE d.deleted_ms IS NOT NULL \
      AND (d.stars IS NOT NULL OR EXISTS (SELECT 1 FROM draft_tag AS dt WHERE dt.draft_id = d.id)))
      """
    ) { $0.int(0) != 0 } ?? false
  }

  /// The marks of the draft with row id `draftID` (none when there is no such draft).
  package func marks(ofDraft draftID: Int64) throws -> DraftMarkRow {
    var found = DraftMarkRow(stars: nil, tags: [])
    try statement.forEach([draftID]) { row in
      found.stars = row.isNull(0) ? nil : row.int(0)
      found.tags = row.isNull(1) ? [] : row.string(1).split(separator: "\u{1F}").map(String.init)
    }
    return found
  }
}
