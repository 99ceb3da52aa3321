import InklingPresentation
import Testing

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
