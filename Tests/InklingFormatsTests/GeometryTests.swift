// The stroke geometry: B-spline evaluation, property interpolation, visible pieces and render
// bounds (pkdrawing-format.md, "Geometry").

import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

@testable import InklingFormats

private func path(_ xy: [(Double, Double)], width: Double = 3) -> StrokePath {
  StrokePath(
    creationDate: 0, points: xy.map { StrokePoint(location: Point(x: $0.0, y: $0.1), width: width) }
  )
}

private func distance(_ a: Point, _ b: Point) -> Double {
  ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
}

private let pen = Ink(inkType: .pen, color: RGBA(red: 0, green: 0, blue: 0, alpha: 1))

@Suite struct GeometryTests {
  // MARK: - Spline

  @Test func splineHitsFirstAndLastPointsExactly() {
    let p = path([(10.25, 3.7), (14.1, 9.9), (20.3, 2.2), (31.7, 17.05), (40.123, 5.5)])
    #expect(p.location(at: 0) == p.points[0].location)
    #expect(p.location(at: 4) == p.points[4].location)
    let samples = p.interpolatedPoints(maxSpacing: 0.5)
    #expect(samples.first?.location == p.points[0].location)
    #expect(samples.last?.location == p.points[4].location)
    #expect(samples.first?.t == 0 && samples.last?.t == 4)
  }

  @Test func splineMatchesTheUniformBasisInsideTheCurve() {
    let p = path([(0, 0), (10, 0), (10, 10), (0, 10), (-5, 3)])
    // At an interior knot i the curve is (P[i−1] + 4P[i] + P[i+1]) / 6.
    let at2 = p.location(at: 2)
    #expect(abs(at2.x - (10 + 40 + 0) / 6.0) < 1e-12)
    #expect(abs(at2.y - (0 + 40 + 10) / 6.0) < 1e-12)
    // Half-way through segment 1: weights 1/48, 23/48, 23/48, 1/48 of P0…P3.
    let mid = p.location(at: 1.5)
    #expect(abs(mid.x - (0 + 23 * 10 + 23 * 10 + 0) / 48.0) < 1e-12)
    #expect(abs(mid.y - (0 + 0 + 23 * 10 + 10) / 48.0) < 1e-12)
  }

  @Test func onePointIsADot() {
    let p = path([(5, 6)])
    #expect(p.location(at: 0.7) == Point(x: 5, y: 6))
    let samples = p.interpolatedPoints(maxSpacing: 0.1)
    #expect(samples.count == 1)
    #expect(samples[0].location == Point(x: 5, y: 6))
    #expect(samples[0].radius == 3)
  }

  @Test func twoPointsAreAStraightLine() {
    let p = path([(0, 0), (10, 20)])
    for t in stride(from: 0.0, through: 1.0, by: 0.125) {
      let q = p.location(at: t)
      #expect(abs(q.x - 10 * t) < 1e-12 && abs(q.y - 20 * t) < 1e-12)
    }
  }

  @Test func samplesAreCloseEnoughAndClampedToTheRange() {
    let p = path([(0, 0), (30, 5), (60, -20), (90, 40), (100, 0)])
    let samples = p.interpolatedPoints(maxSpacing: 0.75)
    for (a, b) in zip(samples, samples.dropFirst()) {
      #expect(distance(a.location, b.location) <= 0.75 + 1e-9)
      #expect(a.t < b.t)
    }
    let slice = p.interpolatedPoints(maxSpacing: 0.75, in: 1.25...2.5)
    #expect(slice.first?.t == 1.25 && slice.last?.t == 2.5)
    #expect(slice.first?.location == p.location(at: 1.25))
    #expect(slice.last?.location == p.location(at: 2.5))
    let clamped = p.interpolatedPoints(maxSpacing: 5, in: -3...99)
    #expect(clamped.first?.t == 0 && clamped.last?.t == 4)
  }

