import Foundation
import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

/// A page of a draft's timeline reads its own versions and the one before them, whatever the
/// length of the history, and gives each as the whole timeline does.
@Suite struct TimelinePageTests {
  /// An archive of one draft whose save k holds the strokes `saves[k - 1]` (`ManySavesDraft`).
  private func archive(_ folder: TemporaryFolder, saves: [[Int]]) throws -> Archive {
    let draft = try ManySavesDraft(strokes: (saves.flatMap { $0 }.max() ?? 0) + 1)
    try draft.write(holding: saves, to: folder.path("drafts"))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("drafts")])
    return archive
  }

  /// At 40 saves and at 160, a page of ten versions reads eleven version rows (the page and
  /// the one before it) and compares ten strokes (the one each save added), wherever the page
  /// is in the history; and no statement it prepares scans `version` or `stroke`.
  @Test(arguments: [40, 160]) func aPageReadsOnlyItsVersions(saves: Int) throws {
    let folder = try TemporaryFolder("timeline-page-\(saves)")
    let archive = try archive(folder, saves: (1...saves).map { Array(0..<$0) })
    var prepared: [String] = []
    archive.database.statementPrepared = { prepared.append($0) }
    let pages = try [nil, saves / 2, 12].map { newest in
      try archive.timelinePage(of: .name(ManySavesDraft.name), newest: newest, count: 10)
    }
    archive.database.statementPrepared = nil
    for (page, newest) in zip(pages, [saves, saves / 2, 12]) {
      #expect(page.versions.map(\.version.number) == Array((newest - 9)...newest))
      #expect(page.versionsRead == 11)
      #expect(page.strokesCompared == 10)
      #expect(page.versions.allSatisfy { $0.changes == StrokeChanges(added: 1, removed: 0, hidden: 0, unhidden: 0) })
      #expect(page.versionCount == saves)
    }
    let whole = try archive.timeline(of: .name(ManySavesDraft.name))
    #expect(pages[0].filesSize == whole.filesSize)
    #expect(pages[0].firstSaved == whole.versions.first?.version.saved)
    #expect(pages[0].lastSaved == whole.versions.last?.version.saved)
    #expect(pages[0].anyDrawingDecodes)
    #expect(whole.strokesCompared == saves)

    var scans: [String] = []
    for sql in Set(prepared) where sql.uppercased().contains("SELECT") {
      // Parameters left unbound are NULL: the plan is the one SQLite makes for any value.
      let statement = try archive.database.makeStatement("EXPLAIN QUERY PLAN " + sql)
      var plan: [String] = []
      while let row = try statement.step() { plan.append(row.string(3)) }
      scans += plan.filter { $0.hasPrefix("SCAN version") || $0.hasPrefix("SCAN stroke") }.map { "\($0) ← \(sql)" }
    }
    #expect(scans.isEmpty, "\(scans.joined(separator: "\n"))")
  }

  /// Saves that erase, bring back and revert, with labels and notes: every page, of every size,
  /// lists each version as the whole timeline does (its entry, "same drawing as" an earlier
  /// page's version, its changes, counted against the version before the page).
  @Test func pagesAgreeWithTheWholeTimeline() throws {
    let folder = try TemporaryFolder("timeline-page-agree")
    let erased: [Int] = Array(0..<12).filter { $0 != 5 }
    var saves: [[Int]] = (1...12).map { Array(0..<$0) }
    saves += [erased, erased + [12], Array(0..<13), Array(0..<6), Array(0..<6) + [20, 21], Array(0..<3)]
    let archive = try archive(folder, saves: saves)
    try archive.label(draft: ManySavesDraft.name, version: .number(4), as: "sketch")
    _ = try archive.addNote(toDraft: ManySavesDraft.name, version: .number(16), text: "back to six")
    _ = try archive.addNote(toDraft: ManySavesDraft.name, text: "the draft's own")
    let whole = try archive.timeline(of: .name(ManySavesDraft.name))
    #expect(whole.versions[15].version.sameDrawingAs == 6)
    #expect(whole.versions[17].version.sameDrawingAs == 3)
    for count in [1, 2, 5, saves.count, 40] {
      for newest in 1...saves.count {
        let page = try archive.timelinePage(of: .id(whole.id), newest: newest, count: count)
        let numbers = max(1, newest - count + 1)...newest
        #expect(page.versions == Array(whole.versions[(numbers.lowerBound - 1)..<numbers.upperBound]))
        #expect(page.versionsRead == numbers.count + (numbers.lowerBound > 1 ? 1 : 0))
        #expect(page.notes == whole.notes)
        #expect(page.name == whole.name)
        #expect(page.versionCount == saves.count)
      }
    }
    // Past the newest, the newest page.
    let past = try archive.timelinePage(of: .id(whole.id), newest: 999, count: 3)
    #expect(past.versions.map(\.version.number) == [16, 17, 18])
  }
}
