// Rendering through PNG and back: sizes, background, where ink lands and where it does not,
// ink looks, the app's thumbnail and export geometry, and robustness on absurd input.

import InklingFormats
import InklingRendering
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Renders through PNG and back, so every assertion is on what a viewer would see.
private func throughPNG(_ image: RenderedImage, _ name: String) throws -> RenderedImage {
  let png = try PNG.encode(image, text: [("Software", "inkling-archive tests"), ("Title", name)])
  try PNGCheck.expectValid(png, name: name)
  let decoded = try PNG.decode(png)
  #expect(decoded == image)
  return decoded
}

private func isBackground(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ c: (UInt8, UInt8, UInt8))
  -> Bool
{
  abs(Int(p.r) - Int(c.0)) <= 1 && abs(Int(p.g) - Int(c.1)) <= 1 && abs(Int(p.b) - Int(c.2)) <= 1
}

@Suite struct RendererTests {
  let white = Fixtures.white
  let whiteBytes: (UInt8, UInt8, UInt8) = (255, 255, 255)

  // MARK: - Geometry of the app

  @Test func thumbnailIsASquareOfTheRequestedSizeWithBackgroundCorners() throws {
    let paper = RGBA(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)
    let drawing = Drawing(
      inks: [Fixtures.ink(.pen)],
      strokes: [Stroke(inkIndex: 0, path: Fixtures.line((10, 10), (200, 50)))])
    for size in [1, 17, 80, 256] {
      let image = try throughPNG(
        Renderer.thumbnail(of: drawing, background: paper, pixelSize: size), "thumb\(size)")
      #expect(image.width == size && image.height == size)
      for (x, y) in [(0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1)] where size > 16 {
        #expect(isBackground(image.pixel(x: x, y: y), (51, 102, 153)))
      }
    }
  }

  @Test func thumbnailGeometryGrowsTheBoundsBySixAndCentres() {
    // Bounds 8…52 × 8…12 (see GeometryTests): grown by 6 → 2…58 × 2…18, 56 × 16 pt.
    let drawing = Drawing(
      inks: [Fixtures.ink(.pen)],
      strokes: [Stroke(inkIndex: 0, path: Fixtures.path([(10, 10), (30, 10), (50, 10)], width: 3))])
    let g = RenderGeometry.thumbnail(for: drawing, pixelSize: 112)
    #expect(g.source == Rect(x: 2, y: 2, width: 56, height: 16))
    #expect(g.scale == 2)
    #expect(g.offsetX == 0 && g.offsetY == 40)
    #expect(g.pixel(Point(x: 30, y: 10)) == Point(x: 56, y: 56))  // The centre lands in the centre.
    let empty = RenderGeometry.thumbnail(for: Drawing(), pixelSize: 160)
    #expect(empty.source == Rect(x: 0, y: 0, width: 80, height: 80) && empty.scale == 2)
  }

  /// A scale that would pass the side cap is lowered, and the geometry says to what
  /// (`render` reports it).
  @Test func exportSaysTheScaleItUsedWhenTheImageWouldBeTooWide() {
    let drawing = Drawing(
      inks: [Fixtures.ink(.pen)], strokes: [Stroke(inkIndex: 0, path: Fixtures.line((0, 10), (3000, 10)))])
    let (image, geometry) = Renderer.exportWithGeometry(of: drawing, background: white, scale: 16)
    #expect(geometry.scale < 16)
    #expect(image.width == RenderGeometry.maxDimension)
    #expect(abs(geometry.scale - Double(RenderGeometry.maxDimension) / geometry.source.width) < 1e-9)
    let small = Renderer.exportWithGeometry(of: drawing, background: white, scale: 2).geometry
    #expect(small.scale == 2)
  }

