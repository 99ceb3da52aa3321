// Finding drafts: `list` with filters, `search`, sorted and limited, as a list or a stream.
// SearchCompiler chooses the plan, the store's DraftSearchSQL runs it; this file shapes the rows.

import FoundationEssentials
import InklingFormats
import InklingStore

/// A draft as `list` shows it.
public struct DraftSummary: Sendable, Equatable {
  public var id: DraftID
  public var name: String
  public var versionCount: Int
  /// The save time of the newest version.
  public var lastSaved: Date
  /// When it went to the trash; nil for a live draft.
  public var deleted: Date? = nil
  /// Its stars, 1 to 5; nil when it has none.
  public var stars: Int? = nil
  /// Its tags, as written, sorted as names are.
  public var tags: [String] = []
}

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

  /// How many drafts `query` matches, counted up to `cap` (a result above `cap` means "more").
  ///
  /// Every draft is counted from an index in one statement, without reading the drafts; a
  /// query with terms counts the drafts its own plan finds.
  ///
  /// ```swift
  /// let shown = try archive.drafts(limit: 40)
  /// let total = try archive.draftCount(upTo: 100_000)  // "40 of 1,234 drafts"
  /// ```
  /// - Throws: `ArchiveError` when the archive cannot be read.
  public func draftCount(matching query: DraftQuery = .all, upTo cap: Int) throws(ArchiveError) -> Int {
    guard query.expression == .all, !query.inTrash else {
      var total = 0
      try forEachDraft(matching: query, limit: cap + 1) { _ in total += 1 }
      return total
    }
    let total = try storeCall { try DraftSearchSQL.draftsWithVersions(in: database) }
    return min(total, cap + 1)
  }

  /// Calls `body` with each draft `query` matches, in order, as rows arrive (for `--ndjson`).
  /// With `marks` false the summaries carry no stars or tags, which are then not read: a list
  /// of names only (`--paths`) need not look up each draft's tags.
  ///
  /// - Throws: `ArchiveError` when the archive cannot be read.
  public func forEachDraft(
    matching query: DraftQuery = .all, sort: DraftSort = .newest, limit: Int? = nil, marks: Bool = true,
    _ body: (DraftSummary) -> Void
  ) throws(ArchiveError) {
    try forEachDraft(matching: query, sort: sort, limit: limit, marks: marks, compiler: nil, body)
  }

  /// `forEachDraft` with a compiler of other thresholds (tests: every plan on a small archive).
  func forEachDraft(
    matching query: DraftQuery, sort: DraftSort, limit: Int?, marks wanted: Bool = true, compiler: SearchCompiler?,
    _ body: (DraftSummary) -> Void
  ) throws(ArchiveError) {
    try storeCall {
      try checkInks(of: query)
      try DraftSearchSQL.prepareForSearching(database, scattered: query.expression != .all)
      let marked =
        try wanted
        && (query.inTrash ? DraftMarks.anyMarksInTrash(in: database) : DraftMarks.anyMarks(in: database))
      let marks = marked ? try DraftMarks(database) : nil
      func run(_ compiled: CompiledSearch, _ body: (DraftSummary) -> Void) throws {
        var failure: (any Error)?
        try DraftSearchSQL.forEachDraft(compiled.query, in: database) { row in
          var summary = DraftSummary(
            id: DraftID(rawValue: row.id), name: row.name, versionCount: row.versionCount,
            lastSaved: Self.date(row.latestSavedMilliseconds), deleted: row.deletedMilliseconds.map(Self.date))
          if let marks, failure == nil {
            do {
              let found = try marks.marks(ofDraft: row.id)
              summary.stars = found.stars
              summary.tags = found.tags
            } catch {
              failure = error
            }
          }
          body(summary)
        }
        if let failure { throw failure }
      }
      let compiler = compiler ?? SearchCompiler(database: database, bounds: walkBounds)
      let compiled =
        query.inTrash
        ? SearchCompiler.trashPlan(query.expression, sort: sort, limit: limit)
        : try compiler.compile(query.expression, sort: sort, limit: limit)
      guard compiled.plan == .boundedWalk, let limit else { return try run(compiled, body) }
      // Its rows are the answer only if there are `limit` of them. The fallback reads where
      // the walk stopped, which only the walk's snapshot tells (SearchCompiler.fallback).
      func walkThenFallback() throws {
        var rows: [DraftSummary] = []
        try run(compiled) { rows.append($0) }
        guard rows.count < limit,
          let fallback = try compiler.fallback(
            after: compiled, query.expression, sort: sort, limit: limit, found: rows.count)
        else { return rows.forEach(body) }
        if fallback.continues { rows.forEach(body) }
        try run(fallback, body)
      }
      try database.isAutocommit ? database.readTransaction(walkThenFallback) : walkThenFallback()
    }
  }

  /// Refuses an `ink:` term of the search language whose name is neither one PencilKit names
  /// nor one this archive's drawings use: a misspelt ink would match nothing, without a word.
  func checkInks(of query: DraftQuery) throws {
    guard let source = query.source else { return }
    let known = Set(Ink.InkType.knownTypes.map(\.name))
    for ink in source.inks where !known.contains(ink.name) {
      guard try !DrawingIndexRecords.usesInk(named: ink.name, in: database) else { continue }
      let others = try DrawingIndexRecords.inkNames(in: database).filter { !known.contains($0) }
      let names = Ink.InkType.knownTypes.map(\.name).joined(separator: ", ")
      let more = others.isEmpty ? "" : "; this archive's drawings also use " + others.joined(separator: ", ")
      throw ArchiveError.searchSyntax(
        SearchSyntaxError(
          query: source.text, column: ink.column, message: "unknown ink '\(ink.name)'; the inks are \(names)\(more)"))
    }
  }

  /// The drafts a query in the search language (or `@NAME`, a saved search) matches.
  ///
  /// ```swift
  /// let found = try archive.search("name:cat saved:>=2025-10 strokes:>100", limit: 50)
  /// ```
  /// - Throws: `ArchiveError.searchSyntax` for a query that does not parse (its description
  ///   shows the query with a caret under the problem); `.noSuchSavedSearch`; or when the
  ///   archive cannot be read.
  public func search(
    _ text: String, sort: DraftSort = .newest, limit: Int? = nil, now: Date = Date(), timeZone: TimeZone? = nil
  ) throws(ArchiveError) -> [DraftSummary] {
    try drafts(matching: try query(text, now: now, timeZone: timeZone), sort: sort, limit: limit)
  }

  /// The SQL a query runs and SQLite's plan for it (EXPLAIN QUERY PLAN), for tests and `--explain`;
  /// for a bounded walk, the walk's and then its fallback's.
  func explain(
    _ query: DraftQuery, sort: DraftSort = .newest, limit: Int? = nil, compiler: SearchCompiler? = nil
  ) throws(ArchiveError)
    -> (sql: String, plan: [String])
  {
    try storeCall {
      // A bounded walk's plan, then that of its fallback when it finds nothing (none when the
      // walk reads every draft).
      let compiler = compiler ?? SearchCompiler(database: database)
      let compiled =
        query.inTrash
        ? SearchCompiler.trashPlan(query.expression, sort: sort, limit: limit)
        : try compiler.compile(query.expression, sort: sort, limit: limit)
      var parts = [compiled]
      if compiled.plan == .boundedWalk, let limit,
        let fallback = try compiler.fallback(after: compiled, query.expression, sort: sort, limit: limit, found: 0)
      {
        parts.append(fallback)
      }
      let plan = try parts.flatMap { try DraftSearchSQL.plan(of: $0.query, in: database) }
      return (parts.map(\.sql).joined(separator: "\n-- fallback:\n"), plan)
    }
  }
}
