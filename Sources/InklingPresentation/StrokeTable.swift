// Strokes as a table, for `show --strokes` and `diff`.

import InklingArchive
import InklingFormats

package enum StrokeTable {
  /// One row per stroke: number, ink, colour, points, bounds, when it was drawn, hidden.
  package static func rendered(_ strokes: [StrokeSummary]) -> String {
    var table = TextTable(columns: [
      .init("#", alignment: .right), .init("INK"), .init("COLOUR"), .init("POINTS", alignment: .right),
      .init("BOUNDS"), .init("CREATED"), .init(""),
    ])
    for stroke in strokes {
      table.append([
        "\(stroke.number)", Quoted.display(stroke.ink), Format.color(stroke.color), "\(stroke.pointCount)",
        Format.rect(stroke.bounds), stroke.created.map(Format.date) ?? "-", stroke.hidden ? "hidden" : "",
      ])
    }
    return table.rendered()
  }
}
