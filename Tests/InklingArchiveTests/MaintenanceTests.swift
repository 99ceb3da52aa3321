import Foundation
import InklingCorpus
import InklingFormats
import InklingTestSupport
import Testing

@testable import InklingArchive
@testable import InklingStore

@Suite struct MaintenanceTests {
  /// Every version's file as `restore` gives it, by draft and number.
  func restoreEverything(_ archive: Archive, into folder: String) throws -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    for draft in try archive.drafts() {
      for file in try archive.restoreAllVersions(draft: draft.name, to: folder, overwrite: true).restored {
        files["\(draft.name) #\(file.version.number)"] = Array(try Data(contentsOf: URL(fileURLWithPath: file.path)))
      }
    }
    return files
  }

  /// An import that commits between the repack's transactions stores deltas over blobs the
  /// repack has not reached yet (earlier saves found later are deltas of the oldest version
  /// archived); the repack makes them whole before it re-encodes their base, and never calls
  /// the archive damaged.
  @Test func anImportCommittingBetweenTheRepacksTransactions() throws {
    let folder = try TemporaryFolder("gc-beside-import")
    let later = folder.path("Later")
    _ = try writeCorpus(
      CorpusSpec(drafts: 6, versionsPerDraft: 6...6, seed: 5, strokesPerVersion: 2...4), to: URL(fileURLWithPath: later)
    )
    // The three earliest saves of each draft move to a folder imported later.
    let earlier = folder.path("Earlier")
    try FileManager.default.createDirectory(atPath: earlier, withIntermediateDirectories: true)
    var saves: [String: [(saved: Int64, file: String)]] = [:]
    for file in try FileManager.default.contentsOfDirectory(atPath: later) {
      guard let name = DraftFileName(file) else { continue }
      saves[name.draftName, default: []].append((name.savedMilliseconds ?? 0, file))
    }
    for files in saves.values {
      for save in files.sorted(by: { $0.saved < $1.saved }).prefix(3) {
        try FileManager.default.moveItem(atPath: later + "/" + save.file, toPath: earlier + "/" + save.file)
      }
    }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    #expect(try archive.importFiles(at: [later]).versionsImported == 18)
    let other = try Archive(path: folder.path("archive.sqlite"))
    var importedBetween = 0
    let report = try archive.collectGarbage(repack: true, level: 3) {
      guard importedBetween == 0 else { return }
      importedBetween = try other.importFiles(at: [earlier]).versionsImported
      // What makes this case: the new versions are deltas of blobs the repack has to reach.
      #expect(
        try archive.database.fetchOne("SELECT count(*) FROM blob WHERE base_id IS NOT NULL") { $0.int(0) } ?? 0 > 0)
    }
    #expect(importedBetween == 18)
    #expect(report.drawingsRepacked >= 18)
    #expect(try archive.check(full: true).isHealthy)
    #expect(try restoreEverything(archive, into: folder.path("restored")).count == 36)
  }

  @Test func repackKeepsEveryVersionAndStoresHistoryAsDeltas() throws {
    let folder = try TemporaryFolder("gc")
    let summary = try writeCorpus(
      CorpusSpec(drafts: 12, versionsPerDraft: 3...6, seed: 42, strokesPerVersion: 2...6, layoutVariety: true),
      to: URL(fileURLWithPath: folder.path("Drafts")))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    let imported = try archive.importFiles(at: [folder.path("Drafts")])
    #expect(imported.rejected == 0)
    #expect(imported.versionsImported + imported.alreadyArchived == summary.files)

    let before = try restoreEverything(archive, into: folder.path("before"))
    // Make the storage as bad as it can be, and as archives before migration 0007 stored
    // it: every drawing whole, compressed as written (layout 0).
    let blobs = try archive.database.fetchAll("SELECT id FROM blob") { $0.int64(0) }
    let compressor = ZstdCompressor(level: 1)
    try archive.database.transaction {
      for id in blobs.reversed() {
        let bytes = try BlobStore(archive.database).bytes(ofBlob: id)
        let whole = try bytes.withUnsafeBytes { try compressor.compress($0) }
        try archive.database.execute(
          "UPDATE blob SET encoding = 1, layout = 0, streams = 0, base_id = NULL, depth = 0, data = ? WHERE id = ?",
          [whole, id])
      }
    }
    let whole = try archive.statistics()
    #expect(whole.deltaCount == 0)
    #expect(try restoreEverything(archive, into: folder.path("whole")) == before)

    let report = try archive.collectGarbage(repack: true, level: 3)
    #expect(report.drawingsRepacked == blobs.count)
    #expect(report.drawingsRemoved == 0)
    let packed = try archive.statistics()
    #expect(packed.deltaCount > 0)
    #expect(packed.fullBytes + packed.deltaBytes < whole.fullBytes / 2)
    let layouts = try archive.database.fetchAll("SELECT layout, streams, count(*) FROM blob GROUP BY 1, 2") {
      [$0.int(0), $0.int(1), $0.int(2)]
    }
    #expect(
      layouts == [[1, 1, blobs.count]], "every drawing of the corpus has points, so all are stored in point streams")
    // Reverse deltas: each draft's newest drawing is whole, the older ones lean on newer ones.
    let newestInDeltas = try archive.database.fetchOne(
      """
      SELECT count(*) FROM draft JOIN version ON version.id = draft.latest_version_id JOIN blob ON blob.id = version.blob_id
      WHERE blob.depth > 0
      """
    ) { $0.int(0) }
    #expect(newestInDeltas == 0)
    #expect(try restoreEverything(archive, into: folder.path("after")) == before)
    #expect(try archive.check(full: true).isHealthy)
  }

  @Test func gcRemovesWhatNoVersionNeeds() throws {
    let folder = try TemporaryFolder("gc2")
    _ = try writeCorpus(
      CorpusSpec(drafts: 3, versionsPerDraft: 3...3, seed: 9), to: URL(fileURLWithPath: folder.path("Drafts")))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    // A file at a time, in save order: each draft's history continues forward, each drawing a
    // delta of the one saved before it (one import of a new draft's files stores it reverse).
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path("Drafts")).sorted() {
      #expect(try archive.importFiles(at: [folder.path("Drafts/" + file)]).versionsImported == 1)
    }
    let before = try restoreEverything(archive, into: folder.path("before"))
    // Drop the newest version of every draft, as a purge would.
    try archive.database.execute(
      """
      DELETE FROM version WHERE id IN (SELECT latest_version_id FROM draft);
      UPDATE draft SET version_count = version_count - 1,
        latest_version_id = (SELECT id FROM version WHERE draft_id = draft.id ORDER BY saved_ms DESC LIMIT 1),
        latest_saved_ms = (SELECT max(saved_ms) FROM version WHERE draft_id = draft.id)
      """)
    let unused = try archive.database.fetchOne(
      "SELECT count(*) FROM blob WHERE id NOT IN (SELECT blob_id FROM version)"
    ) { $0.int(0) }
    let report = try archive.collectGarbage()
    // Forward deltas: a newest drawing is never the base of an older one, so every drawing
    // only the dropped versions used goes (a save of unchanged content shares its drawing).
    #expect(report.drawingsRemoved == unused)
    #expect(report.drawingsRemoved > 0)
    #expect(report.strokesRemoved > 0)
    #expect(try archive.check(full: true).isHealthy)
    let after = try restoreEverything(archive, into: folder.path("after"))
    #expect(after.count == 6)
    for (key, bytes) in after { #expect(before[key] == bytes) }
  }
}
