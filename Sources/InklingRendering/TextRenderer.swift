// Lines of text in any script, drawn into RGBA images: captions under thumbnails.
//
// A `TextRenderer` opens the faces of a `FontFallback` once and keeps every glyph it has
// rasterised (by face, glyph, size and quarter pixel), so drawing many short lines costs
// little more than shaping them. Lines are laid out (TextLayout.swift), cut to a width with
// an ellipsis when asked, and composited source-over in sRGB values, as strokes are
// (Canvas.swift): coverage × the colour for outline glyphs, the premultiplied bitmap for
// colour emoji.
//
// When a font is missing, what needs it falls back in order: another face that has the
// character, the face fontconfig proposes, and last the first face's missing-glyph box.
// Nothing at all to draw with is `TextError.noFont`.

import InklingFormats

/// Why text cannot be drawn.
public enum TextError: Error, Hashable, CustomStringConvertible {
  /// No face could be opened: the families that were not found and the files that would
  /// not open.
  case noFont(missing: [FontRequest], unopened: [FontSource])
  /// FreeType or HarfBuzz could not read a font file (FreeType's error code, 0 for HarfBuzz).
  case cannotOpen(FontSource, freeTypeError: Int)
  /// FreeType itself could not start.
  case freeType(code: Int, what: String)

  public var description: String {
    switch self {
    case .noFont(let missing, let unopened):
      var parts = missing.map { "\($0.family) is not installed (\($0.debianPath), Debian package \($0.package))" }
      parts += unopened.map { "\($0) does not open" }
      return "no font to draw text with: " + (parts.isEmpty ? "none was asked for" : parts.joined(separator: "; "))
    case .cannotOpen(let source, let code): return "cannot open the font \(source) (FreeType error \(code))"
    case .freeType(let code, let what): return "FreeType failed: \(what) returned \(code)"
    }
  }
}

/// One line of text laid out by a `TextRenderer`, ready to draw with it.
public struct TextLine: Sendable {
  /// What is drawn: the text, or its start and "…" when it was cut to a width.
  public let text: String
  public let pixelSize: Double
  /// The advance width in pixels.
  public let width: Double
  /// Whether the line reads right to left (its first strong character does): align it right.
  public let isRightToLeft: Bool
  public let isTruncated: Bool
  let glyphs: [PlacedGlyph]
  /// The runs of `glyphs`, each of one face and one direction, in visual order.
  var runs: [ShapedRun] = []
}

/// Shapes and draws lines of text with FreeType and HarfBuzz, choosing a font per run.
///
/// ```swift
/// let text = try TextRenderer()
/// let line = text.line("Кошка 🐈‍⬛", pixelSize: 12, maxWidth: 128)
/// text.draw(line, x: 8, baseline: 20, color: RGBA(red: 0.1, green: 0.1, blue: 0.1, alpha: 1), into: &image)
/// ```
/// Not for use from two threads at once; make one per thread.
public final class TextRenderer {
  public let fonts: FontFallback
  /// Sources of `fonts` that would not open, with the reason; the rest are used.
  public private(set) var unopened: [(source: FontSource, error: TextError)] = []
  var faces: [FontFace] = []
  private let library: FreeTypeLibrary
  /// The colour faces first, then the others: the order tried for a character shown as emoji.
  private var emojiOrder: [Int] = []
  /// fontconfig's face for a scalar no face had (nil: none has it).
  private var proposed: [UInt32: Int?] = [:]
  private var glyphCache: [GlyphKey: GlyphBitmap] = [:]

  /// The largest size lines are laid out at: far above captions, and it keeps 26.6
  /// positions and bitmaps small.
  public static let largestPixelSize = 1024.0

  private struct GlyphKey: Hashable {
    var face: Int
    var glyph: UInt32
    var size: Int
    var subpixel: Int
  }

