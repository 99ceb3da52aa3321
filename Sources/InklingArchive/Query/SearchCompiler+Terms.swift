// The terms of a search, as SearchCompiler uses them: each term's row predicate on the draft
// (DraftPredicate), and its driver (DraftCandidates from an index, with a size estimate).

import FoundationEssentials
import InklingFormats
import InklingStore

extension SearchCompiler {
  // MARK: - Row predicates

  static func predicate(_ expression: SearchExpression) -> DraftPredicate {
    switch expression {
    case .all: return .all
    case .term(let term): return predicate(term)
    case .and(let children):
      // Cheap tests first: SQLite evaluates the terms of a WHERE clause in order. A period
      // inside a draft's life is two tests: the range of its first and newest times, which
      // the index holds, goes first; the test that may read versions, last.
      var pieces: [(cost: Int, offset: Int, predicate: DraftPredicate)] = []
      for (offset, child) in children.enumerated() {
        if case .term(let term) = child, let parts = periodParts(term) {
          pieces.append((0, offset, parts.range))
          pieces.append((3, offset, parts.inside))
        } else {
          pieces.append((cost(child), offset, predicate(child)))
        }
      }
      let ordered = pieces.enumerated().sorted { ($0.element.cost, $0.offset) < ($1.element.cost, $1.offset) }
      return .and(ordered.map(\.element.predicate))
    case .or(let children): return .or(children.map(predicate))
    case .not(let inner): return .not(predicate(inner))
    }
  }

  /// How much testing `expression` on one draft costs, for the order of an `and`:
  /// 0 when it compares integers that draft_by_latest holds (version count, the newest
  /// drawing's strokes and inks, one side of a saved or imported period); 1 when it tests the
  /// folded name, also in the index but text (at a million drafts, walking with the integer
  /// tests first reads draft_by_latest in about half the CPU time: they reject most drafts
  /// before `instr` runs); 2 when it reads one or two rows elsewhere (the newest version for
  /// its background; drawing_ink for an ink without a bit of its own); 3 when it may read all of a
  /// draft's versions (a period inside the draft's life).
  static func cost(_ expression: SearchExpression) -> Int {
    switch expression {
    case .all: return 0
    case .term(.versions), .term(.strokes): return 0
    case .term(.name): return 1
    case .term(.saved(let period)), .term(.imported(let period)):
      return period.lower != nil && period.upper != nil ? 3 : 0
    case .term(.ink(let ink)): return InkBits.bit(ofInkNamed: ink) == InkBits.other ? 2 : 0
    case .term(.background): return 2
    case .term(.source): return 3
    case .term(.tag): return 2
    case .term(.stars): return 1
    case .term(.note), .term(.label): return 3
    case .and(let children), .or(let children): return children.map(cost).max() ?? 0
    case .not(let inner): return cost(inner)
    }
  }

  /// The condition of a `saved:` or `imported:` term on the draft's first and latest times:
  /// a bounded period as its two parts (`periodParts`), an open one as one comparison.
  static func periodCondition(_ term: SearchTerm, _ time: DraftTime, _ period: SearchPeriod, unbounded: DraftPredicate)
    -> DraftPredicate
  {
    if let parts = periodParts(term) { return .and([parts.range, parts.inside]) }
    if let lower = period.lower, let upper = period.upper, lower >= upper { return .none }
    if let lower = period.lower { return .time(time, atOrAfter: lower) }
    if let upper = period.upper { return .time(time, before: upper) }
    return unbounded
  }

  /// A `saved` or `imported` period [lower, upper) as two tests: `range`, the draft's first
  /// time before upper and newest at or after lower (both in draft_by_latest); `inside`, the
  /// first or newest time inside the period, else a version inside it (reads versions). Nil
  /// for a one-sided or empty period.
  static func periodParts(_ term: SearchTerm) -> (range: DraftPredicate, inside: DraftPredicate)? {
    let (time, period): (DraftTime, SearchPeriod)
    switch term {
    case .saved(let p): (time, period) = (.saved, p)
    case .imported(let p): (time, period) = (.imported, p)
    default: return nil
    }
    guard let lower = period.lower, let upper = period.upper, lower < upper else { return nil }
    return (.time(time, spans: lower, upper), .time(time, within: lower, upper))
  }

