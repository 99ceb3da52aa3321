// Thumbnail rendering speed: cold 256-px thumbnails of generated handwriting pages, one core.
// Run with scripts/bench-render (release build). Target: >= 250 thumbnails/s on one core for
// typical drawings (>= 500/s on two cores).

import InklingFormats
import InklingRendering

#if canImport(Glibc)
  import Glibc
#endif

func cpuSeconds() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Cursive loops along x, the way handwriting "e e e" moves.
func loops(x: Double, y: Double, length: Double, count: Int, width: Double) -> StrokePath {
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

/// A page of `count` strokes of `points` points, pen and marker, at random places.
func page(strokes count: Int, points: Int, seed: UInt64) -> Drawing {
  var state = seed
  func random() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(state >> 11) / Double(1 << 53)
  }
  var strokes: [Stroke] = []
  for _ in 0..<count {
    let path = loops(
      x: random() * 700, y: random() * 900, length: 40 + random() * 160, count: points,
      width: 2.5 + random() * 2)
    strokes.append(Stroke(inkIndex: random() < 0.8 ? 0 : 1, path: path, randomSeed: state >> 40))
  }
  let inks = [
    Ink(inkType: .pen, color: RGBA(red: 0, green: 0, blue: 0, alpha: 1)),
    Ink(inkType: .marker, color: RGBA(red: 0, green: 0.4, blue: 1, alpha: 1)),
  ]
  return Drawing(inks: inks, strokes: strokes)
}

@main struct RenderBench {
  static func main() {
    let background = RGBA(red: 1, green: 1, blue: 1, alpha: 1)
    print("cold 256-px thumbnails, one core (best of 15 rounds of 20 drawings; CPU time)")
    for (strokes, points) in [(10, 20), (50, 100), (100, 150), (300, 100), (300, 400)] {
      let drawings = (0..<20).map { page(strokes: strokes, points: points, seed: UInt64($0 + 1)) }
      var checksum = 0
      var best = Double.infinity
      for _ in 0..<15 {
        let start = cpuSeconds()
        for drawing in drawings {
          let image = Renderer.thumbnail(of: drawing, background: background, pixelSize: 256)
          checksum &+= Int(image.rgba[image.rgba.count / 2])
        }
        best = min(best, (cpuSeconds() - start) / Double(drawings.count))
      }
      let perSecond = Int(1 / best)
      let milliseconds = Double(Int(best * 100_000)) / 100
      print(
        "  \(strokes) strokes × \(points) points: \(perSecond) thumbnails/s (\(milliseconds) ms each) [\(checksum % 10)]"
      )
    }
  }
}
