import InklingCommandLine
import Testing

/// Every option that takes a length of time reads the same TIME.
@Suite struct TimeGrammarTests {
  @Test func everyFormOfTimeReads() {
    let forms: [(String, Double)] = [
      ("45", 45), ("45s", 45), ("1.5h", 5400), ("1m30s", 90), ("2min", 120), ("2m", 120), ("500ms", 0.5),
      ("2s500ms", 2.5), ("1h30m", 5400), ("0", 0),
    ]
    for (text, seconds) in forms { #expect(ValueKind.time.parse(text) == seconds, "\(text)") }
  }

  @Test func whatCouldMeanTwoThingsIsRefused() {
    for text in ["", "s", "1m30", "30s1m", "0x10", "1e3", "-1s", "1.s", "1d", "1 s", "inf", "nan"] {
      #expect(ValueKind.time.parse(text) == nil, "\(text)")
    }
  }

  @Test func aBoundKeepsTheGrammarAndSaysTheBound() {
    let settle = ValueKind.time(atMost: 3600)
    #expect(settle.parse("2min") == 120)
    #expect(settle.parse("1h") == 3600)
    #expect(settle.parse("1h1s") == nil)
    #expect(settle.expected.contains("a time from 0 to 3600s"))
    #expect(settle.format(0.5) == "500ms")
    #expect(settle.format(2) == "2s")
  }
}
