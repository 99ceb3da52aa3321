// A real device drawing before and after the pixel eraser cut through one of its strokes, as
// PencilKit records the cut (the format notes, "Pixel eraser"): the stroke keeps its UUID and
// its path, and becomes two substrokes, each covering a range of the path's parameter
// (`Stroke.12`); the eraser's own stroke is kept too, hidden, with the eraser's ink. No
// device sample holds a cut, so the writer makes the later version from the device's bytes.

import InklingFormats

/// `three-pen-strokes` as the device wrote it, and after an erase through its second stroke.
package enum PartlyErasedDrawing {
  /// The stroke cut, by its place in the drawing (from 0).
  package static let cutStroke = 1

  /// The device's bytes.
  package static func before() throws -> [UInt8] { try DeviceSamples.drawing("three-pen-strokes") }

  /// The drawing after the erase: the middle third of the parameter of stroke `cutStroke`
  /// erased, and an eraser stroke added.
  package static func afterDrawing() throws -> Drawing {
    var drawing = try Drawing(bytes: try before())
    let stroke = drawing.strokes[cutStroke]
    let end = Float(stroke.path!.points.count - 1)
    var head = Stroke(versionID: stroke.versionID, inkIndex: stroke.inkIndex, path: nil)
    head.slices = [0, end / 3]
    var tail = head
    tail.slices = [2 * end / 3, end]
    drawing.strokes[cutStroke].substrokes = [head, tail]
    drawing.strokes[cutStroke].substrokesVersion = stroke.versionID
    drawing.inks.append(Ink(inkType: .eraser, color: RGBA(red: 0, green: 0, blue: 0, alpha: 1), version: 3))
    drawing.strokes.append(
      Stroke(
        uuid: UUIDBytes(Array(repeating: 0xE5, count: 16)), sortID: stroke.sortID, versionID: stroke.versionID,
        inkIndex: drawing.inks.count - 1, path: nil, isHidden: true))
    return drawing
  }

  /// The bytes of `afterDrawing()`.
  package static func after() throws -> [UInt8] { try DrawingWriter.write(try afterDrawing()) }
}
