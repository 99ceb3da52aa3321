// Where a drawing lands in an image: the Inkling app's thumbnail and export geometry
// (docs/inkling-files.md, "Thumbnails and exports in the app").
//
// - Thumbnail: the drawing's bounds grown by 6 pt on every side (an 80 × 80 pt square when
//   the drawing is empty), aspect-fit and centred in a square of the requested pixel size
//   that is first filled with the background colour.
// - Export (the share image): the bounds grown by 8 pt at `scale` pixels per point. An empty
//   drawing gives the canvas: `Drawing.canvasBounds` when it has an area, else
//   `RenderGeometry.defaultCanvas` (1024 × 768 pt, an iPad's landscape canvas in points).
//
// Images are capped at `maxDimension` pixels a side and `maxPixels` in all: a larger export
// is scaled down to fit, so absurd coordinates cannot exhaust memory.

import InklingFormats

/// A mapping from drawing coordinates to the pixels of an image.
public struct RenderGeometry: Hashable, Sendable {
  /// The image size in pixels.
  public var width: Int
  public var height: Int
  /// The drawing-space rectangle that is shown.
  public var source: Rect
  /// Pixels per point.
  public var scale: Double
  /// Where `source`'s origin lands, in pixels from the image's top-left corner.
  public var offsetX: Double
  public var offsetY: Double

  public init(
    width: Int, height: Int, source: Rect, scale: Double, offsetX: Double = 0, offsetY: Double = 0
  ) {
    self.width = width
    self.height = height
    self.source = source
    self.scale = scale
    self.offsetX = offsetX
    self.offsetY = offsetY
  }

  /// The margin around the drawing's bounds in a thumbnail, and the square shown when empty.
  public static let thumbnailMargin = 6.0
  public static let emptyThumbnailSide = 80.0
  /// The margin around the drawing's bounds in an export.
  public static let exportMargin = 8.0
  /// The canvas an empty drawing exports as when it stores no canvas bounds.
  public static let defaultCanvas = Rect(x: 0, y: 0, width: 1024, height: 768)
  /// The largest image side and area this renderer produces.
  public static let maxDimension = 16384
  public static let maxPixels = 64 * 1024 * 1024

  /// The thumbnail of `drawing` in a `pixelSize` × `pixelSize` square (clamped to
  /// 1 … `maxDimension`).
  public static func thumbnail(for drawing: Drawing, pixelSize: Int) -> RenderGeometry {
    thumbnail(bounds: drawing.renderBounds, pixelSize: pixelSize)
  }

  /// The thumbnail geometry for drawing bounds already computed (nil when empty).
  public static func thumbnail(bounds: Rect?, pixelSize: Int) -> RenderGeometry {
    let size = Swift.min(Swift.max(pixelSize, 1), maxDimension)
    let side = Double(size)
    guard let bounds else {
      let square = Rect(x: 0, y: 0, width: emptyThumbnailSide, height: emptyThumbnailSide)
      return RenderGeometry(
        width: size, height: size, source: square, scale: side / emptyThumbnailSide)
    }
    let source = grow(bounds, by: thumbnailMargin)
    let scale = side / Swift.max(source.width, source.height)
    return RenderGeometry(
      width: size, height: size, source: source, scale: scale,
      offsetX: (side - source.width * scale) / 2, offsetY: (side - source.height * scale) / 2)
  }

  /// The export of `drawing` at `scale` pixels per point (a non-finite or non-positive scale
  /// counts as 1; the result is scaled down to fit the size caps).
  public static func export(for drawing: Drawing, scale: Double) -> RenderGeometry {
    export(bounds: drawing.renderBounds, canvas: drawing.canvasBounds, scale: scale)
  }

  /// The export geometry for drawing bounds already computed (nil when empty) and the
  /// drawing's canvas bounds.
  public static func export(bounds: Rect?, canvas: Rect?, scale: Double) -> RenderGeometry {
    let source: Rect
    if let bounds {
      source = grow(bounds, by: exportMargin)
    } else if let canvas, canvas.width > 0, canvas.height > 0,
      canvas.width.isFinite, canvas.height.isFinite, canvas.x.isFinite, canvas.y.isFinite
    {
      source = canvas
    } else {
      source = defaultCanvas
    }
    var s = scale.isFinite && scale > 0 ? scale : 1
    // Fit the caps: each side, then the area.
    s = Swift.min(s, Double(maxDimension) / source.width, Double(maxDimension) / source.height)
    s = Swift.min(s, (Double(maxPixels) / (source.width * source.height)).squareRoot())
    let width = Swift.max(1, Swift.min(Int((source.width * s - 1e-9).rounded(.up)), maxDimension))
    let height = Swift.max(1, Swift.min(Int((source.height * s - 1e-9).rounded(.up)), maxDimension))
    return RenderGeometry(width: width, height: height, source: source, scale: s)
  }

  /// The pixel position of a drawing-space point (pixel centres are at half-integers).
  public func pixel(_ p: Point) -> Point {
    Point(x: (p.x - source.x) * scale + offsetX, y: (p.y - source.y) * scale + offsetY)
  }

  /// The drawing → pixel mapping as an affine transform.
  public var transform: AffineTransform {
    AffineTransform(
      a: scale, b: 0, c: 0, d: scale, tx: offsetX - source.x * scale, ty: offsetY - source.y * scale
    )
  }

  private static func grow(_ r: Rect, by margin: Double) -> Rect {
    Rect(
      x: r.x - margin, y: r.y - margin, width: r.width + 2 * margin, height: r.height + 2 * margin)
  }
}
