// A draft's timeline lists a page of versions at a time: a draft saved hundreds of times gets
// a page of the newest with links to older and newer pages, and a "same drawing as" link that
// points to a version on another page goes to that page.

import Foundation
import InklingArchive
import InklingCorpus
import InklingTestSupport
import Testing

@testable import InklingServer

@Suite struct TimelinePagesTests {
  @Test func aLongHistoryIsListedAPageAtATime() throws {
    let served = try ServedArchive(spec: CorpusSpec(drafts: 1, versionsPerDraft: 1...1, seed: 3), hostile: false)
    let folder = served.draftsFolder + "/saves"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let saves = DraftView.versionsPerPage + 5
    let draft = try ManySavesDraft(strokes: saves)
    _ = try draft.write(saves: saves - 1, to: folder)
    // The newest save repeats the third's drawing, which is on the second page.
    try Data(try draft.file(save: 3)).write(
      to: URL(fileURLWithPath: folder + "/" + ManySavesDraft.fileName(save: saves)))
    _ = try Archive(path: served.archivePath).importFiles(at: [folder])
    let drafts = try served.archive().drafts()
    let id = try #require(drafts.first { $0.name == ManySavesDraft.name }?.id)

    func entries(_ html: String) -> [Int] {
      html.components(separatedBy: "<li class=\"entry\" id=\"v").dropFirst().compactMap {
        Int($0.prefix { $0 != "\"" })
      }
    }
    let first = try served.get("/draft?id=\(id)")
    #expect(first.status == 200)
    let newest = String(decoding: first.body, as: UTF8.self)
    #expect(entries(newest) == Array((6...saves).reversed()))
    #expect(newest.contains("<ol class=\"timeline\" id=\"timeline\" reversed start=\"\(saves)\">"))
    #expect(newest.contains("Versions \(saves) to 6 of \(saves)"))
    #expect(newest.contains("href=\"/draft?id=\(id)&amp;upto=5\">Older versions</a>"))
    #expect(!newest.contains("Newer versions"))
    #expect(newest.contains("Same drawing as <a href=\"/draft?id=\(id)&amp;upto=3#v3\">#3</a>"))

    let older = String(decoding: try served.get("/draft?id=\(id)&upto=5").body, as: UTF8.self)
    #expect(entries(older) == [5, 4, 3, 2, 1])
    #expect(older.contains("reversed start=\"5\""))
    #expect(older.contains("href=\"/draft?id=\(id)&amp;upto=\(saves)\">Newer versions</a>"))
    #expect(!older.contains("Older versions"))

    let third = String(decoding: try served.get("/draft?id=\(id)&upto=3").body, as: UTF8.self)
    #expect(entries(third) == [3, 2, 1])
    #expect(
      entries(String(decoding: try served.get("/draft?id=\(id)&upto=99999").body, as: UTF8.self)) == entries(newest))
    #expect(try served.get("/draft?id=\(id)&upto=0").status == 400)
    #expect(try served.get("/draft?id=\(id)&upto=x").status == 400)

    // A draft that fits on one page has no page links.
    let small = try #require(drafts.first { $0.name != ManySavesDraft.name }?.id)
    let page = String(decoding: try served.get("/draft?id=\(small)").body, as: UTF8.self)
    #expect(!page.contains("class=\"pages\""))
  }
}
