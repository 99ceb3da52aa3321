// `timelapse` through the library: drafts of real device drawings saved several times,
// replayed as numbered PNG frames, and each frame compared with `Renderer` drawing the
// strokes the frame should hold.

import Foundation
import InklingArchive
import InklingFormats
import InklingRendering
import InklingTestSupport
import Testing

@Suite struct TimelapseTests {
  /// A draft called "Plan" whose saves are `drawings` (with backgrounds), a day apart.
  private func archive(
    _ folder: TemporaryFolder, _ saves: [(drawing: [UInt8], color: (Double, Double, Double, Double))]
  ) throws -> Archive {
    for (index, save) in saves.enumerated() {
      try folder.write(
        "drafts/Plan-2026-07-\(String(format: "%02d", index + 1))T10:00:00Z.inkling",
        inklingFile(drawing: save.drawing, color: save.color))
    }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("drafts")])
    return archive
  }

  /// The drawing of `bytes`, without the iOS 26 threshold property, which the writer leaves
  /// out (so that the tests can change a device drawing and write it again).
  private func decode(_ bytes: [UInt8]) throws -> Drawing {
    var drawing = try Drawing(bytes: bytes)
    for index in drawing.strokes.indices {
      drawing.strokes[index].path?.varyingProperties.remove(.threshold)
      drawing.strokes[index].path?.constantProperties.remove(.threshold)
    }
    return drawing
  }

  /// The frames written to `folder`, decoded, in order.
  private func frames(in folder: String) throws -> [RenderedImage] {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
    return try names.map { try PNG.decode(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0)))) }
  }

  /// `drawing` with only the strokes at `kept` visible (the rest hidden, as an erase leaves them).
  private func erasing(_ drawing: Drawing, keeping kept: Set<Int>) -> Drawing {
    var drawing = drawing
    for index in drawing.strokes.indices where !kept.contains(index) { drawing.strokes[index].isHidden = true }
    return drawing
  }

  /// Whether two images are equal, without printing them when they are not.
  private func same(_ a: RenderedImage?, _ b: RenderedImage?) -> Bool { a == b }

  /// The pixels (x, y) where two images of one size differ.
  private func differences(_ a: RenderedImage, _ b: RenderedImage) -> [(Int, Int)] {
    var found: [(Int, Int)] = []
    a.rgba.withUnsafeBufferPointer { p in
      b.rgba.withUnsafeBufferPointer { q in
        var i = 0
        while i < p.count {
          if p[i] != q[i] || p[i + 1] != q[i + 1] || p[i + 2] != q[i + 2] || p[i + 3] != q[i + 3] {
            found.append(((i / 4) % a.width, (i / 4) / a.width))
          }
          i += 4
        }
      }
    }
    return found
  }

  private func render(_ drawing: Drawing, _ background: RGBA, _ geometry: RenderGeometry) -> RenderedImage {
    Renderer.render(drawing, geometry: geometry, background: background)
  }

  /// The last frame is `render` of the newest save at the same geometry, to the pixel, and the
  /// geometry is `render`'s at the scale that fits 1080 pixels, grown to even sides.
  @Test func lastFrameIsTheNewestVersionRendered() throws {
    let folder = try TemporaryFolder("timelapse-last")
    let bytes = try deviceSample("handwritten-half-notes")
    let archive = try archive(folder, [(bytes, (1, 1, 1, 1))])
    var options = TimelapseOptions()
    options.pace = .duration(3)
    options.hold = 1
    options.fps = 10
    let summary = try archive.timelapse(of: "Plan", options: options, to: .frames(folder: folder.path("frames")))
    let images = try frames(in: folder.path("frames"))
    #expect(images.count == 30)
    #expect(summary.frames == 30)
    #expect(summary.seconds == 3)
    #expect(!summary.evenPace)
    let drawing = try decode(bytes)
    let plan = try archive.timelapsePlan(of: "Plan", options: options).0
    let white = RGBA(red: 1, green: 1, blue: 1, alpha: 1)
    #expect(same(images.last, render(drawing, white, plan.geometry)))
    // The hold repeats the last frame.
    #expect(images[20...].allSatisfy { same($0, images.last) })
    #expect(max(plan.geometry.width, plan.geometry.height) == 1080)
    #expect(plan.geometry.width % 2 == 0 && plan.geometry.height % 2 == 0)
    // `render` at the same scale is the frame less at most a column and a row of background.
    let share = Renderer.export(of: drawing, background: white, scale: plan.geometry.scale)
    #expect(plan.geometry.width - share.width <= 1 && plan.geometry.height - share.height <= 1)
    let last = try #require(images.last)
    var cropped = [UInt8]()
    for y in 0..<share.height {
      cropped += last.rgba[(y * last.width * 4)..<((y * last.width + share.width) * 4)]
    }
    #expect(same(RenderedImage(width: share.width, height: share.height, rgba: cropped), share))
    // Strokes grow across frames: the drawing is not there at the start.
    #expect(!same(images[0], images.last))
  }

  /// Strokes made 1.5 s apart, each drawn in 0.5 s: the pauses are cut to 1 s, so at --real-time
  /// each frame between strokes is exactly the strokes finished by then, and between two frames
  /// pixels change only inside the box of the stroke being drawn.
  @Test func framesBetweenStrokesAreTheFinishedStrokesRendered() throws {
    let folder = try TemporaryFolder("timelapse-steps")
    var drawing = try decode(try deviceSample("three-pen-strokes"))
    let start = 804_000_000.0  // 2026-06-24, before the save date
    for index in drawing.strokes.indices {
      drawing.strokes[index].path!.creationDate = start + 1.5 * Double(index) + 600
      let count = drawing.strokes[index].path!.points.count
      for point in 0..<count {
        drawing.strokes[index].path!.points[point].timeOffset = 0.5 * Double(point) / Double(max(count - 1, 1))
      }
      drawing.strokes[index].path!.varyingProperties.insert(.timeOffset)
    }
    let bytes = try DrawingWriter.write(drawing)
    drawing = try decode(bytes)  // the values as stored (binary32 offsets)
    let archive = try archive(folder, [(bytes, (1, 1, 1, 1))])
    var options = TimelapseOptions()
    options.pace = .realTime
    options.hold = 0
    options.fps = 20
    options.size = .fit(width: 400, height: 400)
    _ = try archive.timelapse(of: "Plan", options: options, to: .frames(folder: folder.path("frames")))
    let images = try frames(in: folder.path("frames"))
    let plan = try archive.timelapsePlan(of: "Plan", options: options).0
    // The clock, as the plan keeps it: each stroke its own length, pauses of at most 1 s.
    var spans: [(begin: Double, end: Double)] = []
    var realEnd: Double?
    for stroke in drawing.strokes {
      let path = stroke.path!
      let length = path.points.map(\.timeOffset).max()!
      let begin = (spans.last?.end ?? 0) + (realEnd.map { min(max(path.creationDate - $0, 0), 1) } ?? 0)
      spans.append((begin, begin + length))
      realEnd = max(realEnd ?? -.infinity, path.creationDate + length)
    }
    let total = spans.last!.end
    #expect(images.count == Int((total * 20).rounded()))
    let white = RGBA(red: 1, green: 1, blue: 1, alpha: 1)
    var compared = 0
    for (k, image) in images.enumerated() {
      let time = k == images.count - 1 ? total : total * Double(k + 1) / Double(images.count)
      let inGap = spans.allSatisfy { time > $0.end + 0.01 || time < $0.begin - 0.01 }
      guard inGap else { continue }
      var finished = drawing
      finished.strokes = drawing.strokes.enumerated().filter { spans[$0.offset].end <= time }.map(\.element)
      #expect(differences(image, render(finished, white, plan.geometry)).isEmpty, "frame \(k + 1)")
      compared += 1
    }
    #expect(compared >= 20)
    // Between consecutive frames, pixels change only inside the stroke drawn meanwhile.
    for k in 1..<images.count {
      let before = total * Double(k) / Double(images.count)
      let now = k == images.count - 1 ? total : total * Double(k + 1) / Double(images.count)
      let active = drawing.strokes.indices.filter { spans[$0].begin < now && spans[$0].end > before }
      var allowed: [(Double, Double, Double, Double)] = []
      for index in active {
        let bounds = try #require(drawing.pieces(ofStrokeAt: index).first?.exactBounds)
        let lo = plan.geometry.pixel(Point(x: bounds.minX, y: bounds.minY))
        let hi = plan.geometry.pixel(Point(x: bounds.maxX, y: bounds.maxY))
        allowed.append((lo.x - 3, lo.y - 3, hi.x + 3, hi.y + 3))
      }
      for (x, y) in differences(images[k], images[k - 1]) {
        let inside = allowed.contains {
          Double(x) >= $0.0 && Double(y) >= $0.1 && Double(x) <= $0.2 && Double(y) <= $0.3
        }
        if !inside {
          Issue.record("frame \(k + 1): pixel \(x), \(y) changed outside the strokes drawn")
          return
        }
      }
    }
  }

  /// Saves that erase, change the background, bring a stroke back and revert: the frame that
  /// ends each save is that save rendered; a version that does not decode is skipped and named.
  @Test func erasesBackgroundsAndRevertsShowAtTheirSaves() throws {
    let folder = try TemporaryFolder("timelapse-saves")
    let full = try decode(try deviceSample("handwritten-half-notes"))
    let count = full.strokes.count
    #expect(count >= 4)
    let half = Set(0..<(count / 2))
    var first = full
    first.strokes = Array(full.strokes[0..<(count / 2)])
    let saves: [(Drawing?, RGBA)] = [
      (first, RGBA(red: 1, green: 1, blue: 1, alpha: 1)),
      (full, RGBA(red: 1, green: 1, blue: 1, alpha: 1)),
      (erasing(full, keeping: half.subtracting([1])), RGBA(red: 1, green: 1, blue: 1, alpha: 1)),
      (nil, RGBA(red: 1, green: 1, blue: 1, alpha: 1)),  // does not decode
      (erasing(full, keeping: half), RGBA(red: 0.9, green: 0.95, blue: 1, alpha: 1)),  // brought back, new colour
      (first, RGBA(red: 1, green: 1, blue: 1, alpha: 1)),  // a revert to the first save
    ]
    let archive = try archive(
      folder,
      try saves.map { save in
        let color = (save.1.red, save.1.green, save.1.blue, save.1.alpha)
        return (try save.0.map { try DrawingWriter.write($0) } ?? Array("not a drawing".utf8), color)
      })
    var options = TimelapseOptions()
    options.pace = .duration(20)
    options.hold = 0.5
    options.fps = 10
    options.size = .fit(width: 320, height: 320)
    let summary = try archive.timelapse(of: "Plan", options: options, to: .frames(folder: folder.path("frames")))
    #expect(summary.skipped.map(\.number) == [4])
    #expect(summary.strokes == count)
    let images = try frames(in: folder.path("frames"))
    let geometry = try archive.timelapsePlan(of: "Plan", options: options).0.geometry
    let expected = saves.compactMap { save in save.0.map { render($0, save.1, geometry) } }
    // Every save's picture appears, in order, and the video ends on the last.
    var next = 0
    for image in images where next < expected.count && same(image, expected[next]) { next += 1 }
    #expect(next == expected.count)
    #expect(same(images.last, expected.last))
    // Each replayed save is marked at the first frame that shows it done (the page's scrubber).
    #expect(summary.marks.map(\.version) == [1, 2, 3, 5, 6])
    #expect(summary.marks.map(\.frame) == summary.marks.map(\.frame).sorted())
    for (mark, picture) in zip(summary.marks, expected) {
      #expect(same(images[mark.frame - 1], picture), "version \(mark.version) at frame \(mark.frame)")
      #expect(mark.seconds == Double(mark.frame - 1) / 10)
    }
    // The same archive and options give the same frames.
    _ = try archive.timelapse(
      of: "Plan", options: options, to: .frames(folder: folder.path("again")))
    #expect(try frames(in: folder.path("again")).map(\.rgba) == images.map(\.rgba))
  }

  /// Replaying from a later save starts from the save before it already drawn.
  @Test func fromAndToChooseTheSavesReplayed() throws {
    let folder = try TemporaryFolder("timelapse-range")
    let full = try decode(try deviceSample("handwritten-half-notes"))
    var first = full
    first.strokes = Array(full.strokes[0..<(full.strokes.count / 2)])
    let archive = try archive(
      folder, [(try DrawingWriter.write(first), (1, 1, 1, 1)), (try DrawingWriter.write(full), (1, 1, 1, 1))])
    var options = TimelapseOptions()
    options.pace = .duration(2)
    options.hold = 0
    options.fps = 10
    options.size = .fit(width: 200, height: 200)
    options.from = .number(2)
    let summary = try archive.timelapse(of: "Plan", options: options, to: .frames(folder: folder.path("from2")))
    #expect(summary.firstVersion == 2 && summary.lastVersion == 2)
    #expect(summary.strokes == full.strokes.count - first.strokes.count)
    let images = try frames(in: folder.path("from2"))
    let geometry = try archive.timelapsePlan(of: "Plan", options: options).0.geometry
    let white = RGBA(red: 1, green: 1, blue: 1, alpha: 1)
    // Version 1's strokes are there from the first frame (drawn within the newest's geometry).
    let base = render(first, white, geometry)
    let firstFrame = try #require(images.first)
    #expect(differences(base, firstFrame).count < base.width * base.height / 10)
    #expect(same(images.last, render(full, white, geometry)))

    options.from = .number(2)
    options.to = .number(1)
    #expect(throws: ArchiveError.invalidArgument(.timelapse(.range(from: 2, to: 1)))) {
      try archive.timelapsePlan(of: "Plan", options: options)
    }
    options.from = nil
    options.to = .number(3)
    #expect(throws: ArchiveError.noSuchVersion(draft: "Plan", number: 3, versionCount: 2)) {
      try archive.timelapsePlan(of: "Plan", options: options)
    }

    // A label names the end of the range as it names any version, and each mark carries its
    // version's labels.
    _ = try archive.label(draft: "Plan", version: .number(1), as: "Sketch")
    options.from = nil
    options.to = .label("SKETCH")
    let sketch = try archive.timelapsePlan(of: "Plan", options: options).1
    #expect(sketch.firstVersion == 1 && sketch.lastVersion == 1)
    #expect(sketch.marks.map(\.labels) == [["Sketch"]])
    options.to = nil
    #expect(try archive.timelapsePlan(of: "Plan", options: options).1.marks.map(\.labels) == [["Sketch"], []])
    options.from = .label("final")
    #expect {
      try archive.timelapsePlan(of: "Plan", options: options)
    } throws: { error in
      guard case .noSuchLabel(let draft, let label, let labels) = error as? ArchiveError else { return false }
      return draft == "Plan" && label == "final" && labels == ["Sketch"]
    }
  }

  /// Strokes without times (no point times, one creation date) are drawn at an even pace,
  /// and the summary says so; a drawing without strokes is its background, held.
  @Test func drawingsWithoutTimesOrStrokes() throws {
    let folder = try TemporaryFolder("timelapse-times")
    var drawing = try decode(try deviceSample("three-pen-strokes"))
    for index in drawing.strokes.indices {
      drawing.strokes[index].path!.creationDate = drawing.strokes[0].path!.creationDate
      for point in drawing.strokes[index].path!.points.indices {
        drawing.strokes[index].path!.points[point].timeOffset = 0
      }
    }
    let archive = try archive(folder, [(try DrawingWriter.write(drawing), (1, 1, 1, 1))])
    var options = TimelapseOptions()
    options.pace = .duration(3)
    options.hold = 1
    options.fps = 10
    let summary = try archive.timelapse(of: "Plan", options: options, to: .frames(folder: folder.path("even")))
    #expect(summary.evenPace)
    let images = try frames(in: folder.path("even"))
    #expect(images.count == 30)
    #expect(Set(images[0..<20].map(\.rgba)).count >= 15)  // every frame of the drawing part moves

    let empty = try TemporaryFolder("timelapse-empty")
    let blank = try self.archive(empty, [(try deviceSample("empty"), (0.2, 0.4, 0.6, 1))])
    let nothing = try blank.timelapse(of: "Plan", options: options, to: .frames(folder: empty.path("frames")))
    #expect(nothing.frames == 10 && nothing.strokes == 0)
    let held = try frames(in: empty.path("frames"))
    #expect(Set(held.map(\.rgba)).count == 1)
    #expect(held[0].pixel(x: 0, y: 0) == (51, 102, 153, 255))
  }

  /// Strokes whose points carry no times but whose creation dates do are paced by those
  /// dates: each lasts until the next one is made (at most the 1 s pause limit, the last
  /// until its save), drawn along its path, instead of every stroke taking the same time.
  @Test func creationDatesPaceStrokesWithoutPointTimes() throws {
    let folder = try TemporaryFolder("timelapse-created")
    var drawing = try decode(try deviceSample("three-pen-strokes"))
    let start = 804_506_400.0 - 600  // ten minutes before the first save
    for (index, offset) in [0.0, 0.2, 1.2].enumerated() {
      drawing.strokes[index].path!.creationDate = start + offset
      drawing.strokes[index].path!.varyingProperties.remove(.timeOffset)
      for point in drawing.strokes[index].path!.points.indices {
        drawing.strokes[index].path!.points[point].timeOffset = 0
      }
    }
    // One stroke more in each save: each save's mark is when its stroke is done.
    let saves = try (1...3).map { count in
      var save = drawing
      save.strokes = Array(drawing.strokes.prefix(count))
      return (try DrawingWriter.write(save), (1.0, 1.0, 1.0, 1.0))
    }
    let archive = try archive(folder, saves)
    var options = TimelapseOptions()
    options.pace = .realTime
    options.hold = 0
    options.fps = 10
    options.size = .fit(width: 200, height: 200)
    let summary = try archive.timelapse(of: "Plan", options: options, to: .frames(folder: folder.path("frames")))
    #expect(!summary.evenPace)
    // 0.2 s, 1 s and 1 s: 2.2 s at 10 frames a second (evenly, 3 units: 30 frames).
    #expect(summary.frames == 22)
    let expected = [2, 12, 22]  // frames counted from 1, as the --frames files are
    #expect(summary.marks.count == 3)
    for (mark, frame) in zip(summary.marks, expected) {
      #expect(abs(mark.frame - frame) <= 1, "version \(mark.version) at frame \(mark.frame)")
    }
    // The second stroke is drawn over its second, not at once.
    let images = try frames(in: folder.path("frames"))
    #expect(Set(images[2...10].map(\.rgba)).count >= 7)
  }

  /// The frame holds every stroke the replay draws: a stroke drawn far from the rest and
  /// erased in the next save is inside the frames, not only the newest save's strokes.
  @Test func theFrameHoldsStrokesErasedLater() throws {
    let folder = try TemporaryFolder("timelapse-bounds")
    var drawing = try decode(try deviceSample("three-pen-strokes"))
    for point in drawing.strokes[2].path!.points.indices {
      drawing.strokes[2].path!.points[point].location.x += 900
      drawing.strokes[2].path!.points[point].location.y += 600
    }
    drawing.strokes[2].storedBounds = nil
    let erased = erasing(drawing, keeping: [0, 1])
    let archive = try archive(
      folder, [(try DrawingWriter.write(drawing), (1, 1, 1, 1)), (try DrawingWriter.write(erased), (1, 1, 1, 1))])
    var options = TimelapseOptions()
    options.pace = .duration(3)
    options.hold = 0.5
    options.fps = 10
    options.size = .fit(width: 300, height: 300)
    let summary = try archive.timelapse(of: "Plan", options: options, to: .frames(folder: folder.path("frames")))
    let images = try frames(in: folder.path("frames"))
    let geometry = try archive.timelapsePlan(of: "Plan", options: options).0.geometry
    // The far stroke lies inside the frame.
    let far = try #require(drawing.pieces(ofStrokeAt: 2).first?.exactBounds)
    for corner in [Point(x: far.minX, y: far.minY), Point(x: far.maxX, y: far.maxY)] {
      let pixel = geometry.pixel(corner)
      #expect(pixel.x >= 0 && pixel.y >= 0 && pixel.x <= Double(geometry.width) && pixel.y <= Double(geometry.height))
    }
    // The first save is shown whole at its mark, and the video ends on the second.
    let white = RGBA(red: 1, green: 1, blue: 1, alpha: 1)
    let first = render(drawing, white, geometry)
    #expect(same(images[summary.marks[0].frame], first))
    #expect(same(images.last, render(erased, white, geometry)))
    // The far stroke's ink is in the first save's picture.
    let lo = geometry.pixel(Point(x: far.minX, y: far.minY))
    let hi = geometry.pixel(Point(x: far.maxX, y: far.maxY))
    var ink = 0
    for y in max(Int(lo.y), 0)..<min(Int(hi.y) + 1, first.height) {
      for x in max(Int(lo.x), 0)..<min(Int(hi.x) + 1, first.width) {
        let pixel = first.pixel(x: x, y: y)
        if Int(pixel.0) + Int(pixel.1) + Int(pixel.2) < 600 { ink += 1 }
      }
    }
    #expect(ink > 20)
  }

  /// Creation dates before 2000 or after the save are not real times: an even pace, and a note.
  @Test func datesBefore2000OrAfterTheSaveAreNotTimes() throws {
    let saved2026 = 804_506_400.0  // 2026-07-01T10:00:00Z, the first save, in seconds since 2001
    for (label, date) in [("1997", -100_000_000.0), ("after the save", saved2026 + 30 * 86_400)] {
      let folder = try TemporaryFolder("timelapse-dates")
      var drawing = try decode(try deviceSample("three-pen-strokes"))
      for index in drawing.strokes.indices { drawing.strokes[index].path!.creationDate = date + Double(index) }
      let archive = try archive(folder, [(try DrawingWriter.write(drawing), (1, 1, 1, 1))])
      var options = TimelapseOptions()
      options.pace = .duration(2)
      options.hold = 0.5
      options.fps = 10
      options.size = .fit(width: 64, height: 64)
      let summary = try archive.timelapse(of: "Plan", options: options, to: .frames(folder: folder.path("f")))
      #expect(summary.evenPace, "\(label)")
      #expect(summary.frames == 20 && summary.strokes == drawing.strokes.count, "\(label)")
    }
  }

  /// WebP frames stop one pixel short of the renderer's (libwebp's limit): a strip drawn
  /// 16384 pixels wide is refused before a frame is drawn.
  @Test func webpFramesAreAtMost16383PixelsASide() throws {
    let folder = try TemporaryFolder("timelapse-wide")
    let archive = try archive(folder, [(try HandwritingPage.lineBytes(length: 3000), (1, 1, 1, 1))])
    var options = TimelapseOptions()
    options.size = .fit(width: 16_384, height: 16_384)
    let (plan, _) = try archive.timelapsePlan(of: "Plan", options: options)
    #expect(plan.geometry.width == 16_384 && plan.geometry.height < 4096)
    #expect(throws: ArchiveError.invalidArgument(.timelapse(.webpSize(width: 16_384, height: plan.geometry.height)))) {
      try archive.timelapse(of: "Plan", options: options, to: .video(folder.path("wide.webp"), .webp))
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path("wide.webp")))
  }

  /// MP4 frames stay within H.264's level table: frames of more macroblocks than level 6.2
  /// allows, the largest, are refused before a frame is drawn, and nothing is written.
  @Test func mp4FramesStayWithinTheLargestH264Level() throws {
    let folder = try TemporaryFolder("timelapse-level")
    let archive = try archive(folder, [(try deviceSample("handwritten-half-notes"), (1, 1, 1, 1))])
    var options = TimelapseOptions()
    options.size = .fit(width: 9000, height: 9000)
    let (plan, _) = try archive.timelapsePlan(of: "Plan", options: options)
    let (width, height) = (plan.geometry.width, plan.geometry.height)
    let blocks = ((width + 15) / 16) * ((height + 15) / 16)
    #expect(blocks > TimelapseOptions.maximumMP4Macroblocks)
    #expect(
      throws: ArchiveError.invalidArgument(.timelapse(.mp4Size(width: width, height: height, macroblocks: blocks)))
    ) {
      try archive.timelapse(of: "Plan", options: options, to: .video(folder.path("large.mp4"), .mp4))
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path("large.mp4")))
  }

  /// A stop asked for between frames ends the time-lapse with `.timelapseStopped`: the frames
  /// of a folder written before it stay, a video leaves nothing, not even its temporary file.
  @Test func aStopEndsTheTimelapseBetweenFrames() throws {
    let folder = try TemporaryFolder("timelapse-stop")
    let archive = try archive(folder, [(try deviceSample("three-pen-strokes"), (1, 1, 1, 1))])
    var options = TimelapseOptions()
    options.pace = .duration(10)
    options.fps = 10
    options.size = .fit(width: 64, height: 64)
    var asked = 0
    #expect(throws: ArchiveError.timelapseStopped(framesWritten: 3)) {
      try archive.timelapse(
        of: "Plan", options: options, to: .frames(folder: folder.path("frames")),
        shouldStop: {
          asked += 1
          return asked > 3
        })
    }
    #expect(try frames(in: folder.path("frames")).count == 3)
    for format in TimelapseFormat.allCases {
      asked = 0
      _ = try folder.makeFolder(format.rawValue)
      #expect(throws: ArchiveError.timelapseStopped(framesWritten: 0)) {
        try archive.timelapse(
          of: "Plan", options: options, to: .video(folder.path("\(format)/video.\(format)"), format),
          shouldStop: {
            asked += 1
            return asked > 3
          })
      }
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path(format.rawValue)) == [])
    }
    #expect(throws: ArchiveError.timelapseStopped(framesWritten: 0)) {
      try archive.timelapseVideo(of: "Plan", options: options, shouldStop: { true })
    }
  }

  /// A stroke whose times say it took 10^38 seconds (the largest a float time offset holds):
  /// refused at its own pace, not a trap, and fitted to a duration.
  @Test func aStrokeOfAbsurdLengthIsRefusedOrFitted() throws {
    let folder = try TemporaryFolder("timelapse-absurd")
    var drawing = try decode(try deviceSample("three-pen-strokes"))
    let points = drawing.strokes[0].path!.points.indices
    drawing.strokes[0].path!.points[points.last!].timeOffset = 3e38
    let archive = try archive(folder, [(try DrawingWriter.write(drawing), (1, 1, 1, 1))])
    var options = TimelapseOptions()
    options.pace = .realTime
    #expect(throws: ArchiveError.self) { try archive.timelapsePlan(of: "Plan", options: options) }
    options.pace = .speed(1000)
    #expect(throws: ArchiveError.self) { try archive.timelapsePlan(of: "Plan", options: options) }
    options.pace = .duration(3)
    options.hold = 1
    options.fps = 10
    let (_, summary) = try archive.timelapsePlan(of: "Plan", options: options)
    #expect(summary.frames == 30)
  }

  /// A draft of many strokes (20,000 here; scripts/bench-timelapse times 200,000 in a release
  /// build): every stroke drawn, in the frames asked for, with progress all along.
  @Test func aDraftOfManyStrokesFinishes() throws {
    let folder = try TemporaryFolder("timelapse-huge")
    // A device stroke cut to three points, drawn 20,000 times on a grid, one every 0.1 s.
    var drawing = try decode(try deviceSample("three-pen-strokes"))
    var stroke = drawing.strokes[0]
    stroke.path!.points = Array(stroke.path!.points.prefix(3))
    let start = stroke.path!.creationDate
    drawing.strokes = (0..<20_000).map { index in
      var copy = stroke
      copy.path!.creationDate = start + Double(index) / 10
      copy.uuid = UUIDBytes((0..<16).map { UInt8(truncatingIfNeeded: index >> (8 * ($0 % 4))) ^ UInt8($0) })
      for point in copy.path!.points.indices {
        copy.path!.points[point].location.x += Double(index % 200) * 4
        copy.path!.points[point].location.y += Double(index / 200) * 4
      }
      return copy
    }
    let archive = try archive(folder, [(try DrawingWriter.write(drawing), (1, 1, 1, 1))])
    let name = "Plan"
    var options = TimelapseOptions()
    options.pace = .duration(3)
    options.hold = 1
    options.fps = 10
    options.size = .fit(width: 96, height: 96)
    var calls = 0
    let summary = try archive.timelapse(
      of: name, options: options, to: .frames(folder: folder.path("frames")), progress: { _, _ in calls += 1 })
    #expect(summary.strokes == 20_000)
    #expect(summary.frames == 30)
    #expect(calls >= 30)
    #expect(try frames(in: folder.path("frames")).count == 30)
  }

  @Test func optionsOutOfRangeAreRefused() throws {
    let folder = try TemporaryFolder("timelapse-options")
    let archive = try archive(folder, [(try deviceSample("three-pen-strokes"), (1, 1, 1, 1))])
    func refused(_ change: (inout TimelapseOptions) -> Void) -> ArchiveError? {
      var options = TimelapseOptions()
      change(&options)
      do {
        _ = try archive.timelapsePlan(of: "Plan", options: options)
        return nil
      } catch { return error }
    }
    #expect(refused { $0.fps = 0 } == .invalidArgument(.timelapse(.fps(0))))
    #expect(refused { $0.hold = -1 } == .invalidArgument(.timelapse(.hold(-1))))
    #expect(refused { $0.pace = .duration(2) } == .invalidArgument(.timelapse(.duration(2, hold: 2))))
    #expect(refused { $0.pace = .speed(0) } == .invalidArgument(.timelapse(.speed(0))))
    #expect(
      refused { $0.size = .fit(width: 1, height: 100) } == .invalidArgument(.timelapse(.size(width: 1, height: 100))))
    #expect(refused { $0.size = .scale(17) } == .invalidArgument(.renderScale(17)))
    guard case .invalidArgument(.timelapse(.length(let seconds)))? = refused({ $0.pace = .speed(1e-9) }) else {
      Issue.record("a pace that would last years is refused")
      return
    }
    #expect(seconds > TimelapseOptions.maximumSeconds)
    // More frames than an Int holds: refused too, not a trap in the planner.
    guard case .invalidArgument(.timelapse(.length(let endless)))? = refused({ $0.pace = .speed(1e-300) }) else {
      Issue.record("a pace that would last 1e300 seconds is refused")
      return
    }
    #expect(endless > 1e300)
    do {
      _ = try archive.timelapsePlan(of: "Nope", options: TimelapseOptions())
      Issue.record("no draft called Nope")
    } catch {
      guard case .noSuchDraft(name: "Nope", _) = error else {
        Issue.record("\(error)")
        return
      }
    }
    // Frames already there are not replaced without `overwrite`.
    var options = TimelapseOptions()
    options.pace = .duration(0.5)
    options.hold = 0.1
    options.fps = 4
    options.size = .fit(width: 64, height: 64)
    _ = try archive.timelapse(of: "Plan", options: options, to: .frames(folder: folder.path("frames")))
    #expect(throws: ArchiveError.destinationExists(path: folder.path("frames/00001.png"))) {
      try archive.timelapse(of: "Plan", options: options, to: .frames(folder: folder.path("frames")))
    }
    _ = try archive.timelapse(of: "Plan", options: options, to: .frames(folder: folder.path("frames")), overwrite: true)
  }
}
