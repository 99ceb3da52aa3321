// How each PencilKit ink looks here (docs/pkdrawing-format.md, "Inks").
//
// PencilKit's own looks come from private resources; these are recognisable approximations
// whose ink lands where the device puts it (the half-widths are the ones that reproduce the
// stored render bounds, `InkMetrics`):
//
// | ink          | width                      | alpha       | texture                     |
// |--------------|----------------------------|-------------|-----------------------------|
// | pen          | follows the points         | colour      | none                        |
// | monoline     | even: the path's mean      | colour      | none                        |
// | marker       | follows the points         | colour × ½  | none, flat                  |
// | fountain pen | nib ellipse along azimuth  | colour      | none                        |
// | pencil       | particle spread            | colour × ¾  | grain, seeded by the stroke |
// | crayon       | particle spread            | colour × .9 | coarse grain                |
// | watercolor   | particle spread, soft edge | colour × .45| faint blotches              |
//
// Per-point opacity (0…2 as stored) is clamped to 0…1 and multiplies the alpha. Unknown inks
// draw as the pen.

import InklingFormats

#if canImport(Glibc)
  import Glibc
#endif

struct InkStyle {
  enum Texture { case none, pencil, crayon, watercolor }

  var metrics: InkMetrics
  /// Multiplies the ink colour's alpha.
  var alphaScale: Float
  var texture: Texture
  /// Monoline: one width for the whole stroke.
  var evenWidth: Bool
  /// Fountain pen: the nib's thin half-axis as a fraction of its broad one.
  var nibRatio: Double?
  /// The width, in pixels, of the edge's fall-off from full to no coverage.
  var edgeSoftness: Float

  static func of(_ ink: Ink) -> InkStyle {
    var style = InkStyle(
      metrics: InkMetrics.of(ink.inkType), alphaScale: 1, texture: .none, evenWidth: false,
      nibRatio: nil, edgeSoftness: 1)
    switch ink.inkType {
    case .pen, .eraser, .other: break
    case .monoline: style.evenWidth = true
    case .marker: style.alphaScale = 0.5
    case .fountainPen: style.nibRatio = 0.3
    case .pencil:
      style.alphaScale = 0.75
      style.texture = .pencil
    case .crayon:
      style.alphaScale = 0.9
      style.texture = .crayon
    case .watercolor:
      style.alphaScale = 0.45
      style.texture = .watercolor
      style.edgeSoftness = 3
    }
    return style
  }

  /// The half-width, in stroke space, of a fountain pen's nib moving in direction
  /// (`dx`, `dy`): the extent across the motion of an ellipse whose broad axis, `halfWidth`,
  /// lies along the azimuth.
  static func nibHalfWidth(
    halfWidth: Double, ratio: Double, azimuth: Double, dx: Double, dy: Double
  ) -> Double {
    let length = (dx * dx + dy * dy).squareRoot()
    guard length > 0, length.isFinite, azimuth.isFinite else { return halfWidth }
    // sin of the angle between the motion and the nib's broad axis.
    let sine = (dy * cos(azimuth) - dx * sin(azimuth)) / length
    let thin = halfWidth * ratio
    let across = halfWidth * sine
    let along: Double = thin * thin * (1 - sine * sine)
    return (across * across + along).squareRoot()
  }
}

/// Deterministic texture noise: a hash of integer lattice coordinates and the stroke's seed.
enum Grain {
  /// A value in 0…1 for lattice cell (`x`, `y`).
  @inline(__always) static func hash(_ x: Int32, _ y: Int32, _ seed: UInt32) -> Float {
    let hx: UInt32 = UInt32(bitPattern: x) &* 0x8DA6_B343
    let hy: UInt32 = UInt32(bitPattern: y) &* 0xD816_3841
    var h: UInt32 = hx ^ hy ^ (seed &* 0xCB1A_B31F)
    h ^= h >> 15
    h &*= 0x2C1B_3C6D
    h ^= h >> 12
    h &*= 0x297A_2D39
    h ^= h >> 15
    return Float(h >> 8) * (1 / 16_777_216)
  }

