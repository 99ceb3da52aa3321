// The pixel buffer strokes are composited into.
//
// Colours are composited the way CoreGraphics does by default: in sRGB-encoded values (not
// linear light), source-over, with premultiplied alpha held as Float. Components outside 0…1
// (extended sRGB in Inkling's background colour and in ink colours) are clamped here, when a
// pixel is drawn, and nowhere else.

import InklingFormats

/// An image: `width × height` pixels, RGBA 8 bits each, not premultiplied, rows top to bottom.
public struct RenderedImage: Hashable, Sendable {
  public var width: Int
  public var height: Int
  /// `width × height × 4` bytes.
  public var rgba: [UInt8]

  public init(width: Int, height: Int, rgba: [UInt8]) {
    precondition(
      width >= 0 && height >= 0 && rgba.count == width * height * 4,
      "RenderedImage: rgba must hold width × height × 4 bytes")
    self.width = width
    self.height = height
    self.rgba = rgba
  }

  /// The pixel at column `x`, row `y` as (r, g, b, a).
  public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    let i = (y * width + x) * 4
    return (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3])
  }
}

/// An 8-bit RGBA canvas (not premultiplied) that strokes are composited into in Float.
///
/// Keeping the canvas in bytes makes the untouched background free: filling is a 32-bit
/// pattern fill and the image is the buffer itself, which matters for small thumbnails.
struct Canvas {
  let width: Int
  let height: Int
  /// `width × height × 4` bytes, RGBA.
  var bytes: [UInt8]

  /// A canvas filled with `background` (clamped to 0…1).
  init(width: Int, height: Int, background: RGBA) {
    self.width = width
    self.height = height
    let c = ClampedColor(background)
    let pattern: [UInt8] = [Self.byte(c.r), Self.byte(c.g), Self.byte(c.b), Self.byte(c.a)]
    let word = pattern.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    let count = width * height
    bytes = [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      UnsafeMutableRawPointer(base).bindMemory(to: UInt32.self, capacity: count)
        .initialize(repeating: word, count: count)
      initialized = count * 4
    }
  }

  /// Source-over of `color` at `alpha` (0…1, already including the colour's own alpha) onto
  /// the pixel whose first byte is `p`.
  @inline(__always) static func blend(
    _ p: UnsafeMutablePointer<UInt8>, _ color: ClampedColor, _ alpha: Float
  ) {
    let scale: Float = 1 / 255
    let keep = 1 - alpha
    let da = Float(p[3]) * scale
    if da >= 1 {
      p[0] = byte(color.r * alpha + Float(p[0]) * scale * keep)
      p[1] = byte(color.g * alpha + Float(p[1]) * scale * keep)
      p[2] = byte(color.b * alpha + Float(p[2]) * scale * keep)
      return
    }
    // A translucent background: premultiply, blend, unpremultiply.
    let outA = alpha + da * keep
    guard outA > 0 else { return }
    let w = da * keep / outA
    let v = alpha / outA
    p[0] = byte(color.r * v + Float(p[0]) * scale * w)
    p[1] = byte(color.g * v + Float(p[1]) * scale * w)
    p[2] = byte(color.b * v + Float(p[2]) * scale * w)
    p[3] = byte(outA)
  }

  /// The canvas as an image (no copy).
  func image() -> RenderedImage { RenderedImage(width: width, height: height, rgba: bytes) }

  /// 0…1 to 0…255, rounded to nearest; anything outside clamped. Branch-free: adding 1.5 · 2²³
  /// leaves the rounded integer in the low bits of the float.
  @inline(__always) static func byte(_ v: Float) -> UInt8 {
    let x = Swift.min(Swift.max(v, 0), 1) * 255 + 12_582_912
    return UInt8(truncatingIfNeeded: x.bitPattern)
  }
}

/// A colour with every component clamped to 0…1 (NaN counts as 0), as Float.
struct ClampedColor {
  var r: Float, g: Float, b: Float, a: Float

  init(_ color: RGBA) {
    r = Self.clamp(color.red)
    g = Self.clamp(color.green)
    b = Self.clamp(color.blue)
    a = Self.clamp(color.alpha)
  }

  init(r: Float, g: Float, b: Float, a: Float) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  static func clamp(_ v: Double) -> Float {
    v >= 1 ? 1 : v > 0 ? Float(v) : 0  // NaN fails both tests and becomes 0.
  }
}
