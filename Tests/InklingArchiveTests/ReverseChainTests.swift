// An import stores a draft new to the archive as reverse deltas (VersionPreparer.encode): its
// newest drawing whole, each older one a delta of the one saved after it, every base stored
// before the versions that need it; a draft the archive holds continues forward.

import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

@testable import InklingArchive
@testable import InklingStore

@Suite struct ReverseChainTests {
  /// Each version's drawing: (saved, blob id, base id, depth), oldest save first.
  static func chain(of draft: String, in archive: Archive) throws -> [(
    saved: Int64, id: Int64, base: Int64?, depth: Int
  )] {
    try archive.database.fetchAll(
      """
      SELECT version.saved_ms, blob.id, blob.base_id, blob.depth FROM version
      JOIN draft ON draft.id = version.draft_id JOIN blob ON blob.id = version.blob_id
      WHERE draft.name = ? ORDER BY version.saved_ms
      """, [draft]
    ) { ($0.int64(0), $0.int64(1), $0.isNull(2) ? nil : $0.int64(2), $0.int(3)) }
  }

  static func restoreEverything(_ archive: Archive, into folder: String) throws -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    for draft in try archive.drafts() {
      for file in try archive.restoreAllVersions(draft: draft.name, to: folder, overwrite: true).restored {
        files["\(draft.name) #\(file.version.number)"] = Array(try Data(contentsOf: URL(fileURLWithPath: file.path)))
      }
    }
    return files
  }

  @Test func aNewDraftIsStoredNewestWholeAndOlderOverNewer() throws {
    let folder = try TemporaryFolder("reverse")
    _ = try writeCorpus(
      CorpusSpec(drafts: 3, versionsPerDraft: 4...4, seed: 71, strokesPerVersion: 3...5),
      to: URL(fileURLWithPath: folder.path("Drafts")))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    #expect(try archive.importFiles(at: [folder.path("Drafts")]).versionsImported == 12)
    for draft in try archive.drafts() {
      let chain = try Self.chain(of: draft.name, in: archive)
      #expect(chain.count == 4)
      #expect(chain.last?.depth == 0 && chain.last?.base == nil, "\(draft.name): the newest drawing is whole")
      for (older, newer) in zip(chain, chain.dropFirst()) where older.id != newer.id {
        #expect(older.base == newer.id, "\(draft.name): an older drawing is a delta of the next one saved")
      }
    }
    // Bases first: no blob's base was inserted after it.
    #expect(
      try archive.database.fetchOne(
        "SELECT count(*) FROM blob b JOIN blob base ON base.id = b.base_id WHERE base.id > b.id"
      ) { $0.int(0) } == 0)
    #expect(try DrawingIndexRecords.unindexedBlobIDs(in: archive.database).isEmpty)
    #expect(try archive.check(full: true).isHealthy)
    let restored = try Self.restoreEverything(archive, into: folder.path("Restored"))
    #expect(restored.count == 12)
  }

  @Test func aDraftTheArchiveHoldsContinuesForward() throws {
    let folder = try TemporaryFolder("forward")
    _ = try writeCorpus(
      CorpusSpec(drafts: 1, versionsPerDraft: 3...3, seed: 72, strokesPerVersion: 3...5),
      to: URL(fileURLWithPath: folder.path("Drafts")))
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path("Drafts")).sorted()
    let archive = try Archive(path: folder.path("archive.sqlite"))
    #expect(try archive.importFiles(at: [folder.path("Drafts/" + files[0])]).versionsImported == 1)
    #expect(try archive.importFiles(at: [folder.path("Drafts")]).versionsImported == 2)
    let draft = try #require(try archive.drafts().first?.name)
    let chain = try Self.chain(of: draft, in: archive)
    #expect(chain.first?.depth == 0)
    for (older, newer) in zip(chain, chain.dropFirst()) where older.id != newer.id {
      #expect(newer.base == older.id, "a newer drawing is a delta of the one saved before it")
    }
    #expect(try archive.check(full: true).isHealthy)
  }

  /// Drafts whose newest drawing was saved twice (a save without a change): both versions
  /// hold the blob that their draft's oldest version brought along as a base. Only the first
  /// of them indexes it; when the writer flushes its index rows between the two (every few
  /// hundred drawings), the second must not index it again, or the whole flush fails on
  /// drawing_ink's key and its drawings stay unindexed.
  @Test func aDrawingSavedTwiceIsIndexedOnceAcrossIndexFlushes() throws {
    let folder = try TemporaryFolder("reverse-saved-twice")
    try FileManager.default.createDirectory(atPath: folder.path("Drafts"), withIntermediateDirectories: true)
    var newest: [Int: CorpusFile] = [:]
    try generateCorpus(CorpusSpec(drafts: 300, versionsPerDraft: 2...2, seed: 74, strokesPerVersion: 1...2)) { file in
      try Data(file.contents).write(to: URL(fileURLWithPath: folder.path("Drafts/" + file.fileName)))
      newest[file.draftIndex] = file
    }
    for file in newest.values {
      let again = "\(file.name.fileNamePart)-2030-01-01T00:00:00Z.inkling"
      try Data(file.contents).write(to: URL(fileURLWithPath: folder.path("Drafts/" + again)))
    }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    let summary = try archive.importFiles(at: [folder.path("Drafts")])
    #expect(summary.versionsImported == 900 && summary.rejected == 0)
    #expect(try DrawingIndexRecords.unindexedBlobIDs(in: archive.database).isEmpty)
    #expect(
      try archive.database.fetchOne("SELECT count(*) FROM drawing") { $0.int(0) }
        == archive.database.fetchOne("SELECT count(*) FROM blob") { $0.int(0) })
  }

  /// The oldest version of a new draft carries the drawings of the newer ones (their bases).
  /// When the writer refuses that version alone, the drawings it carried stay stored, and the
  /// newer versions are imported over them; the next import adds the oldest.
  @Test func aRefusedOldestVersionLeavesTheNewerOnesImported() throws {
    let folder = try TemporaryFolder("reverse-oldest-refused")
    _ = try writeCorpus(
      CorpusSpec(drafts: 1, versionsPerDraft: 3...3, seed: 75, strokesPerVersion: 3...5),
      to: URL(fileURLWithPath: folder.path("Drafts")))
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path("Drafts")).sorted()
    let archive = try Archive(path: folder.path("archive.sqlite"))
    // A temporary trigger, which the archive's schema check does not see; the import's own
    // `temp_store = MEMORY` would drop it, unless already so.
    try archive.database.execute("PRAGMA temp_store = MEMORY")
    try archive.database.execute(
      """
      CREATE TEMP TRIGGER refuse_oldest BEFORE INSERT ON main.version WHEN NEW.file_name = '\(files[0])'
      BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
      """)
    let summary = try archive.importFiles(at: [folder.path("Drafts")])
    try archive.database.execute("DROP TRIGGER IF EXISTS temp.refuse_oldest")
    #expect(summary.versionsImported == 2 && summary.rejected == 1)
    #expect(try archive.check(full: true).isHealthy)

    let again = try archive.importFiles(at: [folder.path("Drafts")])
    #expect(again.versionsImported == 1 && again.alreadyArchived == 2 && again.rejected == 0)
    #expect(try DrawingIndexRecords.unindexedBlobIDs(in: archive.database).isEmpty)
    #expect(try archive.check(full: true).isHealthy)
    let restored = try Self.restoreEverything(archive, into: folder.path("Restored"))
    let draft = try #require(try archive.drafts().first?.name)
    for (number, file) in files.enumerated() {
      let original = Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("Drafts/" + file))))
      #expect(restored["\(draft) #\(number + 1)"] == original, "\(file)")
    }
  }

  /// An import killed after it committed the batch that holds a draft's oldest version (and
  /// with it the draft's whole reverse chain) but before the newer versions: their drawings
  /// are stored and not yet indexed. The next import stores those versions over the stored
  /// drawings and indexes them.
  @Test func anImportStoppedAfterTheOldestVersionIsCompletedByTheNext() throws {
    let folder = try TemporaryFolder("reverse-stopped")
    _ = try writeCorpus(
      CorpusSpec(drafts: 2, versionsPerDraft: 4...4, seed: 73, strokesPerVersion: 3...5),
      to: URL(fileURLWithPath: folder.path("Drafts")))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    #expect(try archive.importFiles(at: [folder.path("Drafts")]).versionsImported == 8)
    let before = try Self.restoreEverything(archive, into: folder.path("Before"))
    // What the kill leaves: every drawing stored, only each draft's oldest version.
    try archive.database.execute(
      """
      CREATE TEMP TABLE lost AS SELECT id, blob_id FROM version
        WHERE id NOT IN (SELECT id FROM version v WHERE saved_ms = (SELECT min(saved_ms) FROM version
                                                                    WHERE draft_id = v.draft_id));
      DELETE FROM drawing_ink WHERE blob_id IN (SELECT blob_id FROM lost);
      DELETE FROM drawing WHERE blob_id IN (SELECT blob_id FROM lost);
      DELETE FROM version WHERE id IN (SELECT id FROM lost);
      UPDATE draft SET version_count = 1,
        latest_version_id = (SELECT id FROM version WHERE draft_id = draft.id),
        latest_saved_ms = (SELECT saved_ms FROM version WHERE draft_id = draft.id);
      DROP TABLE lost;
      """)
    #expect(try DrawingIndexRecords.unindexedBlobIDs(in: archive.database).count == 6)
    let blobs = try archive.database.fetchOne("SELECT count(*) FROM blob") { $0.int(0) }

    let again = try archive.importFiles(at: [folder.path("Drafts")])
    #expect(again.versionsImported == 6 && again.alreadyArchived == 2 && again.rejected == 0)
    #expect(try archive.database.fetchOne("SELECT count(*) FROM blob") { $0.int(0) } == blobs)
    #expect(try DrawingIndexRecords.unindexedBlobIDs(in: archive.database).isEmpty)
    #expect(try archive.check(full: true).isHealthy)
    #expect(try Self.restoreEverything(archive, into: folder.path("After")) == before)
  }
}
