// What a drawing holds, as `show --json` prints it under "drawing", with its strokes as
// `show --strokes --json` lists them.

import InklingArchive
import InklingCommandLine
import InklingFormats

package enum DrawingJSON {
  package static func object(_ drawing: DrawingSummary, strokes: Bool) -> JSONValue {
    var members: [JSONValue.Member] = [
      .init("status", .string(drawing.status.rawValue)),
      .init("problem", .optional(drawing.problem.map { .string($0) })),
      .init("formatVersion", .optional(drawing.formatVersion.map { .int($0) })),
      .init("strokes", .int(drawing.strokeCount)), .init("visibleStrokes", .int(drawing.visibleCount)),
      .init("hiddenStrokes", .int(drawing.hiddenCount)), .init("points", .int(drawing.pointCount)),
      .init("bounds", RectJSON.object(drawing.bounds)),
      .init("firstPoint", .optional(drawing.firstPoint.map { .date($0) })),
      .init("lastPoint", .optional(drawing.lastPoint.map { .date($0) })),
      .init("maxInkVersion", .optional(drawing.maxInkVersion.map { .int($0) })),
      .init(
        "inks",
        .array(
          drawing.inks.map {
            ["ink": .string($0.ink), "color": ColorJSON.object($0.color), "strokes": .int($0.strokeCount)]
          })),
    ]
    if strokes { members.append(.init("strokeList", .array(drawing.strokes.map(stroke)))) }
    return .object(members)
  }

  package static func stroke(_ stroke: StrokeSummary) -> JSONValue {
    [
      "number": .int(stroke.number), "ink": .string(stroke.ink), "color": ColorJSON.object(stroke.color),
      "hidden": .bool(stroke.hidden), "points": .int(stroke.pointCount), "bounds": RectJSON.object(stroke.bounds),
      "created": stroke.created.map { .date($0) } ?? .null,
    ]
  }
}

/// A colour: {"r":…,"g":…,"b":…,"a":…}, components in 0…1.
package enum ColorJSON {
  package static func object(_ color: RGBA) -> JSONValue {
    ["r": .double(color.red), "g": .double(color.green), "b": .double(color.blue), "a": .double(color.alpha)]
  }
}

/// A rectangle in points: {"x":…,"y":…,"width":…,"height":…}, or null.
package enum RectJSON {
  package static func object(_ rect: Rect?) -> JSONValue {
    guard let rect else { return .null }
    return ["x": .double(rect.x), "y": .double(rect.y), "width": .double(rect.width), "height": .double(rect.height)]
  }
}
