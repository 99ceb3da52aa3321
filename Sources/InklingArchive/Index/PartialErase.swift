// How the pixel eraser leaves a stroke: PencilKit keeps the stroke, with its UUID and its
// path, and records what stays visible: parameter ranges of the path (`Stroke.12`), mask
// polygons (`Stroke.10`), or substrokes carrying their own. The drawing index keeps none of
// that (only the stroke's new row), so `show` and `diff` read the drawing for it. A stroke is
// read with its points left encoded: only its cut is looked at.

import InklingFormats
import InklingStore

/// What the pixel eraser left of a stroke: equal cuts leave the same parts visible.
struct StrokeCut: Hashable {
  var slices: [Float]
  var masks: [[Point]]
  var hidden: Bool
  var pieces: [StrokeCut]

  /// The cut of `stroke`, or nil when the eraser never cut it.
  init?(_ stroke: Stroke) {
    guard !stroke.slices.isEmpty || !stroke.maskPolygons.isEmpty || !stroke.substrokes.isEmpty else { return nil }
    self.init(cutting: stroke)
  }

  private init(cutting stroke: Stroke) {
    slices = stroke.slices
    masks = stroke.maskPolygons
    hidden = stroke.isHidden
    pieces = stroke.substrokes.map(StrokeCut.init(cutting:))
  }

  /// The cut of every stroke of the drawing `bytes`, in its order (nil for an uncut one), or
  /// nil when the bytes are not a drawing this build reads.
  static func cuts(of bytes: [UInt8]) -> [StrokeCut?]? {
    guard
      case .drawing(let drawing)? = try? DrawingReader.read(
        bytes, leavingPointsEncoded: true, skipping: { _, _, _ in nil })
    else { return nil }
    return drawing.strokes.map(StrokeCut.init)
  }
}

extension Archive {
  /// The cut of every stroke of blob `blobID`'s drawing, in its order; nil when it does not
  /// decode. Call within a snapshot.
  func strokeCuts(blobID: Int64) throws -> [StrokeCut?]? {
    StrokeCut.cuts(of: try BlobStore(database).bytes(ofBlob: blobID, limit: DrawingLimits.default.maxBytes))
  }
}

extension Archive {
  /// What the index says of blob `blobID`'s drawing, with the strokes the pixel eraser cut
  /// marked (`StrokeSummary.partlyErased`). A drawing that cannot be read back marks none:
  /// the index alone still describes it. Call within a snapshot.
  func summary(of row: DrawingIndexRow?, blobID: Int64) -> DrawingSummary {
    guard let row else { return .notIndexed }
    var summary = DrawingSummary(row.facts)
    guard summary.status == .decoded, summary.strokes.contains(where: { !$0.hidden }),
      let cuts = try? strokeCuts(blobID: blobID), cuts.count == summary.strokes.count
    else { return summary }
    for index in cuts.indices where cuts[index] != nil && !summary.strokes[index].hidden {
      summary.strokes[index].partlyErased = true
    }
    return summary
  }
}