  /// Opens every face of `fonts`.
  /// - Throws: `TextError.noFont` when none opens; `.freeType` when FreeType cannot start.
  public init(fonts: FontFallback = .system) throws(TextError) {
    self.fonts = fonts
    library = try FreeTypeLibrary()
    for source in fonts.sources {
      do {
        try add(FontFace(source, library: library))
      } catch {
        unopened.append((source, error))
      }
    }
    guard !faces.isEmpty else { throw TextError.noFont(missing: fonts.missing, unopened: unopened.map(\.source)) }
  }

  private func add(_ face: FontFace) {
    faces.append(face)
    emojiOrder = faces.indices.filter { faces[$0].isColorBitmap } + faces.indices.filter { !faces[$0].isColorBitmap }
  }

  /// The first face's ascender and descender (below the baseline, positive) at `pixelSize`.
  public func lineMetrics(pixelSize: Double) -> (ascender: Double, descender: Double) {
    (faces[0].ascender * pixelSize, -faces[0].descender * pixelSize)
  }

  // MARK: - Laying out

  /// `text` laid out on one line at `pixelSize` pixels to the em; when it is wider than
  /// `maxWidth`, as many of its first characters as fit with "…" after them (by measured
  /// width; an ellipsis that does not fit either leaves an empty line). Line breaks and
  /// other control characters are drawn as spaces. `pixelSize` is held to 1…1024.
  public func line(_ text: String, pixelSize: Double, maxWidth: Double? = nil) -> TextLine {
    let pixelSize = pixelSize >= 1 ? min(pixelSize, Self.largestPixelSize) : 1  // NaN too
    let characters = text.map { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : $0 }
    let whole = layOut(characters, pixelSize: pixelSize, truncated: false)
    guard let maxWidth, whole.width > maxWidth else { return whole }
    // The longest start that fits with the ellipsis (widths grow with the start, give or
    // take kerning and joining, so the search checks each candidate it keeps).
    var low = 0
    var high = characters.count - 1
    var best: TextLine?
    while low <= high {
      let middle = (low + high) / 2
      let candidate = layOut(Self.cut(characters, middle), pixelSize: pixelSize, truncated: true)
      if candidate.width <= maxWidth {
        best = candidate
        low = middle + 1
      } else {
        high = middle - 1
      }
    }
    return best
      ?? TextLine(
        text: "", pixelSize: pixelSize, width: 0, isRightToLeft: whole.isRightToLeft, isTruncated: true, glyphs: [])
  }

  /// The first `count` characters without trailing spaces, then "…".
  private static func cut(_ characters: [Character], _ count: Int) -> [Character] {
    var start = Array(characters.prefix(count))
    while let last = start.last, last.isWhitespace { start.removeLast() }
    return start + ["\u{2026}"]
  }

  private func layOut(_ characters: [Character], pixelSize: Double, truncated: Bool) -> TextLine {
    let shaped = shape(characters, pixelSize: pixelSize)
    return TextLine(
      text: String(characters), pixelSize: pixelSize, width: shaped.width, isRightToLeft: shaped.rtl,
      isTruncated: truncated, glyphs: shaped.glyphs, runs: shaped.runs)
  }

  /// The face `character` is drawn from (see TextLayout.swift, "Font").
  func face(for character: Character) -> Int {
    let order = Self.isEmoji(character) ? emojiOrder : Array(faces.indices)
    if let face = order.first(where: { covers($0, character) }) { return face }
    let needed = character.unicodeScalars.filter { !Self.isIgnorable($0) }
    guard let first = needed.first else { return 0 }
    if fonts.asksFontconfig, let missing = needed.first(where: { scalar in !faces.contains { $0.has(scalar) } }) {
      if let face = proposedFace(for: missing), covers(face, character) { return face }
    }
    return faces.indices.first { faces[$0].has(first) } ?? 0
  }

