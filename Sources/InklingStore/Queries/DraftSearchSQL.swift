// The SELECTs a search runs, one per plan of SearchCompiler (InklingArchive), which says why
// each plan is chosen; this file writes their SQL and runs them. Every plan returns
// (name, version_count, latest_saved_ms, deleted_ms, id) of drafts with versions.
//
//   driven  — candidates (DraftCandidates) as the outer loop, `CROSS JOIN draft` (CROSS JOIN fixes
//             the order, SQLite's query optimizer overview), then sort.
//   walk    — drafts in the sort's own index, stopping after `limit`; optionally only past a
//             key (the rest of a bounded walk).
//   bounded walk — the same, but only among the first N drafts of the index, counted as they
//             are read (a subquery with LIMIT N, which SQLite runs as a co-routine), so that
//             nothing is read before the walk: where it stopped is read only if it is needed.
//   periods — newest first for a query that needs a version before U: one part per span class
//             of draft_by_span (migration 0006 says why each range is short) and one of
//             draft_by_latest below U, the newest `limit` of each merged.
//
//   trash   — the drafts in the trash (migration 0012), from draft_in_trash, sorted.
//
// The walks' indexes (draft_by_latest, draft_by_span, draft_by_early_import) are partial on live
// drafts (migration 0012): every live plan says `d.deleted_ms IS NULL`, without which SQLite
// refuses `INDEXED BY` them, and a trashed draft costs a walk nothing.
//
// SQLite's plans for each are checked by EXPLAIN QUERY PLAN in SearchTests.

/// A draft as a search lists it.
package struct DraftListing: Sendable {
  package var id: Int64
  package var name: String
  package var versionCount: Int
  package var latestSavedMilliseconds: Int64
  /// When it went to the trash; nil for a live draft.
  package var deletedMilliseconds: Int64?
}

/// A search's SELECT and its arguments, ready to run.
package struct DraftSearchQuery {
  package let sql: String
  package let arguments: [(any DatabaseValueConvertible)?]
}

/// The order of results, and the index that holds drafts in (nearly) that order.
package enum DraftOrder: Sendable {
  case newest, oldest, name, versions, stars

  var orderBy: String {
    switch self {
    // Ties follow the index (latest, first, id): a tie-break outside it (the name) makes
    // SQLite sort "the right part" of everything it walks, which grows with the archive.
    case .newest: "d.latest_saved_ms DESC, d.first_saved_ms DESC, d.id DESC"
    case .oldest: "d.latest_saved_ms, d.first_saved_ms, d.id"
    case .name: "d.name_folded, d.name"
    case .versions: "d.version_count DESC, d.latest_saved_ms DESC, d.name"
    case .stars: "coalesce(d.stars, 0) DESC, d.latest_saved_ms DESC, d.first_saved_ms DESC, d.id DESC"
    }
  }

  package var index: String {
    switch self {
    case .newest, .oldest: "draft_by_latest"
    case .name: "draft_by_folded"
    case .versions: "draft_by_versions"
    // draft_by_stars holds starred drafts only; a walk of every draft sorts them.
    case .stars: "draft_by_latest"
    }
  }
}

/// A draft's key in draft_by_latest: (latest_saved_ms, first_saved_ms, id).
package typealias DraftWalkKey = (latest: Int64, first: Int64, id: Int64)

