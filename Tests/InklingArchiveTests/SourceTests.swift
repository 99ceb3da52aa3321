import Foundation
import InklingCorpus
import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

/// Where versions came from (migration 0013): recorded at import, shown by `history`,
/// searched by `source:`.
@Suite struct SourceTests {
  static func file(_ seed: UInt64, color: Double = 1) -> [UInt8] {
    inklingFile(drawing: SeededRandom.bytes(2_000, seed: seed), color: (color, 1, 1, 1))
  }

  @Test func eachVersionRemembersTheFolderOrLabelItCameFrom() throws {
    let folder = try TemporaryFolder("sources")
    try folder.write("Anna/Plan-B-2025-10-01T10:00:00Z.inkling", Self.file(1))
    try folder.write("Anna/sub/Plan-B-2025-10-02T10:00:00Z.inkling", Self.file(2))
    try folder.write("Ben/Plan-B-2025-10-03T10:00:00Z.inkling", Self.file(3))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("Anna")])
    var options = ImportOptions()
    options.source = "Ben's iPad"
    _ = try archive.importFiles(at: [folder.path("Ben") + "/"], options: options)

    let history = try archive.history(of: "Plan-B")
    #expect(history.map { $0.sources.map(\.label) } == [[folder.path("Anna")], [folder.path("Anna")], ["Ben's iPad"]])
    #expect(history[1].sources[0].path == folder.path("Anna/sub/Plan-B-2025-10-02T10:00:00Z.inkling"))
    #expect(history[2].sources[0].path == folder.path("Ben/Plan-B-2025-10-03T10:00:00Z.inkling"))
    #expect(history[0].sources[0].importRun != history[2].sources[0].importRun)

    // Searches: any version from a matching source, names folded as names are.
    #expect(try archive.drafts(matching: DraftQuery(search: "source:BEN")).map(\.name) == ["Plan-B"])
    #expect(try archive.drafts(matching: DraftQuery(search: "source:carla")).isEmpty)
    #expect(try archive.drafts(matching: DraftQuery(source: "ipad")).map(\.name) == ["Plan-B"])
    #expect(try archive.drafts(matching: DraftQuery(search: "not source:ben")).isEmpty)
  }

  @Test func theSameFileFromTwoSourcesIsOneVersionWithBoth() throws {
    let folder = try TemporaryFolder("sources-same")
    let bytes = Self.file(7)
    try folder.write("Anna/Plan-B-2025-10-01T10:00:00Z.inkling", bytes)
    try folder.write("Ben/Plan-B-2025-10-01T10:00:00Z.inkling", bytes)
    // Same save time and name, other content: a second version, from Carla only.
    try folder.write("Carla/Plan-B-2025-10-01T10:00:00Z.inkling", Self.file(8, color: 0.5))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("Anna")])
    let second = try archive.importFiles(at: [folder.path("Ben"), folder.path("Carla")])
    #expect(second.versionsImported == 1)
    #expect(second.alreadyArchived == 1)

    let history = try archive.history(of: "Plan-B")
    #expect(history.count == 2)
    let labels = history.map { Set($0.sources.map(\.label)) }
    #expect(labels.contains([folder.path("Anna"), folder.path("Ben")]))
    #expect(labels.contains([folder.path("Carla")]))

    // Importing again from the same sources adds nothing, not even a source row.
    let rows = try archive.database.fetchOne("SELECT count(*) FROM version_source") { $0.int(0) }
    let again = try archive.importFiles(at: [folder.path("Anna"), folder.path("Ben"), folder.path("Carla")])
    #expect(again.versionsImported == 0 && again.alreadyArchived == 3)
    #expect(try archive.database.fetchOne("SELECT count(*) FROM version_source") { $0.int(0) } == rows)
  }

  @Test func theSameFileTwiceInOneImportGetsBothSources() throws {
    let folder = try TemporaryFolder("sources-twice")
    let bytes = Self.file(9)
    try folder.write("A/Cat-2025-10-01T10:00:00Z.inkling", bytes)
    try folder.write("B/Cat-2025-10-01T10:00:00Z.inkling", bytes)
    let archive = try Archive(path: folder.path("archive.sqlite"))
    let summary = try archive.importFiles(at: [folder.path("A"), folder.path("B")])
    #expect(summary.versionsImported == 1 && summary.alreadyArchived == 1)
    #expect(
      Set(try archive.history(of: "Cat")[0].sources.map(\.label)) == [folder.path("A"), folder.path("B")])
  }

  // MARK: - After a rename

  /// The file still carries the draft's old name; it is the renamed draft's version all the
  /// same, and another source delivering it is recorded beside the first.
  @Test func aRenamedDraftsFileFromAnotherSourceIsRecorded() throws {
    let folder = try TemporaryFolder("sources-renamed")
    let name = "Plan-B-2025-10-01T10:00:00Z.inkling"
    let bytes = Self.file(11)
    try folder.write("Anna/" + name, bytes)
    try folder.write("Other/" + name, bytes)
    let archive = try Archive(path: folder.path("archive.sqlite"))
    var options = ImportOptions()
    options.source = "Anna's iPad"
    _ = try archive.importFiles(at: [folder.path("Anna")], options: options)
    try archive.rename(draft: "Plan-B", to: "Plan C")

    options.source = "Other iPad"
    let drafts = LockedLines()
    options.onEvent = { event in
      if case .archived(_, let draft, .alreadyArchived) = event { drafts.append(draft) }
    }
    let again = try archive.importFiles(at: [folder.path("Other/" + name)], options: options)
    #expect(again.alreadyArchived == 1 && again.versionsImported == 0 && again.draftsCreated == 0)
    // Reported as found in the draft that holds it.
    #expect(drafts.values == ["Plan C"])
    #expect(try archive.drafts().map(\.name) == ["Plan C"])
    let sources = try archive.show(draft: "Plan C").version.sources
    #expect(sources.map(\.label) == ["Anna's iPad", "Other iPad"])
    #expect(sources.map(\.path) == [folder.path("Anna/" + name), folder.path("Other/" + name)])
    #expect(try archive.history(of: "Plan C").map { $0.sources.map(\.label) } == [["Anna's iPad", "Other iPad"]])

    // Delivered again by either source, it adds nothing.
    let rows = try archive.database.fetchOne("SELECT count(*) FROM version_source") { $0.int(0) }
    options.onEvent = nil
    options.source = nil
    #expect(try archive.importFiles(at: [folder.path("Other/" + name)], options: options).alreadyArchived == 1)
    #expect(try archive.database.fetchOne("SELECT count(*) FROM version_source") { $0.int(0) } == rows! + 1)
    options.source = "Anna's iPad"
    #expect(try archive.importFiles(at: [folder.path("Anna")], options: options).alreadyArchived == 1)
    #expect(try archive.database.fetchOne("SELECT count(*) FROM version_source") { $0.int(0) } == rows! + 1)
  }

  /// Merging an archive that holds a file under the draft's old name: the file is the renamed
  /// draft's version, as importing it would find, and the old name does not come back.
  @Test func mergingAfterARenameRecordsTheSourceOnTheRenamedDraft() throws {
    let folder = try TemporaryFolder("sources-renamed-merge")
    let name = "Plan-B-2025-10-01T10:00:00Z.inkling"
    let bytes = Self.file(12)
    try folder.write("Anna/" + name, bytes)
    try folder.write("Ben/" + name, bytes)
    try folder.write("Ben/Plan-B-2025-10-02T10:00:00Z.inkling", Self.file(13))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    var options = ImportOptions()
    options.source = "Anna's iPad"
    _ = try archive.importFiles(at: [folder.path("Anna")], options: options)
    try archive.rename(draft: "Plan-B", to: "Plan C")
    let other = try Archive(path: folder.path("ben.sqlite"))
    options.source = "Ben's iPad"
    _ = try other.importFiles(at: [folder.path("Ben")], options: options)

    let merged = try archive.merge(archiveAt: folder.path("ben.sqlite")).versions
    #expect(merged.alreadyArchived == 1 && merged.versionsImported == 1)
    // The later save is a file of "Plan-B" this archive never had: a draft of that name, as
    // importing Ben's folder would make.
    #expect(try archive.drafts(sort: .name).map(\.name) == ["Plan C", "Plan-B"])
    // A version this archive already had keeps its own sources: another archive's labels are
    // its claims, and would make `list --source` find this archive's drafts under them.
    #expect(try archive.history(of: "Plan C").map { $0.sources.map(\.label) } == [["Anna's iPad"]])
    #expect(try archive.history(of: "Plan-B").map { $0.sources.map(\.label) } == [["Ben's iPad"]])
    #expect(try archive.merge(archiveAt: folder.path("ben.sqlite")).versions.alreadyArchived == 2)

    // Importing Ben's files themselves does record their source: the file was read here.
    let imported = try Archive(path: folder.path("imported.sqlite"))
    options.source = "Anna's iPad"
    _ = try imported.importFiles(at: [folder.path("Anna")], options: options)
    try imported.rename(draft: "Plan-B", to: "Plan C")
    options.source = "Ben's iPad"
    _ = try imported.importFiles(at: [folder.path("Ben")], options: options)
    #expect(try imported.drafts(sort: .name).map(\.name) == ["Plan C", "Plan-B"])
    #expect(try imported.history(of: "Plan C").map { $0.sources.map(\.label) } == [["Anna's iPad", "Ben's iPad"]])
  }

  /// The version a preparer found may be gone when the writer records the source (another
  /// process purged its draft, or a merging rename dropped it as a twin), and its id taken by
  /// a version added since: the source then goes nowhere, and the import goes on.
  @Test func noSourceIsRecordedOnAVersionGoneSinceItWasFound() throws {
    let folder = try TemporaryFolder("sources-gone")
    let (name, saved) = ("Cat-2025-10-01T10:00:00Z.inkling", Int64(1_759_312_800_000))
    let bytes = Self.file(14)
    try folder.write("A/" + name, bytes)
    try folder.write("B/Dog-2025-10-01T10:00:00Z.inkling", Self.file(15))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("A")])
    let found = try #require(
      try VersionRecords.archivedFile(
        draftNamed: "Cat", savedMilliseconds: saved, fileSHA256: SHA256.hash(bytes), fileName: name,
        in: archive.database))
    try archive.delete(draft: "Cat")
    _ = try archive.purge()
    _ = try archive.importFiles(at: [folder.path("B")])
    #expect(try archive.database.fetchOne("SELECT id FROM version") { $0.int64(0) } == found.versionID)

    let writer = try VersionWriter(database: archive.database)
    for versionID in [found.versionID, found.versionID + 100] {
      let late = ArchivedVersion(
        path: folder.path("A/" + name), bytes: Int64(bytes.count), versionID: versionID, draftName: "Cat",
        savedMilliseconds: saved, fileSHA256: SHA256.hash(bytes), sources: [SourceMark(label: "Late", path: name)])
      let (result, _) = try writer.write(.alreadyArchived(late))
      #expect(throws: Never.self) { try result.get() }
    }
    #expect(try writer.finish(seconds: 0).alreadyArchived == 2)
    #expect(try archive.history(of: "Dog").map { $0.sources.map(\.label) } == [[folder.path("B")]])
    #expect(try archive.database.fetchOne("SELECT count(*) FROM version_source") { $0.int(0) } == 1)
  }

  @Test func labelsAreAbsoluteAndTidy() {
    #expect(SourceLabel.absolute("Drafts/./a/../b/", in: "/home/me") == "/home/me/Drafts/b")
    #expect(SourceLabel.absolute("/x//y/", in: "/ignored") == "/x/y")
    #expect(SourceLabel.absolute("..", in: "/") == "/")
  }

  /// Every way of searching sources is an indexed plan, never a scan of versions: the
  /// candidates alone, and the searches that drive by them or test them on each draft.
  @Test func sourceSearchesUseTheIndex() throws {
    let folder = try TemporaryFolder("sources-plan")
    let archive = try Archive(path: folder.path("archive.sqlite"))
    let candidates = DraftCandidates.source(containsFolded: "anna")
    let plan = try archive.database.fetchAll("EXPLAIN QUERY PLAN " + candidates.sql, candidates.arguments) {
      $0.string(3)
    }
    #expect(plan.contains { $0.contains("version_source_by_source") }, "\(plan)")
    #expect(!plan.contains { $0.hasPrefix("SCAN") && !$0.contains("source") }, "\(plan)")
    for search in ["source:anna", "source:anna name:cat", "name:cat or source:anna", "not source:anna"] {
      for limit in [nil, 20] {
        let (sql, plan) = try archive.explain(DraftQuery(search: search), limit: limit)
        let scans = plan.filter {
          ["SCAN v", "SCAN sv", "SCAN version", "SCAN version_source", "SCAN svs"].contains($0)
        }
        #expect(scans.isEmpty, "\(search): \(plan)\n\(sql)")
      }
    }
  }
}
