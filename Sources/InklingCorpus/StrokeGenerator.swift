// Hand-like PencilKit strokes: smooth paths with slowly drifting speed and curvature (so that
// the bytes compress like real drawings, not like white noise), the point masks each ink
// uses on devices (docs/pkdrawing-format.md, "Point properties"), and the render
// bounds PencilKit would store.
//
// Invariants:
// 1. Every value is already quantised the way the format stores it (float32 for locations,
//    times and radii; uint16 fixed point for the rest), so a writer → reader round trip gives
//    back exactly the model.
// 2. A property in the constant mask has the same value on every point of the path.
// 3. Only exactly rounded arithmetic (+, −, ×, ÷, sqrt): no sin/cos/exp, whose last bit may
//    differ between C libraries; rotations use short polynomials on small angles.

import InklingFormats

/// How a draft is drawn: decides stroke lengths, counts, inks and the canvas.
enum DraftStyle: CaseIterable {
  /// Handwritten notes: many short strokes.
  case notes
  /// Sketches: medium strokes, some long.
  case sketch
  /// Diagrams and colouring: few long strokes, markers.
  case diagram
}

/// The ink a stroke uses and how its points are stored.
struct InkChoice {
  var ink: Ink
  var varying: PointProperties
  var constant: PointProperties
  /// The `size.width` (a radius) range for this ink.
  var radius: ClosedRange<Double>

  static let locationAndTime: PointProperties = [.location, .timeOffset]
  static let withWidth: PointProperties = [.location, .timeOffset, .width]
  static let withOpacity: PointProperties = [.location, .timeOffset, .opacity]

  /// Picks an ink for a stroke of a draft in `style`.
  static func random(_ r: inout SeededRandom, style: DraftStyle) -> InkChoice {
    let type: Ink.InkType = r.weighted(
      style == .diagram
        ? [(.pen, 3), (.marker, 4), (.monoline, 2), (.pencil, 1), (.fountainPen, 1)]
        : [(.pen, 6), (.pencil, 2), (.marker, 1), (.monoline, 1.5), (.fountainPen, 1)])
    switch type {
    case .pen:
      let perPointWidth = r.chance(0.4)
      return InkChoice(
        ink: Ink(inkType: .pen, color: inkColor(&r, palette: penColors), version: 3),
        varying: perPointWidth ? withWidth : locationAndTime,
        constant: PointProperties(rawValue: perPointWidth ? 0x3F8 : 0x3FC), radius: 2.2...4.5)
    case .marker:
      return InkChoice(
        ink: Ink(
          inkType: .marker, color: inkColor(&r, palette: markerColors), version: 3,
          variant: r.chance(0.5) ? "linear" : nil),
        varying: locationAndTime, constant: PointProperties(rawValue: 0x3FC), radius: 8...18)
    case .monoline:
      return InkChoice(
        ink: Ink(inkType: .monoline, color: inkColor(&r, palette: penColors), version: 3),
        varying: locationAndTime, constant: PointProperties(rawValue: 0x3FC), radius: 1.8...3.2)
    case .fountainPen:
      return InkChoice(
        ink: Ink(inkType: .fountainPen, color: inkColor(&r, palette: penColors), version: 3),
        varying: withWidth, constant: PointProperties(rawValue: 0x3F8), radius: 2.5...5.5)
    default:
      return InkChoice(
        ink: Ink(inkType: .pencil, color: inkColor(&r, palette: pencilColors), version: 3),
        varying: withOpacity, constant: PointProperties(rawValue: 0x2FC), radius: 1.2...3)
    }
  }

  // MARK: - Colours (sRGB components as the colour picker gives them, stored as floats)

  static let penColors: [(Double, Double, Double)] = [
    (0, 0, 0), (0, 0, 0), (0, 0, 0), (0.1, 0.1, 0.1), (0, 0.478, 1), (1, 0.231, 0.188),
    (0.204, 0.78, 0.349), (0.463, 0.733, 0.251), (1, 0.647, 0.49), (0.345, 0.337, 0.839),
  ]
  static let markerColors: [(Double, Double, Double)] = [
    (1, 0.8, 0), (0.082, 0.494, 0.984), (1, 0.176, 0.333), (0.196, 0.843, 0.294), (1, 0.584, 0),
  ]
  static let pencilColors: [(Double, Double, Double)] = [
    (0, 0, 0), (0.2, 0.2, 0.2), (0.5, 0.5, 0.5), (0.545, 0.271, 0.075),
  ]

  static func inkColor(_ r: inout SeededRandom, palette: [(Double, Double, Double)]) -> RGBA {
    let (red, green, blue) = r.pick(palette)
    return RGBA(red: float(red), green: float(green), blue: float(blue), alpha: 1)
  }
}

