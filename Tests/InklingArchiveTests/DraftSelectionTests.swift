import Foundation
import InklingFormats
import InklingTestSupport
import Testing

@testable import InklingArchive
@testable import InklingStore

/// The drafts of a contact sheet or a portfolio are read a sheet, a page at a
/// time, never as a list of every draft (on ThumbnailCacheTests' five drafts).
extension ThumbnailCacheTests {
  /// A query is answered by the library: its sheet and its portfolio are those of the drafts
  /// `list` finds for it, in its order.
  @Test func aSheetAndAPortfolioOfAQueryShowWhatItsListFinds() throws {
    let utc = TimeZone(identifier: "UTC")!
    let query = try DraftQuery(since: "2025-10-03", timeZone: utc)
    let names = try archive.drafts(matching: query).map(\.name)
    #expect(names == ["Opaque", "Empty", "Copy", "Strokes"])
    let sheet = try archive.contactSheetPicture(drafts: .matching(query), timeZone: utc)
    #expect(sheet.drafts == 4 && sheet.placeholders == ["Opaque"])
    #expect(sheet.png == (try archive.contactSheet(drafts: .named(names), timeZone: utc)))

    let portfolio = try archive.portfolioPDF(drafts: .matching(query), timeZone: utc)
    #expect(portfolio.summary.drafts == 4 && portfolio.summary.pages == 1)
    #expect(portfolio.pdf == (try archive.portfolioPDF(drafts: .named(names), timeZone: utc)).pdf)

    let paths = try archive.contactSheets(drafts: .matching(query), to: folder.path("sheet.png"))
    #expect(paths.sheets.map(\.drafts) == [4])
    #expect(throws: ArchiveError.noMatchingDrafts) {
      _ = try archive.contactSheet(drafts: .matching(DraftQuery(since: "2030", timeZone: utc)))
    }
  }

  /// A search maps the archive's file; the thumbnails and drawings a sheet reads after it go
  /// through the page cache instead, or every page the search and the sheet touched would
  /// count in the process's memory, more as the archive grows.
  @Test func aSheetOfAQueryReadsThroughThePageCache() throws {
    func mapSize() throws -> Int { try archive.database.fetchOne("PRAGMA mmap_size") { $0.int(0) } ?? -1 }
    let query = try DraftQuery(since: "2025-10-03")
    _ = try archive.drafts(matching: query)
    #expect(try mapSize() > 0, "a search maps the file")
    _ = try archive.contactSheet(drafts: .matching(query))
    #expect(try mapSize() == 0)
    _ = try archive.drafts(matching: query)
    _ = try archive.portfolioPDF(drafts: .matching(query))
    #expect(try mapSize() == 0)
  }

  /// The drafts chosen for a sheet are read back by position, in the order they were added,
  /// a draft added twice shown twice.
  @Test func selectedDraftsAreReadBackByPosition() throws {
    let selected = try SelectedDrafts(archive.database, label: "test")
    for name in ["Notes", "Copy", "Notes", "Empty"] { #expect(try selected.add(draftNamed: name)) }
    #expect(try !selected.add(draftNamed: "Nobody"))
    #expect(try selected.count() == 4)
    #expect(try selected.newestVersions(1..<3).map(\.name) == ["Copy", "Notes"])
    #expect(try selected.newestVersions(0..<4).map(\.name) == ["Notes", "Copy", "Notes", "Empty"])
    #expect(try selected.newestVersions(4..<8).isEmpty)
  }
}
