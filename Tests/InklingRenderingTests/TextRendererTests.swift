// Text in every script: which face draws what, shaping (joining, direction, emoji
// sequences), the ellipsis by measured width, the pixels drawn, and missing fonts.

import Foundation
import InklingFormats
import InklingTestSupport
import Testing

@testable import InklingRendering

@Suite struct TextRendererTests {
  let text: TextRenderer

  init() throws { text = try TextRenderer() }

  /// The family of each face the glyphs of `string` come from, in visual order.
  func families(_ string: String) -> [String] {
    text.line(string, pixelSize: 12).glyphs.map { text.faces[$0.face].source.family }
  }

  @Test func setupInstallsEveryNotoFamily() {
    #expect(FontFallback.system.missing.map(\.family) == [])
    #expect(FontFallback.system.sources.map(\.family) == FontFallback.noto.map(\.family))
    #expect(text.unopened.isEmpty)
  }

  @Test(arguments: [
    ("Łódź Ærøskøbing", "Noto Sans"), ("Кошка", "Noto Sans"), ("Ελληνικά", "Noto Sans"),
    ("猫の絵", "Noto Sans CJK JP"), ("한국어", "Noto Sans CJK JP"), ("قطة", "Noto Sans Arabic"),
    ("שלום", "Noto Sans Hebrew"), ("स्केच", "Noto Sans Devanagari"), ("🐈‍⬛", "Noto Color Emoji"),
  ])
  func eachScriptComesFromAFaceThatHasIt(_ string: String, _ family: String) {
    let line = text.line(string, pixelSize: 12)
    #expect(!line.glyphs.isEmpty)
    #expect(line.glyphs.allSatisfy { $0.glyph != 0 }, "no missing-glyph box in \(string)")
    #expect(Set(families(string)) == [family])
  }

  @Test func aNameMixingScriptsIsSplitIntoRuns() {
    #expect(families("Cat 🐈‍⬛") == ["Noto Sans", "Noto Sans", "Noto Sans", "Noto Sans", "Noto Color Emoji"])
    // The black cat is one ZWJ sequence, so one glyph.
    #expect(text.line("🐈‍⬛", pixelSize: 12).glyphs.count == 1)
    // Digits next to emoji stay text; a character with U+FE0F asks for the emoji face.
    #expect(Set(families("2025")) == ["Noto Sans"])
    #expect(families("\u{2764}\u{FE0F}") == ["Noto Color Emoji"])
    // A space after an emoji is a text space, not the emoji face's wide one.
    #expect(families("🌸 spring") == ["Noto Color Emoji"] + Array(repeating: "Noto Sans", count: 7))
  }

  @Test func arabicIsJoinedAndReadRightToLeft() {
    let word = text.line("قطة", pixelSize: 24)
    #expect(word.isRightToLeft)
    // Joined letters take their initial, medial and final forms: none is an isolated form.
    let isolated = Set(["ق", "ط", "ة"].flatMap { text.line($0, pixelSize: 24).glyphs.map(\.glyph) })
    #expect(word.glyphs.count == 3)
    #expect(Set(word.glyphs.map(\.glyph)).isDisjoint(with: isolated))
    // Mixed: in a left-to-right name the Arabic word follows the Latin one; in a
    // right-to-left name the Latin word is to the left of the Arabic one.
    for string in ["Cat قطة", "قطة cat"] {
      let line = text.line(string, pixelSize: 12)
      let latin = line.glyphs.filter { text.faces[$0.face].source.family == "Noto Sans" }
      let arabic = line.glyphs.filter { text.faces[$0.face].source.family == "Noto Sans Arabic" }
      #expect(latin.map(\.x).max()! < arabic.map(\.x).min()!, "\(string)")
      #expect(line.isRightToLeft == string.hasPrefix("ق"))
    }
  }

  @Test func longTextIsCutByMeasuredWidth() {
    let wide = text.line(String(repeating: "W", count: 40), pixelSize: 12, maxWidth: 80)
    let narrow = text.line(String(repeating: "i", count: 40), pixelSize: 12, maxWidth: 80)
    for line in [wide, narrow] {
      #expect(line.isTruncated && line.width <= 80 && line.width > 70)
      #expect(line.text.hasSuffix("…"))
    }
    #expect(narrow.text.count > 2 * wide.text.count, "narrow letters fit more of them")
    // A fitting line is left whole; trailing spaces go before the ellipsis; nothing fits in 2 px.
    #expect(!text.line("Кошка", pixelSize: 12, maxWidth: 80).isTruncated)
    #expect(!text.line("Cat     dog and more", pixelSize: 12, maxWidth: 40).text.contains(" …"))
    #expect(text.line("Кошка", pixelSize: 12, maxWidth: 2).text == "")
    // A right-to-left name keeps its start (on the right), the ellipsis on its left.
    let arabic = text.line("مرحبا بالعالم مرحبا بالعالم", pixelSize: 12, maxWidth: 60)
    #expect(arabic.isTruncated && arabic.text.hasPrefix("مرحبا") && arabic.text.hasSuffix("…"))
    // Control characters are drawn as spaces: one line, never two.
    #expect(text.line("New\nline", pixelSize: 12).text == "New line")
  }