/// A Double rounded to the nearest float32, as the format stores it (invariant 1).
@inline(__always) func float(_ x: Double) -> Double { Double(Float(x)) }

/// A value stored as uint16 fixed point with the given scale (raw = value × scale).
@inline(__always) func fixed(_ raw: Int, _ scale: Double) -> Double { Double(UInt16(clamping: raw)) / scale }

/// Per-draft hand habits shared by its strokes.
struct Hand {
  var canvasWidth: Double
  var canvasHeight: Double
  var finger: Bool
  var style: DraftStyle
  /// Average distance between control points, in points.
  var pace: Double
  /// How much curvature drifts per point.
  var wobble: Double
}

enum StrokeGenerator {
  /// A random number of control points for a stroke of a draft in `style` (20…400).
  static func pointCount(_ r: inout SeededRandom, style: DraftStyle) -> Int {
    switch style {
    case .notes: return r.chance(0.92) ? r.int(20...45) : r.int(45...140)
    case .sketch:
      switch r.weighted([(0, 0.6), (1, 0.32), (2, 0.08)]) {
      case 0: return r.int(20...60)
      case 1: return r.int(60...150)
      default: return r.int(150...400)
      }
    case .diagram: return r.chance(0.65) ? r.int(40...150) : r.int(150...400)
    }
  }

  /// A visible stroke. `created` is the creation date (seconds since 2001-01-01).
  static func stroke(
    _ r: inout SeededRandom, hand: Hand, choice: InkChoice, inkIndex: Int, created: Double,
    sortID: StrokeID, versionID: StrokeID
  ) -> Stroke {
    let count = pointCount(&r, style: hand.style)
    let points = path(&r, hand: hand, choice: choice, count: count)
    let strokePath = StrokePath(
      uuid: UUIDBytes(r.uuidBytes()), creationDate: created, points: points,
      varyingProperties: choice.varying, constantProperties: choice.constant,
      createdWithFinger: hand.finger)
    let seed = r.next() & 0x1_FFFF_FFFF  // 33 bits, as in the samples' `Stroke.8`
    return Stroke(
      uuid: UUIDBytes(r.uuidBytes()), sortID: sortID, versionID: versionID, inkIndex: inkIndex,
      path: strokePath, storedBounds: renderBounds(points, ink: choice.ink.inkType),
      randomSeed: seed,
      renderGroupID: choice.ink.inkType == .marker ? UUIDBytes(r.uuidBytes()) : nil)
  }

  // MARK: - Paths

  static func path(_ r: inout SeededRandom, hand: Hand, choice: InkChoice, count: Int) -> [StrokePoint] {
    let margin = 20.0
    // The first touch lands on the screen's pixel grid (@2x or @3x); later points are
    // smoothed by PencilKit and fall anywhere.
    let scale = hand.canvasWidth < 500 ? 3.0 : 2.0
    var x = Double(r.int(Int(margin * scale)...Int((hand.canvasWidth - margin) * scale))) / scale
    var y = Double(r.int(Int(margin * scale)...Int((hand.canvasHeight - margin) * scale))) / scale
    var (dx, dy) = direction(&r)
    var turn = r.gaussian(deviation: hand.wobble * 2)
    var speed = hand.pace * r.double(0.6, 1.4)
    // Touches arrive on the display's 120 Hz clock: time offsets are whole ticks.
    var ticks = 0
    var pressure = r.double(0.6, 1)
    var opacity = r.double(0.5, 1)
    // Constant properties (invariant 2): one value for the whole path.
    let radius = float(r.double(choice.radius.lowerBound, choice.radius.upperBound))
    let aspect = fixed(1000, 1000)
    let force = hand.finger ? 0 : fixed(r.int(600...2500), 1000)
    let azimuth = fixed(r.int(0...65535), 10430.2192)
    let altitude = hand.finger ? 0 : fixed(r.int(40000...65535), 41720.8768)
    let secondary = 1.0

    var points: [StrokePoint] = []
    points.reserveCapacity(count)
    for _ in 0..<count {
      let width = choice.varying.contains(.width) ? float(radius * (0.7 + 0.5 * pressure)) : radius
      let pointOpacity =
        choice.varying.contains(.opacity) ? fixed(Int(opacity * 32767.5), 32767.5) : fixed(32767, 32767.5)
      points.append(
        StrokePoint(
          location: Point(x: float(x), y: float(y)), timeOffset: float(Double(ticks) / 120), width: width,
          aspectRatio: aspect, edgeWidth: 0, force: force, azimuth: azimuth, altitude: altitude,
          opacity: pointOpacity, secondaryRadius: secondary))
      // Curvature drifts slowly and is pulled back to straight; the canvas edge steers inwards.
      turn = turn * 0.9 + r.gaussian(deviation: hand.wobble)
      let towardsCentreX = hand.canvasWidth / 2 - x
      let towardsCentreY = hand.canvasHeight / 2 - y
      if x < margin || y < margin || x > hand.canvasWidth - margin || y > hand.canvasHeight - margin {
        turn += (dx * towardsCentreY - dy * towardsCentreX) > 0 ? 0.15 : -0.15
      }
      turn = min(max(turn, -0.5), 0.5)
      (dx, dy) = rotate(dx, dy, by: turn)
      speed = min(max(speed + r.gaussian(deviation: hand.pace * 0.08), hand.pace * 0.3), hand.pace * 2.5)
      x += dx * speed
      y += dy * speed
      ticks += r.weighted([(1, 0.15), (2, 0.6), (3, 0.25)])
      pressure = min(max(pressure + r.gaussian(deviation: 0.04), 0.2), 1.2)
      opacity = min(max(opacity + r.gaussian(deviation: 0.03), 0.25), 1)
    }
    return points
  }

