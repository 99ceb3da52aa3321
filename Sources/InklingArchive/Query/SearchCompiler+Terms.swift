// The terms of a search, as SearchCompiler uses them: each term's row predicate on `draft AS
// d`, and its driver (a SELECT of candidate draft ids from an index, with a size estimate).

import Foundation
import InklingFormats
import InklingStore

extension SearchCompiler {
  // MARK: - Row predicates

  /// The bit of each ink name in draft.latest_inks: invariant 2 of migrations 0008 and 0009,
  /// whose table ink_bit holds the same bits. Every other name sets `otherInkBit`.
  static let inkBits: [String: Int64] = [
    "pen": 1, "pencil": 2, "marker": 4, "monoline": 8, "fountainpen": 16, "watercolor": 32, "crayon": 64, "eraser": 128,
  ]
  static let otherInkBit: Int64 = 256

  static func predicate(_ expression: SearchExpression, _ arguments: inout [(any DatabaseValueConvertible)?]) -> String
  {
    switch expression {
    case .all: return "1"
    case .term(let term): return predicate(term, &arguments)
    case .and(let children):
      // Cheap tests first: SQLite evaluates the terms of a WHERE clause in order. A period
      // inside a draft's life is two tests: the range of its first and newest times, which
      // the index holds, goes first; the test that may read versions, last.
      var pieces: [(cost: Int, offset: Int, sql: String, arguments: [(any DatabaseValueConvertible)?])] = []
      for (offset, child) in children.enumerated() {
        if case .term(let term) = child, let parts = periodParts(term) {
          pieces.append((0, offset, parts.range.sql, parts.range.arguments))
          pieces.append((3, offset, parts.inside.sql, parts.inside.arguments))
        } else {
          var own: [(any DatabaseValueConvertible)?] = []
          let sql = predicate(child, &own)
          pieces.append((cost(child), offset, sql, own))
        }
      }
      let ordered = pieces.enumerated().sorted { ($0.element.cost, $0.offset) < ($1.element.cost, $1.offset) }.map(
        \.element)
      arguments += ordered.flatMap(\.arguments)
      return "(" + ordered.map(\.sql).joined(separator: " AND ") + ")"
    case .or(let children): return "(" + children.map { predicate($0, &arguments) }.joined(separator: " OR ") + ")"
    case .not(let inner): return "NOT " + predicate(inner, &arguments)
    }
  }

  /// How much testing `expression` on one draft costs, for the order of an `and`:
  /// 0 when it compares integers that draft_by_latest holds (version count, the newest
  /// drawing's strokes and inks, one side of a saved or imported period); 1 when it tests the
  /// folded name, also in the index but text (at a million drafts, walking with the integer
  /// tests first reads draft_by_latest in about half the CPU time: they reject most drafts
  /// before `instr` runs); 2 when it reads one or two rows elsewhere (the newest version for
  /// its background; drawing_ink for an ink outside `inkBits`); 3 when it may read all of a
  /// draft's versions (a period inside the draft's life).
  static func cost(_ expression: SearchExpression) -> Int {
    switch expression {
    case .all: return 0
    case .term(.versions), .term(.strokes): return 0
    case .term(.name): return 1
    case .term(.saved(let period)), .term(.imported(let period)):
      return period.lower != nil && period.upper != nil ? 3 : 0
    case .term(.ink(let ink)): return inkBits[ink] == nil ? 2 : 0
    case .term(.background): return 2
    case .and(let children), .or(let children): return children.map(cost).max() ?? 0
    case .not(let inner): return cost(inner)
    }
  }

  /// The condition of a `saved:` or `imported:` term on the draft's first and latest times:
  /// a bounded period as its two parts (`periodParts`), an open one as one comparison.
  static func periodCondition(
    _ term: SearchTerm, _ period: SearchPeriod, first: String, latest: String, unbounded: String,
    _ arguments: inout [(any DatabaseValueConvertible)?]
  ) -> String {
    if let parts = periodParts(term) {
      arguments += parts.range.arguments + parts.inside.arguments
      return "(\(parts.range.sql) AND \(parts.inside.sql))"
    }
    if let lower = period.lower, let upper = period.upper, lower >= upper { return "0" }
    if let lower = period.lower {
      arguments.append(lower)
      return "\(latest) >= ?"
    }
    if let upper = period.upper {
      arguments.append(upper)
      return "\(first) < ?"
    }
    return unbounded
  }

