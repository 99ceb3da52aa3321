import Foundation
import InklingFormats
import InklingRendering
import InklingTestSupport
import Testing

@testable import InklingArchive
@testable import InklingStore

/// The archive side of thumbnails: keys, hits and misses, invalidation, `gc`, contact sheets.
@Suite struct ThumbnailCacheTests {
  let folder: TemporaryFolder
  let archive: Archive

  /// Drafts from the real samples: "Notes" (cream background, two versions, the second on
  /// white), "Strokes" and "Copy" (the same drawing and colour), "Empty", and "Opaque", whose
  /// drawing does not decode.
  init() throws {
    folder = try TemporaryFolder("thumbnails")
    let notes = try deviceSample("handwritten-half-notes")
    try folder.write("Drafts/Notes-2025-10-01T10:00:00Z.inkling", inklingFile(drawing: notes, color: (1, 0.95, 0.8, 1)))
    try folder.write("Drafts/Notes-2025-10-02T10:00:00Z.inkling", inklingFile(drawing: notes, color: (1, 1, 1, 1)))
    let strokes = try deviceSample("three-pen-strokes")
    try folder.write(
      "Drafts/Strokes-2025-10-03T10:00:00Z.inkling", inklingFile(drawing: strokes, color: (0.2, 0.3, 0.9, 1)))
    try folder.write(
      "Drafts/Copy-2025-10-04T10:00:00Z.inkling", inklingFile(drawing: strokes, color: (0.2, 0.3, 0.9, 1)))
    try folder.write(
      "Drafts/Empty-2025-10-05T10:00:00Z.inkling", inklingFile(drawing: try deviceSample("empty"), color: (0, 0, 0, 1)))
    try folder.write(
      "Drafts/Opaque-2025-10-06T10:00:00Z.inkling",
      inklingFile(drawing: Array("not a drawing".utf8), color: (0, 0.5, 0, 1)))
    archive = try Archive(path: folder.path("archive.sqlite"))
    let summary = try archive.importFiles(at: [folder.path("Drafts")])
    #expect(summary.versionsImported == 6 && summary.rejected == 0)
  }

  func rows() throws -> Int { try archive.database.fetchOne("SELECT count(*) FROM thumbnail") { $0.int(0) } ?? -1 }

  /// Version `selector` of `draft`'s thumbnail through the library's door, as the `thumbnail`
  /// command asks for it (on `reader`, this test's archive unless given): looked up, read from
  /// the cache, else rendered (and stored, when `reader` can write); and whether it was cached.
  func thumbnail(
    _ draft: String, _ selector: VersionSelector = .latest, size: Int = ThumbnailCache.defaultSize,
    on reader: Archive? = nil
  ) throws -> (png: [UInt8], cached: Bool) {
    let reader = reader ?? archive
    let thumbnail = try reader.lookUpThumbnail(of: .draft(draft, selector), size: size)
    if let png = try reader.readThumbnail(thumbnail) { return (png, true) }
    return (try reader.renderThumbnails([thumbnail])[0], false)
  }

  @Test func aMissRendersAndStoresTheSecondReadIsAHit() throws {
    let first = try thumbnail("Notes", .number(1), size: 256)
    #expect(!first.cached)
    #expect(try rows() == 1)
    let second = try thumbnail("Notes", .number(1), size: 256)
    #expect(second.cached)
    #expect(second.png == first.png)
    #expect(try rows() == 1)

    // The pixels: the requested size, the background in the corner, ink somewhere.
    let image = try PNG.decode(first.png)
    #expect(image.width == 256 && image.height == 256)
    let corner = image.pixel(x: 0, y: 0)
    #expect(corner.r == 255 && corner.g == 242 && corner.b == 204 && corner.a == 255)
    let dark = stride(from: 0, to: image.rgba.count, by: 4).filter { image.rgba[$0] < 80 && image.rgba[$0 + 1] < 80 }
    #expect(dark.count > 200, "the black ink of the notes is drawn")
  }

