// What a search asks for, as a tree: `field:value` terms joined by and/or/not. Both the
// search language (SearchParser) and the `list` flags (DraftFilter) produce one; the
// compiler (SearchCompiler) turns it into SQL with bound parameters only.
//
// Meaning of each term, for a draft:
//   name        its name contains the text / equals it (`=`) / matches a glob (`*?[`), all
//               compared folded (NameFolding: case-, accent-, width-insensitive, NFC = NFD);
//   saved       one of its versions was saved in the period; `and`-ed saved terms describe
//               one period (`saved:>=2025-10 saved:<2025-11` = a version saved in October);
//   imported    the same, for the time a version entered the archive;
//   versions    its number of versions;
//   strokes     the visible strokes of its newest version;
//   ink         its newest version draws with that ink (pen, pencil, marker, …);
//   background  its newest version's background colour, within a tolerance;
//   source      one of its versions came from a source whose label contains the text
//               (folded as names are; migration 0013);
//   tag         it has the tag (folded as names are), or with a value ending in `:` or `*`,
//               a tag that starts with the rest (`tag:client:`, a group; migration 0019);
//   stars       its stars, 0 when it has none (`stars:>=4`, `stars:0`);
//   note        a note on it or on one of its versions contains the text (folded as names
//               are), as `name:` finds a name by the text it contains;
//   label       one of its versions has the label (folded as names are).
// A date stands for a period (`2025-10` is the month, in local time), and the operators
// compare on the timeline: `=` inside it, `>=` from its start, `>` after its end, `<` before
// its start, `<=` until its end. An age (`7d`) compares as an age, as people read it:
// `saved:<7d` is "saved less than 7 days ago" (since that moment), `saved:>7d` "more than 7
// days ago" (before it); `saved:7d` is "in the last 7 days" (from that moment until now). Read
// as points on the timeline instead, `<1h` would be "before an hour ago", the reverse of what
// nearly everyone who types it means.

import FoundationEssentials

/// How a term compares its field with its value.
public enum SearchComparison: String, Sendable, Hashable, CaseIterable {
  case equal = "="
  case greater = ">"
  case greaterOrEqual = ">="
  case less = "<"
  case lessOrEqual = "<="

  /// Whether `lhs` compares to `rhs` this way.
  func holds<T: Comparable>(_ lhs: T, _ rhs: T) -> Bool {
    switch self {
    case .equal: lhs == rhs
    case .greater: lhs > rhs
    case .greaterOrEqual: lhs >= rhs
    case .less: lhs < rhs
    case .lessOrEqual: lhs <= rhs
    }
  }
}

/// A period of time, in milliseconds since 1970: `lower ..< upper`, either side open.
public struct SearchPeriod: Hashable, Sendable {
  public var lower: Int64?
  public var upper: Int64?

  public init(lower: Int64?, upper: Int64?) {
    self.lower = lower
    self.upper = upper
  }

  /// The instants that compare with `range` as `comparison` says (see the file comment); an
  /// age compares as an age: `< 7d` and `<= 7d` younger (from its moment on), `> 7d` and
  /// `>= 7d` older (up to it).
  public init(_ comparison: SearchComparison, _ range: DateRange) {
    if range.isAge {
      let moment = range.start
      switch comparison {
      case .equal: self.init(lower: moment, upper: range.end)
      case .less: self.init(lower: moment + 1, upper: nil)
      case .lessOrEqual: self.init(lower: moment, upper: nil)
      case .greater: self.init(lower: nil, upper: moment)
      case .greaterOrEqual: self.init(lower: nil, upper: moment + 1)
      }
      return
    }
    switch comparison {
    case .equal: self.init(lower: range.start, upper: range.end)
    case .greater: self.init(lower: range.end, upper: nil)
    case .greaterOrEqual: self.init(lower: range.start, upper: nil)
    case .less: self.init(lower: nil, upper: range.start)
    case .lessOrEqual: self.init(lower: nil, upper: range.end)
    }
  }