  @Test func otherPropertiesAreInterpolatedLinearly() {
    var p = path([(0, 0), (10, 0), (20, 0)])
    p.points[0].width = 2
    p.points[1].width = 6
    p.points[2].width = 4
    p.points[0].opacity = 0
    p.points[1].opacity = 1
    p.points[0].azimuth = 1
    p.points[1].azimuth = 2
    p.points[0].force = 0.5
    p.points[1].force = 1.5
    p.points[0].altitude = 0.2
    p.points[1].altitude = 0.4
    let q = p.interpolatedPoint(at: 0.25)
    #expect(q.radius == 3)
    #expect(q.opacity == 0.25)
    #expect(q.azimuth == 1.25)
    #expect(q.force == 0.75)
    #expect(abs(q.altitude - 0.25) < 1e-12)
    #expect(p.interpolatedPoint(at: 1.5).radius == 5)
    #expect(p.interpolatedPoint(at: 2).radius == 4)
  }

  @Test func nonFiniteInputDoesNotHang() {
    let p = path([(0, 0), (.nan, 4), (1e300, -1e300), (.infinity, 2), (3, 3)])
    let samples = p.interpolatedPoints(maxSpacing: 0.01)
    #expect(samples.count <= 4 * StrokePath.maxStepsPerSegment + 1)
    #expect(p.interpolatedPoints(maxSpacing: .nan).count > 0)
    _ = p.location(at: .nan)
    let drawing = Drawing(inks: [pen], strokes: [Stroke(inkIndex: 0, path: p)])
    _ = drawing.renderBounds
  }

  // MARK: - Bounds

  @Test func boundsOfAHandBuiltStroke() throws {
    // A straight horizontal pen stroke, radius 3: half-width 1.2 around y = 10, x 10…50.
    let drawing = Drawing(
      inks: [pen], strokes: [Stroke(inkIndex: 0, path: path([(10, 10), (30, 10), (50, 10)]))])
    let exact = try #require(drawing.visiblePieces.first?.exactBounds)
    #expect(abs(exact.minX - 8.8) < 1e-9 && abs(exact.maxX - 51.2) < 1e-9)
    #expect(abs(exact.minY - 8.8) < 1e-9 && abs(exact.maxY - 11.2) < 1e-9)
    #expect(drawing.renderBounds == Rect(x: 8, y: 8, width: 44, height: 4))
    #expect(drawing.renderBounds(ofStrokeAt: 0) == Rect(x: 8, y: 8, width: 44, height: 4))
  }

  @Test func boundsFollowTheCurveNotTheControlPolygon() throws {
    // The middle control point pulls the curve only two thirds of the way: the top of the
    // curve is at (0 + 4·30 + 0) / 6 = 20 at t = 1, not 30.
    let drawing = Drawing(
      inks: [pen],
      strokes: [Stroke(inkIndex: 0, path: path([(0, 0), (10, 30), (20, 0)], width: 1.8 + 2))])
    let exact = try #require(drawing.visiblePieces.first?.exactBounds)
    #expect(abs(exact.maxY - 22) < 1e-9)
    #expect(abs(exact.minY - -2) < 1e-9)
  }

  @Test func boundsSweepAVaryingWidth() throws {
    var p = path([(0, 0), (100, 0)])
    p.points[0].width = 2.8  // half-width 1
    p.points[1].width = 11.8  // half-width 10
    let drawing = Drawing(inks: [pen], strokes: [Stroke(inkIndex: 0, path: p)])
    let exact = try #require(drawing.visiblePieces.first?.exactBounds)
    #expect(abs(exact.minX - -1) < 1e-9 && abs(exact.maxX - 110) < 1e-9)
    #expect(abs(exact.minY - -10) < 1e-9 && abs(exact.maxY - 10) < 1e-9)
    // Thin inks keep a minimum half-width.
    let thin = Drawing(
      inks: [pen], strokes: [Stroke(inkIndex: 0, path: path([(0, 0), (10, 0)], width: 0.5))])
    let t = try #require(thin.visiblePieces.first?.exactBounds)
    #expect(t.minY == -InkMetrics.vector.minimum)
  }

