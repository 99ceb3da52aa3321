// A SearchExpression → a plan and the store's query for it (InklingStore's DraftSearchSQL,
// DraftPredicate and DraftCandidates write the SQL, with every value a bound parameter; this
// file and SearchCompiler+Terms.swift choose what to run).
//
// Each term compiles to two things (SearchCompiler+Terms.swift):
//   - a row predicate on the draft (DraftPredicate), exact, cheap for one draft (a column
//     compare, or an index probe keyed by its id or newest version); the whole expression
//     becomes the WHERE clause, so and/or/not need nothing special;
//   - when an index can list its drafts, a *driver*: its candidate drafts (DraftCandidates; a
//     superset is fine: the WHERE clause has the last word), and their size, estimated cheaply
//     (a count of at most `estimateCap` index entries).
//
// Plans (invariant: none reads all of `draft` or `version` unless the result may be a large
// part of it: there is no limit, and no term has an index or the smallest index lists at
// least `fallbackEstimateCap` drafts, when reading draft_by_latest through costs less):
//   driver  — the smallest driver of an `and` (the union of drivers for an `or`) is the outer
//             loop, then sort (DraftSearchSQL.driven). Chosen when there is no limit, or the
//             driver is small (< estimateCap).
//             A `saved` period is "latest >= L and first < U and a version in [L, U)", and the
//             version rows are read only when neither the first nor the newest save is in it.
//   period  — newest first with a `saved` period that ends at U: the drafts that lived
//             across U come first, then those whose newest save is in the period. The first
//             are read class by class from draft_by_span (migration 0006 says why that range
//             is short), the second from draft_by_latest below U; the newest `limit` of each
//             part are merged. Reads a few hundred index entries however old the period.
//             An `imported` period that ends at U before the newest save is read the same
//             way: a match has a version imported before U, so it was first saved before U
//             (the same parts) or imported before its first save (draft_by_early_import,
//             migration 0008: one more part, empty unless clocks or stamps were wrong).
//   walk    — no driver, or a large one: read drafts in the sort's own index
//             (draft_by_latest for newest first) and stop after `limit` matches. A large
//             driver usually means dense matches, which the walk meets quickly; but a large
//             estimate can hide few matches (common grams, rare term), so for newest/oldest
//             the walk is *bounded* to the first `walkLength` drafts of the index, counted as
//             it reads them (DraftSearchSQL.boundedWalk); when it finds fewer than `limit`
//             there, the walk goes on from where it stopped, or the driver runs instead,
//             whichever the density it saw and larger estimates say is cheaper (`fallback`).
//             Where it stopped, the key of the `walkLength`-th draft, is read only then: a
//             walk that finds its matches reads no more of the index than the drafts it passed.
// EXPLAIN QUERY PLAN checks of each live in SearchTests.
//
// Why the walk is cheap: draft_by_latest holds (latest_saved_ms, first_saved_ms, id,
// version_count, name_folded) and, since migration 0008, the newest drawing's visible stroke
// count and inks (bits) and the first and newest import, so name, date, "has versions",
// strokes, ink and one-sided imported tests reject drafts from the index alone; SQLite defers
// reading a table row until a column outside the index is needed (OP_DeferredSeek). Terms
// that read other rows (background, an ink outside the bit table, a period inside a draft's
// life) are ordered after those that do not (`cost`). "Has versions" is `version_count > 0`: as
// `latest_saved_ms IS NOT NULL` it would become a range on the index, walked upwards, and
// newest-first would then sort every draft.

import FoundationEssentials
import InklingStore

/// The store's query for a search, and the plan it follows.
struct CompiledSearch {
  /// `boundedWalk`: its rows are the answer only if there are `limit` of them; otherwise
  /// they are only those of the part it read, and `SearchCompiler.fallback` gives the plan.
  enum Plan: Equatable { case driver, walk, boundedWalk, period }
  var query: DraftSearchQuery
  var plan: Plan
  /// For a fallback: its rows follow the bounded walk's (the walk goes on past its bound),
  /// rather than replace them.
  var continues = false

  var sql: String { query.sql }
  var arguments: [(any DatabaseValueConvertible)?] { query.arguments }
}

/// The last walk bound a connection read, and what it was read for. A bound is where a bounded
/// walk stopped, counted in drafts, and where its fallback goes on: one kept after a write
/// would make the fallback list a draft again or skip one, hence the key.
final class WalkBounds {
  struct Key: Equatable {
    /// `PRAGMA data_version` and the connection's total changes: equal while nothing wrote.
    var dataVersion: Int64
    var totalChanges: Int64
    var sort: DraftSort
    var walkLength: Int
  }
  var known: (key: Key, bound: DraftWalkKey?)?
}

struct SearchCompiler {
  /// The most grams of one term whose lists are sized (evenly spread over the term).
  static let gramsSized = 4

