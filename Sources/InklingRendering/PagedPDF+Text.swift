// Lines of text on a PagedPDF's page: each run of a `TextLine` as glyphs of the font it was
// shaped with, at the positions HarfBuzz gave, with text clusters that map every glyph back
// to its characters (a right-to-left run's clusters backward, as cairo asks: in the text's
// order, each taking its glyphs from the end of the run's).
//
// Colour emoji: cairo 1.16 (Debian's) cannot draw a colour bitmap font into a PDF (it crashes
// on Noto Color Emoji's strikes), so each emoji is drawn as the picture FreeType makes of it
// for the PNG sheet, at four times the size for print; its characters go under the picture as
// a glyph of the first face with those characters as its text, at an opacity cairo does not
// leave out and no eye or printer sees. Copying, searching and `pdftotext` find the emoji,
// the way they find the rest of the line.

import CCairo
import InklingFormats

extension PagedPDF {
  /// How many times finer than the line's size an emoji's picture is drawn: about 300 dots
  /// an inch at caption sizes.
  static let colorGlyphOversampling = 4.0

  /// The opacity of the text under an emoji's picture: above cairo's "clear" (1/255 of a
  /// 16-bit unit, below which it drops the glyph), invisible on paper.
  static let hiddenTextOpacity = 0.005

  /// Draws `line`, laid out by `text` (its pixel size taken as points), its start at `x` and
  /// its baseline at `baseline`, in `color`.
  public func draw(_ line: TextLine, x: Double, baseline: Double, color: RGBA, with text: TextRenderer) {
    guard abs(x) < 1e9, abs(baseline) < 1e9 else { return }
    let ink = ClampedColor(color)
    let scalars = Array(line.text.unicodeScalars)
    for run in line.runs {
      let glyphs = line.glyphs[run.glyphs]
      guard let first = glyphs.first, first.face < text.faces.count,
        run.scalars.upperBound <= scalars.count
      else { continue }
      let isColor = text.faces[first.face].isColorBitmap
      if isColor {
        for glyph in glyphs { drawColorGlyph(glyph, pixelSize: line.pixelSize, x: x, baseline: baseline, text: text) }
      }
      guard let face = fontFace(isColor ? 0 : first.face, of: text) else { continue }
      cairo_set_font_face(context, face)
      cairo_set_font_size(context, line.pixelSize)
      cairo_set_source_rgba(
        context, Double(ink.r), Double(ink.g), Double(ink.b), isColor ? Self.hiddenTextOpacity : Double(ink.a))
      var placed = glyphs.map { glyph in
        cairo_glyph_t(index: isColor ? 0 : UInt(glyph.glyph), x: x + glyph.x, y: baseline - glyph.y)
      }
      let utf8 = Array(String(String.UnicodeScalarView(scalars[run.scalars])).utf8)
      if var clusters = Self.clusters(glyphs, run: run, scalars: scalars) {
        utf8.withUnsafeBufferPointer { bytes in
          bytes.withMemoryRebound(to: CChar.self) { chars in
            cairo_show_text_glyphs(
              context, chars.baseAddress, Int32(chars.count), &placed, Int32(placed.count), &clusters,
              Int32(clusters.count),
              run.isRightToLeft ? CAIRO_TEXT_CLUSTER_FLAG_BACKWARD : cairo_text_cluster_flags_t(0))
          }
        }
      } else {
        cairo_show_glyphs(context, &placed, Int32(placed.count))
      }
    }
  }