  private func proposedFace(for scalar: Unicode.Scalar) -> Int? {
    if let known = proposed[scalar.value] { return known }
    var result: Int?
    if let source = Fontconfig.face(for: scalar) {
      if let open = faces.firstIndex(where: { $0.source.path == source.path && $0.source.index == source.index }) {
        result = faces[open].has(scalar) ? open : nil
      } else if let face = try? FontFace(source, library: library), face.has(scalar) {
        add(face)
        result = faces.count - 1
      }
    }
    proposed[scalar.value] = result
    return result
  }

  // MARK: - Drawing

  /// Draws `line` (laid out by this renderer) with its start at `x` and its baseline at
  /// `baseline`, in `color` (colour emoji keep their own colours and take its alpha).
  /// Whatever falls outside the image is left out.
  public func draw(_ line: TextLine, x: Double, baseline: Double, color: RGBA, into image: inout RenderedImage) {
    // Positions far outside any image draw nothing, and would not convert to Int.
    guard abs(x) < 1e9, abs(baseline) < 1e9 else { return }
    let size = Int((line.pixelSize * 64).rounded())
    let ink = ClampedColor(color)
    let baseRow = Int(baseline.rounded())
    let width = image.width
    let height = image.height
    image.rgba.withUnsafeMutableBufferPointer { pixels in
      guard let base = pixels.baseAddress else { return }
      for placed in line.glyphs where placed.face < faces.count {
        let face = faces[placed.face]
        let originX = x + placed.x
        var column = Int(originX.rounded(.down))
        // Quarter pixels: finer placement is invisible at caption sizes and multiplies the cache.
        var subpixel = Int(((originX - Double(column)) * 4).rounded()) * 16
        if subpixel == 64 {
          column += 1
          subpixel = 0
        }
        if face.isColorBitmap {
          column = Int(originX.rounded())
          subpixel = 0
        }
        let key = GlyphKey(face: placed.face, glyph: placed.glyph, size: size, subpixel: subpixel)
        let bitmap: GlyphBitmap
        if let cached = glyphCache[key] {
          bitmap = cached
        } else {
          bitmap = face.rasterize(glyph: placed.glyph, pixelSize: line.pixelSize, subpixel: subpixel)
          glyphCache[key] = bitmap
        }
        let left = column + bitmap.left
        let top = baseRow - Int(placed.y.rounded()) - bitmap.top
        for row in 0..<bitmap.height {
          let py = top + row
          guard py >= 0, py < height else { continue }
          for c in 0..<bitmap.width {
            let px = left + c
            guard px >= 0, px < width else { continue }
            let target = base + (py * width + px) * 4
            if bitmap.isColor {
              let s = (row * bitmap.width + c) * 4
              Self.blendPremultiplied(target, bitmap.pixels, s, alpha: ink.a)
            } else {
              let coverage = bitmap.pixels[row * bitmap.width + c]
              if coverage != 0 { Canvas.blend(target, ink, Float(coverage) / 255 * ink.a) }
            }
          }
        }
      }
    }
  }

  /// Source-over of a premultiplied RGBA pixel (`source[at…]`) scaled by `alpha`.
  private static func blendPremultiplied(
    _ p: UnsafeMutablePointer<UInt8>, _ source: [UInt8], _ at: Int, alpha: Float
  ) {
    let scale: Float = 1 / 255
    let sa = Float(source[at + 3]) * scale * alpha
    guard sa > 0 else { return }
    let sr = Float(source[at]) * scale * alpha
    let sg = Float(source[at + 1]) * scale * alpha
    let sb = Float(source[at + 2]) * scale * alpha
    let da = Float(p[3]) * scale
    let keep = da * (1 - sa)
    let outA = sa + keep
    p[0] = Canvas.byte((sr + Float(p[0]) * scale * keep) / outA)
    p[1] = Canvas.byte((sg + Float(p[1]) * scale * keep) / outA)
    p[2] = Canvas.byte((sb + Float(p[2]) * scale * keep) / outA)
    p[3] = Canvas.byte(outA)
  }
}
