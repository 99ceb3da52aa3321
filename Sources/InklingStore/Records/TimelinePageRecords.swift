// One page of a draft's timeline, read without the rest of its history: the versions numbered
// in a range, found through version_by_draft from whichever end of the draft is nearer (the
// entries skipped are the index's, never the table's rows); what the page says of the whole
// draft, from the draft's row and one sum; and, for the drawings on the page, the first
// version that has each. A draft saved thousands of times is shown two hundred versions a
// page, and each page must cost what those versions do.
//
// Numbers are positions by save time, then id, as VersionRecords.versions(ofDraft:) lists them.
// The caller reads in one transaction, so that the answers agree with each other.

/// What a draft's timeline page says of all of its versions.
package struct DraftTotals: Sendable, Equatable {
  package var versionCount: Int
  /// Nil when the draft has no versions.
  package var firstSavedMilliseconds: Int64?
  package var latestSavedMilliseconds: Int64?
  /// The sizes of its versions' files together (negative sizes as 0), at most `Int64.max`.
  package var filesSize: Int64
  /// Whether the drawing of some version is indexed and decodes.
  package var anyDrawingDecodes: Bool
}

package enum TimelinePageRecords {
  /// What the page of draft `draftID` says of all its versions; nil when there is no such
  /// draft. The count and the save times are the draft's row (kept by the writer with its
  /// versions, migration 0001's invariant); the sizes one sum through version_by_draft.
  ///
  /// - Throws: `StoreError`.
  package static func totals(ofDraft draftID: Int64, in db: Database) throws -> DraftTotals? {
    try db.fetchOne(
      """
      SELECT draft.version_count, draft.first_saved_ms, draft.latest_saved_ms,
        (SELECT total(max(0, file_size)) FROM version INDEXED BY version_by_draft WHERE draft_id = draft.id),
        EXISTS (SELECT 1 FROM version INDEXED BY version_by_draft JOIN blob ON blob.id = version.blob_id
          JOIN drawing ON drawing.blob_id = version.blob_id
          WHERE version.draft_id = draft.id AND drawing.status = 0 AND drawing.stroke_count IS NOT NULL
            AND drawing.hidden_count IS NOT NULL)
      FROM draft WHERE draft.id = ?
      """, [draftID]
    ) { row in
      DraftTotals(
        versionCount: row.int(0), firstSavedMilliseconds: row.isNull(1) ? nil : row.int64(1),
        latestSavedMilliseconds: row.isNull(2) ? nil : row.int64(2), filesSize: row.int64Clamping(3),
        anyDrawingDecodes: row.int(4) != 0)
    }
  }

  /// The versions of draft `draftID` numbered `numbers` (1 the oldest), oldest first, each
  /// with its blob's summary (nil for a missing blob), of a draft of `versionCount` versions.
  /// The index's entries before the range are skipped from the nearer end, so the newest
  /// and the oldest page cost the same, and a page in the middle skips entries, not rows.
  ///
  /// - Throws: `StoreError`.
  package static func versions(
    ofDraft draftID: Int64, numbers: ClosedRange<Int>, versionCount: Int, in db: Database
  ) throws -> [(version: VersionRow, blob: BlobSummary?)] {
    let fromNewest = versionCount - numbers.upperBound < numbers.lowerBound - 1
    let order = fromNewest ? "saved_ms DESC, id DESC" : "saved_ms, id"
    let skipped = fromNewest ? max(0, versionCount - numbers.upperBound) : numbers.lowerBound - 1
    return try db.fetchAll(
      """
      SELECT \(VersionRecords.columns), \(VersionLookupRecords.blobSummaryColumns)
      FROM (SELECT id FROM version INDEXED BY version_by_draft WHERE draft_id = ?1 ORDER BY \(order)
          LIMIT ?2 OFFSET ?3) AS page
        JOIN version ON version.id = page.id JOIN draft ON draft.id = version.draft_id
        LEFT JOIN blob ON blob.id = version.blob_id LEFT JOIN drawing ON drawing.blob_id = version.blob_id
      ORDER BY version.saved_ms, version.id
      """, [draftID, numbers.count, skipped]
    ) { row in
      (VersionRecords.row(row), row.isNull(17) ? nil : VersionLookupRecords.blobSummary(row, from: 17))
    }
  }

  /// For each of `contentHashes`, the first version of draft `draftID` (by save time, then
  /// id) whose drawing has it, among those up to `last` (a version's save time and id): its
  /// id and save time. A content hash no version has is left out.
  ///
  /// The drawing index keeps no index by content (migration 0010, for the import's speed), so
  /// this walks the draft's versions in the order of version_by_draft, reading each one's
  /// `drawing` row by its key; it returns only the first of each drawing the page shows.
  ///
  /// - Throws: `StoreError`.
  package static func firstVersions(
    withContent contentHashes: Set<[UInt8]>, ofDraft draftID: Int64, upTo last: (saved: Int64, id: Int64),
    in db: Database
  ) throws -> [[UInt8]: (id: Int64, saved: Int64)] {
    guard !contentHashes.isEmpty else { return [:] }
    let hashes = Array(contentHashes)
    let placeholders = hashes.indices.map { "?\($0 + 4)" }.joined(separator: ", ")
    // Not cached: the text follows the number of drawings on the page.
    let statement = try db.makeStatement(
      """
      SELECT drawing.content_hash, version.id, version.saved_ms
      FROM version INDEXED BY version_by_draft JOIN blob ON blob.id = version.blob_id
        JOIN drawing ON drawing.blob_id = version.blob_id
      WHERE version.draft_id = ?1 AND (version.saved_ms < ?2 OR (version.saved_ms = ?2 AND version.id <= ?3))
        AND drawing.content_hash IN (\(placeholders))
      ORDER BY version.saved_ms, version.id
      """)
    var arguments: [(any DatabaseValueConvertible)?] = [draftID, last.saved, last.id]
    arguments += hashes.map { $0 as (any DatabaseValueConvertible)? }
    var first: [[UInt8]: (id: Int64, saved: Int64)] = [:]
    try statement.forEach(arguments) { row in
      let hash = row.bytes(0)
      if first[hash] == nil { first[hash] = (row.int64(1), row.int64(2)) }
    }
    return first
  }
}
