// How drawings, strokes and colours print, for show and diff.

import Foundation
import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

enum DrawingOutput {
  static func json(_ color: RGBA) -> JSONValue {
    ["r": .double(color.red), "g": .double(color.green), "b": .double(color.blue), "a": .double(color.alpha)]
  }

  static func json(_ rect: Rect?) -> JSONValue {
    guard let rect else { return .null }
    return ["x": .double(rect.x), "y": .double(rect.y), "width": .double(rect.width), "height": .double(rect.height)]
  }

  static func json(_ stroke: StrokeSummary) -> JSONValue {
    [
      "number": .int(stroke.number), "ink": .string(stroke.ink), "color": json(stroke.color),
      "hidden": .bool(stroke.hidden), "points": .int(stroke.pointCount), "bounds": json(stroke.bounds),
      "created": stroke.created.map { .date($0) } ?? .null,
    ]
  }

  static func json(_ drawing: DrawingSummary, strokes: Bool) -> JSONValue {
    var members: [JSONValue.Member] = [
      .init("status", .string(drawing.status.rawValue)),
      .init("problem", .optional(drawing.problem.map { .string($0) })),
      .init("formatVersion", .optional(drawing.formatVersion.map { .int($0) })),
      .init("strokes", .int(drawing.strokeCount)), .init("visibleStrokes", .int(drawing.visibleCount)),
      .init("hiddenStrokes", .int(drawing.hiddenCount)), .init("points", .int(drawing.pointCount)),
      .init("bounds", json(drawing.bounds)),
      .init("firstPoint", .optional(drawing.firstPoint.map { .date($0) })),
      .init("lastPoint", .optional(drawing.lastPoint.map { .date($0) })),
      .init("maxInkVersion", .optional(drawing.maxInkVersion.map { .int($0) })),
      .init(
        "inks",
        .array(
          drawing.inks.map { ["ink": .string($0.ink), "color": json($0.color), "strokes": .int($0.strokeCount)] })),
    ]
    if strokes { members.append(.init("strokeList", .array(drawing.strokes.map(json)))) }
    return .object(members)
  }

  static func color(_ color: RGBA) -> String {
    Format.color(color.red, color.green, color.blue, color.alpha)
  }

  static func rect(_ rect: Rect?) -> String {
    guard let rect else { return "-" }
    func n(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(format: "%.1f", v) }
    return "\(n(rect.x)),\(n(rect.y)) \(n(rect.width))×\(n(rect.height))"
  }

  static func strokeTable(_ strokes: [StrokeSummary]) -> String {
    var table = TextTable(columns: [
      .init("#", alignment: .right), .init("INK"), .init("COLOUR"), .init("POINTS", alignment: .right),
      .init("BOUNDS"), .init("CREATED"), .init(""),
    ])
    for stroke in strokes {
      table.append([
        "\(stroke.number)", stroke.ink, color(stroke.color), "\(stroke.pointCount)", rect(stroke.bounds),
        stroke.created.map(Format.date) ?? "-", stroke.hidden ? "hidden" : "",
      ])
    }
    return table.rendered()
  }
}
