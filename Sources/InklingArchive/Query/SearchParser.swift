// The search language: a tokenizer and a recursive-descent parser.
//
//   query   := or-expr?                       an empty query is every draft
//   or-expr := and-expr ("or" and-expr)*
//   and-expr:= unary ("and"? unary)*          side by side means "and"
//   unary   := "not" unary | "(" or-expr ")" | term
//   term    := FIELD ":" OP? VALUE | VALUE    a bare value is a name to look for
//   OP      := "=" | ">" | ">=" | "<" | "<="
//
// Values may be double-quoted ("plan b", with \" and \\); a quoted part is literal: never a
// keyword, a field name or a glob character. Keywords are case-insensitive.
//
// Invariants:
//   1. Every error names the column (in Unicode scalars of the query) where the problem is,
//      so SearchSyntaxError can draw a caret under it. The tokenizer works on scalars, not
//      grapheme clusters: a quote or a colon followed by a combining mark is still a quote.
//   2. Nesting (parentheses and `not`) is at most `maximumDepth` deep and a query has at
//      most `maximumTerms` terms, so neither the parser's stack nor the SQL grows unbounded.

import FoundationEssentials
import InklingFormats

/// A query that does not parse: where and why.
///
/// Its description shows the query with a caret under the problem:
/// ```
/// expected a value after 'saved:>='
///   name:cat and saved:>=
///                        ^
/// ```
public struct SearchSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The query as given.
  public let query: String
  /// Where the problem is: a count of Unicode scalars from the start.
  public let column: Int
  /// What is wrong, in one line.
  public let message: String

  public init(query: String, column: Int, message: String) {
    self.query = query
    self.column = column
    self.message = message
  }

  /// How many characters of the query a message shows on each side of the problem: a query
  /// of thousands of characters would otherwise fill the terminal with one line.
  public static let window = 60

  /// The message, then the query (up to `window` characters each side of the problem, `…`
  /// where cut) and a caret under `column`, each indented by two spaces.
  public var description: String {
    let scalars = zip(query.unicodeScalars, Quoted.unsafeScalars(in: query)).map(Self.shown)
    let at = min(max(column, 0), scalars.count)
    let start = max(0, at - Self.window)
    let end = min(scalars.count, at + Self.window)
    var shown = String.UnicodeScalarView()
    if start > 0 { shown.append("…") }
    shown.append(contentsOf: scalars[start..<at])
    // Wide characters (CJK, emoji) take two terminal columns, combining marks none.
    let offset = shown.reduce(0) { $0 + Self.width(of: $1) }
    shown.append(contentsOf: scalars[at..<end])
    if end < scalars.count { shown.append("…") }
    return "\(message)\n  \(String(shown))\n  \(String(repeating: " ", count: offset))^"
  }

  /// How a scalar of the query is shown on its one line, one column each: white space as a
  /// space; other control characters as their Unicode pictures (ESC as ␛), and the other
  /// characters unsafe to print (`Quoted`'s rule: invisible or direction-changing) as �, so
  /// that an escape sequence in a query is seen, not run, and the caret stays under its column.
  private static func shown(_ scalar: Unicode.Scalar, unsafe: Bool) -> Unicode.Scalar {
    switch scalar {
    case "\n", "\r", "\t": return " "
    case "\u{00}"..."\u{1F}": return Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}"
    case "\u{7F}": return "\u{2421}"
    default: return unsafe ? "\u{FFFD}" : scalar
    }
  }

  private static func width(of scalar: Unicode.Scalar) -> Int {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
      0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }
}

/// Parses the search language into a `SearchExpression`.
public struct SearchParser {
  /// The deepest nesting of parentheses and `not`.
  public static let maximumDepth = 32
  /// The most terms in one query.
  public static let maximumTerms = 64

