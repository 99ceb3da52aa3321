// Evaluating a `StrokePath` the way PencilKit does (docs/pkdrawing-format.md, "Geometry"):
//
// 1. The points are the control points of a uniform cubic B-spline whose parameter runs over
//    0 … N−1. Segment i covers [i, i+1] and blends P[i−1], P[i], P[i+1], P[i+2].
// 2. Indices outside the path use reflected phantom points P[−1] = 2·P[0] − P[1] and
//    P[N] = 2·P[N−1] − P[N−2], so the curve starts exactly at P[0] and ends exactly at P[N−1].
//    Two points give the straight line between them; one point is a dot.
// 3. Every other property (width, opacity, force, azimuth, altitude, …) is interpolated
//    linearly between control points floor(t) and floor(t) + 1; it is not splined.
//
// Sampling converts each segment to its cubic Bézier form once and walks it in equal parameter
// steps, as many as a bound of the curve's speed requires for consecutive samples to be at
// most `maxSpacing` apart. Non-finite coordinates are passed through (the caller
// skips such samples); step counts are capped so absurd coordinates cannot hang a caller.

/// One sample of a stroke path: its location on the spline and its properties interpolated
/// linearly between the neighbouring control points.
public struct InterpolatedPoint: Hashable, Sendable {
  /// The spline parameter, 0 … N−1.
  public var t: Double
  public var location: Point
  /// The interpolated `width` property, which PencilKit treats as a radius.
  public var radius: Double
  public var aspectRatio: Double
  public var edgeWidth: Double
  public var force: Double
  /// Radians.
  public var azimuth: Double
  /// Radians.
  public var altitude: Double
  /// 0…2 as stored; clamp to 1 when drawing.
  public var opacity: Double

  public init(
    t: Double, location: Point, radius: Double, aspectRatio: Double = 1, edgeWidth: Double = 0,
    force: Double = 1, azimuth: Double = 0, altitude: Double = .pi / 2, opacity: Double = 1
  ) {
    self.t = t
    self.location = location
    self.radius = radius
    self.aspectRatio = aspectRatio
    self.edgeWidth = edgeWidth
    self.force = force
    self.azimuth = azimuth
    self.altitude = altitude
    self.opacity = opacity
  }
}

extension StrokePath {
  /// The largest parameter value, N − 1 (0 for a one-point or empty path).
  public var parameterEnd: Double { Double(Swift.max(points.count - 1, 0)) }

  /// The point on the spline at parameter `t`, clamped to 0 … N−1.
  ///
  /// An empty path has no location; it answers the origin.
  public func location(at t: Double) -> Point {
    let n = points.count
    guard n > 1 else { return n == 1 ? points[0].location : Point(x: 0, y: 0) }
    let (segment, u) = segmentAndLocal(t)
    return BezierSegment(path: self, segment: segment).point(at: u)
  }

  /// Every property at parameter `t` (clamped to 0 … N−1): the location on the spline and the
  /// other properties interpolated linearly.
  public func interpolatedPoint(at t: Double) -> InterpolatedPoint {
    let n = points.count
    guard n > 0 else { return InterpolatedPoint(t: 0, location: Point(x: 0, y: 0), radius: 0) }
    if n == 1 {
      return Self.properties(points[0], points[0], fraction: 0, t: 0, location: points[0].location)
    }
    let (segment, u) = segmentAndLocal(t)
    let location = BezierSegment(path: self, segment: segment).point(at: u)
    return Self.properties(
      points[segment], points[segment + 1], fraction: u, t: Double(segment) + u, location: location)
  }

  /// Samples of the spline no more than `maxSpacing` points apart along the curve, from the
  /// start of `range` to its end, both included.
  ///
  /// `range` defaults to the whole path (0 … N−1) and is clamped to it. A one-point path
  /// gives one sample. For example, `path.interpolatedPoints(maxSpacing: 0.5)` gives the
  /// centreline to draw round caps along at half-point spacing.
  ///
  /// With a `minSpacing`, a sample that is certainly closer than that to the previous one
  /// (by a bound of the curve's speed) is left out, except the last: dense control points
  /// then cost no more than sparse ones.
  public func interpolatedPoints(
    maxSpacing: Double, minSpacing: Double = 0, in range: ClosedRange<Double>? = nil
  ) -> [InterpolatedPoint] {
    var result: [InterpolatedPoint] = []
    result.reserveCapacity(Swift.min(points.count * 4, 1 << 16))
    forEachInterpolatedPoint(maxSpacing: maxSpacing, minSpacing: minSpacing, in: range) {
      result.append($0)
    }
    return result
  }

