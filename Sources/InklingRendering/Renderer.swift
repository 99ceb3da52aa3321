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
  public static let version = 1

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
    let pieces = Measured(drawing)
    let geometry = RenderGeometry.export(
      bounds: pieces.renderBounds, canvas: drawing.canvasBounds, scale: scale)
    return render(pieces, geometry: geometry, background: background)
  }

  /// The drawing mapped into an image by `geometry`, over `background`.
  public static func render(_ drawing: Drawing, geometry: RenderGeometry, background: RGBA)
    -> RenderedImage
  {
    render(Measured(drawing), geometry: geometry, background: background)
  }

  /// The visible pieces with their exact bounds, each computed once.
  private struct Measured {
    var pieces: [(piece: StrokePiece, bounds: Rect)] = []
    /// The union of the pieces' render bounds (each rounded outward), as `Drawing.renderBounds`.
    var renderBounds: Rect?

    init(_ drawing: Drawing) {
      var x0 = Double.infinity
      var y0 = Double.infinity
      var x1 = -Double.infinity
      var y1 = -Double.infinity
      for piece in drawing.visiblePieces {
        guard let exact = piece.exactBounds else { continue }
        pieces.append((piece, exact))
        let r = StrokePiece.roundedOut(exact)
        x0 = Swift.min(x0, r.minX)
        y0 = Swift.min(y0, r.minY)
        x1 = Swift.max(x1, r.maxX)
        y1 = Swift.max(y1, r.maxY)
      }
      if x0 <= x1, y0 <= y1 { renderBounds = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) }
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
