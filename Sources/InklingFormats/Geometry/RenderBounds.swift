// Render bounds as PencilKit computes them for `Stroke.6` (docs/pkdrawing-format.md, "Geometry"):
// sweep the rendered half-width along the spline, apply the stroke transform, take the union,
// and round outward to whole points (floor the origin, ceil the far edge). A stroke with
// substrokes is bounded by its substrokes; the Inkling app crops thumbnails and exports to the
// union over the visible strokes (`Drawing.renderBounds`).
//
// The sweep is exact rather than sampled: on each spline segment the centreline is a cubic and
// the half-width is linear in the parameter (or the constant minimum), and an affine transform
// keeps both so (a disc of radius h becomes an ellipse reaching h·√(a²+c²) along x and
// h·√(b²+d²) along y). Each extreme of "cubic ± linear" is at an end of the range or at a
// root of a quadratic.

// Rounding and square roots call libm; importing the C library links it for every client.
#if canImport(Glibc)
  import Glibc
#endif

/// How wide an ink draws for a given `width` property (PencilKit's radius):
/// `halfWidth = max(scale · radius + offset, minimum)` points from the centreline.
public struct InkMetrics: Hashable, Sendable {
  public var scale: Double
  public var offset: Double
  public var minimum: Double

  public init(scale: Double, offset: Double, minimum: Double) {
    self.scale = scale
    self.offset = offset
    self.minimum = minimum
  }

  /// The rendered half-width for a radius; the minimum for a non-finite radius.
  @inline(__always) public func halfWidth(radius: Double) -> Double {
    let h = scale * radius + offset
    return h.isFinite ? Swift.max(h, minimum) : minimum
  }

  /// Vector inks (pen, monoline, marker, fountain pen): `radius − 1.8`, which reproduces the
  /// stored bounds of the real samples exactly; at least a quarter point so a hairline shows.
  public static let vector = InkMetrics(scale: 1, offset: -1.8, minimum: 0.25)

  /// Particle inks (pencil, crayon, watercolor) spread beyond the radius: about 2.5 pt from the
  /// centreline at radius 1.2 on the device.
  public static let particle = InkMetrics(scale: 1, offset: 1.3, minimum: 0.5)

  /// The metrics of an ink type; unknown inks are drawn as vector inks.
  public static func of(_ inkType: Ink.InkType) -> InkMetrics {
    switch inkType {
    case .pencil, .crayon, .watercolor: .particle
    default: .vector
    }
  }
}

extension StrokePiece {
  /// The rendered area before rounding: the swept half-width, transformed, clipped to the
  /// bounds of the mask polygons. Nil when nothing finite is drawn.
  public var exactBounds: Rect? { exactBox.rect }

  private var exactBox: BoundsBox {
    let metrics = InkMetrics.of(ink.inkType)
    let m = transform
    let sx = (m.a * m.a + m.c * m.c).squareRoot()
    let sy = (m.b * m.b + m.d * m.d).squareRoot()
    var box = BoundsBox()
    let points = path.points
    if points.count == 1 {
      let p = m.apply(points[0].location)
      let h = metrics.halfWidth(radius: points[0].width)
      box.add(minX: p.x - sx * h, maxX: p.x + sx * h, minY: p.y - sy * h, maxY: p.y + sy * h)
    } else {
      for range in ranges { sweep(range, metrics, sx, sy, into: &box) }
    }
    if !maskPolygons.isEmpty {
      var mask = BoundsBox()
      for polygon in maskPolygons {
        for p in polygon {
          let q = m.apply(p)
          mask.add(minX: q.x, maxX: q.x, minY: q.y, maxY: q.y)
        }
      }
      // Polygons without points clip nothing.
      if mask.rect != nil { box.intersect(mask) }
    }
    return box
  }

  /// The render bounds PencilKit stores: `exactBounds` rounded outward to whole points.
  public var renderBounds: Rect? { exactBounds.map(Self.roundedOut) }