  @Test func aCachedThumbnailIsReadFromAnArchiveOpenedReadOnly() throws {
    let readOnly = try Archive(path: folder.path("archive.sqlite"), mode: .readOnly)
    let notes = try readOnly.lookUpThumbnail(of: .draft("Notes", .number(2)))
    #expect(try readOnly.readThumbnail(notes) == nil, "nothing cached yet")
    #expect(try rows() == 0)
    // Looked up on one connection, rendered and stored through another.
    let rendered = try archive.renderThumbnails([notes])[0]
    #expect(try rows() == 1)
    #expect(try readOnly.readThumbnail(notes) == rendered)
    #expect(try readOnly.readThumbnail(readOnly.lookUpThumbnail(of: .draft("Notes", .number(2)), size: 512)) == nil)
    #expect(throws: ArchiveError.self) { try readOnly.lookUpThumbnail(of: .draft("Nobody", .latest)) }
    let picture = try #require(Picture(notes, png: rendered))
    #expect(picture.width == 256 && picture.version.number == 2 && picture.unreadable == nil)
    // A drawing that does not decode has its placeholder cached like any picture, and says so.
    let opaque = try readOnly.lookUpThumbnail(of: .draft("Opaque", .latest))
    #expect(opaque.unreadable != nil)
    try archive.renderThumbnails([opaque])
    let cached = try #require(try readOnly.readThumbnail(opaque))
    #expect(Picture(opaque, png: cached)?.unreadable == opaque.unreadable)
  }

