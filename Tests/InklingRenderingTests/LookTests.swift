// Renders of every ink, a page, an erased line and the device samples, written as PNG files
// and read back: each file must decode to the very pixels rendered and show something on its
// background. With INKLING_RENDER_OUT set they are kept there for people to look at:
//   INKLING_RENDER_OUT=/tmp/inkling-render swift test --filter LookTests

import InklingFormats
import InklingRendering
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct LookTests {
  @Test func rendersForPeopleDecodeToWhatWasDrawn() throws {
    let temporary = try TemporaryFolder("look")
    let folder = getenv("INKLING_RENDER_OUT").map { String(cString: $0) } ?? temporary.path
    mkdir(folder, 0o755)
    let paper = RGBA(red: 0.98, green: 0.97, blue: 0.93, alpha: 1)
    let white = Fixtures.white
    let images: [(String, RenderedImage)] = [
      ("inks-export", Renderer.export(of: Fixtures.inkSampler(), background: paper, scale: 2)),
      (
        "inks-thumb",
        Renderer.thumbnail(of: Fixtures.inkSampler(), background: paper, pixelSize: 256)
      ),
      (
        "page-thumb",
        Renderer.thumbnail(
          of: Fixtures.page(strokes: 100, points: 120), background: white, pixelSize: 256)
      ),
      (
        "page-export",
        Renderer.export(of: Fixtures.page(strokes: 100, points: 120), background: white, scale: 1)
      ),
    ]
    // A thick pen line split by the pixel eraser, the right part also clipped by a mask.
    let line = Fixtures.path((0...8).map { (Double($0) * 20, Double($0 % 2) * 6) }, width: 8)
    let mask = [
      Point(x: 90, y: -20), Point(x: 140, y: -20), Point(x: 120, y: 30), Point(x: 90, y: 30),
    ]
    let erased = Drawing(
      inks: [Fixtures.ink(.pen)],
      strokes: [
        Stroke(
          inkIndex: 0, path: line,
          substrokes: [
            Stroke(inkIndex: 0, path: nil, slices: [0, 3.4]),
            Stroke(inkIndex: 0, path: nil, maskPolygons: [mask], slices: [5, 8]),
          ])
      ])
    var all = images
    all.append(("erased-export", Renderer.export(of: erased, background: white, scale: 3)))
    for name in Fixtures.sampleNames {
      let drawing = try Fixtures.sample(name)
      all.append(
        ("sample-\(name)-thumb", Renderer.thumbnail(of: drawing, background: paper, pixelSize: 256))
      )
      all.append(
        ("sample-\(name)-export", Renderer.export(of: drawing, background: white, scale: 2)))
    }
    for (name, image) in all {
      let path = "\(folder)/\(name).png"
      writeFile(path, try PNG.encode(image, text: [("Software", "inkling-archive tests")]))
      let written = try #require(readFile(path), "\(name)")
      #expect(try PNG.decode(written) == image, "\(name)")
      let corner = image.rgba.prefix(4)
      let drawn = stride(from: 0, to: image.rgba.count, by: 4).contains {
        !image.rgba[$0..<$0 + 4].elementsEqual(corner)
      }
      #expect(drawn == !name.hasPrefix("sample-empty"), "\(name): strokes on the background")
    }
  }
}