  @Test func exactBoundsMatchADenseSweepOnRandomStrokes() throws {
    var generator = SeededRandom(seed: 0x1234_5678)
    func random() -> Double { generator.unit() }
    let inks = [pen, Ink(inkType: .pencil, color: pen.color)]
    for trial in 0..<60 {
      let count = 1 + Int(random() * 40)
      var x = random() * 100
      var y = random() * 100
      var points: [StrokePoint] = []
      for _ in 0..<count {
        x += random() * 20 - 10
        y += random() * 20 - 10
        points.append(StrokePoint(location: Point(x: x, y: y), width: 0.5 + random() * 8))
      }
      let path = StrokePath(creationDate: 0, points: points)
      let transform =
        trial % 3 == 0
        ? AffineTransform(a: 0.8, b: 0.6, c: -0.6, d: 0.8, tx: 5, ty: -7) : .identity
      let ink = inks[trial % 2]
      let metrics = InkMetrics.of(ink.inkType)
      let range: ClosedRange<Double>? =
        trial % 4 == 1 && count > 3 ? 0.7...(Double(count) - 1.6) : nil
      let piece = StrokePiece(
        strokeIndex: 0, ink: ink, path: path, ranges: [range ?? 0...path.parameterEnd],
        transform: transform)
      let exact = try #require(piece.exactBounds)
      // Brute force: discs along a dense sampling, mapped through the (rigid) transform.
      var lo = (x: Double.infinity, y: Double.infinity)
      var hi = (x: -Double.infinity, y: -Double.infinity)
      for sample in path.interpolatedPoints(maxSpacing: 0.01, in: range) {
        let h = metrics.halfWidth(radius: sample.radius)
        let p = transform.apply(sample.location)
        lo = (min(lo.x, p.x - h), min(lo.y, p.y - h))
        hi = (max(hi.x, p.x + h), max(hi.y, p.y + h))
      }
      #expect(exact.minX <= lo.x + 1e-9 && exact.minX >= lo.x - 1e-3, "trial \(trial)")
      #expect(exact.minY <= lo.y + 1e-9 && exact.minY >= lo.y - 1e-3, "trial \(trial)")
      #expect(exact.maxX >= hi.x - 1e-9 && exact.maxX <= hi.x + 1e-3, "trial \(trial)")
      #expect(exact.maxY >= hi.y - 1e-9 && exact.maxY <= hi.y + 1e-3, "trial \(trial)")
    }
  }

