// Vector renders over the bench corpus (500 drafts, inkling-corpus's seed 2026, the newest
// version of each): SVG bytes per stroke (the goal: at most 1 KB on average), beside what
// cairo's own SVG surface writes for the same outlines; and the largest draft's PDF against
// its PNG share image, in wall time (the goal: at most twice). With `--svg FILE` the largest
// draft's SVG is written there, for scripts/bench-render to time rsvg-convert on it.

import Foundation
import InklingCorpus
import InklingFormats
import InklingRendering

enum VectorBench {
  static let benchmark = EntryPoint.Benchmark(
    name: "vectors", abstract: "SVG bytes per stroke over the 500-draft corpus; PDF vs PNG time of its largest draft.",
    usage: "[--drafts N] [--svg FILE]", run: run)

  static func run(_ arguments: inout BenchArguments) throws -> Int32 {
    let drafts = arguments.int("--drafts", default: 500)
    let svgPath = arguments.string("--svg")
    arguments.finish()
    var newest: [Int: DraftSave] = [:]
    generateCorpus(CorpusSpec(drafts: drafts, versionsPerDraft: 1...8, seed: 2026, layoutVariety: true)) { file in
      newest[file.draftIndex] = file.save
    }
    var svgBytes = 0
    var cairoBytes = 0
    var strokes = 0
    var largest: DraftSave?
    for save in newest.values {
      let picture = VectorPicture.export(of: save.drawing, background: save.background, scale: 2)
      svgBytes += picture.svg.count
      cairoBytes += try picture.svgThroughCairo().count
      strokes += picture.strokeCount
      if save.drawing.strokes.count > largest?.drawing.strokes.count ?? -1 { largest = save }
    }
    print("vectors of the newest version of \(newest.count) corpus drafts (scale 2)")
    print("  strokes drawn: \(strokes)")
    print("  SVG: \(svgBytes / max(strokes, 1)) bytes per stroke (\(svgBytes) bytes in all)")
    print("  cairo's SVG surface, same outlines: \(cairoBytes / max(strokes, 1)) bytes per stroke")
    guard let largest else { return 0 }
    func best(_ body: () throws -> Void) rethrows -> Double {
      var best = Double.infinity
      for _ in 0..<5 {
        let start = Clocks.now()
        try body()
        best = min(best, Clocks.now() - start)
      }
      return best * 1000
    }
    var size = 0
    let png = try best {
      let image = Renderer.export(of: largest.drawing, background: largest.background, scale: 2)
      size = try PNG.encode(image).count
    }
    print("largest draft: \(largest.drawing.strokes.count) strokes")
    print("  PNG render (scale 2): \(format(png)) ms, \(size) bytes")
    let pdf = try best {
      size = try VectorPicture.export(of: largest.drawing, background: largest.background, scale: 2).pdf().count
    }
    print("  PDF render: \(format(pdf)) ms, \(size) bytes (\(format(pdf / png))× the PNG's time)")
    var svg: [UInt8] = []
    let svgTime = best { svg = VectorPicture.export(of: largest.drawing, background: largest.background, scale: 2).svg }
    print("  SVG render: \(format(svgTime)) ms, \(svg.count) bytes")
    if let svgPath {
      try Data(svg).write(to: URL(fileURLWithPath: svgPath))
    }
    return 0
  }

  static func format(_ v: Double) -> String { String(Double(Int(v * 100)) / 100) }
}
