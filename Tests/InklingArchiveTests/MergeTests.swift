import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

@testable import InklingArchive
@testable import InklingStore

/// Merging another archive (`Archive.merge(archiveAt:)`): against importing the same files
/// into one archive, again and again, from older and damaged archives.
@Suite struct MergeTests {
  static let spec = CorpusSpec(drafts: 24, versionsPerDraft: 1...6, seed: 20, layoutVariety: true)

  /// Writes the corpus's files into `folder` + one of `parts` subfolders, file by file as
  /// `part` says; returns every file written (relative path → bytes).
  @discardableResult
  static func writeFiles(_ spec: CorpusSpec, into folder: TemporaryFolder, part: (CorpusFile) -> [String]) throws
    -> [String: [UInt8]]
  {
    var written: [String: [UInt8]] = [:]
    try generateCorpus(spec) { file in
      for subfolder in part(file) {
        let relative = subfolder + "/" + file.fileName
        try folder.write(
          relative, file.contents, modified: Date(timeIntervalSince1970: Double(file.savedMilliseconds) / 1000))
        written[relative] = file.contents
      }
    }
    return written
  }

  /// What an archive holds, version by version, without what depends on when or from where
  /// it was imported: names, save dates, files, drawings, the drawing index.
  static func contents(of archive: Archive) throws -> [String] {
    var lines: [String] = []
    for draft in try archive.drafts(sort: .name) {
      for version in try archive.history(of: draft.name) {
        let drawing = try archive.show(draft: draft.name, version: .number(version.number)).drawing
        lines.append(
          [
            draft.name, "\(version.number)", "\(version.saved.timeIntervalSince1970)", "\(version.savedFromFileName)",
            version.fileName, "\(version.fileSize)", version.fileSHA256, version.drawingSHA256, "\(version.background)",
            "\(version.strokeCount ?? -1)", "\(version.sameDrawingAs ?? 0)", "\(drawing)",
          ].joined(separator: "|"))
      }
    }
    return lines
  }

