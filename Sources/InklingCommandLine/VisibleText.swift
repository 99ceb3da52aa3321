// What an error message typed by someone else (a word on the command line, a search query)
// may hold, made visible instead of acted on: an escape sequence echoed raw in "Unknown command
// '…'" would retitle or recolour the terminal. The messages quote names themselves (Quoted in
// InklingPresentation); this is the last step before standard error, for every message, so
// that one that forgot cannot reach the terminal raw.

package enum VisibleText {
  /// `text` with every control character but the newline and the tab, and every invisible
  /// or direction-changing one, written as a C escape (`\033`) or `\u{…}`.
  package static func of(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isHidden) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if !isHidden(scalar) {
        out.append(scalar)
      } else if scalar.value < 0x80 {
        let digits = String(scalar.value, radix: 8)
        out.append(contentsOf: ("\\" + String(repeating: "0", count: 3 - digits.count) + digits).unicodeScalars)
      } else {
        out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
      }
    }
    return String(out)
  }

  /// Control characters (C0 but the newline and the tab, DEL, C1), format characters such as
  /// the bidirectional overrides, and line and paragraph separators.
  package static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == "\n" || scalar == "\t" { return false }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator: return true
    default: return false
    }
  }
}