  /// The fields, with the other names people may type for them.
  static let fields: [String: Field] = [
    "name": .name, "saved": .saved, "date": .saved, "imported": .imported, "versions": .versions,
    "strokes": .strokes, "ink": .ink, "background": .background, "bg": .background, "color": .background,
    "colour": .background, "source": .source, "from": .source, "tag": .tag, "tags": .tag, "stars": .stars,
    "rating": .stars, "note": .note, "notes": .note, "label": .label, "labels": .label,
  ]

  enum Field: String { case name, saved, imported, versions, strokes, ink, background, source, tag, stars, note, label }

  private let query: String
  private let now: Date
  /// nil: the system's local time, which DateExpression reads only for a query with a date
  /// (reading the zone's rules costs more than parsing a query).
  private let timeZone: TimeZone?
  private var tokens: [Token] = []
  private var position = 0
  private var depth = 0
  private var terms = 0
  /// The `ink:` terms met, for the archive to check their names (Archive.forEachDraft).
  private var inkTerms: [InkTerm] = []

  /// Parses `query`; dates are read relative to `now` in `timeZone` (nil: the system's local
  /// time).
  ///
  /// ```swift
  /// let expression = try SearchParser.parse("name:cat and saved:>=2025-10")
  /// ```
  /// - Throws: `SearchSyntaxError` with the column of the first problem.
  public static func parse(_ query: String, now: Date = Date(), timeZone: TimeZone? = nil) throws(SearchSyntaxError)
    -> SearchExpression
  {
    try parseRecordingInks(query, now: now, timeZone: timeZone).expression
  }

  /// `parse`, also returning the ink names of the query's `ink:` terms and where they are.
  static func parseRecordingInks(_ query: String, now: Date, timeZone: TimeZone?) throws(SearchSyntaxError) -> (
    expression: SearchExpression, inks: [InkTerm]
  ) {
    var parser = SearchParser(query: query, now: now, timeZone: timeZone)
    parser.tokens = try Tokenizer(query).tokens()
    let expression = try parser.parseQuery()
    return (expression, parser.inkTerms)
  }

  private init(query: String, now: Date, timeZone: TimeZone?) {
    self.query = query
    self.now = now
    self.timeZone = timeZone
  }

  // MARK: - Grammar

  private mutating func parseQuery() throws(SearchSyntaxError) -> SearchExpression {
    guard !tokens.isEmpty else { return .all }
    let expression = try parseOr()
    if position < tokens.count {
      let token = tokens[position]
      throw error(
        at: token.column, token.kind == .close ? "unexpected ')' without a matching '('" : "unexpected '\(token.text)'")
    }
    return expression
  }

  private mutating func parseOr() throws(SearchSyntaxError) -> SearchExpression {
    var expression = try parseAnd()
    while let token = peek, token.isKeyword("or") {
      position += 1
      try expectOperand(after: token)
      expression = expression || (try parseAnd())
    }
    return expression
  }

  private mutating func parseAnd() throws(SearchSyntaxError) -> SearchExpression {
    var expression = try parseUnary()
    while let token = peek, !token.isKeyword("or"), token.kind != .close {
      if token.isKeyword("and") {
        position += 1
        try expectOperand(after: token)
      }
      expression = expression && (try parseUnary())
    }
    return expression
  }

  private mutating func parseUnary() throws(SearchSyntaxError) -> SearchExpression {
    guard let token = peek else { throw error(at: end, "expected a term") }
    switch token.kind {
    case .open:
      try enter(token)
      defer { depth -= 1 }
      position += 1
      guard let next = peek, next.kind != .close else {
        throw error(at: peek?.column ?? end, "expected a term after '('")
      }
      let inner = try parseOr()
      guard let close = peek, close.kind == .close else {
        throw error(at: end, "expected ')' to close the '(' at column \(token.column + 1)")
      }
      _ = close
      position += 1
      return inner
    case .close:
      throw error(at: token.column, "expected a term before ')'")
    case .word:
      if token.isKeyword("not") {
        try enter(token)
        defer { depth -= 1 }
        position += 1
        try expectOperand(after: token)
        return .not(try parseUnary())
      }
      if token.isKeyword("and") || token.isKeyword("or") {
        throw error(at: token.column, "expected a term before '\(token.text)'")
      }
      position += 1
      terms += 1
      guard terms <= Self.maximumTerms else {
        throw error(at: token.column, "too many terms (at most \(Self.maximumTerms))")
      }
      return .term(try parseTerm(token))
    }
  }

