// A stroke partly erased by the pixel eraser, through the built binary: a real device drawing
// saved, then saved again after an erase cut through one of its strokes (the cut made with
// the drawing writer, as PencilKit records it). `diff` counts the cut stroke, `show --strokes`
// marks it, and the eraser's own stroke is not a hidden drawing stroke.

import Foundation
import InklingTestSupport
import Testing

@Suite struct PartialEraseTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "partial-erase", making: ["Drafts"])
    for (day, drawing) in [(1, try PartlyErasedDrawing.before()), (2, try PartlyErasedDrawing.after())] {
      let json = #"{"drawingData":"\#(Data(drawing).base64EncodedString())","color":{"r":1,"g":1,"b":1,"a":1}}"#
      try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/Drafts/Cut-2026-03-0\(day)T09:00:00Z.inkling"))
    }
    let imported = try runner.run(["--quiet", "import", folder + "/Drafts"])
    #expect(imported.status == 0, "\(imported.stderr)")
  }

  @Test func diffCountsAPartlyErasedStroke() throws {
    let diff = try runner.run(["diff", "Cut", "1", "2"])
    #expect(diff.status == 0, "\(diff.stderr)")
    let lines = diff.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "Cut: version 1 → 2: 0 added, 0 removed, 0 hidden, 0 shown again, 1 partly erased")
    let section = try #require(lines.firstIndex(of: "Partly erased:"))
    // The table's header, then the one stroke: the second, marked.
    #expect(lines[section + 2].split(separator: " ").first == "2", "\(diff.stdout)")
    #expect(lines[section + 2].hasSuffix("partly erased"), "\(diff.stdout)")

    let json = try runner.run(["diff", "Cut", "1", "2", "--json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let erased = try #require(object["partlyErased"] as? [[String: Any]])
    #expect(erased.count == 1)
    #expect(erased.first?["number"] as? Int == PartlyErasedDrawing.cutStroke + 1)
    #expect(erased.first?["partlyErased"] as? Bool == true)
    for key in ["added", "removed", "hidden", "unhidden"] {
      #expect((object[key] as? [Any])?.isEmpty == true, "\(key)")
    }

    // Back the other way nothing is erased: the stroke is whole again.
    let back = try runner.run(["diff", "Cut", "2", "1"])
    #expect(back.stdout.hasPrefix("Cut: version 2 → 1: 0 added, 0 removed, 0 hidden, 0 shown again, 0 partly erased\n"))
  }

  @Test func showMarksThePartlyErasedStrokeAndCountsNoEraserStrokeAsHidden() throws {
    let show = try runner.run(["show", "Cut", "--strokes"])
    #expect(show.status == 0, "\(show.stderr)")
    #expect(
      show.stdout.contains("Strokes:     3 visible (1 partly erased), 0 hidden, 1 eraser stroke; "), "\(show.stdout)")
    let rows = show.stdout.split(separator: "\n").map(String.init)
    let cut = try #require(rows.first { $0.split(separator: " ").first == "2" })
    #expect(cut.hasSuffix("partly erased"))
    let eraser = try #require(rows.first { $0.split(separator: " ").first == "4" })
    #expect(eraser.contains("eraser") && !eraser.contains("hidden"), "\(eraser)")

    let json = try runner.run(["show", "Cut", "--strokes", "--json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let drawing = try #require(object["drawing"] as? [String: Any])
    #expect(drawing["visibleStrokes"] as? Int == 3)
    #expect(drawing["hiddenStrokes"] as? Int == 0)
    #expect(drawing["eraserStrokes"] as? Int == 1)
    #expect(drawing["partlyErasedStrokes"] as? Int == 1)

    // The device's own drawing: nothing cut.
    let first = try runner.run(["show", "Cut", "--version", "1", "--strokes"])
    #expect(first.stdout.contains("Strokes:     3 visible, 0 hidden; "), "\(first.stdout)")
    #expect(!first.stdout.contains("partly erased"))
  }
}
