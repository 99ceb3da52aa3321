// One font face opened twice: by HarfBuzz, which shapes text with it (glyph choice,
// joining, advances from the font's own tables), and by FreeType, which turns glyphs into
// pixels: anti-aliased coverage for outline fonts, premultiplied BGRA for colour bitmap
// fonts (Noto Color Emoji's CBDT strikes, scaled to the size asked for).
//
// The two never disagree about metrics: HarfBuzz positions come from the font's tables in
// 26.6 pixels at the requested size, and FreeType only draws each glyph at its position.
// Hinting is FreeType's light mode (vertical only), which keeps those horizontal advances.

import CFreeType
import CHarfBuzz

/// A rasterised glyph: `width × height` pixels whose top-left corner is `left` pixels right
/// of and `top` pixels above the glyph's origin.
struct GlyphBitmap {
  var left: Int
  var top: Int
  var width: Int
  var height: Int
  /// One coverage byte a pixel (outline glyphs), or four premultiplied RGBA bytes (colour).
  var pixels: [UInt8]
  var isColor: Bool

  static let empty = GlyphBitmap(left: 0, top: 0, width: 0, height: 0, pixels: [], isColor: false)
}

/// The FreeType library handle; faces keep it alive.
final class FreeTypeLibrary {
  let handle: FT_Library

  init() throws(TextError) {
    var library: FT_Library?
    let error = FT_Init_FreeType(&library)
    guard error == 0, let library else { throw TextError.freeType(code: Int(error), what: "FT_Init_FreeType") }
    handle = library
  }

  deinit { FT_Done_FreeType(handle) }
}

/// A face for shaping and drawing; not safe to use from two threads at once.
final class FontFace {
  let source: FontSource
  let library: FreeTypeLibrary
  let face: FT_Face
  let hbFace: OpaquePointer
  let hbFont: OpaquePointer
  /// Font units per em (the em of a colour bitmap font is its strike's pixel size scaled).
  let unitsPerEm: Double
  /// Whether the glyphs are colour bitmaps in fixed strikes (FreeType cannot scale those).
  let isColorBitmap: Bool
  /// Ascender and descender (descender negative) in ems, from the font's horizontal header.
  let ascender: Double
  let descender: Double
  /// The size FreeType is set to, so that consecutive glyphs of one size skip FT_Set_Char_Size.
  private var currentSize: FT_F26Dot6 = -1

  /// Opens `source`.
  /// - Throws: `TextError.cannotOpen` when FreeType or HarfBuzz cannot read the file.
  init(_ source: FontSource, library: FreeTypeLibrary) throws(TextError) {
    self.source = source
    self.library = library
    var face: FT_Face?
    let error = FT_New_Face(library.handle, source.path, FT_Long(source.index), &face)
    guard error == 0, let face else { throw TextError.cannotOpen(source, freeTypeError: Int(error)) }
    guard let blob = hb_blob_create_from_file_or_fail(source.path) else {
      FT_Done_Face(face)
      throw TextError.cannotOpen(source, freeTypeError: 0)
    }
    defer { hb_blob_destroy(blob) }
    self.face = face
    hbFace = hb_face_create(blob, UInt32(source.index))
    hbFont = hb_font_create(hbFace)
    hb_ot_font_set_funcs(hbFont)
    unitsPerEm = Double(max(1, hb_face_get_upem(hbFace)))
    let flags = face.pointee.face_flags
    isColorBitmap = flags & FT_Long(FT_FACE_FLAG_COLOR) != 0 && flags & FT_Long(FT_FACE_FLAG_SCALABLE) == 0
    var extents = hb_font_extents_t()
    hb_font_set_scale(hbFont, Int32(unitsPerEm), Int32(unitsPerEm))
    if hb_font_get_h_extents(hbFont, &extents) != 0 {
      ascender = Double(extents.ascender) / unitsPerEm
      descender = Double(extents.descender) / unitsPerEm
    } else {
      ascender = 0.8
      descender = -0.2
    }
  }

  deinit {
    hb_font_destroy(hbFont)
    hb_face_destroy(hbFace)
    FT_Done_Face(face)
  }

  /// Whether the font maps `scalar` to a glyph of its own.
  func has(_ scalar: Unicode.Scalar) -> Bool {
    var glyph: hb_codepoint_t = 0
    return hb_font_get_nominal_glyph(hbFont, scalar.value, &glyph) != 0 && glyph != 0
  }

  /// Sets HarfBuzz's scale so that shaping gives 26.6 pixel positions at `pixelSize`.
  func setShapingSize(_ pixelSize: Double) {
    let scale = Int32((pixelSize * 64).rounded())
    hb_font_set_scale(hbFont, scale, scale)
  }

  /// Glyph `glyph` at `pixelSize`, its origin moved right by `subpixel` 64ths of a pixel
  /// (outline glyphs only: a colour bitmap is placed on whole pixels).
  func rasterize(glyph: UInt32, pixelSize: Double, subpixel: Int) -> GlyphBitmap {
    isColorBitmap
      ? colorGlyph(glyph, pixelSize: pixelSize) : outlineGlyph(glyph, pixelSize: pixelSize, subpixel: subpixel)
  }