  private mutating func enter(_ token: Token) throws(SearchSyntaxError) {
    depth += 1
    guard depth <= Self.maximumDepth else {
      throw error(at: token.column, "nested too deeply (at most \(Self.maximumDepth) levels)")
    }
  }

  private func expectOperand(after token: Token) throws(SearchSyntaxError) {
    guard let next = peek else { throw error(at: end, "expected a term after '\(token.text)'") }
    if next.kind == .close { throw error(at: next.column, "expected a term after '\(token.text)'") }
    if next.isKeyword("and") || next.isKeyword("or") {
      throw error(at: next.column, "expected a term after '\(token.text)', not '\(next.text)'")
    }
  }

  private var peek: Token? { position < tokens.count ? tokens[position] : nil }

  /// The column just after the query.
  private var end: Int { query.unicodeScalars.count }

  private func error(at column: Int, _ message: String) -> SearchSyntaxError {
    SearchSyntaxError(query: query, column: column, message: message)
  }

  // MARK: - Terms

  private mutating func parseTerm(_ token: Token) throws(SearchSyntaxError) -> SearchTerm {
    // FIELD ":" — the field and the colon must be unquoted.
    let head = (token.segments.first.flatMap { $0.quoted ? nil : $0.text } ?? "").unicodeScalars
    guard let colon = head.firstIndex(of: ":") else { return try nameTerm(.none, token.valueSegments(from: 0), token) }
    let fieldName = String(String.UnicodeScalarView(head[..<colon]))
    guard let field = Self.fields[fieldName.lowercased()] else {
      if !fieldName.isEmpty, fieldName.allSatisfy(\.isLetter) {
        throw error(
          at: token.column,
          "unknown field '\(fieldName)'; use name, saved, imported, versions, strokes, ink, background, source, tag, "
            + "stars, note or label"
        )
      }
      return try nameTerm(.none, token.valueSegments(from: 0), token)  // "10:30" is a name
    }
    // OP: the longest operator right after the colon.
    var offset = fieldName.unicodeScalars.count + 1
    let rest = head[head.index(after: colon)...]
    var comparison: SearchComparison?
    for candidate in [SearchComparison.greaterOrEqual, .lessOrEqual, .greater, .less, .equal]
    where rest.starts(with: candidate.rawValue.unicodeScalars) {
      comparison = candidate
      offset += candidate.rawValue.unicodeScalars.count
      break
    }
    let value = token.valueSegments(from: offset)
    let valueColumn = token.column + offset
    let label = "\(fieldName):\(comparison?.rawValue ?? "")"
    guard !value.isEmpty, !(value.count == 1 && value[0].text.isEmpty && !value[0].quoted) else {
      throw error(at: valueColumn, "expected a value after '\(label)'")
    }
    let text = value.map(\.text).joined()
    switch field {
    case .name:
      return try nameTerm(comparison, value, token, column: valueColumn)
    case .saved, .imported:
      let range: DateRange
      do {
        range = try DateExpression.parse(text, now: now, timeZone: timeZone)
      } catch {
        throw self.error(
          at: valueColumn,
          DateExpression.ambiguousAge(text).map {
            "'\(text)' could be minutes or months: write \($0.minutes) or \($0.months)"
          }
            ?? "'\(text)' is not a date; use \(DateExpression.forms)"
        )
      }
      let period = SearchPeriod(comparison ?? .equal, range)
      return field == .saved ? .saved(period) : .imported(period)
    case .versions, .strokes:
      guard let number = Int(text), number >= 0, number <= 1_000_000_000 else {
        throw error(
          at: valueColumn, "'\(text)' is not a count; use a whole number, e.g. \(label)\(field == .versions ? 3 : 100)")
      }
      return field == .versions ? .versions(comparison ?? .equal, number) : .strokes(comparison ?? .equal, number)
    case .ink:
      try onlyEquality(comparison, field: fieldName, column: token.column + fieldName.unicodeScalars.count + 1)
      inkTerms.append(InkTerm(name: text.lowercased(), column: valueColumn))
      return .ink(text.lowercased())
    case .source:
      try onlyEquality(comparison, field: fieldName, column: token.column + fieldName.unicodeScalars.count + 1)
      return .source(text)
    case .stars:
      guard let number = Int(text), (0...5).contains(number) else {
        throw error(at: valueColumn, "'\(text)' is not a number of stars; use 0 (none) to 5, e.g. \(label)4")
      }
      return .stars(comparison ?? .equal, number)
    case .tag:
      try onlyEquality(comparison, field: fieldName, column: token.column + fieldName.unicodeScalars.count + 1)
      // An unquoted `:` or `*` at the end asks for a group: every tag that starts with the rest.
      if let last = value.last, !last.quoted, let end = last.text.last, end == ":" || end == "*" {
        let prefix = end == "*" ? String(text.dropLast()) : text
        guard !prefix.isEmpty else { throw error(at: valueColumn, "expected a tag before '*' after '\(label)'") }
        return .tag(.prefix(prefix))
      }
      return .tag(.exact(text))
    case .note:
      try onlyEquality(comparison, field: fieldName, column: token.column + fieldName.unicodeScalars.count + 1)
      return .note(text)
    case .label:
      try onlyEquality(comparison, field: fieldName, column: token.column + fieldName.unicodeScalars.count + 1)
      return .label(text)
    case .background:
      try onlyEquality(comparison, field: fieldName, column: token.column + fieldName.unicodeScalars.count + 1)
      guard let colour = NamedColour.parse(text) else {
        throw error(
          at: valueColumn,
          "'\(text)' is not a colour; use #rrggbb, #rgb or a name: "
            + NamedColour.names.keys.sorted().joined(separator: ", "))
      }
      return .background(red: colour.red, green: colour.green, blue: colour.blue, tolerance: colour.tolerance)
    }
  }