  @Test func aThumbnailByIdIsTheCachedPNGWithoutTheVersionsText() throws {
    let id = try archive.timeline(of: .name("Notes")).versions[1].id
    let byID = try archive.lookUpThumbnail(of: .version(id))
    let byName = try archive.lookUpThumbnail(of: .draft("Notes", .number(2)))
    #expect(byID.tag == byName.tag && byID.version == nil && byName.version?.number == 2)
    let png = try archive.renderThumbnails([byID])[0]
    #expect(PNGText.texts(of: png).map(\.0) == ["Software"])
    #expect(try archive.readThumbnail(byID) == png)
    #expect(Picture(byID, png: png) == nil)
    let named = try #require(try archive.readThumbnail(byName))
    #expect(Dictionary(PNGText.texts(of: named), uniquingKeysWith: { a, _ in a })["Inkling Version"] == "2")
    #expect(throws: ArchiveError.noVersionWithID(VersionID(rawValue: 999_999))) {
      try archive.lookUpThumbnail(of: .version(VersionID(rawValue: 999_999)))
    }
  }

  @Test func textChunksNameTheSoftwareDraftVersionAndSavedDate() throws {
    let png = try thumbnail("Notes", .number(2)).png
    let text = Dictionary(PNGText.texts(of: png), uniquingKeysWith: { a, _ in a })
    #expect(text["Software"] == "inkling-archive")
    #expect(text["Title"] == "Notes")
    #expect(text["Inkling Version"] == "2")
    #expect(text["Creation Time"] == "2025-10-02T10:00:00Z")
    #expect(text["Inkling File"] == "Notes-2025-10-02T10:00:00Z.inkling")
    // A cache hit for another draft carries that draft's own text.
    _ = try thumbnail("Strokes").png
    let copy = Dictionary(PNGText.texts(of: try thumbnail("Copy").png), uniquingKeysWith: { a, _ in a })
    #expect(copy["Title"] == "Copy")
    #expect(try PNG.decode(png).width == 256)
  }

  @Test func keysFollowContentBackgroundSizeAndRendererVersion() throws {
    // The same drawing and colour in another draft: one row, a hit.
    #expect(try !thumbnail("Strokes", .latest, size: 256).cached)
    #expect(try thumbnail("Copy", .latest, size: 256).cached)
    // The same drawing on another background: a miss, and white in the corner.
    #expect(try !thumbnail("Notes", .number(1), size: 256).cached)
    let white = try thumbnail("Notes", .number(2), size: 256)
    #expect(!white.cached)
    #expect(try PNG.decode(white.png).pixel(x: 255, y: 255) == (255, 255, 255, 255))
    // Another size: a miss.
    #expect(try !thumbnail("Copy", .latest, size: 128).cached)
    #expect(try rows() == 4)

    let hash = [UInt8](repeating: 7, count: 16)
    let background = RGBA(red: 1, green: 1, blue: 1, alpha: 1)
    let base = ThumbnailCache.key(contentHash: hash, background: background, pixelSize: 256, rendererVersion: 1)
    #expect(base.count == 32)
    #expect(base == ThumbnailCache.key(contentHash: hash, background: background, pixelSize: 256, rendererVersion: 1))
    let others = [
      ThumbnailCache.key(
        contentHash: [UInt8](repeating: 8, count: 16), background: background, pixelSize: 256, rendererVersion: 1),
      ThumbnailCache.key(contentHash: nil, background: background, pixelSize: 256, rendererVersion: 1),
      ThumbnailCache.key(
        contentHash: hash, background: RGBA(red: 1, green: 1, blue: 1.0000000000000002, alpha: 1), pixelSize: 256,
        rendererVersion: 1),
      ThumbnailCache.key(contentHash: hash, background: background, pixelSize: 512, rendererVersion: 1),
      ThumbnailCache.key(contentHash: hash, background: background, pixelSize: 256, rendererVersion: 2),
    ]
    #expect(Set(others + [base]).count == 6)
  }

  @Test func aNewRendererVersionMissesAndGCDropsTheOldRows() throws {
    archive.pictureRenderer.version = 1
    #expect(try !thumbnail("Strokes", .latest, size: 256).cached)
    #expect(try thumbnail("Strokes", .latest, size: 256).cached)
    archive.pictureRenderer.version = 2
    #expect(try !thumbnail("Strokes", .latest, size: 256).cached)
    #expect(try thumbnail("Strokes", .latest, size: 256).cached)
    #expect(try rows() == 2)
    #expect(try ThumbnailCache.removeUnneeded(in: archive) == 1)
    #expect(try thumbnail("Strokes", .latest, size: 256).cached)
    #expect(try archive.database.fetchOne("SELECT renderer_version FROM thumbnail") { $0.int(0) } == 2)
  }

  @Test func gcKeepsWhatVersionsNeedAndStatsCountsIt() throws {
    for draft in ["Notes", "Strokes", "Empty", "Opaque"] { _ = try thumbnail(draft).png }
    _ = try thumbnail("Notes", .number(1), size: 1024).png
    let size = try ThumbnailCache.size(in: archive)
    #expect(size.count == 5)
    let bytes = try archive.database.fetchOne("SELECT sum(length(png)) FROM thumbnail") { $0.int64(0) }
    #expect(size.bytes == bytes)
    #expect(try ThumbnailCache.removeUnneeded(in: archive) == 0)

    // Rows for a content no version has, a background no version has, a content some
    // version has but not on that background, and a content no version has on the background
    // of the undecodable drawing (whose NULL hash must not keep it).
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    let shown = try #require(
      try archive.database.fetchOne("SELECT content_hash FROM thumbnail WHERE content_hash IS NOT NULL") { $0.bytes(0) }
    )
    let opaque = try #require(
      try archive.database.fetchOne(
        """
        SELECT v.background_r, v.background_g, v.background_b, v.background_a FROM version v
        JOIN drawing d ON d.blob_id = v.blob_id WHERE d.content_hash IS NULL
        """
      ) { RGBA(red: $0.double(0), green: $0.double(1), blue: $0.double(2), alpha: $0.double(3)) })
    let rows: [([UInt8]?, RGBA)] = [
      ([UInt8](repeating: 1, count: 16), RGBA(red: 1, green: 0, blue: 0, alpha: 1)),
      (nil, RGBA(red: 0.25, green: 0, blue: 0, alpha: 1)),
      (shown, RGBA(red: 0.5, green: 0, blue: 0, alpha: 1)),
      ([UInt8](repeating: 2, count: 16), opaque),
    ]
    for (content, background) in rows {
      try ThumbnailRecords.insert(
        NewThumbnail(
          key: ThumbnailCache.key(
            contentHash: content, background: background, pixelSize: 256, rendererVersion: Renderer.version),
          contentHash: content, background: background, pixelSize: 256, rendererVersion: Renderer.version,
          png: [1, 2, 3],
          createdMilliseconds: now),
        in: archive.database)
    }
    #expect(try ThumbnailCache.size(in: archive).count == 9)
    #expect(try ThumbnailCache.removeUnneeded(in: archive) == 4)
    #expect(try ThumbnailCache.size(in: archive) == size)
  }

  @Test func sizesAreTheFreedesktopOnes() throws {
    for size in [128, 256, 512, 1024] {
      let image = try PNG.decode(try thumbnail("Strokes", size: size).png)
      #expect(image.width == size && image.height == size)
      #expect(image.pixel(x: 0, y: 0) == (51, 76, 230, 255))
    }
    for size in [0, 64, 100, 257, 2048] {
      #expect {
        _ = try thumbnail("Strokes", size: size).png
      } throws: { ($0 as? ArchiveError) == .invalidArgument(.thumbnailSize(size)) }
    }
  }

  @Test func anUndecodableDrawingGivesItsBackgroundWithAMarker() throws {
    let first = try thumbnail("Opaque", .latest, size: 128)
    #expect(!first.cached)
    let image = try PNG.decode(first.png)
    #expect(image.pixel(x: 0, y: 0) == (0, 128, 0, 255))
    #expect(image.pixel(x: 64, y: 64) != (0, 128, 0, 255), "the marker is in the middle")
    #expect(try archive.database.fetchOne("SELECT content_hash IS NULL FROM thumbnail") { $0.int(0) } == 1)
    #expect(try thumbnail("Opaque", .latest, size: 128).cached)
    // Its share image is the placeholder too, saying why.
    let shared = try archive.renderPicture(draft: "Opaque", scale: 1)
    #expect(shared.unreadable != nil)
    #expect(try PNG.decode(shared.bytes).pixel(x: 0, y: 0) == (0, 128, 0, 255))
  }

  @Test func aDrawingThatIsNotIndexedYetGetsTheSameKey() throws {
    _ = try thumbnail("Strokes").png
    try archive.database.execute("DELETE FROM drawing")
    #expect(try thumbnail("Copy", .latest, size: 256).cached)
  }

  @Test func aReadOnlyArchiveRendersWithoutStoring() throws {
    let readOnly = try Archive(path: folder.path("archive.sqlite"), mode: .readOnly)
    #expect(try !thumbnail("Strokes", .latest, size: 256, on: readOnly).cached)
    #expect(try !thumbnail("Strokes", .latest, size: 256, on: readOnly).cached)
    #expect(try rows() == 0)
  }

  @Test func renderingManyDrawsEachTagOnceOnSeveralThreads() throws {
    let names = try archive.drafts().map(\.name)
    let thumbnails = try names.map { try archive.lookUpThumbnail(of: .draft($0, .latest)) }
    let pngs = try archive.renderThumbnails(thumbnails, workers: 2)
    // Five drafts; Copy shares the row of Strokes, and each has its own text.
    #expect(Set(thumbnails.map(\.tag)).count == 4)
    #expect(try rows() == 4)
    for (name, (thumbnail, png)) in zip(names, zip(thumbnails, pngs)) {
      #expect(try archive.readThumbnail(thumbnail) == png, "\(name)")
      #expect(Dictionary(PNGText.texts(of: png), uniquingKeysWith: { a, _ in a })["Title"] == name)
    }
  }

  @Test func renderIsTheShareImage() throws {
    let png = try archive.render(draft: "Strokes", scale: 1)
    let image = try PNG.decode(png)
    #expect(image.pixel(x: 0, y: 0) == (51, 76, 230, 255))
    let twice = try PNG.decode(try archive.render(draft: "Strokes", scale: 2))
    #expect(abs(twice.width - 2 * image.width) <= 1 && abs(twice.height - 2 * image.height) <= 1)
    #expect(Dictionary(PNGText.texts(of: png), uniquingKeysWith: { a, _ in a })["Title"] == "Strokes")
    #expect { _ = try archive.render(draft: "Strokes", scale: 0) } throws: {
      ($0 as? ArchiveError) == .invalidArgument(.renderScale(0))
    }
  }

  @Test func contactSheetGridForNDrafts() throws {
    let names = try archive.drafts().map(\.name)
    #expect(names == ["Opaque", "Empty", "Copy", "Strokes", "Notes"])
    let utc = TimeZone(identifier: "UTC")!
    let sheet = try PNG.decode(try archive.contactSheet(drafts: .named(names), size: 128, timeZone: utc))
    // 5 drafts: 3 columns, 2 rows of 128 px thumbnails, 8 px margins, 4 + 30 px of captions.
    #expect(sheet.width == 8 + 3 * (128 + 8))
    #expect(sheet.height == 8 + 2 * (128 + 4 + 30 + 8))
    // The first cell is Opaque's green background; the fifth (second row, middle) is Notes.
    #expect(sheet.pixel(x: 8 + 2, y: 8 + 2) == (0, 128, 0, 255))
    #expect(sheet.pixel(x: 8 + 136 + 2, y: 8 + 170 + 2) == (255, 255, 255, 255))
    // The caption is drawn under each thumbnail: a row through the name's lower-case letters.
    let captionRow = 8 + 128 + 4 + 13 - 3
    #expect((8..<(8 + 128)).contains { sheet.pixel(x: $0, y: captionRow).r < 0x80 })

    let one = try PNG.decode(try archive.contactSheet(drafts: .named(["Notes"]), size: 256, timeZone: utc))
    #expect(one.width == 16 + 256 + 16 && one.height == 16 + 256 + 8 + 60 + 16)
    let wide = try PNG.decode(try archive.contactSheet(drafts: .named(names), size: 128, columns: 5, timeZone: utc))
    #expect(wide.width == 8 + 5 * 136 && wide.height == 8 + 170)
    #expect(throws: ArchiveError.self) { _ = try archive.contactSheet(drafts: .named(["Nobody"])) }
    #expect(throws: ArchiveError.self) { _ = try archive.contactSheet(drafts: .named([])) }
  }

  @Test func textChunksSurvivePNGCheckAndDecoding() throws {
    let png = PNGText.inserting(
      [("Title", "Ünï\u{1}code"), ("Comment", "plain")], into: try thumbnail("Empty", size: 128).png)!
    #expect(try PNG.decode(png).width == 128)
    let texts = PNGText.texts(of: png)
    #expect(texts.first! == ("Title", "Ünï?code"))
    #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
  }
}

