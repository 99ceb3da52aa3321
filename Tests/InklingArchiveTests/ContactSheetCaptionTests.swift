// Contact-sheet captions, decoded back from the PNG: ink where each name and date should be,
// none in the gaps between cells, right-to-left names aligned right, colour emoji in colour,
// long names cut to the thumbnail's width.

import Foundation
import InklingFormats
import InklingRendering
import InklingTestSupport
import Testing

@testable import InklingArchive

@Suite struct ContactSheetCaptionTests {
  let folder: TemporaryFolder
  let archive: Archive
  static let names = [
    "Łódź Ærøskøbing", "Кошка", "猫の絵", "قطة", "Cat 🐈‍⬛",
    "A very long name that is much wider than any thumbnail",
  ]

  init() throws {
    folder = try TemporaryFolder("captions")
    let drawing = try deviceSample("three-pen-strokes")
    for (i, name) in Self.names.enumerated() {
      try folder.write("Drafts/\(name)-2025-10-0\(i + 1)T10:00:00Z.inkling", inklingFile(drawing: drawing))
    }
    archive = try Archive(path: folder.path("archive.sqlite"))
    #expect(try archive.importFiles(at: [folder.path("Drafts")]).versionsImported == Self.names.count)
  }

  /// The columns of the pixels in `rows` of `columns` darker than the sheet's grey.
  func inkColumns(_ sheet: RenderedImage, columns: Range<Int>, rows: Range<Int>) -> [Int] {
    columns.filter { x in rows.contains { y in sheet.pixel(x: x, y: y).g < 0xC0 } }
  }

  @Test func everyNameAndDateIsDrawnUnderItsThumbnail() throws {
    let utc = TimeZone(identifier: "UTC")!
    let png = try archive.contactSheet(drafts: .named(Self.names), size: 128, timeZone: utc)
    let sheet = try PNG.decode(png)
    let layout = ContactSheetLayout(count: Self.names.count, thumbnailSize: 128)
    #expect(layout.columns == 3 && sheet.width == layout.width && sheet.height == layout.height)
    var spans: [String: ClosedRange<Int>] = [:]
    for (i, name) in Self.names.enumerated() {
      let (x, y) = layout.origin(i)
      let (nameBaseline, dateBaseline) = layout.baselines(y: y)
      let nameRows = (nameBaseline - 12)..<(nameBaseline + 4)
      let ink = inkColumns(sheet, columns: x..<(x + 128), rows: nameRows)
      #expect(ink.count > 12, "\(name): the name is drawn (\(ink.count) columns of ink)")
      spans[name] = (ink.min() ?? 0)...(ink.max() ?? 0)
      // Nothing in the gap to the next cell, and the date in its own line.
      #expect(inkColumns(sheet, columns: (x + 129)..<(x + 136), rows: nameRows).isEmpty, "\(name)")
      let date = inkColumns(sheet, columns: x..<(x + 128), rows: (dateBaseline - 9)..<(dateBaseline + 1))
      #expect(date.first.map { $0 - x } ?? 99 <= 2 && date.count > 40, "\(name): the date is drawn")
    }
    // Left-to-right names start at the thumbnail's left edge; the Arabic one ends at its right.
    for name in ["Łódź Ærøskøbing", "Кошка", "猫の絵", "Cat 🐈‍⬛"] {
      #expect(spans[name]!.lowerBound - layout.origin(Self.names.firstIndex(of: name)!).x <= 2, "\(name)")
    }
    let arabic = spans["قطة"]!
    let arabicX = layout.origin(3).x
    #expect(arabic.upperBound - arabicX >= 124 && arabic.lowerBound - arabicX > 90, "\(arabic) from \(arabicX)")
    // The long name is cut to the thumbnail's width, nearly filling it.
    let long = spans[Self.names[5]]!
    #expect(long.upperBound - layout.origin(5).x >= 112 && long.upperBound - layout.origin(5).x < 128)
    // The black cat has pink ears: colour emoji keep their colours.
    let (catX, catY) = layout.origin(4)
    let cat = layout.baselines(y: catY).name
    let pink = (catX..<(catX + 128)).flatMap { x in ((cat - 12)..<cat).map { sheet.pixel(x: x, y: $0) } }
      .filter { Int($0.r) - Int($0.g) > 25 }
    #expect(pink.count >= 2, "\(pink.count) pinkish pixels")
    #expect(PNGText.texts(of: png).contains { $0.0 == "Description" && $0.1 == Self.names.joined(separator: "\n") })
  }

  @Test func captionsAtTwiceTheSizeForLargeThumbnails() throws {
    let sheet = try PNG.decode(try archive.contactSheet(drafts: .named(["Кошка"]), size: 256))
    let layout = ContactSheetLayout(count: 1, thumbnailSize: 256)
    #expect(sheet.height == 16 + 256 + 8 + 60 + 16)
    let (x, y) = layout.origin(0)
    let baseline = layout.baselines(y: y).name
    let small = try PNG.decode(try archive.contactSheet(drafts: .named(["Кошка"]), size: 128))
    let smallLayout = ContactSheetLayout(count: 1, thumbnailSize: 128)
    let smallBaseline = smallLayout.baselines(y: smallLayout.origin(0).y).name
    let large = inkColumns(sheet, columns: x..<(x + 256), rows: (baseline - 24)..<(baseline + 8))
    let normal = inkColumns(
      small, columns: smallLayout.origin(0).x..<(smallLayout.origin(0).x + 128),
      rows: (smallBaseline - 12)..<(smallBaseline + 4))
    let ratio = Double(large.max()! - large.min()!) / Double(normal.max()! - normal.min()!)
    #expect(abs(ratio - 2) < 0.15, "the name is twice as wide: \(ratio)")
  }
}