  private func onlyEquality(_ comparison: SearchComparison?, field: String, column: Int) throws(SearchSyntaxError) {
    guard let comparison, comparison != .equal else { return }
    throw error(at: column, "'\(comparison.rawValue)' does not apply to \(field); write \(field):VALUE")
  }

  /// A name term: `=` is the whole name, unquoted `*?[` make a glob, else a substring.
  private func nameTerm(_ comparison: SearchComparison?, _ value: [Segment], _ token: Token, column: Int? = nil)
    throws(SearchSyntaxError) -> SearchTerm
  {
    let text = value.map(\.text).joined()
    switch comparison {
    case .equal:
      return .name(.exact(text))
    case .some(let other):
      throw error(
        at: (column ?? token.column) - other.rawValue.count,
        "'\(other.rawValue)' does not apply to name; use name:TEXT, name:=NAME or name:GLOB*")
    case .none:
      let wildcards: Set<Unicode.Scalar> = ["*", "?", "["]
      guard value.contains(where: { !$0.quoted && $0.text.unicodeScalars.contains(where: wildcards.contains) }) else {
        return .name(.contains(text))
      }
      // Quoted parts stay literal inside the glob.
      let pattern = value.map { segment in
        segment.quoted
          ? segment.text.unicodeScalars.map { wildcards.contains($0) ? "[\($0)]" : String($0) }.joined() : segment.text
      }.joined()
      guard Self.isValidGlob(pattern) else {
        throw error(at: column ?? token.column, "'[' without a matching ']' in the pattern '\(text)'")
      }
      return .name(.glob(pattern))
    }
  }