  let database: Database
  /// The most index entries read to estimate a driver's size; a driver below it is used.
  /// Reading that many rows of a driver is a small part of the time a search may take
  /// (BENCHMARKS.md, "Search at a million drafts"), however large the archive.
  var estimateCap = 4_000
  /// The drafts a bounded walk reads before it gives up: entries of draft_by_latest, read in
  /// its own order, each cheaper than a driver's row (see `fallback`).
  var walkLength = 10_000
  /// The most index entries read to size the drivers again when a bounded walk gave up.
  var fallbackEstimateCap = 50_000
  /// Where `walkBound` keeps its answer between fallbacks on one connection (the archive's).
  var bounds: WalkBounds?

  /// The query listing the drafts of `expression` in `sort` order, and its plan.
  ///
  /// - Throws: `StoreError` from the size estimates.
  func compile(_ expression: SearchExpression, sort: DraftSort, limit: Int?) throws -> CompiledSearch {
    let expression = Self.mergingPeriods(expression)
    let predicate = Self.predicate(expression)
    guard let limit = limit.map({ max(0, $0) }) else {
      // Every match: a driver unless it lists a large part of the archive, which reading
      // the sort's index through costs less than looking up and sorting.
      var wide = self
      wide.estimateCap = fallbackEstimateCap
      if let driver = try wide.driver(expression), driver.estimate < fallbackEstimateCap {
        return Self.driverPlan(driver, expression, sort: sort, limit: nil)
      }
      return Self.walkPlan(predicate, sort: sort, limit: nil)
    }
    let driver = try self.driver(expression)
    if let driver, driver.estimate < estimateCap {
      return Self.driverPlan(driver, expression, sort: sort, limit: limit)
    }
    if sort == .newest, let period = Self.savedPeriod(expression), let upper = period.upper {
      return Self.periodPlan(upper: upper, predicate, limit: limit)
    }
    // An `imported` period that ends before the newest save (past ones: a period reaching
    // today matches most of the newest drafts, which any walk meets first).
    if sort == .newest, let period = Self.importedPeriod(expression), let upper = period.upper,
      try upper <= newestSave()
    {
      return Self.periodPlan(upper: upper, predicate, limit: limit, importedBefore: true)
    }
    guard driver != nil, sort == .newest || sort == .oldest else {
      return Self.walkPlan(predicate, sort: sort, limit: limit)
    }
    return CompiledSearch(
      query: DraftSearchSQL.boundedWalk(where: predicate, order: Self.order(sort), limit: limit, length: walkLength),
      plan: .boundedWalk)
  }

  /// The plan to run when `walk`, a bounded walk from `compile`, found only `found` < `limit`
  /// matches in the `walkLength` drafts it read: the rest of the walk (`continues`: its rows
  /// follow the walk's), or the smallest driver, whichever should read less; nil when the
  /// walk read every draft (there are no more than `walkLength`), its rows the whole answer.
  /// At the density the walk saw, the missing matches lie within walkLength · (limit − found)
  /// / found more drafts; a walk's draft costs about a fifth of a driver's row.
  ///
  /// Reads where the walk stopped (`walkBound`): in the walk's own snapshot, or a draft saved
  /// or trashed meanwhile would move the bound, and the rest would list a draft again or skip one.
  ///
  /// - Throws: `StoreError` from the bound and the size estimates.
  func fallback(
    after walk: CompiledSearch, _ expression: SearchExpression, sort: DraftSort, limit: Int, found: Int
  ) throws -> CompiledSearch? {
    precondition(walk.plan == .boundedWalk, "only a bounded walk has a fallback")
    guard let bound = try walkBound(sort) else { return nil }
    let expression = Self.mergingPeriods(expression)
    var rest = Self.walkPlan(Self.predicate(expression), sort: sort, limit: limit - found, after: bound)
    rest.continues = true
    let walkDrafts = Double(walkLength) * Double(limit - found) / max(Double(found), 0.5)
    // Drivers are sized only up to the estimate that would lose to the walk: when the walk
    // found nearly enough, a few hundred index entries, not 50,000 per term.
    var wide = self
    wide.estimateCap = min(fallbackEstimateCap, max(1, Int((walkDrafts / 5).rounded(.up))))
    // A driver that is a range of draft_by_latest lists drafts in the walk's own order.
    guard let driver = try wide.driver(expression), !driver.followsLatest else { return rest }
    guard Double(driver.estimate) * 5 < walkDrafts else { return rest }
    return Self.driverPlan(driver, expression, sort: sort, limit: limit)
  }

  // MARK: - Plans

  /// The drafts of `driver` that match `expression` (merged), sorted. The term the driver
  /// implies is not tested again: for a period, that test reads the draft's versions.
  static func driverPlan(_ driver: Driver, _ expression: SearchExpression, sort: DraftSort, limit: Int?)
    -> CompiledSearch
  {
    var rest = expression
    if let implied = driver.implies {
      if rest == implied {
        rest = .all
      } else if case .and(var children) = rest, let index = children.firstIndex(of: implied) {
        children.remove(at: index)
        rest = children.count == 1 ? children[0] : .and(children)
      }
    }
    return CompiledSearch(
      query: DraftSearchSQL.driven(
        by: driver.candidates, where: Self.predicate(rest), order: order(sort), limit: limit),
      plan: .driver)
  }