  static func predicate(_ term: SearchTerm) -> DraftPredicate {
    switch term {
    case .source(let text): return .source(containsFolded: NameFolding.fold(text))
    case .stars(let comparison, let count): return .stars(Self.comparison(comparison), count)
    case .note(let text): return .note(containsFolded: NameFolding.fold(text))
    case .label(let name): return .label(folded: NameFolding.fold(name))
    case .tag(.exact(let text)): return .tag(folded: NameFolding.fold(text))
    case .tag(.prefix(let text)): return .tag(foldedPrefix: NameFolding.fold(text))
    case .name(.contains(let text)): return .nameContains(folded: NameFolding.fold(text))
    case .name(.exact(let text)): return .name(is: DraftFileName.canonicalName(text))
    case .name(.glob(let pattern)): return .nameMatches(foldedGlob: NameFolding.fold(pattern))
    case .saved(let period): return periodCondition(term, .saved, period, unbounded: .all)
    case .imported(let period):
      // As for `saved`, with the draft's first and newest import (migration 0008).
      return periodCondition(term, .imported, period, unbounded: .hasVersions)
    case .versions(let comparison, let count): return .versions(Self.comparison(comparison), count)
    case .strokes(let comparison, let count): return .strokes(Self.comparison(comparison), count)
    case .ink(let ink): return .ink(named: ink)
    case .background(let red, let green, let blue, let tolerance):
      return .background(red: red, green: green, blue: blue, tolerance: tolerance)
    }
  }

  static func comparison(_ comparison: SearchComparison) -> DraftComparison {
    switch comparison {
    case .equal: .equal
    case .greater: .greater
    case .greaterOrEqual: .greaterOrEqual
    case .less: .less
    case .lessOrEqual: .lessOrEqual
    }
  }

  // MARK: - Drivers

  /// Candidate drafts from an index, and their size estimate.
  struct Driver {
    var candidates: DraftCandidates
    /// At most `estimateCap`: the number of index entries behind the candidates.
    var estimate: Int
    /// The candidates are a range of draft_by_latest (`saved:>=`): a newest-first walk
    /// reads them in order anyway, and stops early.
    var followsLatest = false
    /// A term every candidate matches (its driver lists exactly its drafts).
    var implies: SearchExpression?
  }

  func driver(_ expression: SearchExpression) throws -> Driver? {
    switch expression {
    case .all, .not:
      return nil
    case .term(let term):
      var driver = try driver(term)
      // Exactly the drafts with a version in the period: the WHERE clause need not look.
      switch term {
      case .saved(let period) where period.lower != nil && period.upper != nil: driver?.implies = expression
      case .imported: driver?.implies = expression
      default: break
      }
      return driver
    case .and(let children):
      var best: Driver?
      for child in children {
        guard let candidate = try driver(child) else { continue }
        // Of two equal estimates (both at the cap), the one that is not the walk's own order.
        if (candidate.estimate, candidate.followsLatest ? 1 : 0) < (
          best?.estimate ?? .max, best?.followsLatest == true ? 1 : 0
        ) {
          best = candidate
        }
        // Good enough: sizing the rest would cost more. (Below the cap: at the cap, another
        // child may still be smaller.)
        if candidate.estimate < min(50, estimateCap) { break }
      }
      return best
    case .or(let children):
      var parts: [Driver] = []
      var total = 0
      for child in children {
        // Once the parts so far reach the cap, so does the union: the rest are not sized
        // (counted to 1, which only picks a valid SQL for them).
        var compiler = self
        if total >= estimateCap { compiler.estimateCap = 1 }
        guard let part = try compiler.driver(child) else { return nil }
        parts.append(part)
        total += part.estimate
      }
      return Driver(candidates: .union(parts.map(\.candidates)), estimate: min(estimateCap, total))
    }
  }

  func driver(_ term: SearchTerm) throws -> Driver? {
    switch term {
    case .name(.contains(let text)):
      return try substringDriver(NameFolding.fold(text))
    case .name(.exact(let text)):
      return try sized(.named(DraftFileName.canonicalName(text)))
    case .name(.glob(let pattern)):
      let parts = Self.globLiterals(NameFolding.fold(pattern))
      if !parts.prefix.isEmpty { return try sized(.nameStarts(folded: parts.prefix)) }
      guard let longest = parts.literals.max(by: { $0.unicodeScalars.count < $1.unicodeScalars.count }) else {
        return nil  // `*`, `???`: no literal to look up
      }
      return try substringDriver(longest)
    case .saved(let period):
      switch (period.lower, period.upper) {
      case (let lower?, let upper?):
        guard lower < upper else { return Driver(candidates: .none, estimate: 0) }
        return try sized(.saved(from: lower, before: upper))
      case (let lower?, nil):
        var driver = try sized(.latestSaved(atOrAfter: lower))
        driver.followsLatest = true
        return driver
      case (nil, let upper?):
        return try sized(.firstSaved(before: upper))
      case (nil, nil):
        return nil
      }
    case .imported(let period):
      guard period.lower != nil || period.upper != nil else { return nil }
      return try sized(.imported(from: period.lower, before: period.upper))
    case .versions(let comparison, let count):
      return try sized(.versions(Self.comparison(comparison), count))
    case .strokes(let comparison, let count):
      return try perDrawing(.strokes(Self.comparison(comparison), count))
    case .ink(let ink):
      return try perDrawing(.ink(named: ink))
    case .background:
      return nil
    case .source(let text):
      return try sized(.source(containsFolded: NameFolding.fold(text)))
    case .tag(.exact(let text)):
      return try sized(.tag(folded: NameFolding.fold(text)))
    case .tag(.prefix(let text)):
      return try sized(.tag(foldedPrefix: NameFolding.fold(text)))
    case .note(let text):
      return try sized(.note(containsFolded: NameFolding.fold(text)))
    case .label(let name):
      return try sized(.label(folded: NameFolding.fold(name)))
    case .stars(let comparison, let count):
      // Only the starred drafts are in draft_by_stars: a term that unstarred drafts (0)
      // match has no driver.
      if comparison.holds(0, count) { return nil }
      let matching = (1...5).filter { comparison.holds($0, count) }
      guard let lowest = matching.first, let highest = matching.last else {
        return Driver(candidates: .none, estimate: 0)
      }
      return try sized(.stars(from: lowest, through: highest))
    }
  }