  /// Whether every `[` of a glob pattern has its `]` (SQLite would silently match nothing).
  static func isValidGlob(_ pattern: String) -> Bool {
    var characters = pattern.unicodeScalars.makeIterator()
    while let character = characters.next() {
      guard character == "[" else { continue }
      var first = true
      var closed = false
      while let next = characters.next() {
        if next == "]" && !first {
          closed = true
          break
        }
        first = false
      }
      if !closed { return false }
    }
    return true
  }
}

/// An `ink:` term's name and the column of its value, kept for the error that names an
/// unknown ink (only the archive knows which inks other than PencilKit's its drawings use).
struct InkTerm: Hashable, Sendable {
  var name: String
  var column: Int
}

// MARK: - Tokens

/// A run of a word: plain or quoted text.
struct Segment: Equatable {
  var text: String
  var quoted: Bool
}

struct Token: Equatable {
  enum Kind { case word, open, close }
  var kind: Kind
  /// Where the token starts, in Unicode scalars.
  var column: Int
  var segments: [Segment]

  var text: String { kind == .open ? "(" : kind == .close ? ")" : segments.map(\.text).joined() }

  /// Whether this is the unquoted keyword `keyword`, in any case.
  func isKeyword(_ keyword: String) -> Bool {
    kind == .word && segments.count == 1 && !segments[0].quoted && segments[0].text.lowercased() == keyword
  }

  /// The segments after the first `offset` characters of the word (which are unquoted).
  func valueSegments(from offset: Int) -> [Segment] {
    guard offset > 0, let first = segments.first else { return segments }
    var rest = segments
    let remainder = String.UnicodeScalarView(first.text.unicodeScalars.dropFirst(offset))
    rest[0] = Segment(text: String(remainder), quoted: first.quoted)
    if rest[0].text.isEmpty && rest.count > 1 { rest.removeFirst() }
    return rest
  }
}

/// Splits a query into words and parentheses; quotes group spaces and parentheses.
struct Tokenizer {
  private let query: String
  private let characters: [Unicode.Scalar]

  init(_ query: String) {
    self.query = query
    characters = Array(query.unicodeScalars)
  }

  func tokens() throws(SearchSyntaxError) -> [Token] {
    var tokens: [Token] = []
    var index = 0
    while index < characters.count {
      let character = characters[index]
      if character.properties.isWhitespace {
        index += 1
      } else if character == "(" || character == ")" {
        tokens.append(Token(kind: character == "(" ? .open : .close, column: index, segments: []))
        index += 1
      } else {
        let start = index
        var segments: [Segment] = []
        var plain = ""
        while index < characters.count {
          let c = characters[index]
          if c.properties.isWhitespace || c == "(" || c == ")" { break }
          if c == "\"" {
            if !plain.isEmpty {
              segments.append(Segment(text: plain, quoted: false))
              plain = ""
            }
            let (text, end) = try quoted(from: index)
            segments.append(Segment(text: text, quoted: true))
            index = end
          } else {
            plain.unicodeScalars.append(c)
            index += 1
          }
        }
        if !plain.isEmpty { segments.append(Segment(text: plain, quoted: false)) }
        tokens.append(Token(kind: .word, column: start, segments: segments))
      }
    }
    return tokens
  }

  /// The text of the quoted string opening at `start`, and the index after its closing quote.
  private func quoted(from start: Int) throws(SearchSyntaxError) -> (String, Int) {
    var text = ""
    var index = start + 1
    while index < characters.count {
      let c = characters[index]
      if c == "\"" { return (text, index + 1) }
      if c == "\\", index + 1 < characters.count, characters[index + 1] == "\"" || characters[index + 1] == "\\" {
        text.unicodeScalars.append(characters[index + 1])
        index += 2
      } else {
        text.unicodeScalars.append(c)
        index += 1
      }
    }
    throw SearchSyntaxError(query: query, column: start, message: "the quote opened here is not closed")
  }
}