  /// A rectangle rounded outward to whole points (floor the origin, ceil the far edge).
  ///
  /// Values within a billionth of a whole number count as whole, so that rounding error in
  /// the sweep cannot add a point.
  public static func roundedOut(_ r: Rect) -> Rect {
    let epsilon = 1e-9
    let x0 = (r.minX + epsilon).rounded(.down)
    let y0 = (r.minY + epsilon).rounded(.down)
    let x1 = (r.maxX - epsilon).rounded(.up)
    let y1 = (r.maxY - epsilon).rounded(.up)
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  private func sweep(
    _ range: ClosedRange<Double>, _ metrics: InkMetrics, _ sx: Double, _ sy: Double,
    into box: inout BoundsBox
  ) {
    let n = path.points.count
    let first = Swift.min(Int(range.lowerBound.rounded(.down)), n - 2)
    let last = Swift.max(Swift.min(Int(range.upperBound.rounded(.up)) - 1, n - 2), first)
    let hm = metrics.minimum
    path.points.withUnsafeBufferPointer { points in
      /// Grows the box by the sweep of one segment.
      func visit(_ segment: Int) {
        let base = Double(segment)
        let u0 = Swift.max(range.lowerBound - base, 0)
        let u1 = Swift.min(range.upperBound - base, 1)
        guard u0 <= u1 else { return }
        // The B-spline's own control points hold the segment too: a cheap first test.
        if transform.isIdentity, segment > 0, segment + 2 < n {
          let r = Swift.max(points[segment].width, points[segment + 1].width)
          let h = metrics.halfWidth(radius: r)
          let a = points[segment - 1].location
          let b = points[segment].location
          let c = points[segment + 1].location
          let d = points[segment + 2].location
          if Swift.min(a.x, b.x, c.x, d.x) - h >= box.minX,
            Swift.max(a.x, b.x, c.x, d.x) + h <= box.maxX,
            Swift.min(a.y, b.y, c.y, d.y) - h >= box.minY,
            Swift.max(a.y, b.y, c.y, d.y) + h <= box.maxY
          {
            return
          }
        }
        var bezier = BezierSegment(points, segment: segment)
        if !transform.isIdentity {
          bezier.b0 = transform.apply(bezier.b0)
          bezier.b1 = transform.apply(bezier.b1)
          bezier.b2 = transform.apply(bezier.b2)
          bezier.b3 = transform.apply(bezier.b3)
        }
        // Half-width along the segment: max(q + s·u, minimum).
        let r0 = points[segment].width
        let r1 = points[segment + 1].width
        var q = metrics.scale * r0 + metrics.offset
        var s = metrics.scale * (r1 - r0)
        if !q.isFinite || !s.isFinite {
          q = hm
          s = 0
        }
        let linear = Swift.max(q, q + s) > hm
        // The curve lies in the hull of its Bézier points: a side of the box that this hull,
        // grown by the widest half-width, does not pass cannot move.
        let widest = Swift.max(q, q + s, hm)
        let hull = BoundsBox(bezier, dx: sx * widest, dy: sy * widest)
        let xs = Cubic(bezier.b0.x, bezier.b1.x, bezier.b2.x, bezier.b3.x)
        let ys = Cubic(bezier.b0.y, bezier.b1.y, bezier.b2.y, bezier.b3.y)
        if s == 0 {
          // Constant half-width (the usual case): one extreme per side.
          let h = Swift.max(q, hm)
          if !(hull.minX >= box.minX) {
            box.lower(minX: xs.extreme(offset: -sx * h, slope: 0, u0, u1, max: false))
          }
          if !(hull.maxX <= box.maxX) {
            box.raise(maxX: xs.extreme(offset: sx * h, slope: 0, u0, u1, max: true))
          }
          if !(hull.minY >= box.minY) {
            box.lower(minY: ys.extreme(offset: -sy * h, slope: 0, u0, u1, max: false))
          }
          if !(hull.maxY <= box.maxY) {
            box.raise(maxY: ys.extreme(offset: sy * h, slope: 0, u0, u1, max: true))
          }
          return
        }
        if !(hull.minX >= box.minX) {
          var v = xs.extreme(offset: -sx * hm, slope: 0, u0, u1, max: false)
          if linear {
            v = Swift.min(v, xs.extreme(offset: -sx * q, slope: -sx * s, u0, u1, max: false))
          }
          box.lower(minX: v)
        }
        if !(hull.maxX <= box.maxX) {
          var v = xs.extreme(offset: sx * hm, slope: 0, u0, u1, max: true)
          if linear {
            v = Swift.max(v, xs.extreme(offset: sx * q, slope: sx * s, u0, u1, max: true))
          }
          box.raise(maxX: v)
        }
        if !(hull.minY >= box.minY) {
          var v = ys.extreme(offset: -sy * hm, slope: 0, u0, u1, max: false)
          if linear {
            v = Swift.min(v, ys.extreme(offset: -sy * q, slope: -sy * s, u0, u1, max: false))
          }
          box.lower(minY: v)
        }
        if !(hull.maxY <= box.maxY) {
          var v = ys.extreme(offset: sy * hm, slope: 0, u0, u1, max: true)
          if linear {
            v = Swift.max(v, ys.extreme(offset: sy * q, slope: sy * s, u0, u1, max: true))
          }
          box.raise(maxY: v)
        }
      }
      // Seed the box with the segments around the extreme control points: most segments then
      // cannot grow it, and the cheap hull tests skip them.
      if transform.isIdentity, last - first > 4 {
        var lowX = first
        var highX = first
        var lowY = first
        var highY = first
        for i in first...(last + 1) {
          let p = points[i].location
          if p.x < points[lowX].location.x { lowX = i }
          if p.x > points[highX].location.x { highX = i }
          if p.y < points[lowY].location.y { lowY = i }
          if p.y > points[highY].location.y { highY = i }
        }
        func around(_ i: Int) {
          if i - 1 >= first { visit(i - 1) }
          if i <= last { visit(i) }
        }
        around(lowX)
        around(highX)
        around(lowY)
        around(highY)
      }
      for segment in first...last { visit(segment) }
    }
  }
}

extension Drawing {
  /// The render bounds of the stroke at `index`: the union of its visible pieces' rounded
  /// bounds (a stroke with substrokes is bounded by them). Nil when it draws nothing.
  public func renderBounds(ofStrokeAt index: Int) -> Rect? {
    var box = BoundsBox()
    for piece in pieces(ofStrokeAt: index) { box.add(piece.renderBounds) }
    return box.rect
  }

