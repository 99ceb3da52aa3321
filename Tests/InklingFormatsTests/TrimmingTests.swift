import Foundation
import InklingFormats
import Testing

/// The trimming the tool does without Foundation, compared with Foundation's own.
@Suite struct TrimmingTests {
  static let samples = [
    " copy ", "\t2\u{A0}", "\u{3000}(1)", "x", "", "  ", "\u{200B}name\u{200B}", "\u{2028}line\u{2029}",
    "\u{85}next\n", "\r\n crlf \r\n", " \u{301}mark", "café\u{301} ", "\u{FEFF}bom", "\u{180E}mongolian",
  ]

  @Test func trimsSpacesAsFoundationsWhitespacesSetDoes() {
    for text in Self.samples {
      #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
    }
  }

  @Test func trimsWhiteSpaceAsFoundationsWhitespacesAndNewlinesSetDoes() {
    for text in Self.samples {
      #expect(
        text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
    }
  }

  @Test func trimsASubstring() {
    let line = "key:  value  "
    #expect(line[line.firstIndex(of: ":")!...].dropFirst().trimmingSpaces() == "value")
  }
}