  /// The instants in both periods.
  public func intersection(_ other: SearchPeriod) -> SearchPeriod {
    SearchPeriod(
      lower: [lower, other.lower].compactMap { $0 }.max(), upper: [upper, other.upper].compactMap { $0 }.min())
  }

  public func contains(_ milliseconds: Int64) -> Bool {
    (lower.map { milliseconds >= $0 } ?? true) && (upper.map { milliseconds < $0 } ?? true)
  }
}

/// How a name is matched; the text is kept as typed and folded when compiled.
public enum NameMatch: Hashable, Sendable {
  /// The name contains the text.
  case contains(String)
  /// The name is the text, exactly (after NFC, as the app and the file system see names):
  /// the rule of every operation that takes a draft's name.
  case exact(String)
  /// The whole name matches the pattern: `*` any run, `?` one character, `[…]` a set.
  case glob(String)
}

/// One `field:value` condition.
public enum SearchTerm: Hashable, Sendable {
  case name(NameMatch)
  case saved(SearchPeriod)
  case imported(SearchPeriod)
  case versions(SearchComparison, Int)
  case strokes(SearchComparison, Int)
  /// A short ink name, lowercased: `pen`, `pencil`, `marker`, `fountainpen`, …
  case ink(String)
  /// Red, green, blue in 0…1, and how far each component may be off.
  case background(red: Double, green: Double, blue: Double, tolerance: Double)
  /// Text a source label of one of its versions contains (any case and accents).
  case source(String)
  /// A tag it has (any case and accents).
  case tag(TagMatch)
  /// Its stars (0 for none) compared with a number.
  case stars(SearchComparison, Int)
  /// Text a note on it, or on one of its versions, contains (any case and accents).
  case note(String)
  /// A label one of its versions has (any case and accents).
  case label(String)
}

/// How a tag is matched; the text is kept as typed and folded when compiled.
public enum TagMatch: Hashable, Sendable {
  /// The tag is the text.
  case exact(String)
  /// The tag starts with the text (`client:` finds `client:anna` and `client:bob`).
  case prefix(String)
}

/// A whole query: terms joined by `and`, `or` and `not`.
public indirect enum SearchExpression: Hashable, Sendable {
  /// Every draft (an empty query).
  case all
  case term(SearchTerm)
  case and([SearchExpression])
  case or([SearchExpression])
  case not(SearchExpression)

  /// `lhs and rhs`, flattening nested `and`s and dropping `all`.
  public static func && (lhs: SearchExpression, rhs: SearchExpression) -> SearchExpression {
    switch (lhs, rhs) {
    case (.all, _): rhs
    case (_, .all): lhs
    case (.and(let a), .and(let b)): .and(a + b)
    case (.and(let a), _): .and(a + [rhs])
    case (_, .and(let b)): .and([lhs] + b)
    default: .and([lhs, rhs])
    }
  }

  /// `lhs or rhs`, flattening nested `or`s.
  public static func || (lhs: SearchExpression, rhs: SearchExpression) -> SearchExpression {
    switch (lhs, rhs) {
    case (.all, _), (_, .all): .all
    case (.or(let a), .or(let b)): .or(a + b)
    case (.or(let a), _): .or(a + [rhs])
    case (_, .or(let b)): .or([lhs] + b)
    default: .or([lhs, rhs])
    }
  }
}

/// The order of results.
public enum DraftSort: String, Sendable, Hashable, CaseIterable {
  /// Newest save first, as in the app (the default).
  case newest
  /// Oldest newest-save first.
  case oldest
  /// By name, folded (case- and accent-insensitive), then as stored.
  case name
  /// Most versions first.
  case versions
  /// Most stars first, then newest.
  case stars

  /// The sort an argument names: `newest` (also `date`, `saved`), `oldest`, `name`, `versions`,
  /// `stars`.
  public init?(argument: String) {
    switch argument.lowercased() {
    case "newest", "date", "saved", "recent": self = .newest
    case "oldest": self = .oldest
    case "name": self = .name
    case "versions": self = .versions
    case "stars", "rating": self = .stars
    default: return nil
    }
  }
}