  @Test func exportGrowsTheBoundsByEightAtTheScale() throws {
    let drawing = Drawing(
      inks: [Fixtures.ink(.pen)],
      strokes: [Stroke(inkIndex: 0, path: Fixtures.path([(10, 10), (30, 10), (50, 10)], width: 3))])
    // Bounds 8…52 × 8…12, grown by 8: 0…60 × 0…20.
    let image = try throughPNG(Renderer.export(of: drawing, background: white, scale: 2), "export")
    #expect(image.width == 120 && image.height == 40)
    #expect(
      RenderGeometry.export(for: drawing, scale: 3).source
        == Rect(x: 0, y: 0, width: 60, height: 20))
    // Ink along y = 10 pt → pixel row 20, not at the edges.
    #expect(image.countDiffering(from: whiteBytes, x: 20..<100, y: 19..<21) > 150)
    #expect(image.countDiffering(from: whiteBytes, x: 0..<120, y: 0..<12) == 0)
    #expect(image.countDiffering(from: whiteBytes, x: 0..<120, y: 28..<40) == 0)
  }

  @Test func emptyDrawingsGiveThePlainBackground() throws {
    let bg = RGBA(red: 0.5, green: 0.25, blue: 1, alpha: 1)
    let thumb = try throughPNG(
      Renderer.thumbnail(of: Drawing(), background: bg, pixelSize: 64), "empty-thumb")
    #expect(
      thumb.width == 64
        && thumb.countDiffering(from: (128, 64, 255), x: 0..<64, y: 0..<64, tolerance: 1) == 0)
    let export = Renderer.export(of: Drawing(), background: bg, scale: 1)
    #expect(export.width == 1024 && export.height == 768)
    let canvas = Drawing(canvasBounds: Rect(x: 0, y: 0, width: 300, height: 200))
    let sized = Renderer.export(of: canvas, background: bg, scale: 2)
    #expect(sized.width == 600 && sized.height == 400)
    #expect(sized.countDiffering(from: (128, 64, 255), x: 0..<600, y: 0..<400, tolerance: 1) == 0)
    // Only hidden and eraser strokes: still empty.
    let hidden = Drawing(
      inks: [Fixtures.ink(.pen), Fixtures.ink(.eraser)],
      strokes: [
        Stroke(inkIndex: 0, path: Fixtures.line((0, 0), (100, 100)), isHidden: true),
        Stroke(inkIndex: 1, path: Fixtures.line((0, 100), (100, 0))),
      ])
    #expect(Renderer.thumbnail(of: hidden, background: bg, pixelSize: 64) == thumb)
  }

  @Test func extendedRangeBackgroundIsClampedWhenDrawn() throws {
    let extended = RGBA(red: 1.0393, green: -0.0123, blue: 0.5, alpha: 1.2)
    let image = try throughPNG(
      Renderer.thumbnail(of: Drawing(), background: extended, pixelSize: 8), "extended")
    #expect(image.pixel(x: 3, y: 3) == (255, 0, 128, 255))
    let nan = Renderer.thumbnail(
      of: Drawing(), background: RGBA(red: .nan, green: .infinity, blue: -.infinity, alpha: 1),
      pixelSize: 2)
    #expect(nan.pixel(x: 0, y: 0) == (0, 255, 0, 255))
  }

  @Test func translucentBackgroundKeepsItsAlpha() throws {
    let glass = RGBA(red: 1, green: 0, blue: 0, alpha: 0.5)
    let drawing = Drawing(
      inks: [Fixtures.ink(.pen, Fixtures.blue)],
      strokes: [Stroke(inkIndex: 0, path: Fixtures.line((0, 0), (100, 0), width: 8))])
    let image = try throughPNG(Renderer.export(of: drawing, background: glass, scale: 1), "glass")
    #expect(image.pixel(x: 0, y: 0) == (255, 0, 0, 128))
    let ink = image.pixel(x: image.width / 2, y: image.height / 2)
    #expect(ink.a == 255 && ink.b > 200 && ink.r < 40)
  }

  // MARK: - Where ink lands

  @Test func inkIsWhereTheStrokesAreAndNowhereElse() throws {
    // Two short strokes far apart: top-left and bottom-right of a 200 × 200 pt drawing.
    let drawing = Drawing(
      inks: [Fixtures.ink(.pen)],
      strokes: [
        Stroke(inkIndex: 0, path: Fixtures.line((0, 0), (20, 0))),
        Stroke(inkIndex: 0, path: Fixtures.line((180, 200), (200, 200))),
      ])
    let image = try throughPNG(Renderer.export(of: drawing, background: white, scale: 1), "two")
    let g = RenderGeometry.export(for: drawing, scale: 1)
    func dark(_ p: Point) -> Bool {
      let q = g.pixel(p)
      let px = image.pixel(x: Int(q.x), y: Int(q.y))
      return px.r < 80 && px.g < 80 && px.b < 80
    }
    #expect(dark(Point(x: 10, y: 0)) && dark(Point(x: 190, y: 200)))
    #expect(
      !dark(Point(x: 100, y: 100)) && !dark(Point(x: 10, y: 200)) && !dark(Point(x: 190, y: 0)))
    // Nothing in the middle at all.
    let middle = g.pixel(Point(x: 100, y: 100))
    #expect(
      image.countDiffering(
        from: whiteBytes, x: Int(middle.x) - 60..<Int(middle.x) + 60,
        y: Int(middle.y) - 60..<Int(middle.y) + 60) == 0)
  }

  @Test func inkStaysInsideTheComputedBounds() throws {
    for drawing in [Fixtures.inkSampler(), Fixtures.page(strokes: 30, points: 60)] {
      let g = RenderGeometry.export(for: drawing, scale: 2)
      let image = Renderer.export(of: drawing, background: white, scale: 2)
      let bounds = try #require(drawing.renderBounds)
      let lo = g.pixel(Point(x: bounds.minX, y: bounds.minY))
      let hi = g.pixel(Point(x: bounds.maxX, y: bounds.maxY))
      // The 8 pt margin (16 px) outside the bounds stays background.
      #expect(
        image.countDiffering(
          from: whiteBytes, x: 0..<Int(lo.x) - 1, y: 0..<image.height, tolerance: 2) == 0)
      #expect(
        image.countDiffering(
          from: whiteBytes, x: Int(hi.x) + 1..<image.width, y: 0..<image.height, tolerance: 2) == 0)
      #expect(
        image.countDiffering(
          from: whiteBytes, x: 0..<image.width, y: 0..<Int(lo.y) - 1, tolerance: 2) == 0)
      #expect(
        image.countDiffering(
          from: whiteBytes, x: 0..<image.width, y: Int(hi.y) + 1..<image.height, tolerance: 2) == 0)
      // And ink reaches close to every side of the bounds.
      #expect(
        image.countDiffering(from: whiteBytes, x: Int(lo.x)..<Int(lo.x) + 6, y: 0..<image.height)
          > 0)
      #expect(
        image.countDiffering(from: whiteBytes, x: Int(hi.x) - 6..<Int(hi.x), y: 0..<image.height)
          > 0)
    }
  }

  @Test func transformsMoveTheInk() throws {
    let path = Fixtures.line((0, 0), (40, 0))
    let moved = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 100)
    let drawing = Drawing(
      inks: [Fixtures.ink(.pen)],
      strokes: [Stroke(inkIndex: 0, path: path), Stroke(inkIndex: 0, path: path, transform: moved)])
    let g = RenderGeometry.export(for: drawing, scale: 1)
    #expect(g.source == Rect(x: -10, y: -10, width: 60, height: 120))
    let image = Renderer.export(of: drawing, background: white, scale: 1)
    let q = g.pixel(Point(x: 20, y: 100))
    #expect(image.pixel(x: Int(q.x), y: Int(q.y)).r < 60)
  }

  @Test func hiddenStrokesAreNotDrawn() throws {
    let visible = Stroke(inkIndex: 0, path: Fixtures.line((0, 0), (100, 0)))
    let hidden = Stroke(
      inkIndex: 0, path: Fixtures.line((0, 50), (100, 50), width: 20), isHidden: true)
    let with = Drawing(inks: [Fixtures.ink(.pen)], strokes: [visible, hidden])
    let without = Drawing(inks: [Fixtures.ink(.pen)], strokes: [visible])
    #expect(with.renderBounds == without.renderBounds)
    #expect(
      Renderer.export(of: with, background: white, scale: 2)
        == Renderer.export(of: without, background: white, scale: 2))
    #expect(
      Renderer.thumbnail(of: with, background: white, pixelSize: 96)
        == Renderer.thumbnail(of: without, background: white, pixelSize: 96))
  }

  @Test func pixelEraserSubstrokesLeaveAGap() throws {
    // A horizontal line x 0…160 split into two substrokes: parameters 0…3 and 5…8 (x 0…60
    // and 100…160); the right one is also clipped by a mask polygon to x ≤ 140.
    let line = Fixtures.path((0...8).map { (Double($0) * 20, 0) }, width: 5)
    let mask = [
      Point(x: 90, y: -20), Point(x: 140, y: -20), Point(x: 140, y: 20), Point(x: 90, y: 20),
    ]
    let parent = Stroke(
      inkIndex: 0, path: line,
      substrokes: [
        Stroke(inkIndex: 0, path: nil, slices: [0, 3]),
        Stroke(inkIndex: 0, path: nil, maskPolygons: [mask], slices: [5, 8]),
      ])
    let drawing = Drawing(inks: [Fixtures.ink(.pen)], strokes: [parent])
    let image = try throughPNG(Renderer.export(of: drawing, background: white, scale: 1), "erased")
    let g = RenderGeometry.export(for: drawing, scale: 1)
    func column(_ x: Double) -> Int {
      let q = g.pixel(Point(x: x, y: 0))
      return image.countDiffering(
        from: whiteBytes, x: Int(q.x)..<Int(q.x) + 1, y: Int(q.y) - 6..<Int(q.y) + 7)
    }
    #expect(column(30) > 0 && column(120) > 0)
    #expect(column(80) == 0)  // Erased.
    #expect(column(62) == 0)  // Cut flat at x = 60, no round cap past it.
    #expect(column(150) == 0)  // Clipped by the mask.
    #expect(g.source.maxX <= 140 + 8 + 1)  // The mask clips the bounds too.
  }

  // MARK: - Inks

  @Test func markerIsTranslucent() throws {
    let marker = Drawing(
      inks: [Fixtures.ink(.marker, Fixtures.red)],
      strokes: [Stroke(inkIndex: 0, path: Fixtures.line((0, 0), (100, 0), width: 12))])
    let image = try throughPNG(Renderer.export(of: marker, background: white, scale: 1), "marker")
    let centre = image.pixel(x: image.width / 2, y: image.height / 2)
    #expect(centre.r == 255)
    #expect(centre.g > 80 && centre.g < 200 && centre.b == centre.g)  // A blend, not pure red.
    let pen = Drawing(inks: [Fixtures.ink(.pen, Fixtures.red)], strokes: marker.strokes)
    let solid = Renderer.export(of: pen, background: white, scale: 1).pixel(
      x: image.width / 2, y: image.height / 2)
    #expect(solid == (255, 0, 0, 255))
  }

  @Test func aStrokeDoesNotDarkenItselfWhereItDoublesBack() throws {
    // Back and forth over the same line at 50 % alpha: still one layer.
    let ink = Ink(inkType: .pen, color: RGBA(red: 0, green: 0, blue: 0, alpha: 0.5))
    let path = Fixtures.path([(0, 0), (50, 0), (100, 0), (50, 0.01), (0, 0.01)], width: 6)
    let drawing = Drawing(inks: [ink], strokes: [Stroke(inkIndex: 0, path: path)])
    let image = Renderer.export(of: drawing, background: white, scale: 1)
    let centre = image.pixel(x: image.width / 2, y: image.height / 2)
    #expect(abs(Int(centre.r) - 128) <= 2)
  }

  @Test func everyInkDrawsSomethingRecognisable() throws {
    let drawing = Fixtures.inkSampler()
    let image = try throughPNG(Renderer.export(of: drawing, background: white, scale: 1), "inks")
    let g = RenderGeometry.export(for: drawing, scale: 1)
    for (i, stroke) in drawing.strokes.enumerated() {
      let b = try #require(drawing.renderBounds(ofStrokeAt: i))
      let lo = g.pixel(Point(x: b.minX, y: b.minY))
      let hi = g.pixel(Point(x: b.maxX, y: b.maxY))
      let inked = image.countDiffering(
        from: whiteBytes, x: Int(lo.x)..<Int(hi.x), y: Int(lo.y)..<Int(hi.y), tolerance: 20)
      #expect(
        inked > 500, "\(drawing.inks[stroke.inkIndex].inkType.name) drew only \(inked) pixels")
    }
  }

  @Test func texturedInksAreDeterministicAndSeeded() throws {
    let pencil = Drawing(
      inks: [Fixtures.ink(.pencil)],
      strokes: [
        Stroke(inkIndex: 0, path: Fixtures.loops(x: 0, y: 0, length: 120, width: 3), randomSeed: 42)
      ])
    var reseeded = pencil
    reseeded.strokes[0].randomSeed = 43
    let a = Renderer.export(of: pencil, background: white, scale: 2)
    #expect(a == Renderer.export(of: pencil, background: white, scale: 2))
    #expect(a != Renderer.export(of: reseeded, background: white, scale: 2))
    // Lighter than the pen over the same path.
    let pen = Drawing(inks: [Fixtures.ink(.pen)], strokes: pencil.strokes)
    let p = Renderer.export(of: pen, background: white, scale: 2)
    #expect(a.rgba.reduce(0) { $0 + Int($1) } > p.rgba.reduce(0) { $0 + Int($1) })
  }

  @Test func fountainPenWidthFollowsTheAzimuth() throws {
    // Nib broad axis along x (azimuth 0): a horizontal stroke is thin, a vertical one thick.
    var across = Fixtures.line((0, 0), (100, 0), width: 6)
    var down = Fixtures.line((200, 0), (200, 100), width: 6)
    for i in across.points.indices {
      across.points[i].azimuth = 0
      down.points[i].azimuth = 0
    }
    let drawing = Drawing(
      inks: [Fixtures.ink(.fountainPen)],
      strokes: [Stroke(inkIndex: 0, path: across), Stroke(inkIndex: 0, path: down)])
    let image = Renderer.export(of: drawing, background: white, scale: 4)
    let g = RenderGeometry.export(for: drawing, scale: 4)
    let a = g.pixel(Point(x: 50, y: 0))
    let d = g.pixel(Point(x: 200, y: 50))
    let thin = image.countDiffering(
      from: whiteBytes, x: Int(a.x)..<Int(a.x) + 1, y: Int(a.y) - 40..<Int(a.y) + 40, tolerance: 60)
    let thick = image.countDiffering(
      from: whiteBytes, x: Int(d.x) - 40..<Int(d.x) + 40, y: Int(d.y)..<Int(d.y) + 1, tolerance: 60)
    #expect(thick > 2 * thin, "thin \(thin) px, thick \(thick) px")
  }

  // MARK: - The real samples

  @Test func samplesRenderWithInkInsideTheirStoredBounds() throws {
    for name in Fixtures.sampleNames {
      let drawing = try Fixtures.sample(name)
      let thumb = try throughPNG(
        Renderer.thumbnail(of: drawing, background: white, pixelSize: 128), name)
      #expect(thumb.width == 128 && thumb.height == 128)
      #expect(
        isBackground(thumb.pixel(x: 0, y: 0), whiteBytes)
          && isBackground(thumb.pixel(x: 127, y: 127), whiteBytes))
      let export = Renderer.export(
        of: drawing, background: RGBA(red: 0.5, green: 0.5, blue: 0.5, alpha: 1), scale: 2)
      let g = RenderGeometry.export(for: drawing, scale: 2)
      for (index, stroke) in drawing.strokes.enumerated()
      where !drawing.pieces(ofStrokeAt: index).isEmpty {
        let stored = try #require(stroke.storedBounds)
        let lo = g.pixel(Point(x: stored.minX, y: stored.minY))
        let hi = g.pixel(Point(x: stored.maxX, y: stored.maxY))
        let inked = export.countDiffering(
          from: (128, 128, 128), x: Int(lo.x)..<Int(hi.x), y: Int(lo.y)..<Int(hi.y), tolerance: 30)
        #expect(inked > 100, "\(name) stroke \(index): \(inked) inked pixels")
      }
      if drawing.renderBounds == nil {
        #expect(thumb.countDiffering(from: whiteBytes, x: 0..<128, y: 0..<128) == 0)
      }
    }
  }

  // MARK: - Robustness

  @Test func absurdInputFinishesQuicklyWithoutCrashing() throws {
    var points = (0..<50).map { i in
      StrokePoint(location: Point(x: Double(i) * 3, y: Double(i % 7)), width: 3)
    }
    points[5].location = Point(x: .nan, y: 4)
    points[9].location = Point(x: .infinity, y: -.infinity)
    points[12].location = Point(x: 1e300, y: -1e300)
    points[20].width = 1e12
    points[21].width = .nan
    points[30].width = -50
    let path = StrokePath(creationDate: 0, points: points)
    let weird = AffineTransform(a: 1e-300, b: 0, c: 0, d: 1e-300, tx: 0, ty: 0)
    let drawing = Drawing(
      inks: [Fixtures.ink(.pen), Fixtures.ink(.fountainPen), Fixtures.ink(.pencil)],
      strokes: [
        Stroke(inkIndex: 0, path: path), Stroke(inkIndex: 1, path: path),
        Stroke(inkIndex: 2, path: path),
        Stroke(inkIndex: 0, path: path, transform: weird),
        Stroke(inkIndex: 0, path: Fixtures.path([(.nan, .nan)])),
        Stroke(
          inkIndex: 0,
          path: Fixtures.path([(-1e308, 5), (1e308, 5), (1e308, -1e308)], width: 1e308)),
        Stroke(inkIndex: 0, path: StrokePath(creationDate: 0, points: [])),
        Stroke(
          inkIndex: 0, path: path,
          maskPolygons: [[Point(x: .nan, y: 0), Point(x: 1, y: .infinity)], []],
          slices: [.nan, 2, 9, 3, 1, 40, 7]),
      ])
    var clock = timespec()
    clock_gettime(CLOCK_MONOTONIC, &clock)
    let start = Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9
    let thumb = Renderer.thumbnail(of: drawing, background: white, pixelSize: 128)
    let export = Renderer.export(of: drawing, background: white, scale: 2)
    let big = Renderer.export(of: drawing, background: white, scale: 1e9)
    clock_gettime(CLOCK_MONOTONIC, &clock)
    let seconds = Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9 - start
    #expect(thumb.width == 128)
    #expect(export.width * export.height <= RenderGeometry.maxPixels)
    #expect(big.width <= RenderGeometry.maxDimension && big.height <= RenderGeometry.maxDimension)
    #expect(big.width * big.height <= RenderGeometry.maxPixels)
    #expect(seconds < 30, "took \(seconds) s")
    _ = try PNG.encode(thumb)
  }

  /// The renderer computes exact bounds only for pieces that can reach the drawing's edge;
  /// its thumbnails must equal those drawn with `Drawing.renderBounds`, which measures every
  /// piece exactly.
  @Test func thumbnailsUseTheExactRenderBounds() throws {
    var drawings = try Fixtures.sampleNames.map(Fixtures.sample) + [Fixtures.inkSampler()]
    drawings += (1...4).map { Fixtures.page(strokes: 60, points: 40, seed: $0) }
    // Transforms, a one-point stroke, pressure that ends wide and slices.
    var page = Fixtures.page(strokes: 30, points: 25, seed: 9)
    page.strokes[0].transform = AffineTransform(a: 0.5, b: 0.8, c: -0.8, d: 0.5, tx: -300, ty: 40)
    page.strokes[1].path = Fixtures.path([(-90, 1200)], width: 9)
    var wide = try #require(page.strokes[2].path)
    wide.points[wide.points.count - 1].width = 40
    page.strokes[2].path = wide
    page.strokes[3].slices = [0.5, 3.5, 10, 12]
    drawings.append(page)
    for (index, drawing) in drawings.enumerated() {
      for size in [96, 256] {
        let thumb = Renderer.thumbnail(of: drawing, background: white, pixelSize: size)
        let reference = Renderer.render(
          drawing, geometry: .thumbnail(for: drawing, pixelSize: size), background: white)
        #expect(thumb == reference, "drawing \(index) at \(size) px")
      }
    }
  }

  @Test func versionIsPositive() { #expect(Renderer.version >= 1) }
}