  /// Every version of every draft restored, file name → bytes.
  static func restored(_ archive: Archive, into folder: String) throws -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    for draft in try archive.drafts() {
      for file in try archive.restoreAllVersions(draft: draft.name, to: folder + "/" + draft.name).restored {
        files[draft.name + "/" + (file.path as NSString).lastPathComponent] = Array(
          try Data(contentsOf: URL(fileURLWithPath: file.path)))
      }
    }
    return files
  }

  @Test func theOtherArchivesTrashStaysItsOwnAndThisOnesStaysHere() throws {
    let folder = try TemporaryFolder("merge-trash")
    try Self.writeFiles(CorpusSpec(drafts: 4, versionsPerDraft: 1...2, seed: 21), into: folder) { _ in ["All"] }
    let other = try Archive(path: folder.path("other.sqlite"))
    _ = try other.importFiles(at: [folder.path("All")])
    let names = try other.drafts(sort: .name).map(\.name)
    _ = try other.delete(draft: names[0])

    let here = try Archive(path: folder.path("here.sqlite"))
    _ = try here.importFiles(at: [folder.path("All")])
    _ = try here.delete(draft: names[1])
    let summary = try here.merge(archiveAt: folder.path("other.sqlite"))
    // What stayed behind is said.
    #expect(summary.draftsInTrashNotMerged == 1)
    #expect(summary.versionsInTrashNotMerged == (try other.history(of: names[0]).count))

    // The draft trashed there is not brought in live; the one trashed here stays in the trash.
    let live = try here.drafts(sort: .name).map(\.name)
    let trash = try here.drafts(matching: .trash, sort: .name).map(\.name)
    #expect(trash == [names[1]])
    #expect(live == [names[0]] + names.dropFirst(2))

    let fresh = try Archive(path: folder.path("fresh.sqlite"))
    _ = try fresh.merge(archiveAt: folder.path("other.sqlite"))
    #expect(try fresh.drafts(sort: .name).map(\.name) == Array(names.dropFirst()))
    #expect(try fresh.drafts(matching: .trash).isEmpty)
  }

  @Test func mergingTwoArchivesEqualsImportingAllTheFilesIntoOne() throws {
    let folder = try TemporaryFolder("merge")
    // Files spread over two devices, some on both: every third file is on both.
    try Self.writeFiles(Self.spec, into: folder) { file in
      let both = (file.draftIndex + file.versionIndex) % 3 == 0
      return both ? ["A", "B", "All"] : [file.versionIndex % 2 == 0 ? "A" : "B", "All"]
    }
    let a = try Archive(path: folder.path("a.sqlite"))
    var options = ImportOptions()
    options.source = "Anna's iPad"
    _ = try a.importFiles(at: [folder.path("A")], options: options)
    let b = try Archive(path: folder.path("b.sqlite"))
    _ = try b.importFiles(at: [folder.path("B")])
    let single = try Archive(path: folder.path("single.sqlite"))
    let imported = try single.importFiles(at: [folder.path("All")])

    let merged = try Archive(path: folder.path("merged.sqlite"))
    let first = try merged.merge(archiveAt: folder.path("a.sqlite"))
    let second = try merged.merge(archiveAt: folder.path("b.sqlite"))
    #expect(first.versions.versionsImported + second.versions.versionsImported == imported.versionsImported)
    #expect(second.versions.alreadyArchived > 0)
    #expect(first.versions.rejected == 0 && second.versions.rejected == 0)

    #expect(try Self.contents(of: merged) == Self.contents(of: single))
    #expect(try Self.restored(merged, into: folder.path("R1")) == Self.restored(single, into: folder.path("R2")))
    let check = try Archive(checking: folder.path("merged.sqlite")).check(full: true)
    #expect(check.isHealthy, "\(check.problems)")

    // Names, dates and sources kept: a file on both devices has both sources.
    let history = try merged.history(of: try merged.drafts(sort: .name)[0].name)
    let sources = Set(history.flatMap { $0.sources.map(\.label) })
    #expect(sources.contains("Anna's iPad"))
    #expect(sources.contains(SourceLabel.absolute(folder.path("B"), in: "/")))
    let fromA = try a.history(of: history[0].draftName)
    #expect(history.first { $0.fileName == fromA[0].fileName }?.imported == fromA[0].imported)
    #expect(try merged.drafts(matching: DraftQuery(source: "anna")).count == a.drafts().count)

    // Idempotent: merging again adds no version and no source.
    let rows = try merged.database.fetchOne("SELECT count(*) FROM version_source") { $0.int(0) }
    let again = try merged.merge(archiveAt: folder.path("a.sqlite"))
    #expect(again.versions.versionsImported == 0)
    #expect(again.versions.alreadyArchived == first.versions.versionsImported)
    #expect(try merged.database.fetchOne("SELECT count(*) FROM version_source") { $0.int(0) } == rows)
  }

  /// Three archives merged in one run (`import A B C`): what merging them one after the other
  /// gives, counted against each the same way, and what importing all the files gives.
  @Test func archivesMergedTogetherEqualMergedOneAfterTheOther() throws {
    let folder = try TemporaryFolder("merge-together")
    // Every draft's versions spread over three devices; every fifth file on two of them.
    try Self.writeFiles(Self.spec, into: folder) { file in
      let device = (file.draftIndex * 7 + file.versionIndex) % 3
      let second = (device + 1) % 3
      return ["D\(device)", "All"] + ((file.draftIndex + file.versionIndex) % 5 == 0 ? ["D\(second)"] : [])
    }
    var devices: [String] = []
    for device in 0..<3 {
      let path = folder.path("d\(device).sqlite")
      _ = try Archive(path: path).importFiles(at: [folder.path("D\(device)")])
      devices.append(path)
    }
    let single = try Archive(path: folder.path("single.sqlite"))
    _ = try single.importFiles(at: [folder.path("All")])

    let together = try Archive(path: folder.path("together.sqlite"))
    let merged = try together.merge(archivesAt: devices)
    let apart = try Archive(path: folder.path("apart.sqlite"))
    let oneByOne = try devices.map { try apart.merge(archiveAt: $0) }
    #expect(merged.map(\.path) == devices)
    for (a, b) in zip(merged, oneByOne) {
      #expect(a.versions.versionsImported == b.versions.versionsImported, "\(a.path)")
      #expect(a.versions.draftsCreated == b.versions.draftsCreated, "\(a.path)")
      #expect(a.versions.alreadyArchived == b.versions.alreadyArchived, "\(a.path)")
      #expect(a.versions.rejected == 0 && a.versions.bytesRead == b.versions.bytesRead, "\(a.path)")
    }
    #expect(merged.contains { $0.versions.alreadyArchived > 0 })
    #expect(try Self.contents(of: together) == Self.contents(of: single))
    #expect(try Self.contents(of: together) == Self.contents(of: apart))
    #expect(try Self.restored(together, into: folder.path("R1")) == Self.restored(single, into: folder.path("R2")))
    let check = try Archive(checking: folder.path("together.sqlite")).check(full: true)
    #expect(check.isHealthy, "\(check.problems)")
    // One run for the three, and merging them again adds nothing.
    #expect(try together.database.fetchOne("SELECT count(*) FROM import_run") { $0.int(0) } == 1)
    #expect(try together.merge(archivesAt: devices).allSatisfy { $0.versions.versionsImported == 0 })
  }

  /// After `gc --repack` a draft's older drawings are deltas of newer ones: the merge must
  /// bring each base along before its delta, whatever order the versions come in. The other
  /// archive's cached thumbnails are not copied: they are drawn here on demand.
  @Test func mergesRepackedArchivesButNotTheirThumbnails() throws {
    let folder = try TemporaryFolder("merge-repack")
    try Self.writeFiles(CorpusSpec(drafts: 8, versionsPerDraft: 3...6, seed: 5), into: folder) { _ in ["All"] }
    let other = try Archive(path: folder.path("other.sqlite"))
    _ = try other.importFiles(at: [folder.path("All")])
    _ = try other.collectGarbage(repack: true)
    let reverse = try other.database.fetchOne(
      """
      SELECT count(*) FROM blob AS b JOIN version AS v ON v.blob_id = b.id JOIN blob AS base ON base.id = b.base_id
      JOIN version AS bv ON bv.blob_id = base.id WHERE bv.saved_ms > v.saved_ms
      """
    ) { $0.int(0) }
    #expect((reverse ?? 0) > 0, "the repack made no reverse deltas to test with")
    let draft = try other.drafts()[0].name
    try other.renderThumbnails([other.lookUpThumbnail(of: .draft(draft, .latest), size: 128)])

    let merged = try Archive(path: folder.path("merged.sqlite"))
    let summary = try merged.merge(archiveAt: folder.path("other.sqlite"))
    #expect(summary.versions.rejected == 0)
    #expect(try merged.database.fetchOne("SELECT count(*) FROM thumbnail") { $0.int(0) } == 0)
    #expect(try Self.contents(of: merged) == Self.contents(of: other))
    #expect(try Archive(checking: folder.path("merged.sqlite")).check(full: true).isHealthy)
    // Deltas are copied as stored, not compressed again.
    let deltas = "SELECT count(*) FROM blob WHERE encoding = 2"
    #expect(
      try merged.database.fetchOne(deltas) { $0.int(0) } == other.database.fetchOne(deltas) { $0.int(0) })
  }

  @Test func anOlderArchiveIsReadFromAnUpgradedCopyAndLeftAsItWas() throws {
    let folder = try TemporaryFolder("merge-old")
    try Self.writeFiles(CorpusSpec(drafts: 4, versionsPerDraft: 2...3, seed: 9), into: folder) { _ in ["All"] }
    let old = folder.path("old.sqlite")
    _ = try Archive(path: old).importFiles(at: [folder.path("All")])
    // Schema 12: what this archive was before migration 0013 (and 0015, which dropped 0008's
    // trigger, 0017, before which drawings were stored in point columns, 0018, 0019 and 0020).
    let db = try Database(path: old, mode: .readWrite)
    try db.registerArchiveFunctions()  // DROP COLUMN parses the triggers again
    let encoder = BlobEncoder()
    encoder.pointStreams = false
    let store = BlobStore(db)
    for id in try db.fetchAll("SELECT id FROM blob ORDER BY depth DESC", [], { $0.int64(0) }) {
      let bytes = try store.bytes(ofBlob: id)
      try store.replace(id, with: try encoder.encode(bytes, sha256: SHA256.hash(bytes), base: nil))
    }
    try db.execute(
      """
      ALTER TABLE blob DROP COLUMN streams;
      DROP TABLE version_source; DROP TABLE source; DROP TABLE damaged_version;
      DROP TABLE draft_tag; DROP TABLE tag; DROP TABLE note; DROP TABLE version_label; DROP TABLE saved_search;
      DROP INDEX draft_by_stars; ALTER TABLE draft DROP COLUMN stars;
      CREATE TRIGGER version_search_insert AFTER INSERT ON version BEGIN
        UPDATE draft SET first_saved_ms = min(coalesce(first_saved_ms, NEW.saved_ms), NEW.saved_ms),
          first_imported_ms = min(coalesce(first_imported_ms, NEW.imported_ms), NEW.imported_ms),
          latest_imported_ms = max(coalesce(latest_imported_ms, NEW.imported_ms), NEW.imported_ms)
          WHERE id = NEW.draft_id;
      END;
      PRAGMA user_version = 12; PRAGMA journal_mode = DELETE
      """)
    db.close()
    let before = try Data(contentsOf: URL(fileURLWithPath: old))

    let merged = try Archive(path: folder.path("merged.sqlite"))
    var options = ImportOptions()
    options.source = "the old laptop"
    let summary = try merged.merge(archiveAt: old, options: options)
    #expect(summary.versions.versionsImported > 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: old)) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".merge-") }.isEmpty)
    let labels = try merged.history(of: try merged.drafts()[0].name).flatMap { $0.sources.map(\.label) }
    #expect(Set(labels) == ["the old laptop"])
  }

  @Test func aDamagedArchiveStopsTheMergeUnlessSalvaged() throws {
    let folder = try TemporaryFolder("merge-damaged")
    try Self.writeFiles(CorpusSpec(drafts: 6, versionsPerDraft: 3...4, seed: 3), into: folder) { _ in ["All"] }
    let path = folder.path("damaged.sqlite")
    let other = try Archive(path: path)
    _ = try other.importFiles(at: [folder.path("All")])
    let total = try other.database.fetchOne("SELECT count(*) FROM version") { $0.int(0) } ?? 0
    // The first version of the last draft: its blob is the base of the draft's later ones.
    let damagedDraft = try other.drafts(sort: .name).last!.name
    let blobID = try other.versions(of: damagedDraft)[0].row.blobID
    try other.database.execute("UPDATE blob SET data = zeroblob(length(data)) WHERE id = ?", [blobID])

    let merged = try Archive(path: folder.path("merged.sqlite"))
    #expect {
      try merged.merge(archiveAt: path)
    } throws: { error in
      guard case .mergeStoppedAtDamage(let failed, let location, _) = error as? ArchiveError else { return false }
      return failed == path && location.contains("\"\(damagedDraft)\" version 1")
    }

    let salvaged = try merged.merge(archiveAt: path, salvage: true)
    let versions = try merged.database.fetchOne("SELECT count(*) FROM version") { $0.int(0) } ?? 0
    #expect(salvaged.versions.rejected > 0)
    #expect(versions + salvaged.versions.rejected == total)
    #expect(try Archive(checking: folder.path("merged.sqlite")).check(full: true).isHealthy)
  }

  @Test func refusesWhatIsNotAnArchiveItCanRead() throws {
    let folder = try TemporaryFolder("merge-refused")
    let archive = try Archive(path: folder.path("a.sqlite"))
    let plain = try Database(path: folder.path("plain.sqlite"), mode: .readWrite)
    try plain.execute("CREATE TABLE t(x)")
    plain.close()
    let newer = folder.path("newer.sqlite")
    let newerArchive = try Archive(path: newer)
    try newerArchive.database.execute("PRAGMA user_version = 999")
    withExtendedLifetime(newerArchive) {}

    func reason(_ path: String) -> ArchiveError.UnusableArchive? {
      do {
        _ = try archive.merge(archiveAt: path)
      } catch .cannotMerge(_, let reason) {
        return reason
      } catch {}
      return nil
    }
    if case .notAnArchive = reason(folder.path("plain.sqlite")) {} else { Issue.record("plain SQLite merged") }
    // A SQLite header and nothing a database holds after it.
    try folder.write("broken.sqlite", Array("SQLite format 3\0".utf8) + [UInt8](repeating: 7, count: 200))
    #expect(Archive.isSQLiteFile(atPath: folder.path("broken.sqlite")))
    #expect(reason(folder.path("broken.sqlite")) != nil, "a broken file merged")
    if case .newerSchema = reason(newer) {} else { Issue.record("a newer schema merged") }
    #expect(throws: ArchiveError.mergeIntoItself(path: folder.path("a.sqlite"))) {
      try archive.merge(archiveAt: folder.path("a.sqlite"))
    }
    #expect(Archive.isSQLiteFile(atPath: newer))
    #expect(!Archive.isSQLiteFile(atPath: folder.path("")))
  }
}