  /// cairo's clusters for `glyphs` (a run in visual order): consecutive glyphs of one
  /// HarfBuzz cluster make one cluster, whose text runs to the next cluster's first scalar;
  /// in the text's order.
  /// Nil when the clusters are not monotonic in the run's direction (cairo would refuse them;
  /// the glyphs are then drawn without their text).
  static func clusters(_ glyphs: ArraySlice<PlacedGlyph>, run: ShapedRun, scalars: [Unicode.Scalar])
    -> [cairo_text_cluster_t]?
  {
    let starts = Set(glyphs.map(\.cluster)).sorted()
    guard let lowest = starts.first, let highest = starts.last, lowest == run.scalars.lowerBound,
      highest < run.scalars.upperBound
    else { return nil }
    var end: [Int: Int] = [:]
    for (index, start) in starts.enumerated() {
      end[start] = index + 1 < starts.count ? starts[index + 1] : run.scalars.upperBound
    }
    var clusters: [cairo_text_cluster_t] = []
    var previous: Int?
    var index = glyphs.startIndex
    while index < glyphs.endIndex {
      let cluster = glyphs[index].cluster
      if let previous, run.isRightToLeft ? cluster >= previous : cluster <= previous { return nil }
      previous = cluster
      var next = index
      while next < glyphs.endIndex, glyphs[next].cluster == cluster { next += 1 }
      let bytes = scalars[cluster..<(end[cluster] ?? cluster)].reduce(0) { $0 + UTF8.width($1) }
      clusters.append(cairo_text_cluster_t(num_bytes: Int32(bytes), num_glyphs: Int32(next - index)))
      index = next
    }
    // Backward clusters still walk the text forward, taking their glyphs from the end.
    return run.isRightToLeft ? clusters.reversed() : clusters
  }

  /// An emoji's colour picture at its place on the line.
  private func drawColorGlyph(_ glyph: PlacedGlyph, pixelSize: Double, x: Double, baseline: Double, text: TextRenderer)
  {
    let scale = Self.colorGlyphOversampling
    let size = Int((pixelSize * scale).rounded())
    let key = ColorGlyphKey(face: glyph.face, glyph: glyph.glyph, pixelSize: size)
    let bitmap: GlyphBitmap
    if let known = colorGlyphs[key] {
      bitmap = known
    } else {
      bitmap = text.faces[glyph.face].rasterize(glyph: glyph.glyph, pixelSize: Double(size), subpixel: 0)
      colorGlyphs[key] = bitmap
    }
    // A surface of its own each time: cairo 1.16 lists a surface painted twice on one page
    // twice in the page's resources, a dictionary with a duplicated key.
    guard let surface = Self.imageSurface(bitmap) else { return }
    defer { cairo_surface_destroy(surface) }
    cairo_save(context)
    cairo_translate(
      context, x + glyph.x + Double(bitmap.left) / scale, baseline - glyph.y - Double(bitmap.top) / scale)
    cairo_scale(context, 1 / scale, 1 / scale)
    cairo_set_source_surface(context, surface, 0, 0)
    cairo_paint(context)
    cairo_restore(context)
  }

  /// A premultiplied RGBA colour bitmap as a cairo image (premultiplied ARGB in native-endian
  /// 32-bit words); nil for an empty one.
  private static func imageSurface(_ bitmap: GlyphBitmap) -> OpaquePointer? {
    guard bitmap.isColor, bitmap.width > 0, bitmap.height > 0, bitmap.pixels.count >= bitmap.width * bitmap.height * 4,
      let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(bitmap.width), Int32(bitmap.height))
    else { return nil }
    cairo_surface_flush(surface)
    guard let data = cairo_image_surface_get_data(surface) else {
      cairo_surface_destroy(surface)
      return nil
    }
    let stride = Int(cairo_image_surface_get_stride(surface))
    for row in 0..<bitmap.height {
      let line = (data + row * stride).withMemoryRebound(to: UInt32.self, capacity: bitmap.width) { $0 }
      for column in 0..<bitmap.width {
        let s = (row * bitmap.width + column) * 4
        let (r, g, b, a) = (
          UInt32(bitmap.pixels[s]), UInt32(bitmap.pixels[s + 1]), UInt32(bitmap.pixels[s + 2]),
          UInt32(bitmap.pixels[s + 3])
        )
        line[column] = a << 24 | r << 16 | g << 8 | b
      }
    }
    cairo_surface_mark_dirty(surface)
    return surface
  }
}