  /// The union of the render bounds of the visible strokes: what the Inkling app crops
  /// thumbnails and exports to. Nil when nothing is visible.
  public var renderBounds: Rect? {
    var box = BoundsBox()
    for piece in visiblePieces { box.add(piece.renderBounds) }
    return box.rect
  }
}

// MARK: - Internals

/// A cubic in Bézier form on one axis, with its power-basis coefficients.
private struct Cubic {
  let c0, c1, c2, c3: Double
  init(_ b0: Double, _ b1: Double, _ b2: Double, _ b3: Double) {
    c0 = b0
    c1 = 3 * (b1 - b0)
    c2 = 3 * (b0 - 2 * b1 + b2)
    c3 = b3 - b0 + 3 * (b1 - b2)
  }

  /// The smallest (or largest) value of `cubic(u) + offset + slope·u` over `u0 … u1`.
  func extreme(offset: Double, slope: Double, _ u0: Double, _ u1: Double, max: Bool) -> Double {
    func f(_ u: Double) -> Double { ((c3 * u + c2) * u + c1 + slope) * u + c0 + offset }
    var best = max ? Swift.max(f(u0), f(u1)) : Swift.min(f(u0), f(u1))
    func consider(_ u: Double) {
      guard u > u0, u < u1 else { return }
      best = max ? Swift.max(best, f(u)) : Swift.min(best, f(u))
    }
    // f'(u) = 3c3·u² + 2c2·u + (c1 + slope).
    let a = 3 * c3
    let b = 2 * c2
    let c = c1 + slope
    let scale = Swift.max(abs(a), abs(b), abs(c))
    if abs(a) <= 1e-12 * scale {
      if b != 0 { consider(-c / b) }
    } else {
      let disc = b * b - 4 * a * c
      if disc >= 0 {
        // The numerically stable pair of roots.
        let root = disc.squareRoot()
        let qq = -0.5 * (b + (b >= 0 ? root : -root))
        consider(qq / a)
        if qq != 0 { consider(c / qq) }
      }
    }
    return best
  }
}

/// A growing axis-aligned box that ignores non-finite input.
struct BoundsBox {
  var minX = Double.infinity, minY = Double.infinity
  var maxX = -Double.infinity, maxY = -Double.infinity

  mutating func add(minX x0: Double, maxX x1: Double, minY y0: Double, maxY y1: Double) {
    guard x0.isFinite, x1.isFinite, y0.isFinite, y1.isFinite else { return }
    minX = Swift.min(minX, x0)
    maxX = Swift.max(maxX, x1)
    minY = Swift.min(minY, y0)
    maxY = Swift.max(maxY, y1)
  }

  mutating func lower(minX v: Double) { if v.isFinite { minX = Swift.min(minX, v) } }
  mutating func raise(maxX v: Double) { if v.isFinite { maxX = Swift.max(maxX, v) } }
  mutating func lower(minY v: Double) { if v.isFinite { minY = Swift.min(minY, v) } }
  mutating func raise(maxY v: Double) { if v.isFinite { maxY = Swift.max(maxY, v) } }

  mutating func add(_ rect: Rect?) {
    guard let r = rect else { return }
    add(minX: r.minX, maxX: r.maxX, minY: r.minY, maxY: r.maxY)
  }

  init() {}

  /// The box of the Bézier points of `b`, grown by `dx` and `dy`.
  init(_ b: BezierSegment, dx: Double, dy: Double) {
    minX = Swift.min(b.b0.x, b.b1.x, b.b2.x, b.b3.x) - dx
    maxX = Swift.max(b.b0.x, b.b1.x, b.b2.x, b.b3.x) + dx
    minY = Swift.min(b.b0.y, b.b1.y, b.b2.y, b.b3.y) - dy
    maxY = Swift.max(b.b0.y, b.b1.y, b.b2.y, b.b3.y) + dy
  }

  mutating func intersect(_ other: BoundsBox) {
    minX = Swift.max(minX, other.minX)
    maxX = Swift.min(maxX, other.maxX)
    minY = Swift.max(minY, other.minY)
    maxY = Swift.min(maxY, other.maxY)
  }

  /// The box as a rectangle; nil when nothing was added or the box is empty.
  var rect: Rect? {
    guard minX <= maxX, minY <= maxY else { return nil }
    return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }
}
