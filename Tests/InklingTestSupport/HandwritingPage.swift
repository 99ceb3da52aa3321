// Drawings of generated handwriting: cursive loops placed at random on a page. The rendering
// tests draw them and `inkling-bench render` times them, so both see the same pages.

import Foundation
import InklingCorpus
import InklingFormats

/// Generated pages of handwriting.
package enum HandwritingPage {
  /// Cursive-like loops: a trochoid along x, the way handwriting "e e e" moves; `width` at
  /// every point (PencilKit's radius).
  package static func loops(x: Double, y: Double, length: Double, count: Int = 120, width: Double = 3.2)
    -> StrokePath
  {
    StrokePath(
      creationDate: 0,
      points: (0..<count).map { i in
        let s = Double(i) / Double(count - 1)
        let phase = s * 2 * .pi * length / 40
        return StrokePoint(
          location: Point(x: x + s * length - 12 * sin(phase), y: y - 14 * cos(phase) + 6 * sin(phase * 0.5)),
          width: width)
      })
  }

  /// The bytes of a drawing of one stroke of loops `length` points long, with a time at each
  /// point: a strip many times wider than tall, whose frames reach the widest sides. The
  /// stroke is the first of a device sample with its points replaced, so that the drawing has
  /// everything PencilKit needs (the iOS 26 threshold left out, as the writer does).
  package static func lineBytes(length: Double) throws -> [UInt8] {
    var drawing = try Drawing(bytes: DeviceSamples.drawing("three-pen-strokes"))
    var stroke = drawing.strokes[0]
    var points = loops(x: 0, y: 0, length: length, count: 400).points
    for k in points.indices { points[k].timeOffset = Double(k) / 120 }
    stroke.path?.points = points
    stroke.path?.varyingProperties.remove(.threshold)
    stroke.path?.constantProperties.remove(.threshold)
    drawing.strokes = [stroke]
    return try DrawingWriter.write(drawing)
  }

  /// A page of `count` strokes of `points` points each, four in five with a black pen and the
  /// rest with a blue marker, at random places on a 700 × 900 pt page.
  package static func page(strokes count: Int, points: Int, seed: UInt64 = 1) -> Drawing {
    var random = SeededRandom(seed: seed)
    var strokes: [Stroke] = []
    for _ in 0..<count {
      let x = random.unit() * 700
      let y = random.unit() * 900
      var path = loops(
        x: x, y: y, length: 40 + random.unit() * 160, count: points, width: 2.5 + random.unit() * 2)
      for k in path.points.indices { path.points[k].timeOffset = Double(k) / 120 }
      strokes.append(Stroke(inkIndex: random.unit() < 0.8 ? 0 : 1, path: path, randomSeed: random.next() >> 40))
    }
    let inks = [
      Ink(inkType: .pen, color: RGBA(red: 0, green: 0, blue: 0, alpha: 1)),
      Ink(inkType: .marker, color: RGBA(red: 0.08, green: 0.49, blue: 0.98, alpha: 1)),
    ]
    return Drawing(inks: inks, strokes: strokes)
  }
}
