// A visible stroke piece as filled polygons: the area the rasterizer's sweep covers
// (StrokeRasterizer.swift), for the vector renders.
//
// The samples are the rasterizer's own: the same spline sampled at the same spacing, the same
// half-width per sample (even for monoline, the nib's extent across the motion for the
// fountain pen), mapped by the same transform. Where the rasterizer sweeps a capsule between
// consecutive samples and keeps the maximum, the outliner walks the samples once on each side:
//
// - each side is offset by the sample's radius along the normal; where the path turns more
//   than a few degrees, the outer side follows an arc around the sample and the inner side
//   passes through the sample itself, so that the outline, filled with the nonzero rule,
//   covers the union of the capsules (every part of it winds the same way, and a stroke that
//   crosses itself stays filled where it overlaps);
// - the ends are round caps, or flat across the path where the eraser cut the range
//   (`StrokePiece.isCut`), as the rasterizer cuts them;
// - the polygon is then thinned to the points that move its edge by more than a fifth of a
//   pixel, which keeps files small without a visible change.
//
// A piece's ranges give one polygon each (a run broken by a coordinate that is not finite
// gives one per run); the mask polygons of the pixel eraser become a clip, oriented alike so
// that the nonzero rule gives their union. Inks keep one colour and one opacity per piece:
// the colour's alpha × the ink's (InkStyle) × the mean per-point opacity × the texture's mean,
// as vectors carry no grain.

import InklingFormats

#if canImport(Glibc)
  import Glibc
#endif

/// One visible piece as vector outlines, in the render's pixel space.
struct PieceOutline {
  /// The top-level stroke the piece belongs to (`StrokePiece.strokeIndex`).
  var strokeIndex: Int
  /// Closed polygons whose union, under the nonzero rule, is the piece's ink.
  var polygons: [[Point]]
  /// Closed polygons the ink is clipped to (their union, nonzero rule); empty: no clip.
  var clip: [[Point]]
  var color: ClampedColor
  /// The opacity the whole piece is filled with.
  var alpha: Float
}

struct StrokeOutliner {
  let geometry: RenderGeometry
  /// How far, in pixels, a thinned or arc-approximated edge may stray from the exact one:
  /// a fifth of a pixel changes an edge pixel's coverage by at most that much.
  static let tolerance = 0.2
  /// Mean texture factors by texture, measured once per outliner (the scale is fixed).
  private var textureMeans: [InkStyle.Texture: Float] = [:]

  init(geometry: RenderGeometry) { self.geometry = geometry }

  /// The outlines of `piece`, nil when it draws nothing.
  mutating func outline(_ piece: StrokePiece) -> PieceOutline? {
    let style = InkStyle.of(piece.ink)
    let color = ClampedColor(piece.ink.color)
    var alpha = color.a * style.alphaScale
    guard alpha > 0 else { return nil }
    guard !piece.path.points.isEmpty,
      let sampling = PieceSampling(piece, style: style, transform: geometry.transform)
    else { return nil }
    let (m, inverse, radiusScale, stretch) = (
      sampling.mapping, sampling.inverse, sampling.radiusScale, sampling.stretch
    )
    let (meanHalfWidth, spacing, minStep) = (sampling.meanHalfWidth, sampling.spacing, sampling.minStep)
    let path = piece.path
    let maxRadius = Double(Swift.max(geometry.width, 1) + Swift.max(geometry.height, 1))

    var polygons: [[Point]] = []
    var opacitySum = 0.0
    var opacityCount = 0
    for range in piece.ranges {
      var runs: [[Sample]] = [[]]
      path.forEachInterpolatedPoint(maxSpacing: spacing, minSpacing: minStep / stretch, in: range) { point in
        let q = m.apply(point.location)
        guard q.x.isFinite, q.y.isFinite else {
          if !runs[runs.count - 1].isEmpty { runs.append([]) }
          return
        }
        var halfWidth = style.evenWidth ? meanHalfWidth : style.metrics.halfWidth(radius: point.radius)
        if let ratio = style.nibRatio, let p = runs[runs.count - 1].last {
          let dx = q.x - p.x
          let dy = q.y - p.y
          halfWidth = InkStyle.nibHalfWidth(
            halfWidth: halfWidth, ratio: ratio, azimuth: point.azimuth,
            dx: inverse.a * dx + inverse.c * dy, dy: inverse.b * dx + inverse.d * dy)
        }
        let r = Swift.min(halfWidth * radiusScale, maxRadius)
        guard r.isFinite, r > 0 else { return }
        let opacity = point.opacity >= 1 ? 1 : point.opacity > 0 ? point.opacity : 0
        opacitySum += opacity
        opacityCount += 1
        runs[runs.count - 1].append(Sample(x: q.x, y: q.y, radius: r))
      }
      let cutStart = piece.isCut(at: range.lowerBound)
      let cutEnd = piece.isCut(at: range.upperBound)
      for (i, run) in runs.enumerated() where !run.isEmpty {
        let polygon = Self.polygon(
          of: run, flatStart: cutStart && i == 0, flatEnd: cutEnd && i == runs.count - 1)
        if polygon.count >= 3 { polygons.append(Self.thinned(polygon, tolerance: Self.tolerance)) }
      }
    }
    guard !polygons.isEmpty, opacityCount > 0 else { return nil }
    alpha *= Float(opacitySum / Double(opacityCount))
    if style.texture != .none { alpha *= textureMean(style.texture) }
    guard alpha > 0 else { return nil }

    var clip: [[Point]] = []
    if !piece.maskPolygons.isEmpty {
      clip = piece.maskPolygons.map { $0.map { m.apply($0) } }
        .filter { $0.count >= 3 && $0.allSatisfy { $0.x.isFinite && $0.y.isFinite } }
        .map(Self.counterclockwise)
      // Mask polygons without area leave nothing visible, as the rasterizer clears the piece.
      guard !clip.isEmpty else { return nil }
    }
    return PieceOutline(strokeIndex: piece.strokeIndex, polygons: polygons, clip: clip, color: color, alpha: alpha)
  }

