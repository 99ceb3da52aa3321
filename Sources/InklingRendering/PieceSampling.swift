import InklingFormats

/// Where a stroke piece is sampled on its way to pixels: its mapping, the spacing of its samples
/// and its half-widths. The rasterizer fills a disc at each sample and the outliner traces their
/// envelope; both take them from here, so that the PNG and the vectors are one geometry.
struct PieceSampling {
  /// The piece's transform, then the render's: stroke space to pixels.
  let mapping: AffineTransform
  /// The inverse of the mapping's linear part, which turns a pixel direction back into the
  /// stroke's own (a fountain pen's nib is angled there).
  let inverse: AffineTransform
  /// How much the mapping scales a radius: the square root of its area scale.
  let radiusScale: Double
  /// The largest stretch of the mapping, so that spacing in stroke space bounds pixel spacing.
  let stretch: Double
  /// The mean half-width of the piece's points, for inks of even width.
  let meanHalfWidth: Double
  /// The greatest distance between samples, in stroke space (2 to 4 pixels once mapped).
  let spacing: Double
  /// Samples closer than this many pixels to the last one drawn (at about the same radius)
  /// add work but no visible shape.
  let minStep: Double

  /// nil when the mapping collapses the piece (a zero or non-finite scale).
  init?(_ piece: StrokePiece, style: InkStyle, transform: AffineTransform) {
    mapping = StrokeRasterizer.concat(piece.transform, then: transform)
    radiusScale = abs(mapping.a * mapping.d - mapping.b * mapping.c).squareRoot()
    guard radiusScale.isFinite, radiusScale > 0 else { return nil }
    stretch = Swift.max(
      (mapping.a * mapping.a + mapping.b * mapping.b).squareRoot(),
      (mapping.c * mapping.c + mapping.d * mapping.d).squareRoot())
    var sum = 0.0
    var widest = 0.0
    for point in piece.path.points {
      let h = style.metrics.halfWidth(radius: point.width)
      sum += h
      widest = Swift.max(widest, h)
    }
    meanHalfWidth = sum / Double(piece.path.points.count)
    let spacingPixels = Swift.min(Swift.max(0.75 * widest * radiusScale, 2), 4)
    spacing = spacingPixels / stretch
    minStep = 0.75 * spacingPixels
    inverse = StrokeRasterizer.inverseLinear(mapping)
  }
}
