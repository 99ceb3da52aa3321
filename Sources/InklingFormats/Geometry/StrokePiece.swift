// What of a drawing is visible, as a flat list of pieces that bounds and rendering share
// (docs/pkdrawing-format.md, "Messages" and "Pixel eraser"):
//
// - Hidden strokes (flag bit 0: erased strokes, eraser strokes) draw nothing; neither do
//   strokes whose ink is the eraser or whose ink index is out of range, nor pieces that end up
//   with no path or no points.
// - A stroke that has substrokes is drawn as its substrokes, never itself. A substroke inherits
//   the ink and the path of its parent; its own path, when present, wins.
// - A piece covers the parameter ranges of its slices (`Stroke.12`, pairs (start, end)); with
//   no slices it covers the whole path. A substroke without slices of its own uses its
//   parent's, so a parent-level slice list is honoured too.
// - A piece is clipped to its mask polygons (`Stroke.10`), given in stroke space before the
//   transform; a substroke without masks uses its parent's.
// - The transform: a substroke's own when it is not the identity, else its parent's
//   (no sample has a transform; this keeps a moved parent's substrokes with it).

/// A visible part of a drawing: one stroke, or one substroke of a stroke, with everything
/// needed to draw it or bound it.
public struct StrokePiece: Sendable {
  /// The index of the top-level stroke in `Drawing.strokes` this piece belongs to.
  public var strokeIndex: Int
  public var ink: Ink
  public var path: StrokePath
  /// Parameter ranges of `path` to draw, ascending, within 0 … N−1.
  public var ranges: [ClosedRange<Double>]
  /// Polygons in stroke space (before `transform`) that the piece is clipped to; empty means
  /// no clipping.
  public var maskPolygons: [[Point]]
  public var transform: AffineTransform
  public var randomSeed: UInt64

  public init(
    strokeIndex: Int, ink: Ink, path: StrokePath, ranges: [ClosedRange<Double>],
    maskPolygons: [[Point]] = [], transform: AffineTransform = .identity, randomSeed: UInt64 = 0
  ) {
    self.strokeIndex = strokeIndex
    self.ink = ink
    self.path = path
    self.ranges = ranges
    self.maskPolygons = maskPolygons
    self.transform = transform
    self.randomSeed = randomSeed
  }

  /// Whether a range ends before the path does, i.e. was cut by the eraser: such an end is
  /// drawn flat, without a round cap.
  public func isCut(at t: Double) -> Bool { t > 0 && t < path.parameterEnd }
}

extension Drawing {
  /// The visible pieces of every stroke, in drawing order.
  public var visiblePieces: [StrokePiece] {
    var pieces: [StrokePiece] = []
    for index in strokes.indices { appendPieces(ofStrokeAt: index, to: &pieces) }
    return pieces
  }

  /// The visible pieces of the stroke at `index` (none when it is hidden or an eraser stroke).
  public func pieces(ofStrokeAt index: Int) -> [StrokePiece] {
    var pieces: [StrokePiece] = []
    appendPieces(ofStrokeAt: index, to: &pieces)
    return pieces
  }

  private func appendPieces(ofStrokeAt index: Int, to pieces: inout [StrokePiece]) {
    let stroke = strokes[index]
    guard !stroke.isHidden, let ink = ink(of: stroke), ink.inkType != .eraser else { return }
    if stroke.substrokes.isEmpty {
      guard let path = stroke.path else { return }
      appendPiece(
        index, ink, path, slices: stroke.slices, masks: stroke.maskPolygons, stroke.transform,
        stroke.randomSeed, to: &pieces)
      return
    }
    for sub in stroke.substrokes where !sub.isHidden {
      guard let path = sub.path ?? stroke.path else { continue }
      appendPiece(
        index, ink, path,
        slices: sub.slices.isEmpty ? stroke.slices : sub.slices,
        masks: sub.maskPolygons.isEmpty ? stroke.maskPolygons : sub.maskPolygons,
        sub.transform.isIdentity ? stroke.transform : sub.transform,
        sub.randomSeed != 0 ? sub.randomSeed : stroke.randomSeed, to: &pieces)
    }
  }

  private func appendPiece(
    _ index: Int, _ ink: Ink, _ path: StrokePath, slices: [Float], masks: [[Point]],
    _ transform: AffineTransform, _ seed: UInt64, to pieces: inout [StrokePiece]
  ) {
    guard !path.points.isEmpty else { return }
    let ranges = Self.ranges(slices: slices, end: path.parameterEnd)
    guard !ranges.isEmpty else { return }
    pieces.append(
      StrokePiece(
        strokeIndex: index, ink: ink, path: path, ranges: ranges, maskPolygons: masks,
        transform: transform, randomSeed: seed))
  }

  /// Slice pairs as parameter ranges clamped to the path; the whole path when there are none.
  /// A trailing unpaired value and pairs with non-finite or reversed ends are ignored.
  static func ranges(slices: [Float], end: Double) -> [ClosedRange<Double>] {
    guard slices.count >= 2 else { return [0...end] }
    var ranges: [ClosedRange<Double>] = []
    var k = 0
    while k + 1 < slices.count {
      let a = Double(slices[k])
      let b = Double(slices[k + 1])
      k += 2
      guard a.isFinite, b.isFinite, a <= b, b >= 0, a <= end else { continue }
      ranges.append(max(a, 0)...min(b, end))
    }
    return ranges
  }
}
