// Anti-aliased rasterisation of one visible stroke piece into a canvas.
//
// A piece is drawn in three passes over a coverage buffer covering the piece's pixel box (its
// exact render bounds mapped to pixels, grown by 2 px for anti-aliasing, clipped to the canvas):
//
// 1. Sweep: the spline is sampled (pixel spacing 2…4 px, wider for wider strokes) and each
//    pair of consecutive samples is a capsule with a radius varying along it. A pixel's
//    coverage by a capsule is clamp(r − d + ½, 0, 1) (d: the distance from the pixel centre to
//    the capsule's axis), times the interpolated opacity; the buffer keeps the **maximum**
//    over the piece, so a stroke never darkens itself where it overlaps or doubles back.
// 2. Clip: ends of a range that the pixel eraser cut (`StrokePiece.isCut`) are cut flat by a
//    half-plane across the tangent, and the pixel eraser's mask polygons (in stroke space,
//    mapped through the transform) clip the rest.
// 3. Composite: colour × alpha × texture × coverage, source-over, and the touched pixels of
//    the buffer are reset to zero for the next piece.
//
// Each row remembers the span of columns the sweep touched, so that the clip and composite
// passes visit only those pixels rather than the piece's whole box: a long diagonal stroke
// covers a small part of its box, and at thumbnail scale most strokes are long and thin.
//
// Invariants: (1) the coverage buffer is all zeros between pieces, and every row span is
// empty (first > last); (2) during a piece, only pixels inside their row's span are ever
// non-zero, and every span lies inside the touched box, itself inside the piece's box. Work is
// bounded: samples are capped per spline segment
// (`StrokePath.maxStepsPerSegment`), capsules are clipped to the canvas, radii are capped at
// the canvas diagonal, and non-finite samples are skipped (breaking the chain).

import InklingFormats

#if canImport(Glibc)
  import Glibc
#endif

/// A rectangle of pixels, corners inclusive.
struct PixelBox: Equatable {
  var x0, y0, x1, y1: Int

  /// The smallest box holding both.
  func union(_ other: PixelBox) -> PixelBox {
    PixelBox(
      x0: Swift.min(x0, other.x0), y0: Swift.min(y0, other.y0), x1: Swift.max(x1, other.x1),
      y1: Swift.max(y1, other.y1))
  }
}

