// A version's large view of a real device drawing (a few strokes: a share image of 52 × 57
// px) is shown at a size one can look at: its longer side at least VersionView.minimumSide
// CSS pixels, its aspect the share image's, and each scale offered by its pixel width so that
// the browser can pick the sharpest it needs.

import Foundation
import InklingArchive
import InklingTestSupport
import Testing

@testable import InklingServer

@Suite struct LargeViewTests {
  static let samples = ["pen-marker-hidden", "three-pen-strokes", "handwritten-half-notes"]

  /// The width and height of a PNG, from its IHDR.
  func size(_ png: [UInt8]) -> (Int, Int) {
    func word(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (word(16), word(20))
  }

  @Test func aDeviceDrawingIsShownAtLeastTheMinimumSize() throws {
    let served = try ServedArchive()
    let folder = served.draftsFolder + "/device"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for (index, sample) in Self.samples.enumerated() {
      let drawing = Data(try DeviceSamples.drawing(sample)).base64EncodedString()
      let json = #"{"drawingData":"\#(drawing)","color":{"r":1,"g":1,"b":1,"a":1}}"#
      try json.write(
        toFile: folder + "/\(sample)-2025-10-0\(index + 1)T12:00:00Z.inkling", atomically: true, encoding: .utf8)
    }
    _ = try Archive(path: served.archivePath).importFiles(at: [folder])
    let archive = try served.archive()
    for sample in Self.samples {
      let draft = try #require(try archive.drafts().first { $0.name == sample })
      let html = try served.get("/draft?id=\(draft.id)&version=1").text
      let image = try #require(html.components(separatedBy: "<figure class=\"large\">").dropFirst().first)
      let width = try #require(Markup.attributes("width", in: image).first.flatMap { Int($0) })
      let height = try #require(Markup.attributes("height", in: image).first.flatMap { Int($0) })
      let id = try archive.timeline(of: sample)[0].id
      let natural = size(try served.get("/versions/\(id)/render.png?scale=1").body)
      #expect(natural.0 < VersionView.minimumSide && natural.1 < VersionView.minimumSide, "\(sample): \(natural)")
      #expect(max(width, height) == VersionView.minimumSide, "\(sample): shown \(width) × \(height)")
      #expect(abs(Double(width) / Double(height) - Double(natural.0) / Double(natural.1)) < 0.02, "\(sample)")
      // Each scale by its width (from the index's bounds: within a few pixels of the image's).
      let srcset = try #require(Markup.attributes("srcset", in: image).first)
      for (scale, source) in zip(VersionView.scales, srcset.components(separatedBy: ", ")) {
        let parts = source.components(separatedBy: " ")
        let png = try served.get(parts[0])
        #expect(png.status == 200)
        let described = try #require(Int(parts[1].dropLast()))
        let actual = size(png.body).0
        #expect(parts[1].hasSuffix("w"))
        #expect(abs(described - actual) <= max(3, actual / 25), "\(sample) at \(scale)x: \(source), \(actual) px")
      }
      // As wide as the screen up to its own width: a media condition, which every validator
      // reads (the Nu HTML Checker refuses CSS's min() in `sizes`).
      #expect(Markup.attributes("sizes", in: image).first == "(max-width: \(width)px) 100vw, \(width)px")
    }
  }
}
