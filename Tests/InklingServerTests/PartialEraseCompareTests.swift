// The compare page of a stroke partly erased by the pixel eraser: a real device drawing, then
// the same drawing with an erase through one stroke (PartlyErasedDrawing). The page counts
// the stroke as partly erased (as the draft's timeline does), and the picture of what changed
// draws what was erased in red.

import Foundation
import InklingArchive
import InklingFormats
import InklingRendering
import InklingTestSupport
import Testing

@testable import InklingServer

@Suite struct PartialEraseCompareTests {
  @Test func theErasedPartIsRedAndCounted() throws {
    let served = try ServedArchive()
    let folder = served.folder + "/cut"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for (day, drawing) in [(1, try PartlyErasedDrawing.before()), (2, try PartlyErasedDrawing.after())] {
      let base64 = Data(drawing).base64EncodedString()
      try #"{"drawingData":"\#(base64)","color":{"r":1,"g":1,"b":1,"a":1}}"#.write(
        toFile: folder + "/Cut-2025-10-0\(day)T12:00:00Z.inkling", atomically: true, encoding: .utf8)
    }
    let archive = try Archive(path: served.archivePath)
    _ = try archive.importFiles(at: [folder])
    let draft = try #require(try archive.drafts(matching: DraftQuery(name: "Cut")).first)
    let versions = try archive.timeline(of: "Cut").map(\.id)

    // The timeline counts it as `diff` does, and the version's page says so.
    #expect(try archive.timeline(of: "Cut").map { $0.changes?.partlyErased } == [0, 1])
    let page = try served.get("/draft?id=\(draft.id)&version=2")
    #expect(page.text.contains("1 partly erased"), "\(page.text)")
    #expect(!page.text.contains("no strokes changed"))

    let compare = try served.get("/draft/compare?id=\(draft.id)&from=1&version=2")
    #expect(compare.status == 200)
    #expect(compare.text.contains("<span class=\"removed\">1 partly erased</span>"))
    #expect(!compare.text.contains("No strokes changed"))

    let image = try PNG.decode(try archive.changesImage(from: versions[0], to: versions[1], scale: 2))
    var red = 0
    var dark = 0
    for pixel in stride(from: 0, to: image.rgba.count, by: 4) {
      let (r, g, b) = (Int(image.rgba[pixel]), Int(image.rgba[pixel + 1]), Int(image.rgba[pixel + 2]))
      if r > g + 80 && r > b + 80 { red += 1 }
      if r + g + b < 200 { dark += 1 }
    }
    #expect(red > 100, "the erased part in red")
    // What is left of the stroke, and the others, are faded: nothing as dark as the pen.
    #expect(dark == 0)

    // The part erased is less red than the whole stroke erased would be.
    var whole = try PartlyErasedDrawing.afterDrawing()
    whole.strokes[PartlyErasedDrawing.cutStroke].substrokes = []
    whole.strokes[PartlyErasedDrawing.cutStroke].isHidden = true
    let before = try Drawing(bytes: try PartlyErasedDrawing.before())
    let erasedWhole = ChangesPicture.render(
      from: before, to: whole, background: RGBA(red: 1, green: 1, blue: 1, alpha: 1), scale: 2)
    var wholeRed = 0
    for pixel in stride(from: 0, to: erasedWhole.rgba.count, by: 4) {
      let (r, g, b) = (Int(erasedWhole.rgba[pixel]), Int(erasedWhole.rgba[pixel + 1]), Int(erasedWhole.rgba[pixel + 2]))
      if r > g + 80 && r > b + 80 { wholeRed += 1 }
    }
    #expect(red < wholeRed * 3 / 4, "\(red) red pixels, \(wholeRed) for the whole stroke")
  }
}
