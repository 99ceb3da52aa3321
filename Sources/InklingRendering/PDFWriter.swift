// A VectorPicture as PDF through cairo: one page the size of the drawing in points, the
// background filled, then each visible piece's outline filled with its sRGB colour and
// opacity under the nonzero rule, clipped to its mask where the pixel eraser left one.
//
// The outlines are in the PNG's pixels; the page's user space is scaled by 1 / scale so that
// they land in points. A stroke is not put in a group of its own: in PDF a group is a form
// XObject, a larger and slower file for no gain, as every piece is one path already.

import CCairo
import InklingFormats

/// What cairo reported when it could not write a document.
public struct VectorWriteError: Error, Equatable, Sendable {
  /// cairo's description of its status.
  public var detail: String
}

extension VectorPicture {
  /// The picture as a one-page PDF document; `created` is its creation date
  /// (`2025-10-05T14:03:12Z`), without which cairo writes the time it is made.
  ///
  /// - Throws: `VectorWriteError` when cairo fails (out of memory, a page too large).
  public func pdf(title: String? = nil, created: String? = nil) throws(VectorWriteError) -> [UInt8] {
    let size = pointSize
    return try CairoDocument.pdf(title: title, created: created, pages: [size]) { context, _ in
      draw(into: context)
    }
  }

  /// The picture through cairo's SVG surface: what `svg` is measured against (the benchmark
  /// of vector renders), not what the tool writes.
  ///
  /// - Throws: `VectorWriteError` when cairo fails.
  public func svgThroughCairo() throws(VectorWriteError) -> [UInt8] {
    let size = pointSize
    return try CairoDocument.write(
      pages: [size],
      surface: { write, closure, width, height in cairo_svg_surface_create_for_stream(write, closure, width, height) },
      draw: { context, _ in draw(into: context) })
  }

  /// Draws the page (in points) into `context`, at the origin.
  func draw(into context: OpaquePointer) {
    cairo_save(context)
    let scale = geometry.scale.isFinite && geometry.scale > 0 ? geometry.scale : 1
    cairo_scale(context, 1 / scale, 1 / scale)
    cairo_rectangle(context, 0, 0, Double(max(geometry.width, 1)), Double(max(geometry.height, 1)))
    cairo_set_source_rgba(
      context, Double(background.r), Double(background.g), Double(background.b), Double(background.a))
    cairo_fill(context)
    cairo_set_fill_rule(context, CAIRO_FILL_RULE_WINDING)
    for stroke in strokes {
      for piece in stroke {
        if !piece.clip.isEmpty {
          cairo_save(context)
          Self.addPolygons(piece.clip, to: context)
          cairo_clip(context)
        }
        Self.addPolygons(piece.polygons, to: context)
        cairo_set_source_rgba(
          context, Double(piece.color.r), Double(piece.color.g), Double(piece.color.b), Double(piece.alpha))
        cairo_fill(context)
        if !piece.clip.isEmpty { cairo_restore(context) }
      }
    }
    cairo_restore(context)
  }

  private static func addPolygons(_ polygons: [[Point]], to context: OpaquePointer) {
    for polygon in polygons {
      guard let first = polygon.first else { continue }
      cairo_move_to(context, first.x, first.y)
      for point in polygon.dropFirst() { cairo_line_to(context, point.x, point.y) }
      cairo_close_path(context)
    }
  }
}

/// A cairo PDF document written to memory, page by page.
enum CairoDocument {
  /// A PDF of `pages` (each its size in points), each drawn by `draw` with the page's index.
  /// Given `created` (ISO 8601, as cairo reads it), the document is the same bytes each time
  /// it is made; without it, cairo dates it now.
  ///
  /// - Throws: `VectorWriteError` when cairo reports a failure.
  static func pdf(
    title: String?, created: String? = nil, pages: [(width: Double, height: Double)],
    draw: (OpaquePointer, Int) throws -> Void
  ) throws(VectorWriteError) -> [UInt8] {
    try write(
      pages: pages,
      surface: { write, closure, width, height in
        let surface = cairo_pdf_surface_create_for_stream(write, closure, width, height)
        if let title { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "inkling-archive")
        if let created { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, created) }
        return surface
      }, draw: draw)
  }

  /// The document a surface made by `surface` (from cairo's stream function, its closure and
  /// the first page's size) writes, each page drawn by `draw`.
  static func write(
    pages: [(width: Double, height: Double)],
    surface make: (cairo_write_func_t, UnsafeMutableRawPointer, Double, Double) -> OpaquePointer?,
    draw: (OpaquePointer, Int) throws -> Void
  ) throws(VectorWriteError) -> [UInt8] {
    let sink = ByteSink()
    let first = pages.first ?? (width: 595.276, height: 841.89)
    let closure = Unmanaged.passUnretained(sink).toOpaque()
    guard let surface = make(Self.streamWrite, closure, first.width, first.height) else {
      throw VectorWriteError(detail: "cairo could not create a surface")
    }
    defer { cairo_surface_destroy(surface) }
    guard let context = cairo_create(surface) else {
      throw VectorWriteError(detail: "cairo could not create a drawing context")
    }
    defer { cairo_destroy(context) }
    do {
      for (index, page) in pages.enumerated() {
        if index > 0 { cairo_pdf_surface_set_size(surface, page.width, page.height) }
        try draw(context, index)
        cairo_show_page(context)
      }
    } catch {
      throw VectorWriteError(detail: "\(error)")
    }
    let status = cairo_status(context)
    cairo_surface_finish(surface)
    let finished = cairo_surface_status(surface)
    for failure in [status, finished] where failure != CAIRO_STATUS_SUCCESS {
      throw VectorWriteError(detail: String(cString: cairo_status_to_string(failure)))
    }
    return withExtendedLifetime(sink) { sink.bytes }
  }

  /// Where cairo's stream goes.
  private final class ByteSink {
    var bytes: [UInt8] = []
  }

  private static let streamWrite: cairo_write_func_t = { closure, data, length in
    guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
    let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
    if let data, length > 0 { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length))) }
    return CAIRO_STATUS_SUCCESS
  }
}
