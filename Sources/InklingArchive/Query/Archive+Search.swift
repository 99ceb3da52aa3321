// Finding drafts: `list` with filters, `search`, sorted and limited, as a list or a stream.
// The SQL comes from SearchCompiler; this file runs it and shapes the rows.

import Foundation
import InklingStore

extension Archive {
  /// The drafts `query` matches, in `sort` order (newest save first by default), at most `limit`.
  ///
  /// `drafts()` is every draft, newest first, as in the app.
  /// ```swift
  /// let recent = try archive.drafts(matching: DraftQuery(name: "cat", since: "7d"), limit: 20)
  /// ```
  /// - Throws: `ArchiveError` when the archive cannot be read.
  public func drafts(matching query: DraftQuery = .all, sort: DraftSort = .newest, limit: Int? = nil)
    throws(ArchiveError) -> [DraftSummary]
  {
    var drafts: [DraftSummary] = []
    try forEachDraft(matching: query, sort: sort, limit: limit) { drafts.append($0) }
    return drafts
  }

  /// Calls `body` with each draft `query` matches, in order, as rows arrive (for `--ndjson`).
  ///
  /// - Throws: `ArchiveError` when the archive cannot be read.
  public func forEachDraft(
    matching query: DraftQuery = .all, sort: DraftSort = .newest, limit: Int? = nil, _ body: (DraftSummary) -> Void
  ) throws(ArchiveError) {
    try storeCall {
      // Not cached: the SQL's shape follows the query's, and the cache keeps every text.
      let compiled = try SearchCompiler(database: database).compile(query.expression, sort: sort, limit: limit)
      try database.makeStatement(compiled.sql).forEach(compiled.arguments) { row in
        body(DraftSummary(name: row.string(0), versionCount: row.int(1), lastSaved: Self.date(row.int64(2))))
      }
    }
  }

  /// The drafts a query in the search language matches.
  ///
  /// ```swift
  /// let found = try archive.search("name:cat saved:>=2025-10 strokes:>100", limit: 50)
  /// ```
  /// - Throws: `ArchiveError` of kind `.invalidRequest` (exit status 2) whose message shows
  ///   the query with a caret under a syntax error; or when the archive cannot be read.
  public func search(
    _ text: String, sort: DraftSort = .newest, limit: Int? = nil, now: Date = Date(), timeZone: TimeZone = .current
  ) throws(ArchiveError) -> [DraftSummary] {
    let query: DraftQuery
    do {
      query = try DraftQuery(search: text, now: now, timeZone: timeZone)
    } catch {
      throw ArchiveError(error)
    }
    return try drafts(matching: query, sort: sort, limit: limit)
  }

  /// The SQL a query runs and SQLite's plan for it (EXPLAIN QUERY PLAN), for tests and `--explain`.
  package func explain(_ query: DraftQuery, sort: DraftSort = .newest, limit: Int? = nil) throws(ArchiveError)
    -> (sql: String, plan: [String])
  {
    try storeCall {
      let compiled = try SearchCompiler(database: database).compile(query.expression, sort: sort, limit: limit)
      let plan = try database.makeStatement("EXPLAIN QUERY PLAN " + compiled.sql).fetchStrings(compiled.arguments)
      return (compiled.sql, plan)
    }
  }
}

extension Statement {
  /// Column 3 (`detail`) of every row: the lines of an EXPLAIN QUERY PLAN.
  fileprivate func fetchStrings(_ arguments: [(any DatabaseValueConvertible)?]) throws -> [String] {
    var lines: [String] = []
    try forEach(arguments) { lines.append($0.string(3)) }
    return lines
  }
}
