import InklingTextWidth
import Testing

@Suite struct DisplayWidthTests {
  @Test func countsColumnsNotScalars() {
    #expect(DisplayWidth.of("Cat") == 3)
    #expect(DisplayWidth.of("café") == 4)
    #expect(DisplayWidth.of("cafe\u{301}") == 4)  // combining accent
    #expect(DisplayWidth.of("😀") == 2)
    #expect(DisplayWidth.of("👩‍👩‍👧") == 2)  // ZWJ family
    #expect(DisplayWidth.of("🇫🇷") == 2)
    #expect(DisplayWidth.of("❤️") == 2)  // text heart + VS16
    #expect(DisplayWidth.of("猫の絵") == 6)
    #expect(DisplayWidth.of("한글") == 4)
    #expect(DisplayWidth.of("ＡＢ") == 4)  // fullwidth
    #expect(DisplayWidth.of("a\u{200B}b") == 2)  // zero-width space
    #expect(DisplayWidth.of("\t") == 0)
  }

  @Test func truncatesToColumnsWithEllipsis() {
    #expect(DisplayWidth.truncate("Sketchbook", to: 10) == "Sketchbook")
    #expect(DisplayWidth.truncate("Sketchbook", to: 6) == "Sketc…")
    #expect(DisplayWidth.truncate("猫の絵です", to: 6) == "猫の…")
    #expect(DisplayWidth.truncate("猫の絵です", to: 5) == "猫の…")
    #expect(DisplayWidth.truncate("😀😀😀", to: 4) == "😀…")
    #expect(DisplayWidth.truncate("abc", to: 1) == "…")
    #expect(DisplayWidth.truncate("abc", to: 0) == "")
  }
}
