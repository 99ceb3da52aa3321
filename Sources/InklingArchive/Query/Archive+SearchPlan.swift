// How a search runs, in one line: for the search benchmark's log of its slowest queries
// (inkling-bench search), so that whoever tunes the plans sees which one each query took.

import InklingStore

extension Archive {
  /// The plan `drafts(matching:sort:limit:)` runs for `query` (SearchCompiler.swift); for a
  /// bounded walk that finds fewer than `limit`, what follows it; and the estimate of the
  /// driver, when there is one. For example `boundedWalk found 12, then driver, driver
  /// estimate 3100`.
  ///
  /// - Throws: `ArchiveError` when the archive cannot be read.
  package func searchPlanSummary(_ query: DraftQuery, sort: DraftSort, limit: Int?) throws(ArchiveError) -> String {
    try storeCall {
      let compiler = SearchCompiler(database: database)
      let compiled = try compiler.compile(query.expression, sort: sort, limit: limit)
      var text = "\(compiled.plan)"
      if compiled.plan == .boundedWalk, let limit {
        var found = 0
        try DraftSearchSQL.forEachDraft(compiled.query, in: database) { _ in found += 1 }
        if found < limit {
          let fallback = try compiler.fallback(
            after: compiled, query.expression, sort: sort, limit: limit, found: found)
          let then =
            fallback.map { $0.continues ? "the rest of the walk" : "\($0.plan)" } ?? "nothing (every draft read)"
          text += " found \(found), then \(then)"
        }
      }
      if let driver = try compiler.driver(SearchCompiler.mergingPeriods(query.expression)) {
        text += ", driver estimate \(driver.estimate)"
      }
      return text
    }
  }
}
