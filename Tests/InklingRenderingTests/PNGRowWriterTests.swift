// A PNG written a strip of rows at a time: the same bytes as the whole image encoded at once,
// and errors (not a broken file) for strips that do not fit.

import InklingRendering
import InklingTestSupport
import Testing

@Suite struct PNGRowWriterTests {
  /// The rows `range` of `image`, as an image of their own.
  static func rows(_ range: Range<Int>, of image: RenderedImage) -> RenderedImage {
    RenderedImage(
      width: image.width, height: range.count,
      rgba: Array(image.rgba[(range.lowerBound * image.width * 4)..<(range.upperBound * image.width * 4)]))
  }

  @Test func stripsMakeTheBytesOfTheWholeImage() throws {
    var image = PNGTests.gradient(width: 37, height: 23)
    for i in stride(from: 3, to: image.rgba.count, by: 4) { image.rgba[i] = 255 }
    let text = [("Software", "inkling-archive"), ("Description", "Café\nPlan-B")]
    let whole = try PNG.encode(image, text: text)
    // Strips of 5 rows, the last of 3; and a strip taller than the rows taken from it.
    let writer = try PNGRowWriter(width: 37, height: 23, text: text)
    for start in stride(from: 0, to: 23, by: 5) {
      try writer.write(Self.rows(start..<min(23, start + 5), of: image))
    }
    #expect(writer.rowsWritten == 23)
    #expect(try writer.finish() == whole)
    let taller = try PNGRowWriter(width: 37, height: 23, text: text)
    try taller.write(Self.rows(0..<20, of: image), rows: 10)
    try taller.write(Self.rows(10..<23, of: image))
    #expect(try taller.finish() == whole)
    try PNGCheck.expectValid(whole, name: "strips")
  }

  @Test func stripsThatDoNotFitAreRefused() throws {
    let image = PNGTests.gradient(width: 8, height: 4)
    #expect(throws: PNGError.self) { try PNGRowWriter(width: 0, height: 4) }
    #expect(throws: PNGError.invalidText(key: "")) { try PNGRowWriter(width: 8, height: 4, text: [("", "x")]) }
    let writer = try PNGRowWriter(width: 8, height: 4)
    // Too wide, past the last row, and finished before its last row: refused, nothing lost.
    #expect(throws: PNGError.self) { try writer.write(PNGTests.gradient(width: 9, height: 1)) }
    #expect(throws: PNGError.self) { try writer.write(PNGTests.gradient(width: 8, height: 5)) }
    try writer.write(Self.rows(0..<3, of: image))
    #expect(throws: PNGError.self) { try writer.finish() }
    try writer.write(Self.rows(3..<4, of: image))
    let png = try writer.finish()
    #expect(try PNG.decode(png).rgba.count == 8 * 4 * 4)
    #expect(throws: PNGError.self) { try writer.finish() }
    #expect(throws: PNGError.self) { try writer.write(Self.rows(0..<1, of: image)) }
  }
}
