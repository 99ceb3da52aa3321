import Testing

@testable import InklingFormats

/// `DrawingReader.read(_:skipping:)`: strokes a caller has an outline for are not decoded,
/// yet count against the limits and have their ink indices checked as decoded ones do.
@Suite struct DrawingSkippingReadTests {
  /// Random drawings (substrokes, mask polygons, hidden strokes) and their bytes.
  private func drawings(_ count: Int, seed: UInt64) throws -> [(drawing: Drawing, bytes: [UInt8])] {
    var generator = RandomDrawings(seed: seed)
    return try (0..<count).map { _ in
      let drawing = generator.drawing()
      return (drawing, try drawing.dataRepresentation())
    }
  }

  private func outlines(_ drawing: Drawing) -> [StrokeOutline] {
    drawing.strokes.indices.map { StrokeOutline(of: drawing.strokes, at: $0) }
  }

  private func read(_ bytes: [UInt8], limits: DrawingLimits = .default, skipping outlines: [StrokeOutline?]) throws
    -> Drawing?
  {
    try DrawingReader.read(bytes, limits: limits) { index, _, _ in
      outlines.indices.contains(index) ? outlines[index] : nil
    }
    .drawing
  }

  @Test func skippedStrokesArePlaceholdersAndTheOthersDecode() throws {
    for (whole, bytes) in try drawings(30, seed: 11) {
      let outlines = outlines(whole)
      let every = outlines.indices.map { $0 % 2 == 0 ? outlines[$0] : nil }
      let read = try #require(try read(bytes, skipping: every))
      #expect(read.inks == whole.inks)
      #expect(read.strokes.count == whole.strokes.count)
      for index in whole.strokes.indices {
        if index % 2 == 0 {
          #expect(read.strokes[index] == outlines[index].placeholder)
          #expect(read.strokes[index].isHidden == whole.strokes[index].isHidden)
          #expect(read.strokes[index].inkIndex == whole.strokes[index].inkIndex)
        } else {
          #expect(read.strokes[index] == whole.strokes[index])
        }
      }
    }
  }

  @Test func skippedStrokesCountAgainstTheLimits() throws {
    var checked = (points: 0, strokes: 0, depth: 0)
    for (whole, bytes) in try drawings(30, seed: 12) where !whole.strokes.isEmpty {
      let outlines = outlines(whole)
      let points = outlines.reduce(0) { $0 + $1.points }
      let strokes = outlines.reduce(0) { $0 + $1.strokes }
      let depth = outlines.map(\.depth).max() ?? 0
      var tight = DrawingLimits.default
      tight.maxPoints = points
      tight.maxStrokes = strokes
      tight.maxNestingDepth = depth
      // Exactly at the limits: both reads pass.
      #expect(try read(bytes, limits: tight, skipping: []) != nil)
      #expect(try read(bytes, limits: tight, skipping: outlines) != nil)
      func failsAlike(_ limits: DrawingLimits, _ expected: DrawingReadError.Kind) {
        for skipping in [[], outlines] {
          #expect(throws: DrawingReadError.self) { try read(bytes, limits: limits, skipping: skipping) }
          do {
            _ = try read(bytes, limits: limits, skipping: skipping)
          } catch let error as DrawingReadError {
            #expect(error.kind == expected)
          } catch {
            Issue.record("unexpected \(error)")
          }
        }
      }
      if points > 0 {
        var fewer = tight
        fewer.maxPoints = points - 1
        failsAlike(fewer, .tooManyPoints(limit: points - 1))
        checked.points += 1
      }
      var fewer = tight
      fewer.maxStrokes = strokes - 1
      failsAlike(fewer, .tooManyStrokes(limit: strokes - 1))
      checked.strokes += 1
      if depth > 0 {
        var shallower = tight
        shallower.maxNestingDepth = depth - 1
        failsAlike(shallower, .nestingTooDeep(limit: depth - 1))
        checked.depth += 1
      }
    }
    #expect(checked.points > 10 && checked.strokes > 10 && checked.depth > 3, "\(checked)")
  }

  @Test func anInkIndexOutOfRangeInASkippedStrokeIsDamage() throws {
    let (whole, bytes) = try #require(try drawings(10, seed: 13).first { !$0.drawing.strokes.isEmpty })
    var outlines = outlines(whole)
    outlines[0].maxInkIndex = whole.inks.count
    do {
      _ = try read(bytes, skipping: outlines)
      Issue.record("a substroke's ink index out of range was accepted")
    } catch let error as DrawingReadError {
      #expect(error.kind == .inkIndexOutOfRange(index: UInt64(whole.inks.count), inkCount: whole.inks.count))
    }
  }
}
