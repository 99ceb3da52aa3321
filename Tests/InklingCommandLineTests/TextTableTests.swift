import InklingCommandLine
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

@Suite struct TextTableTests {
  @Test func alignsByDisplayWidth() {
    var table = TextTable(columns: [
      .init("NAME"), .init("VERSIONS", alignment: .right), .init("SAVED"),
    ])
    table.append(["Cat", "12", "2025-10-05"])
    table.append(["Café crème", "3", "2025-10-04"])
    table.append(["猫 😀", "1"])
    #expect(
      table.rendered() == """
        NAME        VERSIONS  SAVED
        Cat               12  2025-10-05
        Café crème         3  2025-10-04
        猫 😀              1

        """)
  }

  @Test func truncatesLongCells() {
    var table = TextTable(
      columns: [.init("NAME", maxWidth: 8), .init("N", alignment: .right)], showsHeader: false)
    table.append(["A very long draft name", "1"])
    table.append(["猫猫猫猫猫", "22"])
    table.append(["short", "333"])
    #expect(
      table.rendered() == """
        A very …    1
        猫猫猫…    22
        short     333

        """)
  }

  @Test func emptyTableWithoutHeaderIsEmpty() {
    #expect(TextTable(columns: [.init("A")], showsHeader: false).rendered() == "")
  }
}