  /// The texture's mean alpha factor at this scale (`Grain.mean`), measured once per outliner.
  private mutating func textureMean(_ texture: InkStyle.Texture) -> Float {
    if let mean = textureMeans[texture] { return mean }
    let mean = Grain.mean(texture, scale: Float(geometry.scale))
    textureMeans[texture] = mean
    return mean
  }

  // MARK: - Polygon

  struct Sample {
    var x, y, radius: Double
  }

  /// Turns smaller than this (its cosine) are joined by one offset point per side.
  private static let smoothTurn = cos(12.0 * Double.pi / 180)

  /// The outline of one run of samples: one side forward, the end cap, the other side back,
  /// the start cap.
  static func polygon(of samples: [Sample], flatStart: Bool, flatEnd: Bool) -> [Point] {
    // Samples on top of each other give no direction.
    var run: [Sample] = []
    run.reserveCapacity(samples.count)
    for s in samples {
      if let last = run.last, abs(s.x - last.x) < 1e-9, abs(s.y - last.y) < 1e-9 {
        run[run.count - 1].radius = Swift.max(last.radius, s.radius)
        continue
      }
      run.append(s)
    }
    guard run.count > 1 else {
      let s = run[0]
      return arc(center: Point(x: s.x, y: s.y), radius: s.radius, from: 0, sweep: -2 * Double.pi, inclusive: true)
    }
    var directions: [Point] = []
    directions.reserveCapacity(run.count - 1)
    for i in 0..<(run.count - 1) {
      let dx = run[i + 1].x - run[i].x
      let dy = run[i + 1].y - run[i].y
      let length = (dx * dx + dy * dy).squareRoot()
      directions.append(Point(x: dx / length, y: dy / length))
    }
    var left: [Point] = []  // along +normal, the normal being the direction turned +90°
    var right: [Point] = []
    left.reserveCapacity(run.count + 8)
    right.reserveCapacity(run.count + 8)
    func offset(_ s: Sample, _ n: Point, _ side: Double) -> Point {
      Point(x: s.x + side * s.radius * n.x, y: s.y + side * s.radius * n.y)
    }
    let last = run.count - 1
    for (i, s) in run.enumerated() {
      let center = Point(x: s.x, y: s.y)
      if i == 0 || i == last {
        let d = directions[i == 0 ? 0 : last - 1]
        let n = Point(x: -d.y, y: d.x)
        left.append(offset(s, n, 1))
        right.append(offset(s, n, -1))
        continue
      }
      let a = directions[i - 1]
      let b = directions[i]
      let na = Point(x: -a.y, y: a.x)
      let nb = Point(x: -b.y, y: b.x)
      let dot = a.x * b.x + a.y * b.y
      if dot > smoothTurn {
        var n = Point(x: na.x + nb.x, y: na.y + nb.y)
        let length = (n.x * n.x + n.y * n.y).squareRoot()
        n = Point(x: n.x / length, y: n.y / length)
        left.append(offset(s, n, 1))
        right.append(offset(s, n, -1))
        continue
      }
      let turn = atan2(a.x * b.y - a.y * b.x, dot)
      // Turning towards +normal: the left side is inside the turn.
      let (inner, outer, outerSide) = turn > 0 ? (1, -1, -1.0) : (-1, 1, 1.0)
      let outerPoints =
        [offset(s, na, outerSide)]
        + arc(center: center, radius: s.radius, from: atan2(outerSide * na.y, outerSide * na.x), sweep: turn)
        + [offset(s, nb, outerSide)]
      let innerPoints = [offset(s, na, Double(inner)), center, offset(s, nb, Double(inner))]
      if outer == 1 {
        left += outerPoints
        right += innerPoints
      } else {
        left += innerPoints
        right += outerPoints
      }
    }
    var polygon = left
    let endDirection = directions[last - 1]
    if !flatEnd {
      polygon += arc(
        center: Point(x: run[last].x, y: run[last].y), radius: run[last].radius,
        from: atan2(endDirection.x, -endDirection.y), sweep: -Double.pi)
    }
    polygon += right.reversed()
    let startDirection = directions[0]
    if !flatStart {
      polygon += arc(
        center: Point(x: run[0].x, y: run[0].y), radius: run[0].radius,
        from: atan2(-startDirection.x, startDirection.y), sweep: -Double.pi)
    }
    return polygon
  }