  private func outlineGlyph(_ glyph: UInt32, pixelSize: Double, subpixel: Int) -> GlyphBitmap {
    let size = FT_F26Dot6((pixelSize * 64).rounded())
    if size != currentSize {
      guard FT_Set_Char_Size(face, 0, size, 72, 72) == 0 else { return .empty }
      currentSize = size
    }
    var delta = FT_Vector(x: FT_Pos(subpixel), y: 0)
    FT_Set_Transform(face, nil, &delta)
    defer { FT_Set_Transform(face, nil, nil) }
    guard FT_Load_Glyph(face, glyph, inkling_FT_LOAD_TARGET_LIGHT | inkling_FT_LOAD_NO_BITMAP) == 0,
      let slot = face.pointee.glyph, FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0
    else { return .empty }
    let bitmap = slot.pointee.bitmap
    guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue), let buffer = bitmap.buffer else { return .empty }
    let width = Int(bitmap.width)
    let height = Int(bitmap.rows)
    var pixels = [UInt8](repeating: 0, count: width * height)
    for row in 0..<height {
      let source = buffer + row * Int(bitmap.pitch)
      for column in 0..<width { pixels[row * width + column] = source[column] }
    }
    return GlyphBitmap(
      left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top), width: width, height: height,
      pixels: pixels, isColor: false)
  }

  /// A colour glyph from the strike nearest above `pixelSize` (else the largest), scaled
  /// by area averaging, which keeps edges smooth at the 10–30 px of captions.
  private func colorGlyph(_ glyph: UInt32, pixelSize: Double) -> GlyphBitmap {
    let strikes = Int(face.pointee.num_fixed_sizes)
    guard strikes > 0, let sizes = face.pointee.available_sizes else { return .empty }
    var chosen = 0
    for i in 0..<strikes {
      let ppem = Double(sizes[i].y_ppem) / 64
      let best = Double(sizes[chosen].y_ppem) / 64
      if (ppem >= pixelSize && (best < pixelSize || ppem < best)) || (best < pixelSize && ppem > best) { chosen = i }
    }
    guard FT_Select_Size(face, Int32(chosen)) == 0 else { return .empty }
    currentSize = -1
    guard FT_Load_Glyph(face, glyph, inkling_FT_LOAD_COLOR) == 0, let slot = face.pointee.glyph,
      slot.pointee.format == FT_GLYPH_FORMAT_BITMAP || FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0
    else { return .empty }
    let bitmap = slot.pointee.bitmap
    guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), let buffer = bitmap.buffer else { return .empty }
    let scale = pixelSize / (Double(sizes[chosen].y_ppem) / 64)
    let source = ColorBitmap(
      width: Int(bitmap.width), height: Int(bitmap.rows), pitch: Int(bitmap.pitch), bgra: buffer)
    let left = Double(slot.pointee.bitmap_left) * scale
    let top = Double(slot.pointee.bitmap_top) * scale
    return source.scaled(by: scale, left: left, top: top)
  }
}

/// A premultiplied BGRA bitmap as FreeType hands it over.
private struct ColorBitmap {
  var width: Int
  var height: Int
  var pitch: Int
  var bgra: UnsafeMutablePointer<UInt8>

  /// The bitmap scaled by `scale` onto whole pixels, its top-left corner at (`left`, `top`)
  /// relative to the origin: each target pixel averages the source area it covers,
  /// weighting partly covered source pixels by the part they cover (so an enlarged emoji is
  /// blocky, not blurred).
  func scaled(by scale: Double, left: Double, top: Double) -> GlyphBitmap {
    let x0 = left.rounded(.down)
    let y0 = (-top).rounded(.down)
    let targetWidth = Int((left + Double(width) * scale - x0).rounded(.up))
    let targetHeight = Int((-top + Double(height) * scale - y0).rounded(.up))
    guard targetWidth > 0, targetHeight > 0 else { return .empty }
    let columns = Self.weights(count: targetWidth, sourceCount: width, offset: left - x0, scale: scale)
    let rows = Self.weights(count: targetHeight, sourceCount: height, offset: -top - y0, scale: scale)
    var pixels = [UInt8](repeating: 0, count: targetWidth * targetHeight * 4)
    for (ty, rowWeights) in rows.enumerated() {
      for (tx, columnWeights) in columns.enumerated() {
        var sum: (Double, Double, Double, Double) = (0, 0, 0, 0)
        for (sy, wy) in rowWeights {
          let line = bgra + sy * pitch
          for (sx, wx) in columnWeights {
            let w = wx * wy
            let p = line + sx * 4
            sum.0 += Double(p[2]) * w
            sum.1 += Double(p[1]) * w
            sum.2 += Double(p[0]) * w
            sum.3 += Double(p[3]) * w
          }
        }
        let i = (ty * targetWidth + tx) * 4
        pixels[i] = UInt8(min(255, sum.0.rounded()))
        pixels[i + 1] = UInt8(min(255, sum.1.rounded()))
        pixels[i + 2] = UInt8(min(255, sum.2.rounded()))
        pixels[i + 3] = UInt8(min(255, sum.3.rounded()))
      }
    }
    return GlyphBitmap(
      left: Int(x0), top: -Int(y0), width: targetWidth, height: targetHeight, pixels: pixels, isColor: true)
  }

  /// For each of `count` target pixels along one axis, the source pixels it covers and the
  /// weight of each (summing to the covered fraction of the target pixel).
  static func weights(count: Int, sourceCount: Int, offset: Double, scale: Double) -> [[(Int, Double)]] {
    (0..<count).map { target in
      // The target pixel [t, t+1) in source coordinates.
      let start = (Double(target) - offset) / scale
      let end = (Double(target + 1) - offset) / scale
      var list: [(Int, Double)] = []
      var s = max(0, Int(start.rounded(.down)))
      while s < sourceCount, Double(s) < end {
        let covered = min(end, Double(s + 1)) - max(start, Double(s))
        if covered > 0 { list.append((s, covered * scale)) }
        s += 1
      }
      return list
    }
  }
}
