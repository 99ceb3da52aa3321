import Foundation
import Testing

@testable import InklingFormats

/// Draft names in NFC through utf8proc (UnicodeNFC.swift), against Foundation's normaliser,
/// which the names of existing archives were made with.
@Suite struct UnicodeNFCTests {
  @Test func agreesWithFoundationInTheBasicMultilingualPlane() {
    // Every BMP character alone, after a letter, and before a combining acute accent. The
    // old Hangul vowels and finals (U+1176…U+11FF) after a leading consonant are left out:
    // Foundation composes some of those, which UAX #15 does not.
    var differences: [String] = []
    for value in 0x80..<0x1_0000 {
      guard let scalar = Unicode.Scalar(value) else { continue }
      for text in [String(scalar), "a" + String(scalar), String(scalar) + "\u{301}", "e" + String(scalar) + "\u{301}"]
      where UnicodeNFC.normalize(text) != text.precomposedStringWithCanonicalMapping {
        differences.append(String(value, radix: 16))
      }
    }
    #expect(differences.isEmpty, "\(differences.prefix(20))")
  }

  @Test func composesAndDecomposedNamesMeetInOneForm() {
    #expect(UnicodeNFC.normalize("Cafe\u{301}") == "Caf\u{E9}")
    #expect(UnicodeNFC.normalize("\u{1100}\u{1161}\u{11A8}") == "\u{AC01}")  // Hangul syllable
    #expect(UnicodeNFC.normalize("A\u{30A}") == UnicodeNFC.normalize("\u{212B}"))  // Å and the Ångström sign
    #expect(UnicodeNFC.normalize("plain ASCII") == "plain ASCII")
    #expect(UnicodeNFC.normalize("nul\u{0}inside é") == "nul\u{0}inside é")
  }

  @Test func keepsACharacterBeyondTheBasicPlaneBeforeAMark() {
    // Foundation turned this into "Á" (it composed with the low 16 bits of U+1F600).
    #expect(UnicodeNFC.normalize("\u{1F600}\u{301}") == "\u{1F600}\u{301}")
  }
}
