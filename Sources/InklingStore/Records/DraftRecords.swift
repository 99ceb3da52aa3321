// Draft rows through their life (migration 0012): found by name, renamed, merged
// into another draft, moved to the trash and back, purged. Each function is one step of an
// operation that InklingArchive runs inside its own transaction; none begins or commits one.
//
// What keeps `draft`'s other columns right: name_folded and name_gram follow `name` by the
// triggers of 0003; first/latest import and save times follow moved or deleted versions by
// the version_search_* triggers (0008); latest_strokes and latest_inks follow
// latest_version_id by the draft_newest_* triggers. version_count, latest_saved_ms and
// latest_version_id are the writer's to keep (VersionRecords.insert), so a merge sets them
// again here.

/// A draft as its row holds it.
package struct DraftRow: Sendable, Equatable {
  package let id: Int64
  package let name: String
  package let versionCount: Int
  package let latestSavedMilliseconds: Int64?
  /// When it went to the trash; nil while live.
  package let deletedMilliseconds: Int64?
  package let createdMilliseconds: Int64
}

package enum DraftRecords {
  static let columns = "id, name, version_count, latest_saved_ms, deleted_ms, created_ms"

  static func row(_ row: Row) -> DraftRow {
    DraftRow(
      id: row.int64(0), name: row.string(1), versionCount: row.int(2),
      latestSavedMilliseconds: row.isNull(3) ? nil : row.int64(3),
      deletedMilliseconds: row.isNull(4) ? nil : row.int64(4), createdMilliseconds: row.int64(5))
  }

  /// The draft called exactly `name` (NFC, as names are stored), live or in the trash.
  package static func draft(named name: String, in db: Database) throws -> DraftRow? {
    try db.fetchOne("SELECT \(columns) FROM draft WHERE name = ?", [name], row)
  }

  /// The draft with row id `id`, live or in the trash.
  package static func draft(id: Int64, in db: Database) throws -> DraftRow? {
    try db.fetchOne("SELECT \(columns) FROM draft WHERE id = ?", [id], row)
  }

  /// Gives the draft another name (the caller has checked that no draft has it).
  package static func rename(_ id: Int64, to name: String, in db: Database) throws {
    try db.execute("UPDATE draft SET name = ? WHERE id = ?", [name, id])
  }

  /// Moves every version of draft `source` into draft `target` and removes `source`. A
  /// version of `source` with the same save time and file content as one of `target` is the
  /// same file (invariant 4 of 0001): it is dropped, and versions that revert to it revert
  /// to its twin (or to what the twin reverts to: invariant 2 of 0012).
  ///
  /// - Returns: how many versions moved, and how many were dropped as duplicates.
  package static func merge(_ source: Int64, into target: Int64, in db: Database) throws -> (
    moved: Int, duplicates: Int
  ) {
    let twins = try db.fetchAll(
      """
      SELECT s.id, coalesce(t.reverts_version_id, t.id) FROM version AS s
      JOIN version AS t ON t.draft_id = ? AND t.saved_ms = s.saved_ms AND t.file_sha256 = s.file_sha256
      WHERE s.draft_id = ?
      """, [target, source]
    ) { ($0.int64(0), $0.int64(1)) }
    for (duplicate, kept) in twins {
      try db.execute("UPDATE version SET reverts_version_id = ? WHERE reverts_version_id = ?", [kept, duplicate])
      // A twin's notes and labels go to the version kept (a label the target has already, on
      // any of its versions, stays where it is, and the twin's goes with it).
      try db.execute("UPDATE note SET version_id = ?1, draft_id = ?2 WHERE version_id = ?3", [kept, target, duplicate])
      try db.execute(
        "UPDATE OR IGNORE version_label SET version_id = ?1, draft_id = ?2 WHERE version_id = ?3",
        [kept, target, duplicate])
      try db.execute("DELETE FROM version WHERE id = ?", [duplicate])
    }
    try db.execute("UPDATE version SET draft_id = ? WHERE draft_id = ?", [target, source])
    let moved = db.changes
    let created = try db.fetchOne("SELECT created_ms FROM draft WHERE id = ?", [source]) { $0.int64(0) }
    // Ties on the save time go to the later insert, as VersionRecords.insert decides them.
    try db.execute(
      """
      UPDATE draft SET version_count = (SELECT count(*) FROM version WHERE draft_id = ?1),
        latest_saved_ms = (SELECT max(saved_ms) FROM version WHERE draft_id = ?1),
        latest_version_id = (SELECT id FROM version WHERE draft_id = ?1 ORDER BY saved_ms DESC, id DESC LIMIT 1),
        created_ms = min(created_ms, coalesce(?2, created_ms))
      WHERE id = ?1
      """, [target, created])
    // What people said of either draft is said of the joined one (migration 0019): both
    // drafts' tags, the more stars of the two.
    try TagRecords.move(fromDraft: source, to: target, in: db)
    // Notes and labels go with their drafts and versions (invariants 4 and 5): a label names
    // one version of a draft, so of two of the same name the target's stays, and the source's
    // goes with the source draft's row below.
    try db.execute("UPDATE note SET draft_id = ? WHERE draft_id = ?", [target, source])
    try db.execute("UPDATE OR IGNORE version_label SET draft_id = ? WHERE draft_id = ?", [target, source])
    try db.execute(
      "UPDATE draft SET stars = (SELECT max(stars) FROM draft WHERE id IN (?1, ?2)) WHERE id = ?1", [target, source])
    try db.execute("DELETE FROM draft WHERE id = ?", [source])
    return (moved, twins.count)
  }

  /// Puts a live draft in the trash at `milliseconds`.
  package static func moveToTrash(_ id: Int64, at milliseconds: Int64, in db: Database) throws {
    try db.execute("UPDATE draft SET deleted_ms = ? WHERE id = ? AND deleted_ms IS NULL", [milliseconds, id])
  }

  /// Whether the draft with row id `id` is in the trash (false when there is none).
  package static func isInTrash(_ id: Int64, in db: Database) throws -> Bool {
    try db.fetchOne("SELECT deleted_ms IS NOT NULL FROM draft WHERE id = ?", [id]) { $0.int(0) != 0 } ?? false
  }

  /// Whether the draft of version `id` is in the trash, and the SHA-256 of the version's file;
  /// nil when there is no such version.
  package static func trashAndFile(version id: Int64, in db: Database) throws -> (inTrash: Bool, fileSHA256: [UInt8])? {
    try db.fetchOne(
      """
      SELECT draft.deleted_ms IS NOT NULL, version.file_sha256 FROM version JOIN draft ON draft.id = version.draft_id
      WHERE version.id = ?
      """, [id]
    ) { ($0.int(0) != 0, $0.bytes(1)) }
  }

  /// Takes a draft out of the trash.
  package static func takeOutOfTrash(_ id: Int64, in db: Database) throws {
    try db.execute("UPDATE draft SET deleted_ms = NULL WHERE id = ?", [id])
  }

  /// The drafts in the trash that went there before `milliseconds` (all when nil), in the
  /// order they were deleted: a prefix of draft_in_trash.
  package static func trashed(before milliseconds: Int64?, in db: Database) throws -> [DraftRow] {
    try db.fetchAll(
      """
      SELECT \(columns) FROM draft INDEXED BY draft_in_trash
      WHERE deleted_ms IS NOT NULL AND deleted_ms < ? ORDER BY deleted_ms, id
      """, [milliseconds ?? Int64.max], row)
  }

  /// Removes a draft and its versions for good; what they used (blobs, envelopes, index
  /// rows, thumbnails) stays until `gc` finds that no version needs it.
  ///
  /// - Returns: the number of versions removed.
  package static func purge(_ id: Int64, in db: Database) throws -> Int {
    // One statement: a version that reverts to another of the draft goes with it, and a
    // foreign key is checked at the end of the statement.
    try db.execute("DELETE FROM version WHERE draft_id = ?", [id])
    let versions = db.changes
    try db.execute("DELETE FROM draft WHERE id = ?", [id])
    // Its tags went with it (ON DELETE CASCADE); those no other draft has go too (0019).
    try TagRecords.removeUnused(in: db)
    return versions
  }
}
