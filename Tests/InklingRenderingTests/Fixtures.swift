// Drawings built in code for the rendering tests, and small helpers to inspect pixels.

import InklingFormats
import InklingRendering
import InklingTestSupport

#if canImport(Glibc)
  import Glibc
#endif

enum Fixtures {
  static let sampleNames = DeviceSamples.drawingNames

  /// A real device drawing from the shared samples.
  static func sample(_ name: String) throws -> Drawing {
    try Drawing(bytes: DeviceSamples.drawing(name))
  }

  static let black = RGBA(red: 0, green: 0, blue: 0, alpha: 1)
  static let white = RGBA(red: 1, green: 1, blue: 1, alpha: 1)
  static let red = RGBA(red: 1, green: 0, blue: 0, alpha: 1)
  static let blue = RGBA(red: 0.08, green: 0.49, blue: 0.98, alpha: 1)

  static func ink(_ type: Ink.InkType, _ color: RGBA = black) -> Ink {
    Ink(inkType: type, color: color)
  }

  /// A path through `xy` with `width` (PencilKit's radius) at every point.
  static func path(_ xy: [(Double, Double)], width: Double = 3.2) -> StrokePath {
    StrokePath(
      creationDate: 0,
      points: xy.map { StrokePoint(location: Point(x: $0.0, y: $0.1), width: width) })
  }

  /// A straight line from `a` to `b` with `count` points.
  static func line(
    _ a: (Double, Double), _ b: (Double, Double), count: Int = 8, width: Double = 3.2
  ) -> StrokePath {
    path(
      (0..<count).map { i in
        let f = Double(i) / Double(count - 1)
        return (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f)
      }, width: width)
  }

  /// Cursive-like loops along x (HandwritingPage, which `inkling-bench render` draws too).
  static func loops(x: Double, y: Double, length: Double, count: Int = 120, width: Double = 3.2)
    -> StrokePath
  {
    HandwritingPage.loops(x: x, y: y, length: length, count: count, width: width)
  }

  /// A drawing of several inks side by side (used for the look and the goldens).
  static func inkSampler() -> Drawing {
    let types: [(Ink.InkType, RGBA, Double)] = [
      (.pen, black, 3.2), (.monoline, RGBA(red: 0.1, green: 0.3, blue: 0.8, alpha: 1), 2.6),
      (.marker, RGBA(red: 1, green: 0.85, blue: 0, alpha: 1), 12),
      (.fountainPen, RGBA(red: 0.2, green: 0.1, blue: 0.5, alpha: 1), 5),
      (.pencil, RGBA(red: 0.25, green: 0.25, blue: 0.25, alpha: 1), 1.6),
      (.crayon, RGBA(red: 0.85, green: 0.2, blue: 0.2, alpha: 1), 5),
      (.watercolor, RGBA(red: 0.1, green: 0.6, blue: 0.4, alpha: 1), 8),
    ]
    var inks: [Ink] = []
    var strokes: [Stroke] = []
    for (i, (type, color, width)) in types.enumerated() {
      inks.append(Ink(inkType: type, color: color))
      var p = loops(x: 20, y: 30 + Double(i) * 40, length: 220, width: width)
      if type == .pen {  // Pressure: thick in the middle.
        for k in p.points.indices {
          let s = Double(k) / Double(p.points.count - 1)
          p.points[k].width = 2.2 + 3 * sin(s * .pi)
        }
      }
      if type == .fountainPen { for k in p.points.indices { p.points[k].azimuth = .pi / 4 } }
      if type == .pencil {
        for k in p.points.indices { p.points[k].opacity = 0.6 + 0.8 * Double(k % 20) / 20 }
      }
      strokes.append(Stroke(inkIndex: i, path: p, randomSeed: UInt64(1234 + i)))
    }
    return Drawing(inks: inks, strokes: strokes)
  }

  /// `text` at 24 px and below it at 12 px, in dark grey on paper, 240 × 64 pixels; a
  /// right-to-left line is aligned right.
  static func caption(_ text: String) throws -> RenderedImage {
    let renderer = try TextRenderer()
    var image = RenderedImage(width: 240, height: 64, rgba: [UInt8](repeating: 0xF4, count: 240 * 64 * 4))
    let ink = RGBA(red: 0.125, green: 0.125, blue: 0.125, alpha: 1)
    for (size, baseline) in [(24.0, 30.0), (12.0, 52.0)] {
      let line = renderer.line(text, pixelSize: size, maxWidth: 224)
      renderer.draw(line, x: line.isRightToLeft ? 232 - line.width : 8, baseline: baseline, color: ink, into: &image)
    }
    return image
  }

  /// A generated handwritten page: `strokes` strokes of `points` points each (HandwritingPage).
  static func page(strokes count: Int, points: Int, seed: UInt64 = 1) -> Drawing {
    HandwritingPage.page(strokes: count, points: points, seed: seed)
  }
}

extension RenderedImage {
  /// The mean of |a − b| over every byte, and the largest byte difference.
  func difference(from other: RenderedImage) -> (mean: Double, max: Int) {
    guard width == other.width, height == other.height else { return (255, 255) }
    var total = 0
    var largest = 0
    for (a, b) in zip(rgba, other.rgba) {
      let d = abs(Int(a) - Int(b))
      total += d
      largest = Swift.max(largest, d)
    }
    return (Double(total) / Double(Swift.max(rgba.count, 1)), largest)
  }

  /// How many pixels in the box differ from `color` by more than `tolerance` in any channel.
  func countDiffering(
    from color: (UInt8, UInt8, UInt8), x: Range<Int>, y: Range<Int>, tolerance: Int = 8
  ) -> Int {
    var n = 0
    for row in y.clamped(to: 0..<height) {
      for col in x.clamped(to: 0..<width) {
        let p = pixel(x: col, y: row)
        if abs(Int(p.r) - Int(color.0)) > tolerance || abs(Int(p.g) - Int(color.1)) > tolerance
          || abs(Int(p.b) - Int(color.2)) > tolerance
        {
          n += 1
        }
      }
    }
    return n
  }
}

/// Writes `bytes` to `path` (for looking at renders and for goldens).
func writeFile(_ path: String, _ bytes: [UInt8]) {
  guard let f = fopen(path, "wb") else { return }
  _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
  fclose(f)
}

/// The bytes of the file at `path`, or nil.
func readFile(_ path: String) -> [UInt8]? {
  guard let f = fopen(path, "rb") else { return nil }
  defer { fclose(f) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let n = chunk.withUnsafeMutableBufferPointer { fread($0.baseAddress, 1, $0.count, f) }
    if n <= 0 { break }
    bytes += chunk[0..<n]
  }
  return bytes
}
