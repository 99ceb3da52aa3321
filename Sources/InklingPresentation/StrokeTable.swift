// Strokes as a table, for `show --strokes` and `diff`.

import InklingArchive
import InklingFormats

package enum StrokeTable {
  /// One row per stroke: number, ink, colour, points, bounds, when it was drawn, and whether
  /// it is hidden (erased whole) or partly erased; an eraser stroke, which PencilKit keeps
  /// hidden, is not called hidden.
  package static func rendered(_ strokes: [StrokeSummary]) -> String {
    var table = TextTable(columns: [
      .init("#", alignment: .right), .init("INK"), .init("COLOUR"), .init("POINTS", alignment: .right),
      .init("BOUNDS"), .init("CREATED"), .init(""),
    ])
    for stroke in strokes {
      table.append([
        "\(stroke.number)", Quoted.display(stroke.ink), Format.color(stroke.color), "\(stroke.pointCount)",
        Format.rect(stroke.bounds), stroke.created.map(Format.date) ?? "-", state(of: stroke),
      ])
    }
    return table.rendered()
  }

  /// "3 visible (1 partly erased), 0 hidden, 1 eraser stroke": the visible strokes, those
  /// erased whole, and the eraser's own strokes (hidden by PencilKit, never a drawing's) apart.
  package static func counts(_ drawing: DrawingSummary) -> String {
    var text = "\(drawing.visibleCount) visible"
    if drawing.partlyErasedCount > 0 { text += " (\(drawing.partlyErasedCount) partly erased)" }
    text += ", \(drawing.hiddenCount) hidden"
    if drawing.eraserCount > 0 { text += ", " + Plural.count(drawing.eraserCount, "eraser stroke") }
    return text
  }

  private static func state(of stroke: StrokeSummary) -> String {
    if stroke.isEraser { return "" }
    if stroke.hidden { return "hidden" }
    return stroke.partlyErased ? "partly erased" : ""
  }
}
