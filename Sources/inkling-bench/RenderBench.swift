// Thumbnail rendering speed: cold 256-px thumbnails of generated handwriting pages
// (InklingTestSupport's HandwritingPage, the rendering tests' pages), in CPU time, one core
// (scripts/bench-render pins the process). Target: ≥ 250 thumbnails/s on one core for typical
// drawings (≥ 500/s on two cores).

import InklingFormats
import InklingRendering
import InklingTestSupport

enum RenderBench {
  static let benchmark = EntryPoint.Benchmark(
    name: "render", abstract: "Cold 256-px thumbnails of generated pages of 10–300 strokes, on one core.",
    usage: "", run: run)

  static func run(_ arguments: inout BenchArguments) throws -> Int32 {
    arguments.finish()
    let background = RGBA(red: 1, green: 1, blue: 1, alpha: 1)
    print("cold 256-px thumbnails, one core (best of 15 rounds of 20 drawings; CPU time)")
    for (strokes, points) in [(10, 20), (50, 100), (100, 150), (300, 100), (300, 400)] {
      let drawings = (0..<20).map { HandwritingPage.page(strokes: strokes, points: points, seed: UInt64($0 + 1)) }
      var checksum = 0
      var best = Double.infinity
      for _ in 0..<15 {
        let start = Clocks.processCPU()
        for drawing in drawings {
          let image = Renderer.thumbnail(of: drawing, background: background, pixelSize: 256)
          checksum &+= Int(image.rgba[image.rgba.count / 2])
        }
        best = min(best, (Clocks.processCPU() - start) / Double(drawings.count))
      }
      let perSecond = Int(1 / best)
      let milliseconds = Double(Int(best * 100_000)) / 100
      print(
        "  \(strokes) strokes × \(points) points: \(perSecond) thumbnails/s (\(milliseconds) ms each) [\(checksum % 10)]"
      )
    }
    return 0
  }
}
