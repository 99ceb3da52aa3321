// Golden images: renders compared with PNGs checked in under Tests/Golden/, with a tolerance
// so that harmless floating-point differences pass and a changed look fails.
//
// After a deliberate change of the output (and a bump of `Renderer.version`), regenerate them
// and look at them before committing:
//
//   INKLING_REGENERATE_GOLDEN=1 swift test --filter GoldenTests
//
// The files are found in the package folder rather than as package resources, so that the
// package manifest needs no resource rules; they live outside the test target's folder so
// that SwiftPM does not warn about unhandled files.

import InklingFormats
import InklingRendering
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct GoldenTests {
  static var folder: String { PackageFolder.path("Tests/Golden") }
  static var regenerate: Bool {
    getenv("INKLING_REGENERATE_GOLDEN").map { String(cString: $0) == "1" } ?? false
  }

  static let paper = RGBA(red: 0.98, green: 0.97, blue: 0.93, alpha: 1)

  /// The goldens: name → how to render it.
  static let cases = drawingCases + timelapseCases + captionCases

  static let drawingCases: [(String, @Sendable () throws -> RenderedImage)] = [
    (
      "inks-thumbnail-128",
      { Renderer.thumbnail(of: Fixtures.inkSampler(), background: paper, pixelSize: 128) }
    ),
    (
      "half-notes-thumbnail-96",
      {
        Renderer.thumbnail(
          of: try Fixtures.sample("handwritten-half-notes"), background: Fixtures.white,
          pixelSize: 96)
      }
    ),
    (
      "three-pen-strokes-export-1x",
      {
        Renderer.export(
          of: try Fixtures.sample("three-pen-strokes"),
          background: RGBA(red: 0.1, green: 0.1, blue: 0.15, alpha: 1), scale: 1)
      }
    ),
    (
      "pen-marker-hidden-export-2x",
      {
        Renderer.export(
          of: try Fixtures.sample("pen-marker-hidden"), background: Fixtures.white, scale: 2)
      }
    ),
  ]

  /// Frames a quarter, half and three quarters into the time-lapse of a real device drawing
  /// (4 s at 10 fps, fitted into 256 px): strokes half drawn along their points' times.
  static let timelapseCases: [(String, @Sendable () throws -> RenderedImage)] = [10, 20, 30].map { frame in
    (
      "half-notes-timelapse-frame-\(frame)",
      {
        var planner = TimelapsePlanner()
        planner.add(try Fixtures.sample("handwritten-half-notes"), background: paper, saved: 800_000_000)
        var frames = TimelapseFrames(
          planner.plan(pace: .duration(4), fps: 10, hold: 0, size: .fit(width: 256, height: 256)))
        var image: RenderedImage?
        while frames.nextFrame < frame { image = frames.next() }
        return try #require(image)
      }
    )
  }

  /// One golden per script: the name at 24 px, then at the contact sheet's 12 px, on paper.
  static let captionCases: [(String, @Sendable () throws -> RenderedImage)] = [
    ("caption-latin", "Łódź Ærøskøbing"), ("caption-cyrillic", "Кошка"), ("caption-cjk", "猫の絵"),
    ("caption-arabic", "قطة"), ("caption-emoji", "Cat 🐈‍⬛"),
  ].map { name, text in (name, { @Sendable in try Fixtures.caption(text) }) }

  @Test(arguments: cases.map(\.0))
  func matchesGolden(_ name: String) throws {
    let render = try #require(Self.cases.first { $0.0 == name }?.1)
    let image = try render()
    let path = "\(Self.folder)/\(name).png"
    if Self.regenerate {
      mkdir(Self.folder, 0o755)
      writeFile(
        path,
        try PNG.encode(
          image, text: [("Software", "inkling-archive golden"), ("Title", name)],
          compressionLevel: 9))
      return
    }
    let bytes = try #require(
      readFile(path), "missing golden \(path); regenerate with INKLING_REGENERATE_GOLDEN=1")
    let golden = try PNG.decode(bytes)
    #expect(golden.width == image.width && golden.height == image.height)
    let (mean, _) = image.difference(from: golden)
    var far = 0
    for (a, b) in zip(image.rgba, golden.rgba) where abs(Int(a) - Int(b)) > 24 { far += 1 }
    #expect(mean <= 0.5, "\(name): mean byte difference \(mean)")
    #expect(far <= image.rgba.count / 500, "\(name): \(far) bytes differ by more than 24")
  }
}