  /// The driver for drafts whose folded name contains `term` (already folded).
  func substringDriver(_ term: String) throws -> Driver? {
    let scalars = Array(term.unicodeScalars)
    switch scalars.count {
    case 0:
      return nil
    case 1, 2:
      return try sized(.gramsStarting(with: term))
    default:
      var grams: [String] = []
      for start in 0...(scalars.count - 3) {
        var gram = String.UnicodeScalarView()
        gram.append(contentsOf: scalars[start..<start + 3])
        let text = String(gram)
        if !grams.contains(text) { grams.append(text) }
      }
      // Size a few grams spread over the term; the rarest two are intersected.
      let step = max(1, Double(grams.count - 1) / Double(Self.gramsSized - 1))
      let chosen = Set((0..<min(grams.count, Self.gramsSized)).map { Int((Double($0) * step).rounded()) })
        .sorted().map { grams[min($0, grams.count - 1)] }
      var sizes: [(gram: String, count: Int)] = []
      for gram in Set(chosen) {
        let count = try DraftCandidates.gram(gram).count(upTo: estimateCap, in: database)
        if count == 0 { return Driver(candidates: .none, estimate: 0) }
        sizes.append((gram, count))
      }
      sizes.sort { ($0.count, $0.gram) < ($1.count, $1.gram) }
      if sizes.count > 1, sizes[0].count > 500 {
        // Merging two sorted lists costs far less than looking up each draft of the first.
        return Driver(candidates: .grams(sizes[0].gram, sizes[1].gram), estimate: sizes[0].count)
      }
      return Driver(candidates: .gram(sizes[0].gram), estimate: sizes[0].count)
    }
  }

  /// A driver whose probe counts drawings: a drawing is the newest of about drafts / blobs
  /// drafts (fewer than one in a real archive; hundreds in the benchmark's, where 20,000
  /// drawings serve a million drafts), so the count is scaled by that. A count at the cap
  /// stays there: the real one may be anything above. The probe stops at the count that
  /// scales to the cap, since any count above it gives the cap too.
  func perDrawing(_ candidates: DraftCandidates) throws -> Driver {
    let (drafts, blobs) = try DraftCandidates.idBounds(in: database)
    let scale = Double(drafts) / Double(max(blobs, 1))
    var probing = self
    if scale > 1 { probing.estimateCap = max(1, Int((Double(estimateCap) / scale).rounded(.up))) }
    var driver = try probing.sized(candidates)
    guard driver.estimate < probing.estimateCap else {
      driver.estimate = estimateCap
      return driver
    }
    let scaled = (Double(driver.estimate) * scale).rounded(.up)
    driver.estimate = Int(min(Double(estimateCap), scaled))
    return driver
  }

  /// A driver of `candidates`, sized by counting at most `estimateCap` index entries.
  func sized(_ candidates: DraftCandidates) throws -> Driver {
    Driver(candidates: candidates, estimate: try candidates.count(upTo: estimateCap, in: database))
  }

  // MARK: - Globs

  /// The literal text before a glob's first wildcard, and every run of literal text.
  static func globLiterals(_ pattern: String) -> (prefix: String, literals: [String]) {
    var literals: [String] = []
    var current = ""
    var prefix: String?
    var iterator = pattern.unicodeScalars.makeIterator()
    while let scalar = iterator.next() {
      switch scalar {
      case "*", "?", "[":
        if prefix == nil { prefix = current }
        if !current.isEmpty { literals.append(current) }
        current = ""
        if scalar == "[" {
          // Skip the set: its first character may be ']' (SQLite's GLOB rules).
          var first = true
          while let next = iterator.next() {
            if next == "]" && !first { break }
            first = false
          }
        }
      default:
        current.unicodeScalars.append(scalar)
      }
    }
    if !current.isEmpty { literals.append(current) }
    return (prefix ?? current, literals)
  }
}
