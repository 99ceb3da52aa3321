// The public entry point: a drawing over a background colour, as the Inkling app shows it in
// its draft list (thumbnail) and shares it (export). See ThumbnailGeometry.swift for where the
// drawing lands and StrokeRasterizer.swift for how a stroke is drawn.

import InklingFormats

/// Renders PencilKit drawings to RGBA pixels.
///
/// ```swift
/// let image = Renderer.thumbnail(of: drawing, background: draft.color, pixelSize: 256)
/// let png = try PNG.encode(image, text: [("Software", "inkling-archive")])
/// ```
public enum Renderer {
  /// The version of the pixels this renderer produces; bumped whenever the output of the same
  /// input changes, so that callers can use it in a cache key.
  ///
  /// 2: narrow capsules are scanned whole rather than by their rows' chords, which moves a few
  /// edge pixels by one level (11 bytes in the 1000 thumbnails of the benchmark corpus).
  public static let version = 2

  /// The draft-list thumbnail: the drawing's bounds grown by 6 pt, aspect-fit and centred in a
  /// `pixelSize` × `pixelSize` square filled with `background` (clamped to 1 … 16384 pixels).
  /// An empty drawing gives the plain background.
  public static func thumbnail(of drawing: Drawing, background: RGBA, pixelSize: Int)
    -> RenderedImage
  {
    let pieces = Measured(drawing)
    let geometry = RenderGeometry.thumbnail(bounds: pieces.renderBounds, pixelSize: pixelSize)
    return render(pieces, geometry: geometry, background: background)
  }

  /// The share image: the drawing's bounds grown by 8 pt at `scale` pixels per point over
  /// `background`; an empty drawing gives its canvas (see `RenderGeometry.export`).
  public static func export(of drawing: Drawing, background: RGBA, scale: Double) -> RenderedImage {
    exportWithGeometry(of: drawing, background: background, scale: scale).image
  }

  /// `export`, with the geometry it used: its `scale` is less than asked when the image
  /// would pass `RenderGeometry.maxDimension` or `maxPixels`.
  public static func exportWithGeometry(of drawing: Drawing, background: RGBA, scale: Double)
    -> (image: RenderedImage, geometry: RenderGeometry)
  {
    let pieces = Measured(drawing)
    let geometry = RenderGeometry.export(
      bounds: pieces.renderBounds, canvas: drawing.canvasBounds, scale: scale)
    return (render(pieces, geometry: geometry, background: background), geometry)
  }

  /// The drawing mapped into an image by `geometry`, over `background`.
  public static func render(_ drawing: Drawing, geometry: RenderGeometry, background: RGBA)
    -> RenderedImage
  {
    render(Measured(drawing), geometry: geometry, background: background)
  }

  /// The visible pieces of `drawing` with the boxes `render` rasterises them in, and its
  /// render bounds. The box decides which pixels a piece may reach, so drawing a piece in the
  /// box `render` gives it is what makes a time-lapse's frames `render`'s pixels.
  static func measured(_ drawing: Drawing) -> (pieces: [(piece: StrokePiece, bounds: Rect)], bounds: Rect?) {
    let measured = Measured(drawing)
    return (measured.pieces, measured.renderBounds)
  }

  /// The visible pieces, each with a box that holds all of its ink, and the drawing's render
  /// bounds.
  ///
  /// The render bounds are the union of the pieces' exact bounds (`StrokePiece.exactBounds`,
  /// rounded outward), but the exact sweep is the costly part of a thumbnail of many strokes,
  /// and only the pieces at the edges of the drawing decide the union. So every piece first
  /// gets a cheap box from its control points (`coarseBounds`), which holds its exact bounds,
  /// and the exact bounds are computed only for pieces whose cheap box reaches past the union
  /// found so far on some side. A piece keeps its cheap box for rasterizing: the box only
  /// sizes the coverage buffer, and a larger one changes no pixel.
  struct Measured {
    var pieces: [(piece: StrokePiece, bounds: Rect)] = []
    /// The union of the pieces' render bounds (each rounded outward), as `Drawing.renderBounds`.
    var renderBounds: Rect?

