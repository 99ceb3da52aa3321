// One draft saved many times, one stroke a save: the history whose every view once cost the
// product of its saves and strokes (each save's whole drawing read and compared with the one
// before). The generated corpus keeps its drawings small and its saves few, so it makes no such
// draft. A device drawing's first stroke, cut to a few points and repeated on a grid, each copy
// with an identity of its own and begun 0.2 s after the one before; save k holds the first k
// copies and is stamped k minutes after the first, written as the app writes a draft file.

import Foundation
import InklingFormats

/// A draft saved `saves` times, one stroke more each time.
package struct ManySavesDraft {
  /// The draft's name: every file is `Saves-<stamp>.inkling`.
  package static let name = "Saves"
  private let strokes: [Stroke]
  private let template: Drawing

  /// The strokes of a draft of up to `strokes` saves, each of `points` points.
  ///
  /// - Throws: when the device sample cannot be read.
  package init(strokes count: Int, points: Int = 8) throws {
    var drawing = try Drawing(bytes: DeviceSamples.drawing("handwritten-half-notes"))
    guard var stroke = drawing.strokes.first, var path = stroke.path else {
      preconditionFailure("the device sample handwritten-half-notes has a first stroke with a path")
    }
    path.points = Array(path.points.prefix(points))
    path.varyingProperties.remove(.threshold)
    path.constantProperties.remove(.threshold)
    stroke.path = path
    let start = 757_382_400.0  // 2025-01-01 in seconds since 2001-01-01; the saves are in February
    strokes = (0..<count).map { index in
      var copy = stroke
      copy.uuid = UUIDBytes(high: 0x494E_4B4C_0000_0000, low: UInt64(index))
      copy.path!.creationDate = start + Double(index) / 5
      for point in copy.path!.points.indices {
        copy.path!.points[point].location.x += Double(index % 40) * 12
        copy.path!.points[point].location.y += Double(index / 40) * 12
      }
      return copy
    }
    drawing.strokes = []
    template = drawing
  }

  /// The file name of save `number` (from 1): 2025-02-01T10:00:00Z plus `number - 1` minutes.
  package static func fileName(save number: Int) -> String {
    let minutes = 600 + number - 1
    let (day, minute) = (1 + minutes / 1440, minutes % 1440)
    let stamp = String(format: "2025-02-%02dT%02d:%02d:00Z", day, minute / 60, minute % 60)
    return "\(name)-\(stamp).inkling"
  }

  /// The file of save `number` (from 1): the first `number` strokes on a white background.
  ///
  /// - Throws: when the drawing cannot be written.
  package func file(save number: Int) throws -> [UInt8] {
    try file(holding: Array(0..<number))
  }

  /// A file whose drawing holds the strokes at `indices` (from 0), in that order, on a white
  /// background: a save that erased or reverted.
  ///
  /// - Throws: when the drawing cannot be written.
  package func file(holding indices: [Int]) throws -> [UInt8] {
    var drawing = template
    drawing.strokes = indices.map { strokes[$0] }
    let bytes = try DrawingWriter.write(drawing)
    let json = #"{"drawingData":"\#(Data(bytes).base64EncodedString())","color":{"r":1,"g":1,"b":1,"a":1}}"#
    return Array(json.utf8)
  }

  /// Writes saves 1 … `saves` into `folder` (which must exist); returns their paths, oldest first.
  ///
  /// - Throws: when a file cannot be written.
  @discardableResult
  package func write(saves: Int, to folder: String) throws -> [String] {
    try (1...saves).map { number in
      let path = folder + "/" + Self.fileName(save: number)
      try Data(try file(save: number)).write(to: URL(fileURLWithPath: path))
      return path
    }
  }

  /// Writes one save a list of `saves` into `folder`, made if missing: save k holds the
  /// strokes `saves[k - 1]` (`file(holding:)`).
  ///
  /// - Throws: when a file cannot be written.
  package func write(holding saves: [[Int]], to folder: String) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for (place, strokes) in saves.enumerated() {
      try Data(try file(holding: strokes)).write(
        to: URL(fileURLWithPath: folder + "/" + Self.fileName(save: place + 1)))
    }
  }
}