  /// The points strictly between the ends of an arc (both ends too when `inclusive`), spaced
  /// so that the chords stray at most `tolerance` from the circle.
  static func arc(center: Point, radius: Double, from start: Double, sweep: Double, inclusive: Bool = false)
    -> [Point]
  {
    let ratio = Swift.max(1 - tolerance / Swift.max(radius, 1e-9), -1)
    let step = Swift.min(Swift.max(2 * acos(ratio), 0.05), Double.pi / 4)
    let count = Swift.max(Int((abs(sweep) / step).rounded(.up)), 1)
    var points: [Point] = []
    let range = inclusive ? 0..<count : 1..<count
    for k in range {
      let angle = start + sweep * Double(k) / Double(count)
      points.append(Point(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle)))
    }
    return points
  }

  /// `polygon` with its orientation made positive (signed area ≥ 0), so that overlapping
  /// polygons add under the nonzero rule.
  static func counterclockwise(_ polygon: [Point]) -> [Point] {
    var area = 0.0
    var j = polygon.count - 1
    for i in polygon.indices {
      area += polygon[j].x * polygon[i].y - polygon[i].x * polygon[j].y
      j = i
    }
    return area < 0 ? polygon.reversed() : polygon
  }

  /// The closed `polygon` without the points whose removal moves its edge by at most
  /// `tolerance` (Douglas–Peucker, iteratively).
  static func thinned(_ polygon: [Point], tolerance: Double) -> [Point] {
    guard polygon.count > 4 else { return polygon }
    let closed = polygon + [polygon[0]]
    var keep = [Bool](repeating: false, count: closed.count)
    keep[0] = true
    keep[closed.count - 1] = true
    // The point furthest from the first splits the closed loop into two open runs.
    var far = 1
    var farDistance = -1.0
    for i in 1..<(closed.count - 1) {
      let dx = closed[i].x - closed[0].x
      let dy = closed[i].y - closed[0].y
      let d = dx * dx + dy * dy
      if d > farDistance {
        farDistance = d
        far = i
      }
    }
    keep[far] = true
    var stack = [(0, far), (far, closed.count - 1)]
    let limit = tolerance * tolerance
    while let (a, b) = stack.popLast() {
      guard b > a + 1 else { continue }
      let p = closed[a]
      let q = closed[b]
      let ex = q.x - p.x
      let ey = q.y - p.y
      let lengthSquared = ex * ex + ey * ey
      var worst = a
      var worstDistance = limit
      for i in (a + 1)..<b {
        let wx = closed[i].x - p.x
        let wy = closed[i].y - p.y
        var d: Double
        if lengthSquared > 0 {
          let t = Swift.min(Swift.max((wx * ex + wy * ey) / lengthSquared, 0), 1)
          let dx = wx - t * ex
          let dy = wy - t * ey
          d = dx * dx + dy * dy
        } else {
          d = wx * wx + wy * wy
        }
        if d > worstDistance {
          worstDistance = d
          worst = i
        }
      }
      if worst != a {
        keep[worst] = true
        stack.append((a, worst))
        stack.append((worst, b))
      }
    }
    var result: [Point] = []
    for i in 0..<(closed.count - 1) where keep[i] { result.append(closed[i]) }
    return result
  }
}
