// Drawings of every ink for the vector renders' tests: the device's handwriting sample with
// every stroke given one ink (no device sample holds crayon or watercolor), and the same
// drawing edited the ways PencilKit edits one: strokes moved, turned and scaled by a
// transform, cut by the pixel eraser into ranges, clipped by an eraser mask, and erased whole.

import Foundation
import InklingFormats

package enum InkedDrawings {
  /// `handwritten-half-notes` with every ink made `inkType`, in the colour each had. The
  /// sample came from iOS 26, whose threshold property the writer leaves out for iOS 18's
  /// sake, so it is dropped (it draws nothing).
  package static func drawing(_ inkType: Ink.InkType) throws -> Drawing {
    var drawing = try Drawing(bytes: try DeviceSamples.drawing("handwritten-half-notes"))
    for index in drawing.inks.indices { drawing.inks[index].inkType = inkType }
    for index in drawing.strokes.indices {
      drawing.strokes[index].path?.varyingProperties.remove(.threshold)
      drawing.strokes[index].path?.constantProperties.remove(.threshold)
    }
    return drawing
  }

  /// `drawing(inkType)` edited: every fifth stroke transformed (turned, scaled, moved),
  /// every fifth (from the second) cut into two ranges with its middle erased, every fifth
  /// (from the third) clipped by a mask to its left half, and every fifth (from the fourth)
  /// erased whole (hidden); an eraser stroke and its ink are added, hidden, as the device
  /// keeps them.
  package static func edited(_ inkType: Ink.InkType) throws -> Drawing {
    var drawing = try drawing(inkType)
    for index in drawing.strokes.indices {
      guard let path = drawing.strokes[index].path, path.points.count > 3 else { continue }
      switch index % 5 {
      case 0:
        let angle = 0.2 + Double(index % 7) * 0.1
        let scale = 0.8 + Double(index % 3) * 0.2
        let c = cos(angle) * scale
        let s = sin(angle) * scale
        drawing.strokes[index].transform = AffineTransform(a: c, b: s, c: -s, d: c, tx: 40, ty: -25)
      case 1:
        let end = Float(path.points.count - 1)
        let stroke = drawing.strokes[index]
        var head = Stroke(versionID: stroke.versionID, inkIndex: stroke.inkIndex, path: nil)
        head.slices = [0, end * 0.35]
        var tail = head
        tail.slices = [end * 0.6, end]
        drawing.strokes[index].substrokes = [head, tail]
        drawing.strokes[index].substrokesVersion = stroke.versionID
      case 2:
        let xs = path.points.map(\.location.x)
        let ys = path.points.map(\.location.y)
        let (x0, x1) = (xs.min()! - 20, xs.max()! + 20)
        let (y0, y1) = (ys.min()! - 20, ys.max()! + 20)
        let middle = (x0 + x1) / 2
        drawing.strokes[index].maskPolygons = [
          [Point(x: x0, y: y0), Point(x: middle, y: y0), Point(x: middle, y: y1), Point(x: x0, y: y1)]
        ]
      case 3:
        drawing.strokes[index].isHidden = true
      default: break
      }
    }
    drawing.inks.append(Ink(inkType: .eraser, color: RGBA(red: 0, green: 0, blue: 0, alpha: 1), version: 3))
    var eraser = drawing.strokes[0]
    eraser.inkIndex = drawing.inks.count - 1
    eraser.isHidden = true
    eraser.transform = .identity
    drawing.strokes.append(eraser)
    return drawing
  }
}