struct StrokeRasterizer {
  let width: Int
  let height: Int
  /// Per-pixel coverage × opacity of the current piece over its box, rows `stride` apart
  /// (see the invariants above); grown as pieces need.
  private var coverage: [Float] = []
  // The current piece's box (inclusive) within the canvas.
  private var boxX0 = 0, boxY0 = 0, boxX1 = -1, boxY1 = -1, stride = 0
  // The box of pixels the current piece touched (inclusive), empty when minX > maxX.
  private var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
  /// Per canvas row, the first and last column the current piece touched (invariants above).
  private var rowFirst: [Int32]
  private var rowLast: [Int32]

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    rowFirst = [Int32](repeating: Int32.max, count: Swift.max(height, 0))
    rowLast = [Int32](repeating: Int32.min, count: Swift.max(height, 0))
  }

  /// The current piece's box origin and row stride, to index `coverage` inside closures
  /// that hold it exclusively.
  private var layout: Layout { Layout(x0: boxX0, y0: boxY0, stride: stride) }

  private struct Layout {
    let x0, y0, stride: Int
    /// The slot of pixel (`x`, `y`) in `coverage`.
    @inline(__always) func slot(_ x: Int, _ y: Int) -> Int { (y &- y0) &* stride &+ (x &- x0) }
  }

  /// Draws `piece` into `canvas`, mapping drawing space to pixels with `geometry`; `bounds`
  /// is the piece's `exactBounds`, which holds all of its ink.
  mutating func draw(
    _ piece: StrokePiece, bounds: Rect, geometry: RenderGeometry, into canvas: inout Canvas
  ) {
    guard let box = pixelBox(bounds: bounds, geometry: geometry) else { return }
    (boxX0, boxY0, boxX1, boxY1) = (box.x0, box.y0, box.x1, box.y1)
    stride = boxX1 - boxX0 + 1
    let area = stride * (boxY1 - boxY0 + 1)
    if coverage.count < area + Self.padding {
      coverage += [Float](repeating: 0, count: area + Self.padding - coverage.count)
    }
    let style = InkStyle.of(piece.ink)
    let color = ClampedColor(piece.ink.color)
    let baseAlpha = color.a * style.alphaScale
    guard baseAlpha > 0 else { return }
    guard let sampling = PieceSampling(piece, style: style, transform: geometry.transform) else { return }
    let (m, inverse, radiusScale, stretch) = (
      sampling.mapping, sampling.inverse, sampling.radiusScale, sampling.stretch
    )
    let (meanHalfWidth, spacing, minStep) = (sampling.meanHalfWidth, sampling.spacing, sampling.minStep)
    let path = piece.path
    let maxRadius = Double(width + height)

    minX = Int.max
    minY = Int.max
    maxX = Int.min
    maxY = Int.min
    // Samples closer than `minStep` pixels to the last drawn one (at about the same radius)
    // are held back rather than drawn: they add work but no visible shape. The last one held
    // back is drawn when the chain ends.
    for range in piece.ranges {
      var previous: Sample?
      var held: Sample?
      path.forEachInterpolatedPoint(maxSpacing: spacing, minSpacing: minStep / stretch, in: range) {
        point in
        let q = m.apply(point.location)
        guard q.x.isFinite, q.y.isFinite else {
          if let p = previous, let h = held { capsule(p, h) }
          previous = nil
          held = nil
          return
        }
        var halfWidth =
          style.evenWidth ? meanHalfWidth : style.metrics.halfWidth(radius: point.radius)
        if let ratio = style.nibRatio, let p = previous {
          // Direction of motion in stroke space, from the previous sample's pixel position.
          let dx = q.x - p.x
          let dy = q.y - p.y
          halfWidth = InkStyle.nibHalfWidth(
            halfWidth: halfWidth, ratio: ratio, azimuth: point.azimuth,
            dx: inverse.a * dx + inverse.c * dy, dy: inverse.b * dx + inverse.d * dy)
        }
        let r = Swift.min(halfWidth * radiusScale, maxRadius)
        let opacity = point.opacity >= 1 ? 1 : point.opacity > 0 ? point.opacity : 0
        let current = Sample(x: q.x, y: q.y, radius: r, alpha: Float(opacity))
        guard let p = previous else {
          capsule(current, current)
          previous = current
          return
        }
        let dx = current.x - p.x
        let dy = current.y - p.y
        if dx * dx + dy * dy < minStep * minStep, abs(current.radius - p.radius) < 0.25,
          abs(current.alpha - p.alpha) < 0.05
        {
          held = current
          return
        }
        capsule(p, current)
        previous = current
        held = nil
      }
      if let p = previous, let h = held { capsule(p, h) }
    }
    guard minX <= maxX, minY <= maxY else { return }
    for range in piece.ranges {
      if piece.isCut(at: range.lowerBound) {
        cutEnd(path, at: range.lowerBound, forward: false, m, style, radiusScale)
      }
      if piece.isCut(at: range.upperBound) {
        cutEnd(path, at: range.upperBound, forward: true, m, style, radiusScale)
      }
    }
    if !piece.maskPolygons.isEmpty { clip(to: piece.maskPolygons, m) }
    composite(
      color: color, alpha: baseAlpha, style: style, seed: piece.randomSeed,
      scale: Float(geometry.scale), into: &canvas)
  }

  /// The pixels (inclusive, within the canvas) that drawing a piece whose ink lies in
  /// `bounds` may change: nil when none.
  func pixelBox(bounds: Rect, geometry: RenderGeometry) -> PixelBox? {
    let lo = geometry.pixel(Point(x: bounds.minX, y: bounds.minY))
    let hi = geometry.pixel(Point(x: bounds.maxX, y: bounds.maxY))
    let box = PixelBox(
      x0: Swift.max(Self.index(Swift.min(lo.x, hi.x) - 2, .down), 0),
      y0: Swift.max(Self.index(Swift.min(lo.y, hi.y) - 2, .down), 0),
      x1: Swift.min(Self.index(Swift.max(lo.x, hi.x) + 2, .up), width - 1),
      y1: Swift.min(Self.index(Swift.max(lo.y, hi.y) + 2, .up), height - 1))
    return box.x0 <= box.x1 && box.y0 <= box.y1 ? box : nil
  }

  // MARK: - Sweep

  /// Four pixels of a row, computed together.
  private typealias Pixels = SIMD4<Float>
  /// The lanes' offsets from the group's first pixel.
  private static let lanes = Pixels(0, 1, 2, 3)
  /// Spare coverage slots after the box, so that a group of four starting at its last pixel
  /// stays inside the buffer.
  private static let padding = 3

  private struct Sample {
    var x, y, radius: Double
    var alpha: Float
  }

  /// Raises the coverage under the capsule from `a` to `b` (a disc when they coincide).
  private mutating func capsule(_ a: Sample, _ b: Sample) {
    // Pixel x (centre x + ½) can be covered only when its centre is within r + ½ of the axis.
    let reach = Swift.max(Swift.max(a.radius, b.radius), 0.5) + 0.5
    let x0 = Swift.max(Self.index(Swift.min(a.x, b.x) - reach - 0.5, .down) + 1, boxX0)
    let x1 = Swift.min(Self.index(Swift.max(a.x, b.x) + reach - 0.5, .up) - 1, boxX1)
    let y0 = Swift.max(Self.index(Swift.min(a.y, b.y) - reach - 0.5, .down) + 1, boxY0)
    let y1 = Swift.min(Self.index(Swift.max(a.y, b.y) + reach - 0.5, .up) - 1, boxY1)
    guard x0 <= x1, y0 <= y1 else { return }
    minX = Swift.min(minX, x0)
    maxX = Swift.max(maxX, x1)
    minY = Swift.min(minY, y0)
    maxY = Swift.max(maxY, y1)

    // Thinner than a pixel: draw half a pixel wide at proportionally lower alpha.
    var ra = a.radius
    var rb = b.radius
    var alphaA = a.alpha
    var alphaB = b.alpha
    if ra < 0.5 {
      alphaA *= Float(2 * ra)
      ra = 0.5
    }
    if rb < 0.5 {
      alphaB *= Float(2 * rb)
      rb = 0.5
    }
    let ex = b.x - a.x
    let ey = b.y - a.y
    let lengthSquared = ex * ex + ey * ey
    let inverseLength = lengthSquared > 1e-12 ? 1 / lengthSquared : 0
    let reachSquared = reach * reach
    let length = lengthSquared.squareRoot()
    // A narrow box (the usual capsule at thumbnail scale: a couple of pixels long, a pixel or
    // two wide) is scanned whole: the per-pixel distance test rejects the corners for less
    // than finding each row's chord would cost.
    let narrow = x1 - x0 < 8
    // Float from here: coordinates relative to the capsule's start are small.
    let fx = Float(ex)
    let fy = Float(ey)
    let inverse = Float(inverseLength)
    let start = Float(ra)
    let growth = Float(rb - ra)
    let limit = Float(reachSquared)
    let layout = self.layout
    coverage.withUnsafeMutableBufferPointer { buffer in
      rowFirst.withUnsafeMutableBufferPointer { rowFirst in
        rowLast.withUnsafeMutableBufferPointer { rowLast in
          for y in y0...y1 {
            let py = Double(y) + 0.5 - a.y
            var first = x0
            var last = x1
            if !narrow {
              guard let (lo, hi) = Self.chord(py: py, ex: ex, ey: ey, reach: reach, length: length)
              else { continue }
              first = Swift.max(x0, Self.index(a.x + lo - 0.5, .up))
              last = Swift.min(x1, Self.index(a.x + hi - 0.5, .down))
              guard first <= last else { continue }
            }
            guard let base = buffer.baseAddress else { return }
            let row = UnsafeMutableRawPointer(base + layout.slot(first, y))
            let rowY = Pixels(repeating: Float(py))
            let rowDot = rowY * fy
            let qx0 = Float(Double(first) + 0.5 - a.x)
            var touchedFirst = Int.max
            var touchedLast = Int.min
            // Four pixels at a time, without branches: a pixel outside the capsule or past
            // `last` gets alpha 0, and max(coverage, 0) leaves it as it was (the buffer has
            // `Self.padding` spare slots for the last group of the last row).
            var x = first
            while x <= last {
              let offset = x - first
              let qx = Pixels(repeating: qx0 + Float(offset)) + Self.lanes
              // Clamps and maxima as masked replacements: `pointwiseMin`/`Max` are not inlined.
              var h = (qx * fx + rowDot) * inverse
              h.replace(with: 0, where: h .< 0)
              h.replace(with: 1, where: h .> 1)
              let dx = qx - h * fx
              let dy = rowY - h * fy
              let d2 = dx * dx + dy * dy
              var c = start + growth * h - d2.squareRoot() + 0.5
              c.replace(with: 1, where: c .> 1)
              var alpha = c * (alphaA + (alphaB - alphaA) * h)
              alpha.replace(with: 0, where: c .<= 0 .| d2 .>= limit .| Self.lanes .> Float(last - x))
              let slot = row + offset * MemoryLayout<Float>.stride
              var coverage = slot.loadUnaligned(as: Pixels.self)
              coverage.replace(with: alpha, where: alpha .> coverage)
              slot.storeBytes(of: coverage, as: Pixels.self)
              if any(alpha .> 0) {
                if touchedFirst == Int.max { touchedFirst = x }
                touchedLast = Swift.min(x + 3, last)
              }
              x += 4
            }
            guard touchedFirst <= touchedLast else { continue }
            rowFirst[y] = Swift.min(rowFirst[y], Int32(truncatingIfNeeded: touchedFirst))
            rowLast[y] = Swift.max(rowLast[y], Int32(truncatingIfNeeded: touchedLast))
          }
        }
      }
    }
  }

  /// The offsets from the capsule's start, along x, of the row `py` below it whose pixel
  /// centres can be within `reach` of the axis (`ex`, `ey`) of length `length`: the row's
  /// chord through the union of the two end discs and the band between them; nil when the
  /// row misses the capsule.
  private static func chord(py: Double, ex: Double, ey: Double, reach: Double, length: Double)
    -> (Double, Double)?
  {
    let reachSquared = reach * reach
    let lengthSquared = length * length
    var lo = Double.infinity
    var hi = -Double.infinity
    if py * py < reachSquared {
      let half = (reachSquared - py * py).squareRoot()
      lo = Swift.min(lo, -half)
      hi = Swift.max(hi, half)
    }
    let qy = py - ey
    if qy * qy < reachSquared {
      let half = (reachSquared - qy * qy).squareRoot()
      lo = Swift.min(lo, ex - half)
      hi = Swift.max(hi, ex + half)
    }
    if lengthSquared > 1e-12 {
      // |cross(p, e)| / L < reach and 0 ≤ dot(p, e) / L² ≤ 1, both linear in p.x.
      var bandLo = -Double.infinity
      var bandHi = Double.infinity
      if ey != 0 {
        let u = (py * ex - reach * length) / ey
        let v = (py * ex + reach * length) / ey
        bandLo = Swift.min(u, v)
        bandHi = Swift.max(u, v)
      } else if abs(py * ex) >= reach * length {
        bandLo = 1
        bandHi = 0
      }
      if ex != 0 {
        let u = -py * ey / ex
        let v = (lengthSquared - py * ey) / ex
        bandLo = Swift.max(bandLo, Swift.min(u, v))
        bandHi = Swift.min(bandHi, Swift.max(u, v))
      } else if py * ey < 0 || py * ey > lengthSquared {
        bandLo = 1
        bandHi = 0
      }
      if bandLo < bandHi {
        lo = Swift.min(lo, bandLo)
        hi = Swift.max(hi, bandHi)
      }
    }
    return lo < hi ? (lo, hi) : nil
  }

  // MARK: - Clip

  /// Cuts the coverage flat across the path's tangent at parameter `t`, removing what lies
  /// beyond it (`forward`: past the end of a range; otherwise before its start).
  private mutating func cutEnd(
    _ path: StrokePath, at t: Double, forward: Bool, _ m: AffineTransform, _ style: InkStyle,
    _ radiusScale: Double
  ) {
    let delta = 1e-3
    let p = m.apply(path.location(at: t))
    let before = m.apply(path.location(at: t - delta))
    let after = m.apply(path.location(at: t + delta))
    var nx = after.x - before.x
    var ny = after.y - before.y
    let length = (nx * nx + ny * ny).squareRoot()
    guard length > 0, length.isFinite, p.x.isFinite, p.y.isFinite else { return }
    nx /= length
    ny /= length
    if !forward {
      nx = -nx
      ny = -ny
    }
    let r =
      Swift.min(
        style.metrics.halfWidth(radius: path.interpolatedPoint(at: t).radius) * radiusScale,
        Double(width + height)) + 4
    let x0 = Swift.max(Self.index(p.x - r, .down), minX)
    let x1 = Swift.min(Self.index(p.x + r, .up), maxX)
    let y0 = Swift.max(Self.index(p.y - r, .down), minY)
    let y1 = Swift.min(Self.index(p.y + r, .up), maxY)
    guard x0 <= x1, y0 <= y1 else { return }
    let layout = self.layout
    let (rowFirst, rowLast) = (self.rowFirst, self.rowLast)
    coverage.withUnsafeMutableBufferPointer { buffer in
      for y in y0...y1 {
        let first = Swift.max(x0, Int(rowFirst[y]))
        let last = Swift.min(x1, Int(rowLast[y]))
        guard first <= last else { continue }
        for x in first...last {
          // Signed distance past the cut line; keep ½ − distance of the pixel.
          let s = (Double(x) + 0.5 - p.x) * nx + (Double(y) + 0.5 - p.y) * ny
          if s <= -0.5 { continue }
          let keep = s >= 0.5 ? 0 : Float(0.5 - s)
          buffer[layout.slot(x, y)] *= keep
        }
      }
    }
  }

  /// Multiplies the coverage in the touched box by the coverage of the union of `polygons`
  /// (even-odd within each polygon), sampled on four sub-scanlines per row.
  private mutating func clip(to polygons: [[Point]], _ m: AffineTransform) {
    let mapped = polygons.map { $0.map { m.apply($0) } }.filter { $0.count >= 3 }
    guard !mapped.isEmpty else {
      clearBox()  // Mask polygons without area leave nothing visible.
      return
    }
    let span = maxX - minX + 1
    var rowCoverage = [Float](repeating: 0, count: span)
    var polygonRow = [Float](repeating: 0, count: span)
    var crossings: [Double] = []
    let subRows = 4
    for y in minY...maxY {
      for i in 0..<span { rowCoverage[i] = 0 }
      for polygon in mapped {
        for i in 0..<span { polygonRow[i] = 0 }
        for sub in 0..<subRows {
          let sy = Double(y) + (Double(sub) + 0.5) / Double(subRows)
          crossings.removeAll(keepingCapacity: true)
          var j = polygon.count - 1
          for i in 0..<polygon.count {
            let a = polygon[j]
            let b = polygon[i]
            j = i
            if (a.y <= sy) != (b.y <= sy) {
              let x = a.x + (sy - a.y) / (b.y - a.y) * (b.x - a.x)
              if x.isFinite { crossings.append(x) }
            }
          }
          guard crossings.count >= 2 else { continue }
          crossings.sort()
          var k = 0
          while k + 1 < crossings.count {
            addSpan(crossings[k], crossings[k + 1], into: &polygonRow, weight: 1 / Float(subRows))
            k += 2
          }
        }
        for i in 0..<span {
          rowCoverage[i] = Swift.max(rowCoverage[i], Swift.min(polygonRow[i], 1))
        }
      }
      let layout = self.layout
      coverage.withUnsafeMutableBufferPointer { buffer in
        let row = layout.slot(minX, y)
        for i in 0..<span { buffer[row &+ i] *= rowCoverage[i] }
      }
    }
  }

  /// Adds `weight` × the horizontal coverage of [x0, x1] to each pixel of the box's row.
  private func addSpan(_ x0: Double, _ x1: Double, into row: inout [Float], weight: Float) {
    let lo = Swift.max(x0, Double(minX))
    let hi = Swift.min(x1, Double(maxX + 1))
    guard lo < hi else { return }
    let first = Int(lo.rounded(.down))
    let last = Int((hi - 1e-12).rounded(.down))
    for x in first...Swift.min(last, maxX) {
      let covered = Swift.min(hi, Double(x + 1)) - Swift.max(lo, Double(x))
      if covered > 0 { row[x - minX] += Float(covered) * weight }
    }
  }

  private mutating func clearBox() {
    let layout = self.layout
    coverage.withUnsafeMutableBufferPointer { buffer in
      for y in minY...maxY { for x in minX...maxX { buffer[layout.slot(x, y)] = 0 } }
    }
  }

  // MARK: - Composite

  private mutating func composite(
    color: ClampedColor, alpha: Float, style: InkStyle, seed: UInt64, scale: Float,
    into canvas: inout Canvas
  ) {
    let w = width
    let seed32 = UInt32(truncatingIfNeeded: seed ^ (seed >> 32))
    let (x0, x1, y0, y1) = (minX, maxX, minY, maxY)
    let layout = self.layout
    coverage.withUnsafeMutableBufferPointer { cov in
      canvas.bytes.withUnsafeMutableBufferPointer { bytes in
        guard let base = bytes.baseAddress else { return }
        for y in y0...y1 {
          // The row's span, emptied for the next piece (invariant 1).
          let first = Swift.max(x0, Int(rowFirst[y]))
          let last = Swift.min(x1, Int(rowLast[y]))
          rowFirst[y] = Int32.max
          rowLast[y] = Int32.min
          guard first <= last else { continue }
          for x in first...last {
            let local = layout.slot(x, y)
            let c = cov[local]
            if c <= 0 { continue }
            cov[local] = 0
            var a = c * alpha
            if style.texture != .none {
              a *= Grain.factor(style.texture, x: x, y: y, scale: scale, seed: seed32)
            }
            Canvas.blend(base + (y &* w &+ x) &* 4, color, a)
          }
        }
      }
    }
  }

  /// A pixel coordinate rounded as asked and kept far from Int's limits (callers clamp it to
  /// the canvas), so that huge finite coordinates cannot trap.
  @inline(__always) static func index(_ v: Double, _ rule: FloatingPointRoundingRule) -> Int {
    let limit = 1e9
    // NaN (∞ − ∞ from coordinates near Double's limits) must not reach Int(_:), which traps.
    guard !v.isNaN else { return 0 }
    let clamped = Swift.min(Swift.max(v, -limit), limit)
    // Truncation and a correction rather than `rounded(_:)`, which calls libm's floor or
    // ceil out of line on the x86-64 baseline: this runs a few times per capsule row.
    let truncated = Int(clamped)
    switch rule {
    case .down: return Double(truncated) > clamped ? truncated - 1 : truncated
    case .up: return Double(truncated) < clamped ? truncated + 1 : truncated
    default: return Int(clamped.rounded(rule))
    }
  }

  // MARK: - Transforms

  /// `first` followed by `second`.
  static func concat(_ first: AffineTransform, then second: AffineTransform) -> AffineTransform {
    AffineTransform(
      a: second.a * first.a + second.c * first.b, b: second.b * first.a + second.d * first.b,
      c: second.a * first.c + second.c * first.d, d: second.b * first.c + second.d * first.d,
      tx: second.a * first.tx + second.c * first.ty + second.tx,
      ty: second.b * first.tx + second.d * first.ty + second.ty)
  }

  /// The inverse of the linear part of `m` (identity when singular).
  static func inverseLinear(_ m: AffineTransform) -> AffineTransform {
    let det = m.a * m.d - m.b * m.c
    guard det != 0, det.isFinite else { return .identity }
    return AffineTransform(a: m.d / det, b: -m.b / det, c: -m.c / det, d: m.a / det, tx: 0, ty: 0)
  }
}