  @Test func transformIsApplied() throws {
    // Scale by 2 and move by (100, 50): half-width 1.2 becomes 2.4.
    let m = AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 100, ty: 50)
    let drawing = Drawing(
      inks: [pen], strokes: [Stroke(inkIndex: 0, path: path([(0, 0), (10, 0)]), transform: m)])
    let exact = try #require(drawing.visiblePieces.first?.exactBounds)
    #expect(abs(exact.minX - 97.6) < 1e-9 && abs(exact.maxX - 122.4) < 1e-9)
    #expect(abs(exact.minY - 47.6) < 1e-9 && abs(exact.maxY - 52.4) < 1e-9)
    // A quarter turn swaps the axes.
    let turn = AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)
    let turned = Drawing(
      inks: [pen], strokes: [Stroke(inkIndex: 0, path: path([(0, 0), (10, 0)]), transform: turn)])
    let r = try #require(turned.visiblePieces.first?.exactBounds)
    #expect(abs(r.minX - -1.2) < 1e-9 && abs(r.maxX - 1.2) < 1e-9)
    #expect(abs(r.minY - -1.2) < 1e-9 && abs(r.maxY - 11.2) < 1e-9)
  }

  @Test func hiddenAndEraserStrokesHaveNoBounds() {
    let eraser = Ink(inkType: .eraser, color: RGBA(red: 0, green: 0, blue: 0, alpha: 1))
    let drawing = Drawing(
      inks: [pen, eraser],
      strokes: [
        Stroke(inkIndex: 0, path: path([(0, 0), (10, 0)]), isHidden: true),
        Stroke(inkIndex: 1, path: path([(50, 50), (60, 60)])),
        Stroke(inkIndex: 0, path: nil),
        Stroke(inkIndex: 7, path: path([(0, 0), (1, 1)])),
      ])
    #expect(drawing.visiblePieces.isEmpty)
    #expect(drawing.renderBounds == nil)
    #expect(Drawing().renderBounds == nil)
  }

  @Test func substrokesCoverTheirSlicesClippedByTheirMasks() throws {
    // A 9-point horizontal line x = 0…80; the eraser removed x ≈ 30…50.
    let line = path((0...8).map { (Double($0) * 10, 0) })
    let left = Stroke(inkIndex: 0, path: nil, slices: [0, 3])
    let mask: [Point] = [
      Point(x: 48, y: -5), Point(x: 90, y: -5), Point(x: 90, y: 1), Point(x: 48, y: 1),
    ]
    let right = Stroke(inkIndex: 0, path: nil, maskPolygons: [mask], slices: [5, 8])
    let parent = Stroke(inkIndex: 0, path: line, substrokes: [left, right])
    let drawing = Drawing(inks: [pen], strokes: [parent])
    let pieces = drawing.visiblePieces
    #expect(pieces.count == 2)
    #expect(pieces[0].ranges == [0...3])
    #expect(try #require(pieces[0].renderBounds) == Rect(x: -2, y: -2, width: 34, height: 4))
    // The right piece: x 50 − 1.2 … 81.2, clipped by the mask to x ≥ 48 and y ≤ 1.
    #expect(try #require(pieces[1].renderBounds) == Rect(x: 48, y: -2, width: 34, height: 3))
    #expect(drawing.renderBounds(ofStrokeAt: 0) == Rect(x: -2, y: -2, width: 84, height: 4))
    #expect(pieces[0].isCut(at: 3) && !pieces[0].isCut(at: 0) && !pieces[1].isCut(at: 8))
  }

  @Test func particleInksSpreadFurther() throws {
    let pencil = Ink(inkType: .pencil, color: RGBA(red: 0, green: 0, blue: 0, alpha: 1))
    let drawing = Drawing(
      inks: [pencil], strokes: [Stroke(inkIndex: 0, path: path([(0, 0), (10, 0)], width: 1.2))])
    let exact = try #require(drawing.visiblePieces.first?.exactBounds)
    #expect(abs(exact.minY - -2.5) < 1e-9)
  }

  // MARK: - The real samples

  static var samplesFolder: URL { URL(fileURLWithPath: DeviceSamples.drawingsFolder) }

  @Test func computedBoundsAgreeWithTheStoredBoundsOfEverySampleStroke() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.samplesFolder.path)
      .filter { $0.hasSuffix(".pkdrawing") }.sorted()
    #expect(files.count >= 4)
    var total = 0
    var exact = 0
    var within2 = 0
    for file in files {
      let bytes = [UInt8](try Data(contentsOf: Self.samplesFolder.appendingPathComponent(file)))
      let drawing = try Drawing(bytes: bytes)
      for index in drawing.strokes.indices {
        let stroke = drawing.strokes[index]
        guard !drawing.pieces(ofStrokeAt: index).isEmpty else { continue }
        total += 1
        let stored = try #require(stroke.storedBounds, "\(file) stroke \(index) stores no bounds")
        let computed = try #require(drawing.renderBounds(ofStrokeAt: index))
        let sides = [
          computed.minX - stored.minX, computed.minY - stored.minY,
          computed.maxX - stored.maxX, computed.maxY - stored.maxY,
        ]
        let worst = sides.map(abs).max() ?? 0
        if worst == 0 { exact += 1 }
        if worst <= 2 { within2 += 1 }
        #expect(worst <= 2, "\(file) stroke \(index): computed \(computed), stored \(stored)")
      }
    }
    print(
      "Sample stroke bounds: \(exact) exact, \(within2) within 2 pt, of \(total) visible strokes")
    #expect(total >= 8)
  }
}
