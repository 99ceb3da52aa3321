import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

@testable import InklingArchive

/// A draft's timeline: every version, and the stroke changes counted for those asked.
@Suite struct TimelineTests {
  @Test func changesCountedForOneVersionAreTheWholeTimelinesOwn() throws {
    let folder = try TemporaryFolder()
    try MergeTests.writeFiles(CorpusSpec(drafts: 3, versionsPerDraft: 4...6, seed: 41), into: folder) { _ in ["d"] }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("d")])
    for draft in try archive.drafts() {
      let whole = try archive.timeline(of: .name(draft.name))
      #expect(whole.versions.allSatisfy { $0.changes != nil })
      for number in 1...whole.versions.count {
        let one = try archive.timeline(of: .id(whole.id), changesFor: [number])
        #expect(one.versions.map(\.version) == whole.versions.map(\.version))
        #expect(one.versions.map(\.id) == whole.versions.map(\.id))
        for (index, entry) in one.versions.enumerated() {
          #expect(entry.changes == (index + 1 == number ? whole.versions[index].changes : nil))
        }
      }
      let none = try archive.timeline(of: .id(whole.id), changesFor: [])
      #expect(none.versions.allSatisfy { $0.changes == nil })
    }
  }
}
