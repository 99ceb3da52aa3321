import Foundation
import Testing

@testable import InklingArchive

@Suite struct SearchParserTests {
  static let now = Date(timeIntervalSince1970: 1_795_953_600)  // 2026-11-29T12:00:00Z
  static let utc = TimeZone(identifier: "UTC")!

  func parse(_ text: String) throws(SearchSyntaxError) -> SearchExpression {
    try SearchParser.parse(text, now: Self.now, timeZone: Self.utc)
  }

  func range(_ text: String) -> DateRange { try! DateExpression.parse(text, now: Self.now, timeZone: Self.utc) }

  @Test func theIssueExamplesParse() throws {
    #expect(
      try parse("name:cat saved:>=2025-10 saved:<7d")
        == .and([
          .term(.name(.contains("cat"))), .term(.saved(SearchPeriod(.greaterOrEqual, range("2025-10")))),
          .term(.saved(SearchPeriod(.less, range("7d")))),
        ]))
    #expect(
      try parse("(name:portrait or name:study) and strokes:>100 and ink:marker")
        == .and([
          .or([.term(.name(.contains("portrait"))), .term(.name(.contains("study")))]),
          .term(.strokes(.greater, 100)), .term(.ink("marker")),
        ]))
    let background = try parse("background:#1a1a1f versions:>3 imported:today")
    let colour = SearchTerm.background(
      red: 26.0 / 255, green: 26.0 / 255, blue: 31.0 / 255, tolerance: NamedColour.hexTolerance)
    let today = SearchTerm.imported(SearchPeriod(.equal, range("today")))
    let expected = SearchExpression.and([.term(colour), .term(.versions(.greater, 3)), .term(today)])
    #expect(background == expected)
  }

  @Test func valuesAndOperators() throws {
    #expect(try parse("") == .all)
    #expect(try parse("   ") == .all)
    #expect(try parse("cat") == .term(.name(.contains("cat"))))
    #expect(try parse("name:=Plan-B") == .term(.name(.exact("Plan-B"))))
    #expect(try parse("name:\"plan b\"") == .term(.name(.contains("plan b"))))
    #expect(try parse("\"and\"") == .term(.name(.contains("and"))))
    #expect(try parse("name:cat*") == .term(.name(.glob("cat*"))))
    #expect(try parse("name:\"a*\"b*") == .term(.name(.glob("a[*]b*"))))
    #expect(try parse("10:30") == .term(.name(.contains("10:30"))))
    // A combining mark right after a quote or colon is still a separate scalar.
    #expect(try parse("name:\"\u{308}\"") == .term(.name(.contains("\u{308}"))))
    #expect(try parse("name:\u{301}e") == .term(.name(.contains("\u{301}e"))))
    #expect(try parse("NAME:Cat AND NOT ink:Pen") == .and([.term(.name(.contains("Cat"))), .not(.term(.ink("pen")))]))
    #expect(
      try parse("a or b c")
        == .or([.term(.name(.contains("a"))), .and([.term(.name(.contains("b"))), .term(.name(.contains("c")))])]))
    #expect(try parse("versions:<=2") == .term(.versions(.lessOrEqual, 2)))
    #expect(
      try parse("bg:white") == .term(.background(red: 1, green: 1, blue: 1, tolerance: NamedColour.nameTolerance)))
    #expect(
      try parse("saved:2025-10-05T14:03:12Z") == .term(.saved(SearchPeriod(.equal, range("2025-10-05T14:03:12Z")))))
  }

  @Test func periodsFollowTheTimeline() {
    let october = range("2025-10")
    #expect(SearchPeriod(.equal, october) == SearchPeriod(lower: october.start, upper: october.end))
    #expect(SearchPeriod(.greater, october) == SearchPeriod(lower: october.end, upper: nil))
    #expect(SearchPeriod(.greaterOrEqual, october) == SearchPeriod(lower: october.start, upper: nil))
    #expect(SearchPeriod(.less, october) == SearchPeriod(lower: nil, upper: october.start))
    #expect(SearchPeriod(.lessOrEqual, october) == SearchPeriod(lower: nil, upper: october.end))
    let merged = SearchCompiler.mergingPeriods(try! parse("cat saved:>=2025-10 saved:<2025-11"))
    #expect(
      merged
        == .and([.term(.saved(SearchPeriod(lower: october.start, upper: october.end))), .term(.name(.contains("cat")))])
    )
  }

  /// The error's column and message for `query`.
  func failure(_ query: String) -> (column: Int, message: String)? {
    do {
      _ = try parse(query)
      return nil
    } catch {
      return (error.column, error.message)
    }
  }

  @Test func errorsPointAtTheProblem() {
    #expect(failure("name:cat and saved:>=")?.column == 21)
    #expect(failure("name:cat and saved:>=")?.message == "expected a value after 'saved:>='")
    #expect(failure("colour:red")?.column == nil)  // an alias of background
    #expect(failure("shape:round")?.column == 0)
    #expect(failure("shape:round")?.message.hasPrefix("unknown field 'shape'") == true)
    #expect(failure("saved:2025-13")?.column == 6)
    #expect(failure("versions:>many")?.column == 10)
    #expect(failure("(name:cat or dog")?.column == 16)
    #expect(failure("(name:cat or dog")?.message == "expected ')' to close the '(' at column 1")
    #expect(failure("cat)")?.column == 3)
    #expect(failure("cat and")?.column == 7)
    #expect(failure("cat and or dog")?.column == 8)
    #expect(failure("and cat")?.column == 0)
    #expect(failure("not")?.column == 3)
    #expect(failure("()")?.column == 1)
    #expect(failure("name:\"open")?.column == 5)
    #expect(failure("name:>cat")?.column == 5)
    #expect(failure("ink:>pen")?.column == 4)
    #expect(failure("background:mauvish")?.column == 11)
    #expect(failure("name:[abc")?.column == 5)
    #expect(failure(String(repeating: "(", count: 40) + "cat" + String(repeating: ")", count: 40))?.column == 32)
    #expect(failure(String(repeating: "not ", count: 40) + "cat")?.message.hasPrefix("nested too deeply") == true)
    #expect(failure((0...70).map { "t\($0)" }.joined(separator: " "))?.message.hasPrefix("too many terms") == true)
  }

  @Test func theErrorShowsACaret() {
    let error = SearchSyntaxError(
      query: "name:cat and saved:>=", column: 21, message: "expected a value after 'saved:>='")
    #expect(
      error.description == """
        expected a value after 'saved:>='
          name:cat and saved:>=
                               ^
        """)
    // Wide characters take two columns.
    let wide = SearchSyntaxError(query: "猫 shape:x", column: 2, message: "unknown field 'shape'")
    #expect(wide.description.hasSuffix("\n  猫 shape:x\n     ^"))
  }

  @Test func globValidity() {
    #expect(SearchParser.isValidGlob("a[]]b"))
    #expect(SearchParser.isValidGlob("*x?"))
    #expect(!SearchParser.isValidGlob("a[b"))
    #expect(SearchCompiler.globLiterals("plan*b?c").prefix == "plan")
    #expect(SearchCompiler.globLiterals("*tree?").literals == ["tree"])
    #expect(SearchCompiler.globLiterals("[a-c]*xy").literals == ["xy"])
  }

  @Test func listFlagsBecomeOneQuery() throws {
    let query = try DraftQuery(
      name: "cat", exact: nil, glob: "c*", since: "2025-10-01", until: "2025-10-31", now: Self.now, timeZone: Self.utc)
    #expect(
      query.expression
        == .and([
          .term(.name(.contains("cat"))), .term(.name(.glob("c*"))),
          .term(.saved(SearchPeriod(.greaterOrEqual, range("2025-10-01")))),
          .term(.saved(SearchPeriod(.lessOrEqual, range("2025-10-31")))),
        ]))
    #expect(throws: ArchiveError.self) { try DraftQuery(since: "someday") }
    #expect(DraftSort(argument: "name") == .name)
    #expect(DraftSort(argument: "NEWEST") == .newest)
    #expect(DraftSort(argument: "size") == nil)
  }
}
