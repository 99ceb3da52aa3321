// What tells apart two names that look the same: a "did you mean" that shows a person what
// they typed, letter for letter, is no help unless it says what differs. Two texts look the
// same when they are equal once the characters drawn as nothing are left out (format
// characters such as the joiners and the bidi marks, and the other default-ignorable ones,
// such as variation selectors), or when they are the same text in two Unicode normal forms.

/// How two names that look alike differ.
package enum InvisibleDifference {
  /// Why `other` is not `typed` though it looks the same, in words for a sentence
  /// ("differs in an invisible character: U+200C ZERO WIDTH NON-JOINER"); nil when the two are
  /// equal or differ in what shows.
  package static func between(_ typed: String, _ other: String) -> String? {
    let (a, b) = (Array(typed.unicodeScalars), Array(other.unicodeScalars))
    guard a != b else { return nil }
    if UnicodeNFC.normalize(typed).unicodeScalars.elementsEqual(UnicodeNFC.normalize(other).unicodeScalars) {
      return "differs in how its accents are encoded (NFC and NFD)"
    }
    guard a.filter({ !isInvisible($0) }) == b.filter({ !isInvisible($0) }) else { return nil }
    // The invisible characters one has more of than the other, each named once.
    var counts: [Unicode.Scalar: Int] = [:]
    for scalar in a where isInvisible(scalar) { counts[scalar, default: 0] += 1 }
    for scalar in b where isInvisible(scalar) { counts[scalar, default: 0] -= 1 }
    var named: [String] = []
    for scalar in a + b where counts[scalar, default: 0] != 0 {
      counts[scalar] = 0
      named.append(describe(scalar))
    }
    // Only the order of the same invisible characters differs.
    if named.isEmpty { return "differs in where its invisible characters are" }
    return "differs in " + (named.count == 1 ? "an invisible character: " : "invisible characters: ")
      + named.joined(separator: ", ")
  }

  /// `U+200D ZERO WIDTH JOINER`.
  static func describe(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    return scalar.properties.name.map { code + " " + $0 } ?? code
  }

  private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .format || scalar.properties.isDefaultIgnorableCodePoint
  }
}