  /// Smooth value noise in 0…1 with cells `cell` pixels wide.
  @inline(__always) static func value(_ x: Float, _ y: Float, cell: Float, _ seed: UInt32) -> Float {
    let fx = x / cell
    let fy = y / cell
    let x0 = fx.rounded(.down)
    let y0 = fy.rounded(.down)
    let tx = fx - x0
    let ty = fy - y0
    let sx = tx * tx * (3 - 2 * tx)
    let sy = ty * ty * (3 - 2 * ty)
    let ix = Int32(clamping: Int(x0))
    let iy = Int32(clamping: Int(y0))
    let a = hash(ix, iy, seed)
    let b = hash(ix &+ 1, iy, seed)
    let c = hash(ix, iy &+ 1, seed)
    let d = hash(ix &+ 1, iy &+ 1, seed)
    return (a + (b - a) * sx) + ((c + (d - c) * sx) - (a + (b - a) * sx)) * sy
  }

  /// The alpha multiplier of `texture` at pixel (`x`, `y`), for a drawing shown at `scale`
  /// pixels per point.
  @inline(__always) static func factor(
    _ texture: InkStyle.Texture, x: Int, y: Int, scale: Float, seed: UInt32
  ) -> Float {
    let px = Float(x)
    let py = Float(y)
    let strength = strength(scale)
    switch texture {
    case .none:
      return 1
    case .pencil:
      // Paper tooth about a point across, plus per-pixel speckle.
      let tooth = value(px, py, cell: Swift.max(1, 0.9 * scale), seed)
      let speckle = hash(
        Int32(truncatingIfNeeded: x), Int32(truncatingIfNeeded: y), seed ^ 0x9E37_79B9)
      let raw = 0.65 * tooth + 0.35 * speckle
      return 0.35 + 0.65 * (0.5 + (raw - 0.5) * strength)
    case .crayon:
      // Wax skips over the paper's tooth: two octaves, with the low spots mostly left open.
      let coarse = value(px, py, cell: Swift.max(1, 1.4 * scale), seed)
      let fine = value(px, py, cell: Swift.max(1, 0.6 * scale), seed ^ 0x5851_F42D)
      let raw = 0.6 * coarse + 0.4 * fine
      let t = Swift.min(Swift.max((raw - 0.3) / 0.3, 0), 1)
      let bite = 0.3 + 0.7 * t * t * (3 - 2 * t)
      return 0.75 + (bite - 0.75) * strength
    case .watercolor:
      let blotch = value(px, py, cell: Swift.max(2, 9 * scale), seed)
      return 0.7 + 0.3 * blotch
    }
  }

  /// How much of the grain's contrast shows at `scale` pixels per point: below one pixel per
  /// point the grain is finer than a pixel, so it fades towards its mean and a thumbnail shows
  /// a lighter line rather than salt and pepper.
  @inline(__always) static func strength(_ scale: Float) -> Float {
    Swift.min(Swift.max((scale - 0.25) / 1.25, 0.1), 1)
  }

  /// The mean of `factor` over a stroke's pixels at `scale` pixels per point: the opacity
  /// `texture` leaves on average, which a flat fill of the same ink must have to put down as
  /// much ink as the grain does.
  ///
  /// Pencil and watercolor are affine in noise whose mean is ½ (the hash is uniform, and value
  /// noise interpolates it), so theirs is exact at any strength. Crayon's bite is not affine,
  /// and how the pixel grid samples cells a pixel or two wide moves its mean, so it is averaged
  /// over pixels of the grain at this scale: 16,384 of them scattered over 4096 × 4096, so that
  /// nearly every one falls in a cell of its own at any scale. A patch of adjacent pixels holds
  /// far fewer cells for the same work, and fewer the larger the scale, which is how a mean
  /// taken over one drifted as the scale grew.
  static func mean(_ texture: InkStyle.Texture, scale: Float) -> Float {
    switch texture {
    case .none:
      return 1
    case .pencil:
      return 0.35 + 0.65 * 0.5
    case .watercolor:
      return 0.7 + 0.3 * 0.5
    case .crayon:
      let samples: Int32 = 16_384
      let seed: UInt32 = 0x5EED
      var sum: Float = 0
      for i in 0..<samples {
        let x = Int(hash(i, 0, seed) * 4096)
        let y = Int(hash(i, 1, seed) * 4096)
        sum += factor(.crayon, x: x, y: y, scale: scale, seed: seed)
      }
      return sum / Float(samples)
    }
  }
}
