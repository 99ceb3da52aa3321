// Writes renders to a folder for people to look at when INKLING_RENDER_OUT is set:
//   INKLING_RENDER_OUT=/tmp/inkling-render swift test --filter LookTests

import InklingFormats
import InklingRendering
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct LookTests {
  @Test func writeRendersForPeople() throws {
    guard let folder = getenv("INKLING_RENDER_OUT").map({ String(cString: $0) }) else { return }
    mkdir(folder, 0o755)
    let paper = RGBA(red: 0.98, green: 0.97, blue: 0.93, alpha: 1)
    let white = Fixtures.white
    let images: [(String, RenderedImage)] = [
      ("inks-export", Renderer.export(of: Fixtures.inkSampler(), background: paper, scale: 2)),
      ("inks-thumb", Renderer.thumbnail(of: Fixtures.inkSampler(), background: paper, pixelSize: 256)),
      ("page-thumb", Renderer.thumbnail(of: Fixtures.page(strokes: 100, points: 120), background: white, pixelSize: 256)),
      ("page-export", Renderer.export(of: Fixtures.page(strokes: 100, points: 120), background: white, scale: 1)),
    ]
    var all = images
    for name in Fixtures.sampleNames {
      let drawing = try Fixtures.sample(name)
      all.append(("sample-\(name)-thumb", Renderer.thumbnail(of: drawing, background: paper, pixelSize: 256)))
      all.append(("sample-\(name)-export", Renderer.export(of: drawing, background: white, scale: 2)))
    }
    for (name, image) in all {
      try writeFile("\(folder)/\(name).png", PNG.encode(image, text: [("Software", "inkling-archive tests")]))
    }
  }
}
