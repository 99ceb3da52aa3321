// A PDF of many pages written straight into a file through cairo, page by page, so that a
// document of thousands of drawings never holds more than the page being drawn: cairo keeps
// one page's drawing until `endPage`, writes it out, and keeps only the fonts it will embed
// at `finish`.
//
// Coordinates are points with the origin at the page's top-left corner, y down, as cairo's.
// Text comes laid out by a `TextRenderer` (the captions' shaping, fallback and ellipsis are
// the PNG sheet's) and is written as real text in the same fonts, embedded as subsets by
// cairo, with each glyph mapped back to the characters it came from (cairo's text clusters),
// so that a reader can find and copy it. Colour emoji are the exception, see `draw(_:…)` in
// PagedPDF+Text.swift.

import CCairo
import CFontconfig
import InklingFormats

/// A PDF document being written into a file, one page after another.
///
/// ```swift
/// let pdf = try PagedPDF(path: "out.pdf", title: "Drawings")
/// pdf.beginPage(width: 595.276, height: 841.89)
/// pdf.draw(picture, in: (x: 36, y: 36, width: 120, height: 150))
/// pdf.endPage()
/// try pdf.finish()
/// ```
/// Not for use from two threads at once.
public final class PagedPDF {
  let surface: OpaquePointer
  let context: OpaquePointer
  /// cairo's face for each face of the text renderer used, by its index there.
  var fontFaces: [Int: OpaquePointer] = [:]
  /// Colour glyphs rasterised already.
  var colorGlyphs: [ColorGlyphKey: GlyphBitmap] = [:]
  private var finished = false

  struct ColorGlyphKey: Hashable {
    var face: Int
    var glyph: UInt32
    var pixelSize: Int
  }

  /// Starts a document at `path` (created or emptied), with `title` in its metadata. Given
  /// `created` (ISO 8601, as cairo reads it), the document is the same bytes each time it is
  /// made; without it, cairo dates it now.
  ///
  /// - Throws: `VectorWriteError` when cairo cannot create the file.
  public init(path: String, title: String?, created: String? = nil) throws(VectorWriteError) {
    guard let surface = cairo_pdf_surface_create(path, 595.276, 841.89) else {
      throw VectorWriteError(detail: "cairo could not create a surface")
    }
    let status = cairo_surface_status(surface)
    guard status == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(surface)
      throw VectorWriteError(detail: String(cString: cairo_status_to_string(status)))
    }
    if let title { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title) }
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "inkling-archive")
    if let created { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, created) }
    guard let context = cairo_create(surface) else {
      cairo_surface_destroy(surface)
      throw VectorWriteError(detail: "cairo could not create a drawing context")
    }
    self.surface = surface
    self.context = context
    // Glyphs go where the layout put them: hinting would move outlines off those positions.
    if let options = cairo_font_options_create() {
      cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
      cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
      cairo_set_font_options(context, options)
      cairo_font_options_destroy(options)
    }
  }

  deinit {
    cairo_destroy(context)
    if !finished { cairo_surface_finish(surface) }
    cairo_surface_destroy(surface)
    for face in fontFaces.values { cairo_font_face_destroy(face) }
  }

  /// Starts a page of `width` × `height` points.
  public func beginPage(width: Double, height: Double) {
    cairo_pdf_surface_set_size(surface, width, height)
  }

  /// Ends the page: cairo writes it out and forgets its drawing.
  public func endPage() {
    cairo_show_page(context)
  }

  /// Draws `picture` scaled to fit `box` (in points), centred in it, with a frame of
  /// `frameWidth` points in `frame` around the page it fills (none when `frame` is nil).
  /// Returns where the picture's page went.
  @discardableResult
  public func draw(
    _ picture: VectorPicture, in box: (x: Double, y: Double, width: Double, height: Double),
    frame: RGBA? = nil, frameWidth: Double = 0.5
  ) -> (x: Double, y: Double, width: Double, height: Double) {
    let size = picture.pointSize
    let fit = min(box.width / size.width, box.height / size.height)
    guard fit.isFinite, fit > 0 else { return (box.x, box.y, 0, 0) }
    let placed = (
      x: box.x + (box.width - size.width * fit) / 2, y: box.y + (box.height - size.height * fit) / 2,
      width: size.width * fit, height: size.height * fit
    )
    cairo_save(context)
    cairo_rectangle(context, placed.x, placed.y, placed.width, placed.height)
    cairo_clip(context)
    cairo_translate(context, placed.x, placed.y)
    cairo_scale(context, fit, fit)
    picture.draw(into: context)
    cairo_restore(context)
    if let frame {
      let ink = ClampedColor(frame)
      cairo_save(context)
      cairo_set_line_width(context, frameWidth)
      cairo_rectangle(
        context, placed.x - frameWidth / 2, placed.y - frameWidth / 2, placed.width + frameWidth,
        placed.height + frameWidth)
      cairo_set_source_rgba(context, Double(ink.r), Double(ink.g), Double(ink.b), Double(ink.a))
      cairo_stroke(context)
      cairo_restore(context)
    }
    return placed
  }

  /// Writes what is left (the fonts, the cross-reference table) and closes the file.
  ///
  /// - Throws: `VectorWriteError` when cairo failed at any point (out of memory, a full disk).
  public func finish() throws(VectorWriteError) {
    let status = cairo_status(context)
    cairo_surface_finish(surface)
    finished = true
    let written = cairo_surface_status(surface)
    for failure in [status, written] where failure != CAIRO_STATUS_SUCCESS {
      throw VectorWriteError(detail: String(cString: cairo_status_to_string(failure)))
    }
  }

  /// cairo's face for face `index` of `text`, made on first use from the same file and face
  /// index the renderer shapes with (through a fontconfig pattern, so cairo opens and owns it).
  func fontFace(_ index: Int, of text: TextRenderer) -> OpaquePointer? {
    if let known = fontFaces[index] { return known }
    guard index < text.faces.count, let pattern = FcPatternCreate() else { return nil }
    defer { FcPatternDestroy(pattern) }
    let source = text.faces[index].source
    let added = Array(source.path.utf8CString).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: FcChar8.self) { FcPatternAddString(pattern, FC_FILE, $0.baseAddress) == FcTrue }
    }
    guard added, FcPatternAddInteger(pattern, FC_INDEX, Int32(source.index)) == FcTrue,
      let face = cairo_ft_font_face_create_for_pattern(pattern)
    else { return nil }
    guard cairo_font_face_status(face) == CAIRO_STATUS_SUCCESS else {
      cairo_font_face_destroy(face)
      return nil
    }
    fontFaces[index] = face
    return face
  }
}