/// A cached thumbnail is a row like any other: one from another archive can say 128 pixels
/// and hold a PNG of any size.
@Suite struct ThumbnailOfAnotherSizeTests {
  @Test func aCachedPNGOfAnotherSizeIsDrawnAgainAndTheSheetStaysWhole() throws {
    let folder = try TemporaryFolder("thumbnail-size")
    let strokes = try deviceSample("three-pen-strokes")
    for (index, name) in ["Alpha", "Beta", "Gamma"].enumerated() {
      try folder.write(
        "Drafts/\(name)-2025-10-0\(index + 1)T10:00:00Z.inkling", inklingFile(drawing: strokes, color: (1, 1, 1, 1)))
    }
    let path = folder.path("archive.sqlite")
    _ = try Archive(path: path).importFiles(at: [folder.path("Drafts")])
    let sheet = folder.path("sheet.png")
    func contactSheet() throws -> ChildProcess.Result {
      try ChildProcess.run([BuiltProducts.inklingArchive, "--archive", path, "contact-sheet", "--force", "-o", sheet])
    }
    #expect(try contactSheet().status == 0)
    let first = try PNG.decode(Array(try Data(contentsOf: URL(fileURLWithPath: sheet))))

    // Every cached row now holds a strip 128 wide and 4096 tall, as a hostile merge left it.
    let strip = try PNG.encode(
      RenderedImage(width: 128, height: 4096, rgba: [UInt8](repeating: 0x41, count: 128 * 4096 * 4)))
    let archive = try Archive(path: path)
    try archive.database.execute("UPDATE thumbnail SET png = ?", [strip])
    let result = try contactSheet()
    #expect(result.status == 0, "\(result.stderr)")
    let second = try PNG.decode(Array(try Data(contentsOf: URL(fileURLWithPath: sheet))))
    #expect(second == first, "the thumbnails are drawn again, not taken from the rows")
    let rows = try archive.database.fetchAll("SELECT png FROM thumbnail") { $0.bytes(0) }
    #expect(!rows.isEmpty)
    #expect(
      rows.allSatisfy { PNG.size(of: $0).map { $0.width == 128 && $0.height == 128 } == true }, "and stored over them")
  }
}
