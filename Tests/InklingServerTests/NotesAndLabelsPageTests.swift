// Notes and labels on the draft page, the version page, the time-lapse's saves and the API:
// text from the archive, shown as written and never as markup.

import Foundation
import InklingArchive
import InklingCorpus
import Testing

@testable import InklingServer

@Suite struct NotesAndLabelsPageTests {
  static let draftNote = "<script>alert(1)</script>\nline two"
  static let versionNote = "\"><img src=x onerror=alert(1)>"
  static let label = "<b>final</b>"

  @Test func notesAndLabelsAreTextOnEveryPage() throws {
    let served = try ServedArchive(spec: CorpusSpec(drafts: 3, versionsPerDraft: 2...3, seed: 7), hostile: false)
    let archive = try Archive(path: served.archivePath)
    let name = try #require(try archive.drafts(matching: DraftQuery(search: "versions:>=2"), limit: 1).first?.name)
    try archive.addNote(toDraft: name, text: Self.draftNote)
    try archive.addNote(toDraft: name, version: .number(2), text: Self.versionNote)
    try archive.label(draft: name, version: .number(2), as: Self.label)

    let escapedDraftNote = "&lt;script&gt;alert(1)&lt;/script&gt;\nline two"
    let escapedVersionNote = "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"
    let escapedLabel = "<span class=\"label\"><bdi>&lt;b&gt;final&lt;/b&gt;</bdi></span>"
    let page = try served.get("/draft?name=" + encoded(name))
    #expect(page.status == 200)
    #expect(page.text.contains("<p class=\"note-text\">\(escapedDraftNote)</p>"), "\(page.text)")
    #expect(page.text.contains("<p class=\"note-text\">\(escapedVersionNote)</p>"))
    #expect(page.text.contains(escapedLabel))
    let version = try served.get("/draft?name=" + encoded(name) + "&version=2")
    #expect(version.status == 200)
    #expect(version.text.contains("Notes on this version") && version.text.contains(escapedVersionNote))
    #expect(version.text.contains("Notes on the draft") && version.text.contains(escapedDraftNote))
    #expect(version.text.contains(escapedLabel))
    // Version 1 has neither label nor note of its own.
    let first = try served.get("/draft?name=" + encoded(name) + "&version=1")
    #expect(!first.text.contains("Notes on this version") && !first.text.contains("class=\"label\""))
    for html in [page.text, version.text] {
      #expect(!html.contains("<script>alert"))
      #expect(!html.contains("<img src=x"))
      #expect(!html.contains("<b>final"))
    }

    let api = try #require(try served.get("/api/draft?name=" + encoded(name)).json() as? [String: Any])
    let notes = try #require(api["notes"] as? [[String: Any]])
    #expect(notes.map { $0["text"] as? String } == [Self.draftNote])
    let versions = try #require(api["versions"] as? [[String: Any]])
    #expect(versions[1]["labels"] as? [String] == [Self.label])
    #expect((versions[1]["notes"] as? [[String: Any]])?.first?["text"] as? String == Self.versionNote)
    #expect(versions[0]["labels"] == nil && versions[0]["notes"] == nil)

    // The time-lapse's saves (which the scrubber reads) name the labelled save.
    let id = try #require(api["draftID"] as? Int)
    let marks = try served.get("/draft/marks?id=\(id)")
    #expect(marks.status == 200)
    #expect(
      marks.text.contains("Version 2 \u{201C}<bdi>&lt;b&gt;final&lt;/b&gt;</bdi>\u{201D}, saved "), "\(marks.text)")
  }
}
