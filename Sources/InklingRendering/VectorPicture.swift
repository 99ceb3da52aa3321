// A drawing as vectors: the share image's page (RenderGeometry.export: the same size and
// scale as the PNG) with each visible stroke piece as a filled outline (StrokeOutliner.swift),
// written as SVG (SVGWriter.swift) or PDF (PDFWriter.swift, through cairo).
//
// The outlines are in the PNG's pixel space, so a rasteriser asked for the PNG's size lands
// every edge where the PNG has it; the SVG says its size in points (its view box in pixels)
// and the PDF's page is in points, so both print at the drawing's size.

import InklingFormats

/// A drawing's visible strokes as filled outlines over its background.
public struct VectorPicture {
  /// The page: the PNG share image's size in pixels and its scale in pixels per point.
  public let geometry: RenderGeometry
  let background: ClampedColor
  /// The visible pieces, in drawing order, the consecutive pieces of one stroke together.
  let strokes: [[PieceOutline]]

  /// The share image's drawing as vectors: the drawing's bounds grown by 8 pt at `scale`
  /// pixels per point (as `Renderer.exportWithGeometry`, whose geometry it takes) over
  /// `background`.
  public static func export(of drawing: Drawing, background: RGBA, scale: Double) -> VectorPicture {
    export(of: drawing, background: background, scaleForSize: { _, _ in scale })
  }

  /// The share image's drawing as vectors at the scale `scaleForSize` chooses for its page's
  /// size in points: what a picture printed smaller than its size needs, as its outlines
  /// need no more points than the printer has dots.
  public static func export(
    of drawing: Drawing, background: RGBA, scaleForSize: (_ width: Double, _ height: Double) -> Double
  ) -> VectorPicture {
    let (pieces, bounds) = Renderer.measured(drawing)
    let unit = RenderGeometry.export(bounds: bounds, canvas: drawing.canvasBounds, scale: 1)
    let points = unit.scale.isFinite && unit.scale > 0 ? unit.scale : 1
    let scale = scaleForSize(Double(max(unit.width, 1)) / points, Double(max(unit.height, 1)) / points)
    let geometry = RenderGeometry.export(bounds: bounds, canvas: drawing.canvasBounds, scale: scale)
    var strokes: [[PieceOutline]] = []
    if geometry.scale.isFinite, geometry.scale > 0 {
      var outliner = StrokeOutliner(geometry: geometry)
      for (piece, _) in pieces {
        guard let outline = outliner.outline(piece) else { continue }
        if let last = strokes.last?.last, last.strokeIndex == outline.strokeIndex {
          strokes[strokes.count - 1].append(outline)
        } else {
          strokes.append([outline])
        }
      }
    }
    return VectorPicture(geometry: geometry, background: ClampedColor(background), strokes: strokes)
  }

  /// What stands for a drawing that does not decode, as the PNG placeholder shows it: the
  /// background of a `side` × `side` pixel page at `scale` pixels per point, with a crossed-out
  /// frame a third of the side in the middle, grey that stands out from the background.
  public static func placeholder(background: RGBA, side: Int, scale: Double) -> VectorPicture {
    let fill = ClampedColor(background)
    let luminance = 0.2126 * fill.r + 0.7152 * fill.g + 0.0722 * fill.b
    let grey: Float = luminance > 0.5 || fill.a < 0.5 ? 0x80 / 255 : 0xB0 / 255
    let s = Double(side)
    let frame = Double(side / 3)
    let o = Double((side - side / 3) / 2)
    let w = Double(max(2, side / 64))
    func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [Point] {
      [Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1)]
    }
    let polygons = [
      box(o, o, o + frame, o + w), box(o, o + frame - w, o + frame, o + frame),
      box(o, o, o + w, o + frame), box(o + frame - w, o, o + frame, o + frame),
      [
        Point(x: o, y: o), Point(x: o + w, y: o), Point(x: o + frame, y: o + frame),
        Point(x: o + frame - w, y: o + frame),
      ],
      [
        Point(x: o + frame - w, y: o), Point(x: o + frame, y: o), Point(x: o + w, y: o + frame),
        Point(x: o, y: o + frame),
      ],
    ].map(StrokeOutliner.counterclockwise)
    let outline = PieceOutline(
      strokeIndex: 0, polygons: polygons, clip: [], color: ClampedColor(r: grey, g: grey, b: grey, a: 1), alpha: 1)
    let geometry = RenderGeometry(
      width: side, height: side, source: Rect(x: 0, y: 0, width: s / scale, height: s / scale), scale: scale,
      offsetX: 0, offsetY: 0)
    return VectorPicture(geometry: geometry, background: fill, strokes: [[outline]])
  }

  /// How many strokes the picture draws (each one group in the SVG).
  public var strokeCount: Int { strokes.count }

  /// How many stroke pieces the picture draws (each one path).
  public var pieceCount: Int { strokes.reduce(0) { $0 + $1.count } }

  /// The page's size in points: the PNG's pixels over its scale.
  public var pointSize: (width: Double, height: Double) {
    let scale = geometry.scale.isFinite && geometry.scale > 0 ? geometry.scale : 1
    return (Double(max(geometry.width, 1)) / scale, Double(max(geometry.height, 1)) / scale)
  }
}