package enum DraftSearchSQL {
  /// span_class c holds drafts whose newest save is less than spanLimits[c] ms after their
  /// first; the last class is unbounded. The schema's generated column (migration 0006) holds
  /// the same thresholds in its own text; SearchTests checks that they agree.
  package static let spanLimits: [Int64?] = (0..<15).map { Int64(3_600_000) << $0 } + [nil]

  static let columns = "d.name, d.version_count, d.latest_saved_ms, d.deleted_ms, d.id"
  /// What every live plan requires (see the file comment).
  static let live = "d.deleted_ms IS NULL"

  static func limitClause(_ limit: Int?) -> String { limit.map { " LIMIT \(max(0, $0))" } ?? "" }

  // MARK: - Plans

  /// The drafts of `candidates` for which `predicate` holds, in `order`.
  package static func driven(
    by candidates: DraftCandidates, where predicate: DraftPredicate, order: DraftOrder, limit: Int?
  ) -> DraftSearchQuery {
    DraftSearchQuery(
      sql: """
        SELECT \(columns) FROM (\(candidates.sql)) AS c CROSS JOIN draft AS d ON d.id = c.id
        WHERE \(predicate.sql) AND d.version_count > 0 AND \(live) ORDER BY \(order.orderBy)\(limitClause(limit))
        """,
      arguments: candidates.arguments + predicate.arguments)
  }

  /// Drafts in the order of `order`'s index; with `after`, only past that key (keys are of
  /// draft_by_latest: newest and oldest only).
  package static func walk(
    where predicate: DraftPredicate, order: DraftOrder, limit: Int?, after: DraftWalkKey? = nil
  ) -> DraftSearchQuery {
    guard let after else {
      return DraftSearchQuery(
        sql: """
          SELECT \(columns) FROM draft AS d INDEXED BY \(order.index)
          WHERE \(predicate.sql) AND d.version_count > 0 AND \(live) ORDER BY \(order.orderBy)\(limitClause(limit))
          """,
        arguments: predicate.arguments)
    }
    return DraftSearchQuery(
      sql: """
        SELECT \(columns) FROM draft AS d INDEXED BY \(order.index)
        WHERE (d.latest_saved_ms, d.first_saved_ms, d.id) \(order == .newest ? "<" : ">") (?, ?, ?)
        AND \(predicate.sql) AND d.version_count > 0 AND \(live) ORDER BY \(order.orderBy)\(limitClause(limit))
        """,
      arguments: [after.latest, after.first, after.id] + predicate.arguments)
  }

  /// The drafts for which `predicate` holds among the first `length` drafts with versions of
  /// `order`'s index (newest or oldest), in that order, at most `limit`; the rest of the walk
  /// is `walk(…, after: walkKey(at: length, …))`.
  ///
  /// The inner SELECT reads the index in order and stops after `length` entries; with a LIMIT,
  /// SQLite neither flattens it into the outer query nor pushes the outer WHERE into it, and
  /// runs it as a co-routine, which yields each row as the outer loop asks for the next (SQLite's
  /// query optimizer overview), so the outer LIMIT stops the walk at the `limit`-th match. The
  /// predicate is a CASE in the inner SELECT, tested in order like a WHERE clause's terms and
  /// from the index entry alone (OP_DeferredSeek); a match's row is then read by its id. The
  /// outer query has no ORDER BY: rows come in the co-routine's order, its outer loop, and a
  /// sort there would read all `length` entries before the first row (SearchTests compares
  /// every plan's order with a reference).
  package static func boundedWalk(
    where predicate: DraftPredicate, order: DraftOrder, limit: Int?, length: Int
  ) -> DraftSearchQuery {
    DraftSearchQuery(
      sql: """
        SELECT \(columns) FROM (SELECT d.id AS id, CASE WHEN \(predicate.sql) THEN 1 END AS hit
        FROM draft AS d INDEXED BY \(order.index) WHERE d.version_count > 0 AND \(live)
        ORDER BY \(order.orderBy) LIMIT \(max(0, length))) AS w
        CROSS JOIN draft AS d ON d.id = w.id WHERE w.hit\(limitClause(limit))
        """,
      arguments: predicate.arguments)
  }

  /// Newest first, for a predicate that requires a version saved before `upper`: one part per
  /// span class and one for the drafts last saved before `upper`. With `importedBefore`, the
  /// predicate requires a version *imported* before `upper` instead: those parts list every
  /// draft first saved before `upper`, and one more part the drafts first saved later but
  /// imported before their first save (draft_by_early_import, migration 0008).
  package static func periods(
    endingAt upper: Int64, where predicate: DraftPredicate, limit: Int, importedBefore: Bool = false
  ) -> DraftSearchQuery {
    let order = DraftOrder.newest.orderBy
    var parts: [String] = []
    var all: [(any DatabaseValueConvertible)?] = []
    for (spanClass, spanLimit) in spanLimits.enumerated() {
      var range = "d.span_class = ? AND d.latest_saved_ms >= ?"
      all += [spanClass, upper]
      if let spanLimit {
        range += " AND d.latest_saved_ms < ?"
        all.append(upper + spanLimit)
      }
      parts.append(
        """
        SELECT * FROM (SELECT d.id AS id, d.latest_saved_ms AS latest, d.first_saved_ms AS first \
        FROM draft AS d INDEXED BY draft_by_span WHERE \(range) AND d.first_saved_ms < ? AND \(live) AND \(predicate.sql) \
        ORDER BY \(order) LIMIT \(limit))
        """)
      all += [upper] + predicate.arguments
    }
    parts.append(
      """
      SELECT * FROM (SELECT d.id AS id, d.latest_saved_ms AS latest, d.first_saved_ms AS first \
      FROM draft AS d INDEXED BY draft_by_latest WHERE d.latest_saved_ms < ? AND \(predicate.sql) \
      AND d.version_count > 0 AND \(live) ORDER BY \(order) LIMIT \(limit))
      """)
    all += [upper] + predicate.arguments
    if importedBefore {
      parts.append(
        """
        SELECT * FROM (SELECT d.id AS id, d.latest_saved_ms AS latest, d.first_saved_ms AS first \
        FROM draft AS d INDEXED BY draft_by_early_import WHERE d.first_imported_ms < d.first_saved_ms \
        AND \(live) AND d.first_saved_ms >= ? AND \(predicate.sql) ORDER BY \(order) LIMIT \(limit))
        """)
      all += [upper] + predicate.arguments
    }
    let merged = "c.latest DESC, c.first DESC, c.id DESC"
    return DraftSearchQuery(
      sql: """
        SELECT \(columns) FROM (SELECT * FROM (\(parts.joined(separator: "\nUNION ALL "))) AS u \
        ORDER BY u.latest DESC, u.first DESC, u.id DESC LIMIT \(limit)) AS c
        CROSS JOIN draft AS d ON d.id = c.id ORDER BY \(merged)
        """,
      arguments: all)
  }

  /// The drafts in the trash for which `predicate` holds, in `order`: read from draft_in_trash
  /// and sorted (the trash holds what a person deleted, a small part of the archive).
  package static func trash(where predicate: DraftPredicate, order: DraftOrder, limit: Int?) -> DraftSearchQuery {
    DraftSearchQuery(
      sql: """
        SELECT \(columns) FROM draft AS d INDEXED BY draft_in_trash
        WHERE d.deleted_ms IS NOT NULL AND \(predicate.sql) AND d.version_count > 0 ORDER BY \(order.orderBy)\(limitClause(limit))
        """,
      arguments: predicate.arguments)
  }

  // MARK: - Facts a plan is chosen by

  /// The key of the `position`-th draft with versions (from 1) in `order` (newest or oldest),
  /// or nil when there are fewer.
  ///
  /// - Throws: `StoreError`.
  package static func walkKey(at position: Int, order: DraftOrder, in db: Database) throws -> DraftWalkKey? {
    try db.fetchOne(
      """
      SELECT d.latest_saved_ms, d.first_saved_ms, d.id FROM draft AS d INDEXED BY draft_by_latest
      WHERE d.version_count > 0 AND \(live) ORDER BY \(order.orderBy) LIMIT 1 OFFSET \(position - 1)
      """
    ) { ($0.int64(0), $0.int64(1), $0.int64(2)) }
  }

  /// The number of live drafts with versions, which every live plan lists (`version_count >
  /// 0`, not in the trash). count(*) of a whole table is SQLite's count of an index's entries
  /// page by page, without reading them one by one (OP_Count); the drafts without versions are
  /// an index lookup, and those in the trash a walk of draft_in_trash.
  ///
  /// - Throws: `StoreError`.
  package static func draftsWithVersions(in db: Database) throws -> Int {
    try db.fetchOne(
      """
      SELECT (SELECT count(*) FROM draft) - (SELECT count(*) FROM draft WHERE version_count = 0)
        - (SELECT count(*) FROM draft INDEXED BY draft_in_trash WHERE deleted_ms IS NOT NULL AND version_count > 0)
      """
    ) { $0.int(0) } ?? 0
  }

  /// The newest save of any live draft (0 when there is none): one step into draft_by_latest.
  ///
  /// - Throws: `StoreError`.
  package static func newestSave(in db: Database) throws -> Int64 {
    try db.fetchOne("SELECT max(latest_saved_ms) FROM draft AS d WHERE \(live)") { $0.isNull(0) ? 0 : $0.int64(0) }
      ?? 0
  }

  // MARK: - Running

  /// How much of the archive file a searching connection maps: bounded, because every page
  /// of the map a process touches counts in its resident memory (and a service unit's memory
  /// limit) until the process ends, so a map of the whole file makes a long `serve` look as
  /// large as the archive. Past the bound, pages are read through the page cache.
  static let mapSize: Int64 = 64 << 20

  /// Readies `db` for searches. Searches read rows scattered over the file (a driver's drafts,
  /// their versions); through the connection's 2 MB page cache each is a read() of a page the
  /// OS already holds. Mapped, it is a memory access (SQLite's "Memory-Mapped I/O"). Only
  /// for searching connections: an import's readers keep their memory flat. `scattered`
  /// false is for a walk of one index in key order (every draft, no term): its pages come in
  /// order through the page cache, where a map would only add each page it passes to the
  /// process's resident memory, up to the whole map.
  ///
  /// - Throws: `StoreError`.
  package static func prepareForSearching(_ db: Database, scattered: Bool = true) throws {
    try db.execute("PRAGMA mmap_size = \(scattered ? mapSize : 0)")
  }

  /// Runs `query`, calling `body` with each draft as its row arrives.
  ///
  /// - Throws: `StoreError`.
  package static func forEachDraft(_ query: DraftSearchQuery, in db: Database, _ body: (DraftListing) -> Void) throws {
    // Not cached: the SQL's shape follows the query's, and the cache keeps every text.
    try db.makeStatement(query.sql).forEach(query.arguments) { row in
      body(
        DraftListing(
          id: row.int64(4), name: row.string(0), versionCount: row.int(1), latestSavedMilliseconds: row.int64(2),
          deletedMilliseconds: row.isNull(3) ? nil : row.int64(3)))
    }
  }

  /// SQLite's plan for `query`, one line per step (EXPLAIN QUERY PLAN's `detail`).
  ///
  /// - Throws: `StoreError`.
  package static func plan(of query: DraftSearchQuery, in db: Database) throws -> [String] {
    var lines: [String] = []
    try db.makeStatement("EXPLAIN QUERY PLAN " + query.sql).forEach(query.arguments) { lines.append($0.string(3)) }
    return lines
  }
}
