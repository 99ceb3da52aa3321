// TextTable: columns of text for people, aligned by display width.
//
//     var table = TextTable(columns: [
//       .init("NAME", maxWidth: 30), .init("VERSIONS", alignment: .right), .init("SAVED"),
//     ])
//     table.append(["Cat 🐱", "12", "2025-10-05 14:03"])
//     print(table.rendered(), terminator: "")
//
// Columns are separated by two spaces and sized to their widest cell (header included), cut to
// `maxWidth` with "…". Widths count terminal columns (DisplayWidth), so accents take one and
// emoji and CJK take two. Lines carry no trailing spaces.

import InklingFormats
import InklingTextWidth

package struct TextTable: Sendable {
  package enum Alignment: Sendable { case left, right }

  package struct Column: Sendable {
    package var header: String
    package var alignment: Alignment
    /// Cells wider than this are truncated with "…"; nil means never.
    package var maxWidth: Int?

    package init(_ header: String, alignment: Alignment = .left, maxWidth: Int? = nil) {
      self.header = header
      self.alignment = alignment
      self.maxWidth = maxWidth
    }
  }

  package var columns: [Column]
  package private(set) var rows: [[String]] = []
  /// Whether the first line shows the headers.
  package var showsHeader: Bool
  package var separator = "  "

  package init(columns: [Column], showsHeader: Bool = true) {
    self.columns = columns
    self.showsHeader = showsHeader
  }

  /// Adds a row; missing cells are empty, extra cells are a bug in the caller.
  package mutating func append(_ row: [String]) {
    precondition(
      row.count <= columns.count, "row has \(row.count) cells for \(columns.count) columns")
    rows.append(row + Array(repeating: "", count: columns.count - row.count))
  }

  /// The table as lines, each ending in "\n"; empty when there are no rows and no header.
  package func rendered() -> String {
    var widths = Widths(columns, separator: separator)
    let headers = columns.map(\.header)
    if showsHeader { widths.measure(headers) }
    for row in rows { widths.measure(row) }
    // Appended to one string rather than joined: [String].joined() is the stdlib's
    // unspecialised generic code, whose first call in a process scans every conformance.
    var output = showsHeader ? widths.line(headers) : ""
    for row in rows { output += widths.line(row) }
    return output
  }

  /// Column widths measured one row at a time, and lines aligned to them: a table too long
  /// to hold is read twice, once to measure and once to print.
  package struct Widths: Sendable {
    private let columns: [Column]
    private let separator: String
    private var widths: [Int]

    package init(_ columns: [Column], separator: String = "  ") {
      self.columns = columns
      self.separator = separator
      widths = Array(repeating: 0, count: columns.count)
    }

    /// Widens the columns to hold `row`.
    package mutating func measure(_ row: [String]) {
      for (index, cell) in cells(row).enumerated() { widths[index] = max(widths[index], DisplayWidth.of(cell)) }
    }

    /// `row` aligned to the widths measured, ending in "\n", without trailing spaces.
    package func line(_ row: [String]) -> String {
      var text = ""
      for (index, cell) in cells(row).enumerated() {
        let pad = String(repeating: " ", count: max(0, widths[index] - DisplayWidth.of(cell)))
        if index > 0 { text += separator }
        text += columns[index].alignment == .left ? cell + pad : pad + cell
      }
      while text.last == " " { text.removeLast() }
      return text + "\n"
    }

    /// The cells of `row`, one per column, each cut to its column's width.
    private func cells(_ row: [String]) -> [String] {
      columns.indices.map { index in
        let cell = index < row.count ? row[index] : ""
        return columns[index].maxWidth.map { DisplayWidth.truncate(cell, to: $0) } ?? cell
      }
    }
  }
}