  /// A `saved` or `imported` period [lower, upper) as two tests: `range`, the draft's first
  /// time before upper and newest at or after lower (both in draft_by_latest); `inside`, the
  /// first or newest time inside the period, else a version inside it (reads versions). Nil
  /// for a one-sided or empty period.
  static func periodParts(_ term: SearchTerm) -> (
    range: (sql: String, arguments: [(any DatabaseValueConvertible)?]),
    inside: (sql: String, arguments: [(any DatabaseValueConvertible)?])
  )? {
    let (first, latest, column, period): (String, String, String, SearchPeriod)
    switch term {
    case .saved(let p): (first, latest, column, period) = ("d.first_saved_ms", "d.latest_saved_ms", "saved_ms", p)
    case .imported(let p):
      (first, latest, column, period) = ("d.first_imported_ms", "d.latest_imported_ms", "imported_ms", p)
    default: return nil
    }
    guard let lower = period.lower, let upper = period.upper, lower < upper else { return nil }
    return (
      ("\(latest) >= ? AND \(first) < ?", [lower, upper]),
      (
        """
        (\(first) >= ? OR \(latest) < ? OR EXISTS (SELECT 1 FROM version AS v WHERE v.draft_id = d.id \
        AND v.\(column) >= ? AND v.\(column) < ?))
        """, [lower, upper, lower, upper]
      )
    )
  }

  static func predicate(_ term: SearchTerm, _ arguments: inout [(any DatabaseValueConvertible)?]) -> String {
    switch term {
    case .name(.contains(let text)):
      arguments.append(NameFolding.fold(text))
      return "instr(d.name_folded, ?) > 0"
    case .name(.exact(let text)):
      arguments.append(DraftFileName.canonicalName(text))
      return "d.name = ?"
    case .name(.glob(let pattern)):
      arguments.append(NameFolding.fold(pattern))
      return "d.name_folded GLOB ?"
    case .saved(let period):
      return periodCondition(
        term, period, first: "d.first_saved_ms", latest: "d.latest_saved_ms", unbounded: "1", &arguments)
    case .imported(let period):
      // As for `saved`, with the draft's first and newest import (migration 0008).
      return periodCondition(
        term, period, first: "d.first_imported_ms", latest: "d.latest_imported_ms", unbounded: "d.version_count > 0",
        &arguments)
    case .versions(let comparison, let count):
      arguments.append(count)
      return "d.version_count \(comparison.rawValue) ?"
    case .strokes(let comparison, let count):
      // The newest drawing's visible strokes (migration 0008). A draft whose newest drawing is
      // not indexed (yet) has none (NULL): no match, and `not strokes:…` matches it.
      arguments.append(count)
      return "coalesce(d.latest_strokes \(comparison.rawValue) ?, 0)"
    case .ink(let ink):
      // The newest drawing's inks as bits (migrations 0008, 0009; none while it is not
      // indexed); a name outside the table has the bit "some other ink", and then its
      // drawing_ink row settles it.
      if let bit = inkBits[ink] {
        arguments.append(bit)
        return "(d.latest_inks & ?) <> 0"
      }
      arguments += [otherInkBit, ink]
      return """
        ((d.latest_inks & ?) <> 0 AND EXISTS (SELECT 1 FROM version AS v JOIN drawing_ink AS di \
        ON di.blob_id = v.blob_id WHERE v.id = d.latest_version_id AND di.ink = ?))
        """
    case .background(let red, let green, let blue, let tolerance):
      arguments += [
        red - tolerance, red + tolerance, green - tolerance, green + tolerance, blue - tolerance, blue + tolerance,
      ]
      return """
        EXISTS (SELECT 1 FROM version AS v WHERE v.id = d.latest_version_id \
        AND v.background_r BETWEEN ? AND ? AND v.background_g BETWEEN ? AND ? AND v.background_b BETWEEN ? AND ?)
        """
    }
  }

