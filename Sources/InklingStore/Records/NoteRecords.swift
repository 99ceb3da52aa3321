// Notes on drafts and on versions (migration 0019, invariant 4): a note's draft_id is its
// version's draft when version_id is set. Each function is one step of an operation that
// InklingArchive runs inside its own transaction (or read snapshot); none begins or commits one.

/// One note as stored.
package struct NoteRow: Sendable, Equatable {
  package let id: Int64
  package let draftID: Int64
  /// Nil for a note on the draft itself.
  package let versionID: Int64?
  package let text: String
  package let writtenMilliseconds: Int64
}

package enum NoteRecords {
  /// The longest note, in characters (the CHECK of 0019).
  package static let maximumLength = 65_536

  private static let columns = "id, draft_id, version_id, text, written_ms"

  private static func row(_ row: Row) -> NoteRow {
    NoteRow(
      id: row.int64(0), draftID: row.int64(1), versionID: row.isNull(2) ? nil : row.int64(2), text: row.string(3),
      writtenMilliseconds: row.int64(4))
  }

  /// Adds a note to draft `draftID`, or to its version `versionID`; returns it.
  package static func add(
    _ text: String, toDraft draftID: Int64, version versionID: Int64?, writtenMilliseconds: Int64, in db: Database
  ) throws -> NoteRow {
    try db.execute(
      "INSERT INTO note(draft_id, version_id, text, written_ms) VALUES (?, ?, ?, ?)",
      [draftID, versionID, text, writtenMilliseconds])
    return NoteRow(
      id: db.lastInsertRowID, draftID: draftID, versionID: versionID, text: text,
      writtenMilliseconds: writtenMilliseconds)
  }

  /// Every note of draft `draftID`, its own and its versions', oldest written first
  /// (note_by_draft).
  package static func notes(ofDraft draftID: Int64, in db: Database) throws -> [NoteRow] {
    try db.fetchAll(
      "SELECT \(columns) FROM note INDEXED BY note_by_draft WHERE draft_id = ? ORDER BY written_ms, id", [draftID],
      row)
  }

  /// The notes on draft `draftID` itself, not on its versions, oldest written first
  /// (note_by_draft).
  package static func notes(onDraft draftID: Int64, in db: Database) throws -> [NoteRow] {
    try db.fetchAll(
      """
      SELECT \(columns) FROM note INDEXED BY note_by_draft WHERE draft_id = ? AND version_id IS NULL
      ORDER BY written_ms, id
      """, [draftID], row)
  }

  /// The notes of version `versionID`, oldest written first (note_by_version).
  package static func notes(ofVersion versionID: Int64, in db: Database) throws -> [NoteRow] {
    try db.fetchAll(
      "SELECT \(columns) FROM note INDEXED BY note_by_version WHERE version_id = ? ORDER BY written_ms, id",
      [versionID], row)
  }

  /// The note with id `id`, if there is one.
  package static func note(id: Int64, in db: Database) throws -> NoteRow? {
    try db.fetchOne("SELECT \(columns) FROM note WHERE id = ?", [id], row)
  }

  /// Removes the note with id `id`; returns whether there was one.
  package static func remove(id: Int64, in db: Database) throws -> Bool {
    try db.execute("DELETE FROM note WHERE id = ?", [id])
    return db.changes > 0
  }
}
