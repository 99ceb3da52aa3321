// The archive operations the pages are made of: pages of drafts (every draft once, in the
// order `drafts` gives, in every sort, with and without a query), page cursors, the timeline's
// stroke changes (as `diff` counts them), and images and files by version id.

import Foundation
import InklingArchive
import Testing

@Suite struct ArchivePagesTests {
  /// Every page of a query, followed from the first.
  func allPages(_ archive: Archive, _ query: DraftQuery = .all, sort: DraftSort, limit: Int) throws -> [DraftPageEntry]
  {
    var entries: [DraftPageEntry] = []
    var page = try archive.draftPage(matching: query, sort: sort, limit: limit)
    entries += page.drafts
    var pages = 1
    while let next = page.next {
      #expect(page.drafts.count == limit)
      page = try archive.draftPage(matching: query, sort: sort, after: next, limit: limit)
      entries += page.drafts
      pages += 1
      #expect(pages < 1000)
    }
    return entries
  }

  @Test(arguments: DraftSort.allCases)
  func pagesListEveryDraftOnceInTheOrderOfDrafts(sort: DraftSort) throws {
    let served = try SharedArchive.get()
    let archive = try served.archive()
    let expected = try archive.drafts(sort: sort).map(\.name)
    for limit in [1, 7, 500] {
      let names = try allPages(archive, sort: sort, limit: limit).map(\.draft.name)
      #expect(names == expected, "sort \(sort), \(limit) a page")
    }
  }

  @Test func pagesOfAQueryFollowTheQuery() throws {
    let archive = try SharedArchive.get().archive()
    for text in ["versions:>=2", "not versions:1", "name:a", "saved:<2024 or strokes:>50"] {
      let query = try DraftQuery(search: text)
      for sort in DraftSort.allCases {
        let expected = try archive.drafts(matching: query, sort: sort).map(\.name)
        #expect(try allPages(archive, query, sort: sort, limit: 3).map(\.draft.name) == expected, "\(text), \(sort)")
      }
    }
  }

  @Test func anEntryNamesItsNewestVersion() throws {
    let archive = try SharedArchive.get().archive()
    for entry in try archive.draftPage(limit: 500).drafts {
      let timeline = try archive.timeline(of: entry.draft.name)
      #expect(timeline.last?.id == entry.latestVersion)
      #expect(entry.draft.versionCount == timeline.count)
    }
  }

  @Test func cursorsReadBackOnlyForTheirOwnOrder() throws {
    let archive = try SharedArchive.get().archive()
    for sort in DraftSort.allCases {
      let page = try archive.draftPage(sort: sort, limit: 2)
      let next = try #require(page.next)
      #expect(DraftPageCursor(token: next.token, sort: sort) == next)
      for other in DraftSort.allCases where other != sort {
        #expect(DraftPageCursor(token: next.token, sort: other) == nil)
      }
    }
    for token in ["", "n", "n.1.2", "n.1.2.x", "a.***", "v.1.2", "v.x.2.YQ", "z.1.2.3", "n.1.2.3.4"] {
      #expect(DraftPageCursor(token: token, sort: .newest) == nil)
      #expect(DraftPageCursor(token: token, sort: .name) == nil)
      #expect(DraftPageCursor(token: token, sort: .versions) == nil)
    }
    // A name cursor holds any name, hostile ones too.
    let names = try allPages(archive, sort: .name, limit: 1).map(\.draft.name)
    #expect(ServedArchive.hostileNames.allSatisfy(names.contains))
  }

  @Test func aPageHoldsOneToFiveHundredDrafts() throws {
    let archive = try SharedArchive.get().archive()
    for limit in [0, -1, 501] {
      #expect(throws: ArchiveError.self) { try archive.draftPage(limit: limit) }
    }
  }

  @Test func timelineChangesAreWhatDiffCounts() throws {
    let archive = try SharedArchive.get().archive()
    var compared = 0
    for draft in try archive.drafts() {
      let timeline = try archive.timeline(of: draft.name)
      #expect(timeline.map(\.version) == (try archive.history(of: draft.name)))
      for entry in timeline {
        let changes = try #require(entry.changes, "\(draft.name) version \(entry.version.number)")
        if entry.version.number == 1 {
          #expect(changes.added == entry.version.strokeCount)
          #expect(changes.removed == 0 && changes.hidden == 0 && changes.unhidden == 0)
          continue
        }
        let diff = try archive.diff(draft: draft.name, from: entry.version.number - 1, to: entry.version.number)
        #expect(changes.added == diff.added.count)
        #expect(changes.removed == diff.removed.count)
        #expect(changes.hidden == diff.hidden.count)
        #expect(changes.unhidden == diff.unhidden.count)
        compared += 1
      }
    }
    #expect(compared > 20)
  }

  @Test func versionFilesAreTheImportedBytes() throws {
    let served = try SharedArchive.get()
    let archive = try served.archive()
    for draft in try archive.drafts().prefix(6) {
      for entry in try archive.timeline(of: draft.name) {
        let original = try archive.originalFile(of: entry.id)
        #expect(original.file.fileName == entry.version.fileName)
        #expect(original.bytes == (try served.importedFile(entry.version.fileName)))
        #expect(original.file.sha256 == entry.version.fileSHA256)
        #expect(try archive.versionFile(entry.id) == original.file)
      }
    }
    #expect(throws: ArchiveError.self) { try archive.originalFile(of: VersionID(rawValue: 999_999)) }
  }

  @Test func thumbnailsByIdAreTheCachedThumbnails() throws {
    let served = try ServedArchive()
    let archive = try Archive(path: served.archivePath)
    let entry = try #require(try archive.draftPage(limit: 1).drafts.first)
    let thumbnail = try archive.lookUpThumbnail(of: .version(entry.latestVersion), size: 128)
    #expect(thumbnail.version == nil)
    #expect(try archive.readThumbnail(thumbnail) == nil, "a fresh archive has no thumbnails cached")
    let png = try archive.renderThumbnails([thumbnail])[0]
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    let again = try archive.lookUpThumbnail(of: .version(entry.latestVersion), size: 128)
    #expect(again.tag == thumbnail.tag)
    #expect(try archive.readThumbnail(again) == png)
    #expect(try ThumbnailCache.size(in: archive).count == 1)
    #expect(throws: ArchiveError.self) { try archive.lookUpThumbnail(of: .version(entry.latestVersion), size: 100) }
    #expect(try archive.render(version: entry.latestVersion, scale: 1).starts(with: [0x89, 0x50]))
    #expect(throws: ArchiveError.self) { try archive.render(version: entry.latestVersion, scale: 0) }
  }
}
