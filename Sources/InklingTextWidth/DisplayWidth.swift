// How many terminal columns a string takes, per user-perceived character.
//
// A simplified wcwidth over grapheme clusters (UAX #11 East Asian Width, UTS #51 emoji):
//   0 — control characters, and clusters made only of format/combining marks;
//   2 — emoji presentation (incl. VS16 "️", flags, ZWJ sequences) and East Asian Wide or
//       Fullwidth characters (CJK, Hangul, kana, fullwidth forms);
//   1 — everything else, including "é" whether precomposed or with a combining accent.
// Terminals disagree on rare cases (text-style emoji, ambiguous-width); this errs towards what
// common terminals show.

package enum DisplayWidth {
  /// Columns taken by `text`.
  package static func of(_ text: String) -> Int {
    // Printable ASCII (most names, every number and date) is a column a byte: no grapheme
    // breaking and no Unicode property look-ups, which a table would pay for every cell.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
    return text.reduce(0) { $0 + of($1) }
  }

  /// Columns taken by one grapheme cluster.
  package static func of(_ character: Character) -> Int {
    if let ascii = character.asciiValue, ascii >= 0x20, ascii < 0x7F { return 1 }
    guard let first = character.unicodeScalars.first else { return 0 }
    let value = first.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    let properties = first.properties
    if properties.isEmojiPresentation { return 2 }
    if isWide(value) { return 2 }
    switch properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format:
      return 0
    default:
      return 1
    }
  }

  /// `text` cut to at most `width` columns, ending in "…" when something was cut.
  package static func truncate(_ text: String, to width: Int) -> String {
    guard of(text) > width else { return text }
    guard width > 0 else { return "" }
    var result = ""
    var used = 0
    for character in text {
      let w = of(character)
      if used + w > width - 1 { break }
      result.append(character)
      used += w
    }
    return result + "…"
  }

  /// East Asian Wide and Fullwidth blocks (UAX #11), the common ones.
  private static func isWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }
}
