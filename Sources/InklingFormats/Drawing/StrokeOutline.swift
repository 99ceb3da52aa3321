// What a reader must know of a stroke message it does not decode (DrawingReader.read(_:skipping:)):
// enough to count it against `DrawingLimits` as if decoded, to check its ink indices, and to
// stand in for it in the drawing (ink index and hidden flag).

/// The counts of a decoded stroke, kept by a caller that may meet its message again.
package struct StrokeOutline: Hashable, Sendable {
  package var inkIndex: Int
  package var isHidden: Bool
  /// The stroke and its substrokes, at any depth.
  package var strokes: Int
  /// What the stroke counts against `DrawingLimits.maxPoints`: its path's points and, for
  /// each mask polygon, its vertices and one more; substrokes included.
  package var points: Int
  /// How deep its substrokes nest: 0 for none.
  package var depth: Int
  /// The highest ink index of the stroke and its substrokes.
  package var maxInkIndex: Int

  /// The outline of `siblings[index]`, counted as `DrawingDecoder` counts what it decodes.
  /// (Read in place: a stroke passed by value is copied, which retains each of its arrays.)
  package init(of siblings: [Stroke], at index: Int) {
    inkIndex = siblings[index].inkIndex
    isHidden = siblings[index].isHidden
    strokes = 0
    points = 0
    depth = 0
    maxInkIndex = inkIndex
    add(siblings, index, depth: 0)
  }

  private mutating func add(_ siblings: [Stroke], _ index: Int, depth: Int) {
    strokes += 1
    points += siblings[index].path?.pointCount ?? 0
    for polygon in siblings[index].maskPolygons.indices { points += siblings[index].maskPolygons[polygon].count + 1 }
    self.depth = max(self.depth, depth)
    maxInkIndex = max(maxInkIndex, siblings[index].inkIndex)
    // Recursion as deep as the model nests: models from the reader nest at most
    // DrawingLimits.hardMaxNestingDepth levels.
    for substroke in siblings[index].substrokes.indices { add(siblings[index].substrokes, substroke, depth: depth + 1) }
  }

  /// Appends what stands in for the stroke in a drawing read without decoding it: a blank
  /// stroke with its ink index and hidden flag, filled in place (see `DrawingDecoder.blank`).
  func appendPlaceholder(to strokes: inout [Stroke]) {
    strokes.append(DrawingDecoder.blank)
    strokes[strokes.count - 1].inkIndex = inkIndex
    strokes[strokes.count - 1].isHidden = isHidden
  }

  /// The placeholder on its own.
  var placeholder: Stroke {
    var strokes: [Stroke] = []
    appendPlaceholder(to: &strokes)
    return strokes[0]
  }
}