    init(_ drawing: Drawing) {
      let visible = drawing.visiblePieces
      let coarse = visible.map(Self.coarseBounds)
      // nil: not computed yet; .some(nil): the piece draws nothing finite.
      var exact = [Rect??](repeating: nil, count: visible.count)
      var union = (x0: Double.infinity, y0: Double.infinity, x1: -Double.infinity, y1: -Double.infinity)
      func measure(_ i: Int) {
        guard exact[i] == nil else { return }
        let bounds = visible[i].exactBounds
        exact[i] = .some(bounds)
        guard let bounds else { return }
        let r = StrokePiece.roundedOut(bounds)
        union.x0 = Swift.min(union.x0, r.minX)
        union.y0 = Swift.min(union.y0, r.minY)
        union.x1 = Swift.max(union.x1, r.maxX)
        union.y1 = Swift.max(union.y1, r.maxY)
      }
      for i in visible.indices where coarse[i] == nil { measure(i) }
      // First the piece whose cheap box reaches furthest on each side, which brings the union
      // close to its final size; then every piece whose cheap box still reaches past it. The
      // union only grows, so a piece skipped once stays inside it. The margin covers rounding
      // in the exact sweep, which may land an ulp beyond the control points' box.
      @inline(__always) func margin(_ v: Double) -> Double { 1e-6 * (1 + abs(v)) }
      func reachesPast(_ box: Rect) -> Bool {
        box.minX - margin(box.minX) < union.x0 || box.minY - margin(box.minY) < union.y0
          || box.maxX + margin(box.maxX) > union.x1 || box.maxY + margin(box.maxY) > union.y1
      }
      // Per side (left, top, −right, −bottom): the furthest value and its piece.
      var extremes = [(value: Double, index: Int)](repeating: (.infinity, -1), count: 4)
      for (i, box) in coarse.enumerated() {
        guard let box else { continue }
        for (side, value) in [box.minX, box.minY, -box.maxX, -box.maxY].enumerated()
        where value < extremes[side].value {
          extremes[side] = (value, i)
        }
      }
      for extreme in extremes where extreme.index >= 0 { measure(extreme.index) }
      for (i, box) in coarse.enumerated() {
        if let box, reachesPast(box) { measure(i) }
      }
      for i in visible.indices {
        if let measured = exact[i] {
          guard let bounds = measured else { continue }
          pieces.append((visible[i], bounds))
        } else if let box = coarse[i] {
          pieces.append((visible[i], box))
        }
      }
      if union.x0 <= union.x1, union.y0 <= union.y1 {
        renderBounds = Rect(x: union.x0, y: union.y0, width: union.x1 - union.x0, height: union.y1 - union.y0)
      }
    }

    /// A box that certainly holds `piece.exactBounds`, from its control points (every
    /// segment of the spline lies in the hull of its own, and of the real ones only: the
    /// phantom ends do not reach the curve) grown by the widest half-width and transformed;
    /// nil when the exact bounds must be computed instead: mask polygons (the exact bounds
    /// decide whether the piece is drawn at all) or coordinates that are not finite or so
    /// large that the sweep's arithmetic could overflow.
    static func coarseBounds(_ piece: StrokePiece) -> Rect? {
      guard piece.maskPolygons.isEmpty else { return nil }
      let metrics = InkMetrics.of(piece.ink.inkType)
      let limit = 1e15
      var x0 = Double.infinity
      var y0 = Double.infinity
      var x1 = -Double.infinity
      var y1 = -Double.infinity
      var widest = metrics.minimum
      for point in piece.path.points {
        let p = point.location
        guard abs(p.x) < limit, abs(p.y) < limit else { return nil }  // also NaN
        x0 = Swift.min(x0, p.x)
        y0 = Swift.min(y0, p.y)
        x1 = Swift.max(x1, p.x)
        y1 = Swift.max(y1, p.y)
        widest = Swift.max(widest, metrics.halfWidth(radius: point.width))
      }
      guard x0 <= x1, y0 <= y1, widest < limit else { return nil }
      let m = piece.transform
      guard [m.a, m.b, m.c, m.d, m.tx, m.ty].allSatisfy({ abs($0) < limit }) else { return nil }
      // The transformed box's corners bound the transformed points; a disc of radius h
      // becomes an ellipse reaching h·√(a² + c²) along x and h·√(b² + d²) along y.
      let corners = [
        m.apply(Point(x: x0, y: y0)), m.apply(Point(x: x1, y: y0)),
        m.apply(Point(x: x0, y: y1)), m.apply(Point(x: x1, y: y1)),
      ]
      let dx = widest * (m.a * m.a + m.c * m.c).squareRoot()
      let dy = widest * (m.b * m.b + m.d * m.d).squareRoot()
      let minX = corners.map(\.x).min()! - dx
      let maxX = corners.map(\.x).max()! + dx
      let minY = corners.map(\.y).min()! - dy
      let maxY = corners.map(\.y).max()! + dy
      guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return nil }
      return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
  }

  private static func render(
    _ measured: Measured, geometry: RenderGeometry, background: RGBA
  ) -> RenderedImage {
    let width = Swift.max(geometry.width, 1)
    let height = Swift.max(geometry.height, 1)
    var canvas = Canvas(width: width, height: height, background: background)
    if !measured.pieces.isEmpty, geometry.scale.isFinite, geometry.scale > 0 {
      var rasterizer = StrokeRasterizer(width: width, height: height)
      for (piece, bounds) in measured.pieces {
        rasterizer.draw(piece, bounds: bounds, geometry: geometry, into: &canvas)
      }
    }
    return canvas.image()
  }
}
