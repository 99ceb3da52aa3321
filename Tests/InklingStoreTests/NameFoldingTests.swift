import InklingTestSupport
import Testing

@testable import InklingStore

/// What names fold to (NameFolding.swift says why): accents of Latin, Greek and Cyrillic go,
/// case goes, compatibility forms become their letters, the marks of other scripts stay.
@Suite struct NameFoldingTests {
  static let folded: [(name: String, folded: String)] = [
    // Accents, case and the letters case folding writes out.
    ("Café", "cafe"), ("CAFE\u{301}", "cafe"), ("Straße", "strasse"), ("ẞ", "ss"), ("Ёлка", "елка"),
    ("Άσ", "ασ"), ("ΌΣΟΣ", "οσοσ"), ("Tiếng Việt", "tieng viet"), ("İstanbul", "istanbul"), ("ǰ", "j"),
    ("ΐ", "ι"), ("ḁ", "a"), ("e\u{301}\u{327}", "e"), ("x\u{20DD}", "x"), ("a\u{1AB0}", "a"),
    ("a\u{1DC0}", "a"), ("a\u{FE20}", "a"),
    // The iota subscript is an accent too, not the iota that case folding would make of it.
    ("ᾳ", "α"), ("ᾼ", "α"), ("ᾯ", "ω"),
    // Letters with a stroke and ligatures are their base letters, as the collation orders them;
    // letters it orders apart stay.
    ("ŁÓDŹ", "lodz"), ("Łódź", "lodz"), ("Øre", "ore"), ("Đorđe", "dorde"), ("Ħamrun", "hamrun"),
    ("Æble", "aeble"), ("Œuvre", "oeuvre"), ("łź", "lz"), ("þing", "þing"), ("ıi", "ıi"),
    // Compatibility forms.
    ("ﬁ", "fi"), ("ＡＢＣ", "abc"), ("²", "2"), ("Ⅻ", "xii"), ("ǅ", "dz"), ("①", "1"),
    ("\u{212A}", "k"), ("\u{212B}", "a"), ("ｶﾞ", "\u{30AC}"), ("ㄱ", "\u{1100}"),
    // Other scripts keep their marks, recomposed.
    ("が", "\u{304C}"), ("か\u{3099}", "\u{304C}"), ("パ", "パ"), ("हिन्दी", "हिन्दी"), ("שָׁלוֹם", "שָׁלוֹם"),
    ("مَرْحَبًا", "مَرْحَبًا"), ("한국어", "한국어"), ("\u{1112}\u{1161}\u{11AB}", "한"), ("ภาษาไทย", "ภาษาไทย"),
    ("😀👍🏽", "😀👍🏽"), ("🇫🇷🇯🇵", "🇫🇷🇯🇵"), ("ი", "ი"), ("Ⴀ", "\u{2D00}"),
    // Cherokee folds to its uppercase letters, Unicode's caseless form.
    ("ᏣᎳᎩ", "ᏣᎳᎩ"), ("ꮳꮃꭹ", "ᏣᎳᎩ"),
    // ASCII is lowercased and nothing else.
    ("Plan-B 2025", "plan-b 2025"), ("", ""), ("a\u{1}b", "a\u{1}b"),
  ]

  @Test func namesFoldAsUnicodeCaselessAccentlessMatchingSays() {
    for (name, folded) in Self.folded {
      let result = NameFolding.fold(name)
      #expect(result == folded, "\(name.debugDescription) → \(result.debugDescription)")
      #expect(NameFolding.fold(result) == result, "folding \(name.debugDescription) twice")
    }
  }

  @Test func aDecompositionLongerThanTheNameIsFoldedWhole() {
    // ﷺ decomposes to 18 letters and spaces; a buffer sized by the name's bytes is too short.
    let name = String(repeating: "ﷺ", count: 300) + "É"
    let folded = NameFolding.fold(name)
    #expect(folded == String(repeating: "صلى الله عليه وسلم", count: 300) + "e")
  }

  @Test func sqlFoldsAsSwiftDoes() throws {
    let folder = try TemporaryFolder()
    let db = try ArchiveDatabase.open(path: folder.path("a.sqlite"), mode: .readWrite)
    defer { db.close() }
    for (name, folded) in Self.folded {
      #expect(try db.fetchOne("SELECT inkling_fold(?)", [name]) { $0.string(0) } == folded, "\(name.debugDescription)")
    }
    #expect(try db.fetchOne("SELECT inkling_fold(NULL) IS NULL") { $0.int(0) } == 1)
    #expect(try db.fetchOne("SELECT typeof(inkling_fold(''))") { $0.string(0) } == "text")
    #expect(try db.fetchOne("SELECT inkling_fold(12)") { $0.string(0) } == "12")
  }
}
