import InklingFormats
import Testing

/// JSON string escaping (RFC 8259 §7), as the command line's JSON and export's manifest write it.
@Suite struct JSONStringTests {
  @Test func escapesQuotesBackslashesAndEveryControlCharacter() {
    let text = "a\"b\\c/\n\r\t\u{08}\u{0C}\u{00}\u{01}\u{1B}\u{1F}\u{7F}\u{2028}\u{2029} é😀"
    #expect(JSONString.quoted(text) == #""a\"b\\c/\n\r\t\b\f\u0000\u0001\u001b\u001f\u007f\u2028\u2029 é😀""#)
  }

  @Test func everyControlCharacterIsEscaped() {
    for value in 0..<0x20 {
      let json = JSONString.quoted(String(UnicodeScalar(UInt8(value))))
      #expect(json.unicodeScalars.allSatisfy { $0.value >= 0x20 }, "U+\(value)")
    }
  }

  @Test func nonASCIICanBeEscapedWithSurrogatePairs() {
    #expect(JSONString.quoted("é😀中", escapingNonASCII: true) == #""\u00e9\ud83d\ude00\u4e2d""#)
    #expect(JSONString.quoted("é😀中") == "\"é😀中\"")
  }

  @Test func appendsToWhatIsThere() {
    var out = "{\"name\":"
    JSONString.append("Plan \"B\"", to: &out)
    #expect(out == #"{"name":"Plan \"B\"""#)
    #expect(JSONString.quoted("") == "\"\"")
  }
}
