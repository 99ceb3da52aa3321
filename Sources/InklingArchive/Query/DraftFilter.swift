// What `list` and `search` ask the archive for: one SearchExpression, built either from the
// search language or from `list`'s flags (--name, --exact, --glob, --since, --until, --on).

import FoundationEssentials

/// Which drafts to list.
///
/// ```swift
/// let october = try DraftQuery(name: "cat", since: "2025-10-01", until: "2025-10-31")
/// let found = try DraftQuery(search: "(name:portrait or name:study) and strokes:>100")
/// ```
public struct DraftQuery: Hashable, Sendable {
  public var expression: SearchExpression
  /// The text it was parsed from and its `ink:` terms, when it comes from the search language:
  /// an ink name is checked against the archive's inks when the query runs.
  var source: (text: String, inks: [InkTerm])?
  /// Drafts in the trash instead of live ones (`delete` puts drafts there).
  public var inTrash = false

  /// Every draft.
  public static let all = DraftQuery(.all)

  /// Every draft in the trash.
  public static let trash = DraftQuery(.all, inTrash: true)

  public init(_ expression: SearchExpression, inTrash: Bool = false) {
    self.expression = expression
    self.inTrash = inTrash
  }

  /// Queries are equal when they ask for the same drafts.
  public static func == (a: DraftQuery, b: DraftQuery) -> Bool {
    a.expression == b.expression && a.inTrash == b.inTrash
  }
  public func hash(into hasher: inout Hasher) {
    hasher.combine(expression)
    hasher.combine(inTrash)
  }

  /// The drafts both this query and `other` ask for (`list`'s flags and a search). The ink
  /// names checked when it runs are those of the one whose text has them.
  public func narrowed(to other: DraftQuery) -> DraftQuery {
    var both = self
    both.expression = expression && other.expression
    if both.source == nil { both.source = other.source }
    return both
  }

  /// The drafts a query in the search language asks for (see SearchParser).
  ///
  /// - Throws: `SearchSyntaxError` with the column of the problem.
  public init(search text: String, now: Date = Date(), timeZone: TimeZone? = nil) throws(SearchSyntaxError) {
    let parsed = try SearchParser.parseRecordingInks(text, now: now, timeZone: timeZone)
    self.init(parsed.expression)
    source = (text, parsed.inks)
  }

  /// The drafts `list`'s flags ask for; every flag given must hold.
  ///
  /// - Parameters:
  ///   - name: text the name contains (case- and accent-insensitive).
  ///   - exact: the name, exactly (after NFC).
  ///   - glob: a pattern for the whole name: `*`, `?`, `[…]`.
  ///   - since: a date; a version was saved on or after its start (`2025-10` = October 1st).
  ///   - until: a date; a version was saved before its end (`2025-10-31` = that whole day).
  ///   - on: a date; a version was saved within it (`--on yesterday`).
  ///   `since`, `until` and `on` together describe one period in which a version was saved.
  ///   - source: text a source label of one of its versions contains (any case and accents).
  ///   - starred: only drafts with stars.
  ///   - timeZone: the time zone of those dates; nil: the system's local time ($TZ, else
  ///     /etc/localtime), read only when a date is given.
  /// - Throws: `ArchiveError.invalidDate` for a date that is not a date, `.invalidPattern` for a
  ///   glob that does not parse.
  public init(
    name: String? = nil, exact: String? = nil, glob: String? = nil, since: String? = nil, until: String? = nil,
    on: String? = nil, source: String? = nil, starred: Bool = false, now: Date = Date(), timeZone: TimeZone? = nil
  ) throws(ArchiveError) {
    var expression = SearchExpression.all
    if starred { expression = expression && .term(.stars(.greaterOrEqual, 1)) }
    if let source { expression = expression && .term(.source(source)) }
    if let name { expression = expression && .term(.name(.contains(name))) }
    if let exact { expression = expression && .term(.name(.exact(exact))) }
    if let glob {
      guard SearchParser.isValidGlob(glob) else {
        throw .invalidPattern(glob, problem: "'[' without a matching ']'")
      }
      expression = expression && .term(.name(.glob(glob)))
    }
    // On the timeline, as the flags read: `--since 7d` from that moment on, `--until 7d` up to
    // it (a search compares an age as an age instead: `saved:<7d` is the first of these).
    for (text, comparison, age) in [
      (since, SearchComparison.greaterOrEqual, SearchComparison.lessOrEqual), (until, .lessOrEqual, .greaterOrEqual),
      (on, .equal, .equal),
    ] {
      guard let text else { continue }
      let range = try DateExpression.parse(text, now: now, timeZone: timeZone)
      expression = expression && .term(.saved(SearchPeriod(range.isAge ? age : comparison, range)))
    }
    self.init(expression)
  }
}
