// Numbers as people type them on a command line: digits with at most one decimal point, and a
// leading minus. `Double(_:)` alone also reads `0x10` (16), `1e3`, `inf` and `nan`, so that a
// typo or a hexadecimal value would be taken as some other number without a word.

package enum DecimalNumber {
  /// The value of `text` when it is `[-]digits[.digits]` (or `.5`, `5.`), else nil.
  package static func parse(_ text: String) -> Double? {
    var digits = 0
    var points = 0
    for (index, character) in text.unicodeScalars.enumerated() {
      switch character {
      case "0"..."9": digits += 1
      case ".": points += 1
      case "-" where index == 0: continue
      default: return nil
      }
    }
    guard digits > 0, points <= 1 else { return nil }
    return Double(text)
  }
}