  // MARK: - Drivers

  /// A SELECT of candidate draft ids (column `id`, each at most once) and its size estimate.
  struct Driver {
    var sql: String
    var arguments: [(any DatabaseValueConvertible)?]
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
      return Driver(
        sql: parts.map { "SELECT id FROM (\($0.sql))" }.joined(separator: " UNION "),
        arguments: parts.flatMap(\.arguments),
        estimate: min(estimateCap, total))
    }
  }

  func driver(_ term: SearchTerm) throws -> Driver? {
    switch term {
    case .name(.contains(let text)):
      return try substringDriver(NameFolding.fold(text))
    case .name(.exact(let text)):
      return try sized("SELECT id FROM draft WHERE name = ?", [DraftFileName.canonicalName(text)])
    case .name(.glob(let pattern)):
      let folded = NameFolding.fold(pattern)
      let parts = Self.globLiterals(folded)
      if !parts.prefix.isEmpty {
        return try sized(
          "SELECT id FROM draft WHERE name_folded >= ? AND name_folded < ?",
          [parts.prefix, parts.prefix + "\u{10FFFF}"])
      }
      guard let longest = parts.literals.max(by: { $0.unicodeScalars.count < $1.unicodeScalars.count }) else {
        return nil  // `*`, `???`: no literal to look up
      }
      return try substringDriver(longest)
    case .saved(let period):
      switch (period.lower, period.upper) {
      case (let lower?, let upper?):
        guard lower < upper else { return Driver(sql: "SELECT NULL AS id WHERE 0", arguments: [], estimate: 0) }
        // Sized by versions, not drafts: counting distinct drafts would sort them.
        return try sized(
          "SELECT DISTINCT draft_id AS id FROM version INDEXED BY version_by_saved_draft WHERE saved_ms >= ? AND saved_ms < ?",
          [lower, upper],
          probe: "SELECT 1 FROM version INDEXED BY version_by_saved_draft WHERE saved_ms >= ? AND saved_ms < ?")
      case (let lower?, nil):
        var driver = try sized("SELECT id FROM draft INDEXED BY draft_by_latest WHERE latest_saved_ms >= ?", [lower])
        driver.followsLatest = true
        return driver
      case (nil, let upper?):
        return try sized("SELECT id FROM draft INDEXED BY draft_by_first WHERE first_saved_ms < ?", [upper])
      case (nil, nil):
        return nil
      }
    case .imported(let period):
      var conditions: [String] = []
      var arguments: [(any DatabaseValueConvertible)?] = []
      if let lower = period.lower {
        conditions.append("imported_ms >= ?")
        arguments.append(lower)
      }
      if let upper = period.upper {
        conditions.append("imported_ms < ?")
        arguments.append(upper)
      }
      guard !conditions.isEmpty else { return nil }
      return try sized(
        "SELECT DISTINCT draft_id AS id FROM version INDEXED BY version_by_imported_draft WHERE "
          + conditions.joined(separator: " AND "), arguments,
        probe: "SELECT 1 FROM version INDEXED BY version_by_imported_draft WHERE "
          + conditions.joined(separator: " AND "))
    case .versions(let comparison, let count):
      return try sized(
        "SELECT id FROM draft INDEXED BY draft_by_versions WHERE version_count \(comparison.rawValue) ?", [count])
    case .strokes(let comparison, let count):
      return try perDrawing(
        """
        SELECT d2.id AS id FROM drawing AS dr INDEXED BY drawing_by_strokes JOIN version AS v ON v.blob_id = dr.blob_id \
        JOIN draft AS d2 ON d2.latest_version_id = v.id WHERE dr.stroke_count - dr.hidden_count \(comparison.rawValue) ?
        """, [count],
        probe:
          "SELECT 1 FROM drawing INDEXED BY drawing_by_strokes WHERE stroke_count - hidden_count \(comparison.rawValue) ?"
      )
    case .ink(let ink):
      return try perDrawing(
        """
        SELECT d2.id AS id FROM version AS v JOIN draft AS d2 ON d2.latest_version_id = v.id \
        WHERE v.blob_id IN (SELECT blob_id FROM drawing_ink WHERE ink = ?)
        """, [ink], probe: "SELECT 1 FROM drawing_ink WHERE ink = ?")
    case .background:
      return nil
    }
  }

  /// The driver for drafts whose folded name contains `term` (already folded).
  func substringDriver(_ term: String) throws -> Driver? {
    let scalars = Array(term.unicodeScalars)
    switch scalars.count {
    case 0:
      return nil
    case 1, 2:
      // Every character of a padded name starts a gram: a short term is a prefix range.
      let range: [(any DatabaseValueConvertible)?] = [term, term + "\u{10FFFF}"]
      return try sized(
        "SELECT DISTINCT draft_id AS id FROM name_gram WHERE gram >= ? AND gram < ?", range,
        probe: "SELECT 1 FROM name_gram WHERE gram >= ? AND gram < ?")
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
        let count = try boundedCount("SELECT 1 FROM name_gram WHERE gram = ?", [gram])
        if count == 0 { return Driver(sql: "SELECT NULL AS id WHERE 0", arguments: [], estimate: 0) }
        sizes.append((gram, count))
      }
      sizes.sort { ($0.count, $0.gram) < ($1.count, $1.gram) }
      let single = "SELECT draft_id AS id FROM name_gram WHERE gram = ?"
      if sizes.count > 1, sizes[0].count > 500 {
        // Both lists are read in draft_id order and merged (MERGE (INTERSECT), a step along a
        // list per entry), which costs far less than looking up each draft of the first.
        return Driver(
          sql: single + " INTERSECT SELECT draft_id AS id FROM name_gram WHERE gram = ? ORDER BY 1",
          arguments: [sizes[0].gram, sizes[1].gram], estimate: sizes[0].count)
      }
      return Driver(sql: single, arguments: [sizes[0].gram], estimate: sizes[0].count)
    }
  }

  /// A driver whose probe counts drawings: a drawing is the newest of about drafts / blobs
  /// drafts (fewer than one in a real archive; hundreds in the benchmark's, where 20,000
  /// drawings serve a million drafts), so the count is scaled by that. A count at the cap
  /// stays there: the real one may be anything above. The probe stops at the count that
  /// scales to the cap, since any count above it gives the cap too.
  func perDrawing(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?], probe: String) throws -> Driver {
    let (drafts, blobs) =
      try database.fetchOne("SELECT (SELECT max(id) FROM draft), (SELECT max(id) FROM blob)") {
        ($0.int64(0), $0.int64(1))
      } ?? (0, 0)
    let scale = Double(drafts) / Double(max(blobs, 1))
    var probing = self
    if scale > 1 { probing.estimateCap = max(1, Int((Double(estimateCap) / scale).rounded(.up))) }
    var driver = try probing.sized(sql, arguments, probe: probe)
    guard driver.estimate < probing.estimateCap else {
      driver.estimate = estimateCap
      return driver
    }
    let scaled = (Double(driver.estimate) * scale).rounded(.up)
    driver.estimate = Int(min(Double(estimateCap), scaled))
    return driver
  }

  /// A driver whose size is estimated by `probe` (the driver itself when nil).
  func sized(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?], probe: String? = nil) throws -> Driver {
    Driver(sql: sql, arguments: arguments, estimate: try boundedCount(probe ?? sql, arguments))
  }

  /// The number of rows of `sql`, counting at most `estimateCap`.
  func boundedCount(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?]) throws -> Int {
    try database.fetchOne("SELECT count(*) FROM (\(sql) LIMIT \(estimateCap))", arguments) { $0.int(0) } ?? 0
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