  @Test func drawingPutsInkWhereTheTextIs() throws {
    var image = RenderedImage(width: 200, height: 40, rgba: [UInt8](repeating: 255, count: 200 * 40 * 4))
    let line = text.line("Кошка", pixelSize: 20)
    text.draw(line, x: 10, baseline: 28, color: Fixtures.black, into: &image)
    let (ascender, descender) = text.lineMetrics(pixelSize: 20)
    #expect(ascender > 18 && ascender < 24 && descender > 3 && descender < 8)
    let inkBox = (x: 10..<(10 + Int(line.width.rounded(.up)) + 1), y: (28 - 16)..<(28 + 1))
    let inside = image.countDiffering(from: (255, 255, 255), x: inkBox.x, y: inkBox.y, tolerance: 64)
    #expect(inside > 60, "the letters are drawn: \(inside) dark pixels")
    let everywhere = image.countDiffering(from: (255, 255, 255), x: 0..<200, y: 0..<40, tolerance: 64)
    #expect(everywhere == inside, "nothing outside the text's box")
    // Anti-aliased: edges are grey, not only black and white.
    let greys = stride(from: 0, to: image.rgba.count, by: 4).filter { (40...215).contains(image.rgba[$0]) }
    #expect(greys.count > 20)
  }

  @Test func colourEmojiKeepTheirColours() {
    var image = RenderedImage(width: 40, height: 40, rgba: [UInt8](repeating: 255, count: 40 * 40 * 4))
    text.draw(text.line("🌸", pixelSize: 24), x: 4, baseline: 30, color: Fixtures.black, into: &image)
    let pink = stride(from: 0, to: image.rgba.count, by: 4).filter {
      Int(image.rgba[$0]) - Int(image.rgba[$0 + 1]) > 40 && image.rgba[$0] > 180
    }
    #expect(pink.count > 40, "the blossom is pink, not the text colour")
    #expect(image.rgba.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 }, "stays opaque")
  }

  @Test func outlandishSizesAndPositionsDoNotTrap() {
    var image = RenderedImage(width: 20, height: 20, rgba: [UInt8](repeating: 255, count: 20 * 20 * 4))
    for size in [0, -3, .nan, .infinity, 1e12] {
      let line = text.line("Cat 🐈‍⬛ قطة", pixelSize: size, maxWidth: 15)
      #expect(line.pixelSize >= 1 && line.pixelSize <= TextRenderer.largestPixelSize)
      text.draw(line, x: 2, baseline: 15, color: Fixtures.black, into: &image)
    }
    for position in [Double.nan, .infinity, -1e300, 1e15] {
      text.draw(text.line("Cat", pixelSize: 12), x: position, baseline: position, color: Fixtures.black, into: &image)
      text.draw(text.line("Cat", pixelSize: 12), x: -40, baseline: position, color: Fixtures.black, into: &image)
    }
    // A large emoji is scaled up from its strike, as wide as HarfBuzz's advance.
    var large = RenderedImage(width: 300, height: 300, rgba: [UInt8](repeating: 255, count: 300 * 300 * 4))
    let cat = text.line("🐈", pixelSize: 200)
    text.draw(cat, x: 10, baseline: 250, color: Fixtures.black, into: &large)
    let inked = (0..<300).filter { x in
      large.countDiffering(from: (255, 255, 255), x: x..<(x + 1), y: 0..<300, tolerance: 40) > 0
    }
    #expect(
      Double(inked.count) > cat.width * 0.7 && Double(inked.count) <= cat.width + 2, "\(inked.count) of \(cat.width)")
  }

  // MARK: - Missing fonts

  @Test func aFamilyFoundNowhereIsListedWithItsPackage() throws {
    let request = FontRequest(
      family: "Inkling No Such Family", package: "fonts-inkling-none", debianPath: "/nonexistent/NoSuch.ttf")
    let fonts = FontFallback.resolve([request])
    #expect(fonts.sources.isEmpty && fonts.missing == [request])
    #expect(throws: TextError.noFont(missing: [request], unopened: [])) { try TextRenderer(fonts: fonts) }
    let message = "\(TextError.noFont(missing: [request], unopened: []))"
    #expect(
      message
        == "no font to draw text with: Inkling No Such Family is not installed (/nonexistent/NoSuch.ttf, Debian package fonts-inkling-none)"
    )
  }

  @Test func aFileThatIsNotAFontIsSkipped() throws {
    let folder = try TemporaryFolder("not-a-font")
    let path = try folder.write("not-a-font.ttf", "not a font")
    let junk = FontSource(family: "Junk", path: path)
    #expect(throws: TextError.self) { try TextRenderer(fonts: FontFallback(sources: [junk])) }
    let latin = try #require(FontFallback.system.sources.first)
    let renderer = try TextRenderer(fonts: FontFallback(sources: [junk, latin]))
    #expect(renderer.unopened.map(\.source) == [junk])
    #expect(renderer.line("Cat", pixelSize: 12).glyphs.allSatisfy { $0.glyph != 0 })
  }

  @Test func withoutTheCJKFaceHanIsABoxNotACrash() throws {
    let latin = try #require(FontFallback.system.sources.first)
    let renderer = try TextRenderer(fonts: FontFallback(sources: [latin]))
    let line = renderer.line("猫 cat", pixelSize: 12)
    #expect(line.glyphs.first?.glyph == 0, "the missing-glyph box of Noto Sans")
    #expect(line.glyphs.dropFirst().allSatisfy { $0.glyph != 0 })
    var image = RenderedImage(width: 60, height: 20, rgba: [UInt8](repeating: 255, count: 60 * 20 * 4))
    renderer.draw(line, x: 2, baseline: 15, color: Fixtures.black, into: &image)
    #expect(image.countDiffering(from: (255, 255, 255), x: 0..<10, y: 0..<20, tolerance: 64) > 10)
  }
}