  /// A random unit vector (invariant 3: normalised with sqrt only).
  static func direction(_ r: inout SeededRandom) -> (Double, Double) {
    while true {
      let x = r.double(-1, 1)
      let y = r.double(-1, 1)
      let length = (x * x + y * y).squareRoot()
      if length > 0.1 && length <= 1 { return (x / length, y / length) }
    }
  }

  /// Rotates a unit vector by a small angle (|a| ≤ 0.5) with Taylor polynomials (invariant 3).
  static func rotate(_ dx: Double, _ dy: Double, by a: Double) -> (Double, Double) {
    let a2 = a * a
    let c = 1 - a2 / 2 + a2 * a2 / 24
    let s = a - a * a2 / 6 + a * a2 * a2 / 120
    let nx = dx * c - dy * s
    let ny = dx * s + dy * c
    let length = (nx * nx + ny * ny).squareRoot()
    return (nx / length, ny / length)
  }

  // MARK: - Bounds

  /// The render bounds PencilKit stores (`Stroke.6`): the uniform cubic B-spline through the
  /// control points swept with the half-width, rounded outward to whole points
  /// (docs/pkdrawing-format.md, "Geometry"). Sampled at quarter steps, which is within a
  /// fraction of a point.
  static func renderBounds(_ points: [StrokePoint], ink: Ink.InkType) -> Rect {
    func halfWidth(_ radius: Double) -> Double {
      ink == .pencil ? radius + 1.3 : max(radius - 1.8, 0.5)
    }
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    func add(_ x: Double, _ y: Double, _ h: Double) {
      minX = min(minX, x - h)
      minY = min(minY, y - h)
      maxX = max(maxX, x + h)
      maxY = max(maxY, y + h)
    }
    let n = points.count
    func control(_ i: Int) -> Point {
      if i < 0 {
        return Point(
          x: 2 * points[0].location.x - points[1].location.x, y: 2 * points[0].location.y - points[1].location.y)
      }
      if i >= n {
        return Point(
          x: 2 * points[n - 1].location.x - points[n - 2].location.x,
          y: 2 * points[n - 1].location.y - points[n - 2].location.y)
      }
      return points[i].location
    }
    if n == 1 {
      add(points[0].location.x, points[0].location.y, halfWidth(points[0].width))
    } else {
      for i in 0..<(n - 1) {
        let p0 = control(i - 1)
        let p1 = control(i)
        let p2 = control(i + 1)
        let p3 = control(i + 2)
        for t in [0.0, 0.25, 0.5, 0.75] {
          let u = 1 - t
          let b0 = u * u * u / 6
          let b1 = (3 * t * t * t - 6 * t * t + 4) / 6
          let b2 = (-3 * t * t * t + 3 * t * t + 3 * t + 1) / 6
          let b3 = t * t * t / 6
          let x = b0 * p0.x + b1 * p1.x + b2 * p2.x + b3 * p3.x
          let y = b0 * p0.y + b1 * p1.y + b2 * p2.y + b3 * p3.y
          add(x, y, halfWidth(points[i].width * u + points[i + 1].width * t))
        }
      }
      add(points[n - 1].location.x, points[n - 1].location.y, halfWidth(points[n - 1].width))
    }
    let x0 = minX.rounded(.down)
    let y0 = minY.rounded(.down)
    return Rect(x: x0, y: y0, width: maxX.rounded(.up) - x0, height: maxY.rounded(.up) - y0)
  }
}
