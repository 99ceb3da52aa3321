// One draft of very many strokes, for scripts/bench-timelapse's "a draft of 200,000 strokes
// finishes in bounded time": the generated corpus spaces strokes in time and keeps its files
// small, so it makes no such drawing. A device drawing's first stroke, cut to a few points and
// repeated on a grid, each copy with an identity of its own and begun 0.2 s after the one
// before, written as the app writes a draft file.

import Foundation
import InklingFormats
import InklingTestSupport

enum BigDraftBench {
  static let benchmark = EntryPoint.Benchmark(
    name: "bigdraft", abstract: "Write one .inkling draft file of N strokes (for scripts/bench-timelapse).",
    usage: "[--strokes N] [--points P] NAME-2025-02-01T10:00:00Z.inkling", run: run)

  static func run(_ arguments: inout BenchArguments) throws -> Int32 {
    let count = arguments.int("--strokes", default: 200_000)
    let points = arguments.int("--points", default: 8)
    arguments.finish(operands: 1...1)
    var drawing = try Drawing(bytes: DeviceSamples.drawing("handwritten-half-notes"))
    guard var stroke = drawing.strokes.first, stroke.path != nil else {
      BenchArguments.fail("the sample has no stroke")
    }
    stroke.path!.points = Array(stroke.path!.points.prefix(points))
    stroke.path!.varyingProperties.remove(.threshold)
    stroke.path!.constantProperties.remove(.threshold)
    let start = 757_382_400.0  // 2025-01-01 in seconds since 2001-01-01; the file says 2025-02-01
    drawing.strokes = (0..<count).map { index in
      var copy = stroke
      copy.uuid = UUIDBytes(high: 0x494E_4B4C_0000_0000, low: UInt64(index))
      copy.path!.creationDate = start + Double(index) / 5
      for point in copy.path!.points.indices {
        copy.path!.points[point].location.x += Double(index % 400) * 6
        copy.path!.points[point].location.y += Double(index / 400) * 6
      }
      return copy
    }
    let bytes = try DrawingWriter.write(drawing)
    let file = #"{"drawingData":"\#(Data(bytes).base64EncodedString())","color":{"r":1,"g":1,"b":1,"a":1}}"#
    try Data(file.utf8).write(to: URL(fileURLWithPath: arguments.operands[0]))
    print("\(arguments.operands[0]): \(count) strokes of \(points) points, \(bytes.count) bytes of drawing")
    return 0
  }
}