  /// Calls `body` with the samples `interpolatedPoints(maxSpacing:minSpacing:in:)` would
  /// return, without building an array.
  public func forEachInterpolatedPoint(
    maxSpacing: Double, minSpacing: Double = 0, in range: ClosedRange<Double>? = nil,
    _ body: (InterpolatedPoint) -> Void
  ) {
    let n = points.count
    guard n > 0 else { return }
    if n == 1 {
      body(Self.properties(points[0], points[0], fraction: 0, t: 0, location: points[0].location))
      return
    }
    let end = parameterEnd
    var t0 = range?.lowerBound ?? 0
    var t1 = range?.upperBound ?? end
    if !t0.isFinite { t0 = 0 }
    if !t1.isFinite { t1 = end }
    t0 = Swift.min(Swift.max(t0, 0), end)
    t1 = Swift.min(Swift.max(t1, t0), end)
    let spacing = maxSpacing.isFinite && maxSpacing > 0 ? maxSpacing : 1
    let firstSegment = Swift.min(Int(t0.rounded(.down)), n - 2)
    let lastSegment = Swift.max(Swift.min(Int(t1.rounded(.up)) - 1, n - 2), firstSegment)
    let skipBelow = minSpacing.isFinite ? Swift.min(minSpacing, spacing) : 0
    // An upper bound of the distance travelled since the last sample given to `body`.
    var travelled = 0.0
    points.withUnsafeBufferPointer { points in
      for segment in firstSegment...lastSegment {
        let bezier = BezierSegment(points, segment: segment)
        let base = Double(segment)
        let u0 = Swift.max(t0 - base, 0)
        let u1 = Swift.min(t1 - base, 1)
        let length = bezier.maxSpeed * (u1 - u0)
        var steps = 1
        if length.isFinite, length > spacing {
          steps = Int(Swift.min((length / spacing).rounded(.up), Double(Self.maxStepsPerSegment)))
        }
        let p0 = points[segment]
        let p1 = points[segment + 1]
        // The first segment emits its start; later ones start where the previous ended.
        let stepLength = length / Double(steps)
        for k in (segment == firstSegment ? 0 : 1)...steps {
          if k > 0 {
            travelled += stepLength
            let isLast = segment == lastSegment && k == steps
            if travelled < skipBelow, !isLast { continue }
          }
          travelled = 0
          let u = k == steps ? u1 : u0 + (u1 - u0) * Double(k) / Double(steps)
          body(Self.properties(p0, p1, fraction: u, t: base + u, location: bezier.point(at: u)))
        }
      }
    }
  }

  /// The most samples one segment gives, whatever its length: bounds the work on absurd input.
  public static let maxStepsPerSegment = 4096

  // MARK: - Internals

  /// The segment holding `t` (0 … N−2) and the local parameter within it (0 … 1).
  private func segmentAndLocal(_ t: Double) -> (Int, Double) {
    let end = parameterEnd
    let clamped = t.isFinite ? Swift.min(Swift.max(t, 0), end) : 0
    let segment = Swift.min(Int(clamped.rounded(.down)), points.count - 2)
    return (segment, clamped - Double(segment))
  }

  private static func properties(
    _ a: StrokePoint, _ b: StrokePoint, fraction u: Double, t: Double, location: Point
  ) -> InterpolatedPoint {
    @inline(__always) func lerp(_ x: Double, _ y: Double) -> Double { x + (y - x) * u }
    return InterpolatedPoint(
      t: t, location: location, radius: lerp(a.width, b.width),
      aspectRatio: lerp(a.aspectRatio, b.aspectRatio), edgeWidth: lerp(a.edgeWidth, b.edgeWidth),
      force: lerp(a.force, b.force), azimuth: lerp(a.azimuth, b.azimuth),
      altitude: lerp(a.altitude, b.altitude), opacity: lerp(a.opacity, b.opacity))
  }
}

/// One segment of the uniform cubic B-spline in Bézier form.
struct BezierSegment {
  var b0, b1, b2, b3: Point

  /// Segment `segment` (0 … N−2) of a path with at least two points.
  init(path: StrokePath, segment i: Int) {
    self = path.points.withUnsafeBufferPointer { BezierSegment($0, segment: i) }
  }

  /// Segment `i` (0 … N−2) of the spline through `pts` (at least two points).
  init(_ pts: UnsafeBufferPointer<StrokePoint>, segment i: Int) {
    let n = pts.count
    @inline(__always) func control(_ k: Int) -> Point {
      if k < 0 {
        return Point(
          x: 2 * pts[0].location.x - pts[1].location.x,
          y: 2 * pts[0].location.y - pts[1].location.y)
      }
      if k >= n {
        return Point(
          x: 2 * pts[n - 1].location.x - pts[n - 2].location.x,
          y: 2 * pts[n - 1].location.y - pts[n - 2].location.y)
      }
      return pts[k].location
    }
    let p0 = control(i - 1)
    let p1 = control(i)
    let p2 = control(i + 1)
    let p3 = control(i + 2)
    // The standard B-spline → Bézier conversion.
    b0 = Point(x: (p0.x + 4 * p1.x + p2.x) / 6, y: (p0.y + 4 * p1.y + p2.y) / 6)
    b1 = Point(x: (2 * p1.x + p2.x) / 3, y: (2 * p1.y + p2.y) / 3)
    b2 = Point(x: (p1.x + 2 * p2.x) / 3, y: (p1.y + 2 * p2.y) / 3)
    b3 = Point(x: (p1.x + 4 * p2.x + p3.x) / 6, y: (p1.y + 4 * p2.y + p3.y) / 6)
    // With the phantom points these equal P[0] and P[N−1]; say so exactly, without rounding.
    if i == 0 { b0 = p1 }
    if i == n - 2 { b3 = p2 }
  }

  /// An upper bound of the speed |dB/du| over the segment: the derivative is a quadratic
  /// Bézier with control points 3(b1 − b0), 3(b2 − b1), 3(b3 − b2), inside their hull.
  var maxSpeed: Double {
    // The largest squared distance, then one square root (this runs once per segment).
    @inline(__always) func d2(_ a: Point, _ b: Point) -> Double {
      (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)
    }
    return 3 * Swift.max(d2(b0, b1), d2(b1, b2), d2(b2, b3)).squareRoot()
  }

  @inline(__always) func point(at u: Double) -> Point {
    let v = 1 - u
    let w0 = v * v * v
    let w1 = 3 * v * v * u
    let w2 = 3 * v * u * u
    let w3 = u * u * u
    return Point(
      x: w0 * b0.x + w1 * b1.x + w2 * b2.x + w3 * b3.x,
      y: w0 * b0.y + w1 * b1.y + w2 * b2.y + w3 * b3.y)
  }
}