  /// Drafts in the order of `sort`'s index; with `after`, only past that key.
  static func walkPlan(_ predicate: DraftPredicate, sort: DraftSort, limit: Int?, after: DraftWalkKey? = nil)
    -> CompiledSearch
  {
    CompiledSearch(
      query: DraftSearchSQL.walk(where: predicate, order: order(sort), limit: limit, after: after), plan: .walk)
  }

  /// Drafts in the trash (`DraftQuery.inTrash`), read from their own index and sorted.
  static func trashPlan(_ expression: SearchExpression, sort: DraftSort, limit: Int?) -> CompiledSearch {
    CompiledSearch(
      query: DraftSearchSQL.trash(where: predicate(mergingPeriods(expression)), order: order(sort), limit: limit),
      plan: .walk)
  }

  /// Newest first, for a query that requires a version saved before `upper` (see the file
  /// comment and DraftSearchSQL.periods); with `importedBefore`, imported before `upper`.
  static func periodPlan(upper: Int64, _ predicate: DraftPredicate, limit: Int, importedBefore: Bool = false)
    -> CompiledSearch
  {
    CompiledSearch(
      query: DraftSearchSQL.periods(endingAt: upper, where: predicate, limit: limit, importedBefore: importedBefore),
      plan: .period)
  }

  /// The key (latest, first, id) of the `walkLength`-th draft with versions in `sort`'s
  /// order, where a bounded walk stops; nil when there are fewer drafts (the walk read them
  /// all). Kept in `bounds` until the archive changes: finding it reads `walkLength` index
  /// entries, about a millisecond at a million drafts, and a connection that searches mostly
  /// searches again.
  func walkBound(_ sort: DraftSort) throws -> DraftWalkKey? {
    guard let bounds else { return try readWalkBound(sort) }
    let key = WalkBounds.Key(
      dataVersion: try database.dataVersion(), totalChanges: database.totalChanges, sort: sort,
      walkLength: walkLength)
    if let known = bounds.known, known.key == key { return known.bound }
    let bound = try readWalkBound(sort)
    bounds.known = (key, bound)
    return bound
  }

  private func readWalkBound(_ sort: DraftSort) throws -> DraftWalkKey? {
    try DraftSearchSQL.walkKey(at: walkLength, order: Self.order(sort), in: database)
  }

  /// The newest save of any draft (0 when there is none).
  func newestSave() throws -> Int64 { try DraftSearchSQL.newestSave(in: database) }

  /// The store's order for `sort`.
  static func order(_ sort: DraftSort) -> DraftOrder {
    switch sort {
    case .newest: .newest
    case .oldest: .oldest
    case .name: .name
    case .versions: .versions
    case .stars: .stars
    }
  }

  // MARK: - Periods

  /// The `saved` period every match must have a version in, if the expression requires one
  /// (after `mergingPeriods`: the expression's own, or one of its top-level `and`).
  static func savedPeriod(_ expression: SearchExpression) -> SearchPeriod? {
    switch expression {
    case .term(.saved(let period)): return period
    case .and(let children):
      for case .term(.saved(let period)) in children { return period }
      return nil
    default: return nil
    }
  }

  /// The `imported` period every match must have a version in, as `savedPeriod`.
  static func importedPeriod(_ expression: SearchExpression) -> SearchPeriod? {
    switch expression {
    case .term(.imported(let period)): return period
    case .and(let children):
      for case .term(.imported(let period)) in children { return period }
      return nil
    default: return nil
    }
  }

  /// The expression with the `saved` (and `imported`) terms of each `and` merged into one
  /// period: `saved:>=2025-10 saved:<2025-11` is one version saved in October, not one saved
  /// after October began and one (maybe another) saved before November.
  static func mergingPeriods(_ expression: SearchExpression) -> SearchExpression {
    switch expression {
    case .all, .term: return expression
    case .not(let inner): return .not(mergingPeriods(inner))
    case .or(let children): return .or(children.map(mergingPeriods))
    case .and(let children):
      var saved: SearchPeriod?
      var imported: SearchPeriod?
      var rest: [SearchExpression] = []
      for child in children.map(mergingPeriods) {
        switch child {
        case .term(.saved(let period)): saved = saved.map { $0.intersection(period) } ?? period
        case .term(.imported(let period)): imported = imported.map { $0.intersection(period) } ?? period
        default: rest.append(child)
        }
      }
      let merged =
        (saved.map { [SearchExpression.term(.saved($0))] } ?? [])
        + (imported.map { [SearchExpression.term(.imported($0))] } ?? []) + rest
      return merged.count == 1 ? merged[0] : .and(merged)
    }
  }
}
