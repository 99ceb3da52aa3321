import Foundation
import InklingCorpus
import InklingFormats
import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

/// Revert, rename and merge, and the trash, through the library: each leaves a clean `check
/// --full`, and what comes out again is byte for byte what went in.
@Suite struct LifecycleTests {
  /// An archive of `files` (file name → drawing seed), imported from a folder of the test's.
  static func archive(_ folder: TemporaryFolder, _ files: [(String, UInt64)], color: Double = 1) throws -> Archive {
    for (name, seed) in files {
      try folder.write(
        "Drafts/\(name)", inklingFile(drawing: SeededRandom.bytes(600, seed: seed), color: (color, 1, 1, 1)))
    }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    let summary = try archive.importFiles(at: [folder.path("Drafts")])
    #expect(summary.rejected == 0)
    return archive
  }

  static func expectHealthy(_ archive: Archive, _ label: String, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    let report = try Archive(checking: archive.path).check(full: true)
    #expect(report.isHealthy, "\(label): \(report.problems)", sourceLocation: sourceLocation)
  }

  static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

  // MARK: - Revert

  @Test func revertAddsACopyOfAnOldVersionSavedNow() throws {
    let folder = try TemporaryFolder("revert")
    let archive = try Self.archive(
      folder,
      [
        ("Plan-B-2025-10-01T10:00:00Z.inkling", 1), ("Plan-B-2025-10-02T10:00:00Z.inkling", 2),
        ("Plan-B-2025-10-03T10:00:00Z.inkling", 3),
      ])
    let now = Date(timeIntervalSince1970: 1_790_000_000.75)
    let result = try archive.revert(draft: "Plan-B", toVersion: 2, now: now)
    #expect(result.added)
    #expect(result.revertedTo == 2)
    #expect(result.version.number == 4)
    #expect(result.version.fileName == "Plan-B-2026-09-21T14:13:20Z.inkling")
    #expect(result.version.saved == Date(timeIntervalSince1970: 1_790_000_000))
    #expect(result.version.revertsTo == 2)

    // Nothing after version 2 is lost, and restoring the new newest gives version 2's file.
    let history = try archive.history(of: "Plan-B")
    #expect(history.map(\.number) == [1, 2, 3, 4])
    #expect(history.map(\.revertsTo) == [nil, nil, nil, 2])
    let restored = try archive.restore(draft: "Plan-B", to: .file(folder.path("newest.inkling")))
    #expect(restored.version.number == 4)
    #expect(try folder.read("newest.inkling") == folder.read("Drafts/Plan-B-2025-10-02T10:00:00Z.inkling"))
    let attributes = try FileManager.default.attributesOfItem(atPath: folder.path("newest.inkling"))
    #expect((attributes[.modificationDate] as? Date).map { abs($0.timeIntervalSince(now)) < 0.001 } == true)

    // The same revert again adds nothing: the newest version is that file already.
    let twice = try archive.revert(draft: "Plan-B", toVersion: 2, now: now.addingTimeInterval(5.2))
    #expect(!twice.added)
    #expect(twice.version.number == 4)
    // A revert of the revert names the original.
    _ = try archive.revert(draft: "Plan-B", toVersion: 3, now: now.addingTimeInterval(6))
    let again = try archive.revert(draft: "Plan-B", toVersion: 4, now: now.addingTimeInterval(7))
    #expect(again.added && again.version.number == 6 && again.version.revertsTo == 2)
    #expect(try archive.history(of: "Plan-B").count == 6)
    try Self.expectHealthy(archive, "after reverts")

    // Restored and imported again, a revert's file is archived already.
    _ = try archive.restoreAllVersions(draft: "Plan-B", to: folder.path("all"))
    #expect(try archive.importFiles(at: [folder.path("all")]).alreadyArchived == 6)

    #expect(throws: ArchiveError.noSuchVersion(draft: "Plan-B", number: 9, versionCount: 6)) {
      try archive.revert(draft: "Plan-B", toVersion: 9)
    }
    try archive.delete(draft: "Plan-B")
    #expect(throws: ArchiveError.draftInTrash(name: "Plan-B")) { try archive.revert(draft: "Plan-B", toVersion: 1) }
  }

  /// What revert returns is the new version's entry as `history` gives it afterwards, also
  /// when the revert is dated before later saves (it still lands last, a second after the
  /// newest) and when it repeats the newest version (nothing is added).
  @Test func revertsResultIsItsEntryInHistory() throws {
    let folder = try TemporaryFolder("revert-entry")
    _ = try writeCorpus(
      CorpusSpec(drafts: 1, versionsPerDraft: 4...4, seed: 9, strokesPerVersion: 1...2),
      to: URL(fileURLWithPath: folder.path("Drafts")))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("Drafts")])
    let name = try #require(try archive.drafts().first?.name)
    let before = try archive.history(of: name)
    #expect(before.count == 4)
    func expectEntry(_ result: RevertResult, sourceLocation: SourceLocation = #_sourceLocation) throws {
      let history = try archive.history(of: name)
      #expect(
        history.indices.contains(result.version.number - 1)
          && history[result.version.number - 1] == result.version, sourceLocation: sourceLocation)
    }
    let newest = try archive.revert(draft: name, toVersion: 2, now: before[3].saved.addingTimeInterval(3600))
    try expectEntry(newest)
    #expect(newest.version.number == 5 && newest.version.sameDrawingAs == 2)
    // Dated in the second of version 2's save (a clock behind the device's): still the
    // newest, a second after the newest before it.
    let late = try archive.revert(draft: name, toVersion: 4, now: before[1].saved.addingTimeInterval(0.5))
    try expectEntry(late)
    #expect(late.version.number == 6 && late.version.revertsTo == 4)
    #expect(late.version.saved == newest.version.saved.addingTimeInterval(1))
    let repeated = try archive.revert(draft: name, toVersion: 4, now: before[1].saved.addingTimeInterval(0.7))
    #expect(!repeated.added)
    try expectEntry(repeated)
    #expect(repeated.version == late.version)
    try Self.expectHealthy(archive, "after reverts")
  }

  /// `revert --version 2`, `--version 1`, `--version 2` within one second: three versions, one
  /// second apart, the newest a copy of version 2, no two sharing a save time or a file name.
  @Test func revertsWithinOneSecondEachBecomeTheNewest() throws {
    let folder = try TemporaryFolder("revert-second")
    let archive = try Self.archive(
      folder,
      [
        ("Plan-B-2025-10-01T10:00:00Z.inkling", 1), ("Plan-B-2025-10-02T10:00:00Z.inkling", 2),
        ("Plan-B-2025-10-03T10:00:00Z.inkling", 3),
      ])
    let now = Date(timeIntervalSince1970: 1_790_000_000.1)
    let results = try [2, 1, 2].enumerated().map { index, number in
      try archive.revert(draft: "Plan-B", toVersion: number, now: now.addingTimeInterval(Double(index) * 0.2))
    }
    #expect(results.map(\.added) == [true, true, true])
    #expect(results.map(\.version.number) == [4, 5, 6])
    #expect(results.map(\.version.revertsTo) == [2, 1, 2])
    #expect(results.map(\.version.saved.timeIntervalSince1970) == [1_790_000_000, 1_790_000_001, 1_790_000_002])
    let history = try archive.history(of: "Plan-B")
    #expect(Set(history.map(\.fileName)).count == 6 && Set(history.map(\.saved)).count == 6)
    let restored = try archive.restore(draft: "Plan-B", to: .file(folder.path("newest.inkling")))
    #expect(restored.version.number == 6)
    #expect(try folder.read("newest.inkling") == folder.read("Drafts/Plan-B-2025-10-02T10:00:00Z.inkling"))
    try Self.expectHealthy(archive, "after three reverts in a second")
  }

  @Test func revertRefusesADamagedVersion() throws {
    let folder = try TemporaryFolder("revert-damaged")
    let archive = try Self.archive(
      folder, [("A-2025-10-01T10:00:00Z.inkling", 1), ("A-2025-10-02T10:00:00Z.inkling", 2)])
    try archive.database.execute(
      "UPDATE version SET file_sha256 = zeroblob(32) WHERE saved_ms = ?", [Int64(1_759_312_800_000)])
    #expect {
      try archive.revert(draft: "A", toVersion: 1)
    } throws: { error in
      if case ArchiveError.damagedVersion(draft: "A", version: 1, _, _) = error { return true }
      return false
    }
    #expect(try archive.history(of: "A").count == 2)
  }

  // MARK: - Rename and merge

  @Test func renameKeepsTheHistoryAndFilesCarryTheNewName() throws {
    let folder = try TemporaryFolder("rename")
    let archive = try Self.archive(
      folder, [("Plan-B-2025-10-01T10:00:00Z.inkling", 1), ("Plan-B-2025-10-02T10:00:00Z 2.inkling", 2)])
    let before = try archive.history(of: "Plan-B")
    let result = try archive.rename(draft: "Plan-B", to: "Plan/C")
    #expect(
      result
        == RenameResult(
          from: "Plan-B", to: "Plan-C", merged: false, versionsMoved: 2, duplicatesDropped: 0, versionCount: 2))
    #expect(throws: ArchiveError.self) { try archive.history(of: "Plan-B") }
    let after = try archive.history(of: "Plan-C")
    #expect(after.map(\.fileSHA256) == before.map(\.fileSHA256))
    #expect(after.map(\.saved) == before.map(\.saved))
    #expect(try archive.drafts(matching: DraftQuery(name: "plan-c")).map(\.name) == ["Plan-C"])

    // The stamp and the copy suffix stay; the contents are the imported bytes.
    let restored = try archive.restoreAllVersions(draft: "Plan-C", to: folder.path("out")).restored
    #expect(
      restored.map { ($0.path as NSString).lastPathComponent } == [
        "Plan-C-2025-10-01T10:00:00Z.inkling", "Plan-C-2025-10-02T10:00:00Z 2.inkling",
      ])
    #expect(restored.map(\.nameChange) == [.draftRenamed, .draftRenamed])
    #expect(try Self.bytes(restored[1].path) == folder.read("Drafts/Plan-B-2025-10-02T10:00:00Z 2.inkling"))

    // The old files, imported again, are archived already: the old name does not come back.
    #expect(try archive.importFiles(at: [folder.path("Drafts")]).alreadyArchived == 2)
    #expect(try archive.drafts().map(\.name) == ["Plan-C"])
    // The renamed files are the same draft, save time and content too.
    #expect(try archive.importFiles(at: [folder.path("out")]).alreadyArchived == 2)
    try Self.expectHealthy(archive, "after a rename")

    // Renamed back, the files have their own names again.
    try archive.rename(draft: "Plan-C", to: "Plan-B")
    let back = try archive.restore(draft: "Plan-B", to: .folder(folder.path("back")))
    #expect(back.path.hasSuffix("/Plan-B-2025-10-02T10:00:00Z 2.inkling"))
    #expect(back.nameChange == nil)
  }

  @Test func aDraftNeverRenamedKeepsItsFileNameAsWritten() throws {
    let folder = try TemporaryFolder("nfd")
    let nfd = "Cafe\u{301}-2025-10-01T10:00:00Z.inkling"
    let archive = try Self.archive(folder, [(nfd, 1), ("-2025-10-02T10:00:00Z.inkling", 2)])
    #expect(Set(try archive.drafts().map(\.name)) == ["Café", "Untitled"])
    let restored = try archive.restore(draft: "Café", to: .folder(folder.path("out")))
    #expect(Array((restored.path as NSString).lastPathComponent.unicodeScalars) == Array(nfd.unicodeScalars))
    #expect(restored.nameChange == nil)
    let untitled = try archive.restore(draft: "Untitled", to: .folder(folder.path("out")))
    #expect(untitled.path.hasSuffix("/-2025-10-02T10:00:00Z.inkling"))
  }

  @Test func renameRefusesAnExistingNameUnlessMerging() throws {
    let folder = try TemporaryFolder("merge")
    let archive = try Self.archive(
      folder,
      [
        ("cat-2025-10-01T10:00:00Z.inkling", 1), ("cat-2025-10-03T10:00:00Z.inkling", 3),
        ("Cat-2025-10-02T10:00:00Z.inkling", 2), ("Cat-2025-10-04T10:00:00Z.inkling", 4),
      ])
    // The same file in both drafts (same save time and content): one version after the merge.
    let same = inklingFile(drawing: SeededRandom.bytes(600, seed: 5))
    try folder.write("More/cat-2025-10-05T10:00:00Z.inkling", same)
    try folder.write("More/Cat-2025-10-05T10:00:00Z.inkling", same)
    _ = try archive.importFiles(at: [folder.path("More")])
    // cat's version 2 reverts to its version 1: after the merge it still names it.
    _ = try archive.revert(draft: "cat", toVersion: 1, now: Date(timeIntervalSince1970: 1_759_700_000))

    #expect(throws: ArchiveError.draftExists(name: "Cat")) { try archive.rename(draft: "cat", to: "Cat") }
    let result = try archive.rename(draft: "cat", to: "Cat", merge: true)
    #expect(result.merged)
    #expect(result.versionsMoved == 3)
    #expect(result.duplicatesDropped == 1)
    #expect(result.versionCount == 6)
    #expect(try archive.drafts().map(\.name) == ["Cat"])
    let history = try archive.history(of: "Cat")
    #expect(
      history.map { Int($0.saved.timeIntervalSince1970) } == [
        1_759_312_800, 1_759_399_200, 1_759_485_600, 1_759_572_000, 1_759_658_400, 1_759_700_000,
      ])
    #expect(history.last?.revertsTo == 1)
    #expect(history.last?.fileSHA256 == history.first?.fileSHA256)
    try Self.expectHealthy(archive, "after a merge")

    // Every version's file, named after the merged draft, in save order.
    let restored = try archive.restoreAllVersions(draft: "Cat", to: folder.path("out")).restored
    #expect(restored.allSatisfy { ($0.path as NSString).lastPathComponent.hasPrefix("Cat-") })
    #expect(
      try Self.bytes(restored[0].path) == folder.read("Drafts/cat-2025-10-01T10:00:00Z.inkling"))
    let summary = try archive.drafts().first
    #expect(summary?.versionCount == 6)
    #expect(summary?.lastSaved == Date(timeIntervalSince1970: 1_759_700_000))
  }

  @Test func renameRulesForNames() throws {
    let folder = try TemporaryFolder("names")
    let archive = try Self.archive(
      folder, [("A-2025-10-01T10:00:00Z.inkling", 1), ("B-2025-10-01T10:00:00Z.inkling", 2)])
    #expect(try archive.rename(draft: "A", to: "").to == "Untitled")
    #expect(try archive.rename(draft: "Untitled", to: "Cafe\u{301}").to == "Café")
    let same = try archive.rename(draft: "Café", to: "Café")
    #expect(same.from == same.to && same.versionsMoved == 0)
    // A name no file could carry (NAME.inkling over 255 bytes) is refused, saying why.
    #expect(
      throws: ArchiveError.invalidArgument(
        .draftName(String(repeating: "x", count: 5000), .fileNameTooLong(bytes: 5008)))
    ) {
      try archive.rename(draft: "Café", to: String(repeating: "x", count: 5000))
    }
    let long = String(repeating: "é", count: 123) + "x"  // 247 bytes: NAME.inkling is 255
    #expect(try archive.rename(draft: "Café", to: long).to == long)
    #expect(throws: ArchiveError.invalidArgument(.draftName(long + "x", .fileNameTooLong(bytes: 256)))) {
      try archive.rename(draft: long, to: long + "x")
    }
    // Every name import takes from a file, rename gives.
    for name in [".", "..", "  padded  ", "tab\there", "new\nline", "   "] {
      #expect(try archive.rename(draft: long, to: name).to == name, "\(name)")
      try archive.rename(draft: name, to: long)
    }
    try archive.rename(draft: long, to: "Café")
    #expect(throws: ArchiveError.self) { try archive.rename(draft: "Nope", to: "C") }
    try archive.delete(draft: "B")
    #expect(throws: ArchiveError.draftInTrash(name: "B")) { try archive.rename(draft: "Café", to: "B", merge: true) }
    #expect(throws: ArchiveError.draftInTrash(name: "B")) { try archive.rename(draft: "B", to: "D") }
    try Self.expectHealthy(archive, "after renames")
  }

  // MARK: - The trash

  @Test func deleteThenUndeleteGivesTheDraftBackWhole() throws {
    let folder = try TemporaryFolder("trash")
    let archive = try Self.archive(
      folder,
      [
        ("Scratch-2025-10-01T10:00:00Z.inkling", 1), ("Scratch-2025-10-02T10:00:00Z.inkling", 2),
        ("Keep-2025-10-03T10:00:00Z.inkling", 3),
      ])
    let before = try archive.history(of: "Scratch")
    let deleted = try archive.delete(draft: "Scratch", now: Date(timeIntervalSince1970: 1_760_000_000))
    #expect(deleted.versionCount == 2 && !deleted.wasInTrash)
    #expect(try archive.delete(draft: "Scratch").wasInTrash)

    // Gone from the lists, still found by name.
    #expect(try archive.drafts().map(\.name) == ["Keep"])
    #expect(try archive.search("name:scratch").isEmpty)
    #expect(try archive.drafts(matching: DraftQuery(since: "2025-10-01")).map(\.name) == ["Keep"])
    let trash = try archive.drafts(matching: .trash)
    #expect(trash.map(\.name) == ["Scratch"])
    #expect(trash.first?.deleted == Date(timeIntervalSince1970: 1_760_000_000))
    #expect(try archive.drafts(matching: DraftQuery(name: "scr")).isEmpty)
    var inTrash = try DraftQuery(name: "scr")
    inTrash.inTrash = true
    #expect(try archive.drafts(matching: inTrash).map(\.name) == ["Scratch"])
    #expect(try archive.history(of: "Scratch") == before)
    _ = try archive.restore(draft: "Scratch", to: .file(folder.path("one.inkling")))
    #expect(try folder.read("one.inkling") == folder.read("Drafts/Scratch-2025-10-02T10:00:00Z.inkling"))
    let exported = try archive.export(to: folder.path("out"))
    #expect(exported.drafts == 1 && exported.versions == 1)
    let fromTrash = try archive.export(matching: .trash, to: folder.path("trash"), options: .init(allVersions: true))
    #expect(fromTrash.drafts == 1 && fromTrash.versions == 2)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path("trash")).sorted() == [
        "Scratch-2025-10-01T10:00:00Z.inkling", "Scratch-2025-10-02T10:00:00Z.inkling", "inkling-export.json",
      ])
    #expect(try archive.contactSheet(drafts: .matching(.trash)).count > 0)
    // A version older than the draft's newest, found late, joins it in the trash.
    try folder.write("Old/Scratch-2025-09-30T10:00:00Z.inkling", inklingFile(drawing: [7, 7]))
    let old = try archive.importFiles(at: [folder.path("Old")])
    #expect(old.versionsImported == 1 && old.versionsInTrash == 1 && old.draftsBroughtBack.isEmpty)
    #expect(try archive.drafts().map(\.name) == ["Keep"])
    try Self.expectHealthy(archive, "in the trash")

    let back = try archive.undelete(draft: "Scratch")
    #expect(back.versionCount == 3)
    #expect(
      try archive.history(of: "Scratch").map(\.fileName)
        == ["Scratch-2025-09-30T10:00:00Z.inkling"] + before.map(\.fileName))
    #expect(try archive.drafts().map(\.name) == ["Keep", "Scratch"])
    #expect(throws: ArchiveError.draftNotInTrash(name: "Scratch")) { try archive.undelete(draft: "Scratch") }
    try Self.expectHealthy(archive, "after undelete")
  }

  /// A new save of a draft in the trash is never hidden there: a save newer than any the draft
  /// held brings it back, and the summary names it; older versions stored before it in the same
  /// import come back with it and are not counted as left there.
  @Test func aNewerSaveBringsItsDraftBackFromTheTrash() throws {
    let folder = try TemporaryFolder("trash-new-save")
    let archive = try Self.archive(
      folder, [("Cat-2025-10-05T10:00:00Z.inkling", 1), ("Dog-2025-10-05T10:00:00Z.inkling", 2)])
    _ = try archive.delete(drafts: ["Cat", "Dog"])
    try folder.write("Sync/Cat-2025-10-01T10:00:00Z.inkling", inklingFile(drawing: [1]))
    try folder.write("Sync/Cat-2025-10-06T10:00:00Z.inkling", inklingFile(drawing: [2]))
    try folder.write("Sync/Dog-2025-10-04T10:00:00Z.inkling", inklingFile(drawing: [3]))
    let broughtBack = LockedLines()
    var options = ImportOptions()
    options.reportsVersions = true
    options.onEvent = { event in
      if case .imported(let version) = event, version.broughtBackFromTrash { broughtBack.append(version.path) }
    }
    let summary = try archive.importFiles(at: [folder.path("Sync")], options: options)
    #expect(summary.versionsImported == 3)
    #expect(summary.draftsBroughtBack == ["Cat"])
    #expect(summary.versionsInTrash == 1)
    #expect(try archive.drafts().map(\.name) == ["Cat"])
    #expect(try archive.drafts(matching: .trash).map(\.name) == ["Dog"])
    #expect(try archive.history(of: "Cat").count == 3)
    #expect(broughtBack.values == [folder.path("Sync/Cat-2025-10-06T10:00:00Z.inkling")])
    try Self.expectHealthy(archive, "after the import")
  }

  /// Several drafts come back from the trash in one transaction: when the second one's change
  /// fails, the first is still in the trash, as after a kill.
  @Test func undeleteOfSeveralDraftsIsOneTransaction() throws {
    let folder = try TemporaryFolder("undelete-all")
    let archive = try Self.archive(
      folder, [("A-2025-10-01T10:00:00Z.inkling", 1), ("B-2025-10-02T10:00:00Z.inkling", 2)])
    let deleted = try archive.delete(drafts: ["A", "B", "A", "Nope"])
    #expect(deleted.drafts.map(\.name) == ["A", "B"] && deleted.problems.count == 1)
    // A trigger of this connection only (TEMP: the archive's schema stays as it is) stops
    // the change of B inside the transaction.
    try archive.database.execute(
      "CREATE TEMP TRIGGER stop_b BEFORE UPDATE OF deleted_ms ON main.draft WHEN OLD.name = 'B' "
        + "BEGIN SELECT RAISE(ABORT, 'stopped for the test'); END")
    #expect(throws: ArchiveError.self) { try archive.undelete(drafts: ["A", "B"]) }
    #expect(try archive.drafts(matching: .trash).map(\.name).sorted() == ["A", "B"])
    try archive.database.execute("DROP TRIGGER temp.stop_b")

    let back = try archive.undelete(drafts: ["A", "B"])
    #expect(back.drafts.map(\.name) == ["A", "B"] && back.drafts.allSatisfy { !$0.wasOutOfTrash })
    let again = try archive.undelete(drafts: ["B", "A"])
    #expect(again.drafts.map(\.name) == ["B", "A"] && again.drafts.allSatisfy(\.wasOutOfTrash))
    #expect(try archive.drafts(matching: .trash).isEmpty)
    try Self.expectHealthy(archive, "after undelete")
  }

  @Test func purgeRemovesForGoodAndGCReclaimsTheSpace() throws {
    let folder = try TemporaryFolder("purge")
    var files: [(String, UInt64)] = []
    for day in 1...8 { files.append(("Big-2025-10-0\(day)T10:00:00Z.inkling", UInt64(day))) }
    files += [("Old-2025-09-01T10:00:00Z.inkling", 20), ("Keep-2025-09-02T10:00:00Z.inkling", 21)]
    let archive = try Self.archive(folder, files)
    try archive.delete(draft: "Old", now: Date(timeIntervalSince1970: 1_700_000_000))
    try archive.delete(draft: "Big", now: Date(timeIntervalSince1970: 1_760_000_000))
    #expect(throws: ArchiveError.draftNotInTrash(name: "Keep")) { try archive.purge(drafts: ["Keep"]) }

    let older = try archive.purge(deletedBefore: Date(timeIntervalSince1970: 1_750_000_000), dryRun: true)
    #expect(older.drafts.map(\.name) == ["Old"])
    #expect(older.versionsRemoved == 1 && older.dryRun)
    let all = try archive.purge(dryRun: true)
    #expect(all.drafts.map(\.name) == ["Old", "Big"])
    #expect(all.versionsRemoved == 9)
    #expect(try archive.drafts(matching: .trash).count == 2)

    let gcBefore = try archive.collectGarbage()
    let purged = try archive.purge(drafts: ["Big", "Old"])
    #expect(purged.drafts.map(\.name) == ["Old", "Big"])
    #expect(purged.versionsRemoved == 9 && !purged.dryRun)
    #expect(try archive.drafts(matching: .trash).isEmpty)
    #expect(throws: ArchiveError.self) { try archive.history(of: "Big") }
    try Self.expectHealthy(archive, "after purge, before gc")
    let gc = try archive.collectGarbage()
    #expect(gc.drawingsRemoved == 9)
    #expect(gc.bytesAfter < gcBefore.bytesAfter)
    try Self.expectHealthy(archive, "after purge and gc")
    #expect(
      try archive.database.fetchOne("SELECT count(*) FROM name_gram WHERE draft_id NOT IN (SELECT id FROM draft)") {
        $0.int(0)
      } == 0)

    // The purged files, imported again, are archived again.
    let again = try archive.importFiles(at: [folder.path("Drafts")])
    #expect(again.versionsImported == 9 && again.alreadyArchived == 1)
    #expect(try archive.history(of: "Big").count == 8)
    try Self.expectHealthy(archive, "re-imported")
  }

  /// gc keeps a blob that another draft's blob is a delta of, when the draft that used it
  /// is purged (BlobStore stores a version as a delta of the one saved before it).
  @Test func purgeKeepsADeltaBaseAnotherDraftNeeds() throws {
    let folder = try TemporaryFolder("purge-base")
    let base = SeededRandom.bytes(20_000, seed: 9)
    try folder.write("Drafts/A-2025-10-01T10:00:00Z.inkling", inklingFile(drawing: base))
    try folder.write("Drafts/A-2025-10-02T10:00:00Z.inkling", inklingFile(drawing: base + [1, 2, 3]))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    // One import each: A's second drawing continues its history as a delta of the first (one
    // import of both would store the second whole and the first over it).
    _ = try archive.importFiles(at: [folder.path("Drafts/A-2025-10-01T10:00:00Z.inkling")])
    _ = try archive.importFiles(at: [folder.path("Drafts/A-2025-10-02T10:00:00Z.inkling")])
    // B's only version shares A's second blob, which is a delta of A's first.
    try folder.write("B/B-2025-10-03T10:00:00Z.inkling", inklingFile(drawing: base + [1, 2, 3], color: (0, 0, 0, 1)))
    _ = try archive.importFiles(at: [folder.path("B")])
    let deltas = try archive.database.fetchOne("SELECT count(*) FROM blob WHERE base_id IS NOT NULL") { $0.int(0) }
    #expect(deltas == 1)
    try archive.delete(draft: "A")
    _ = try archive.purge()
    let gc = try archive.collectGarbage()
    #expect(gc.drawingsRemoved == 0)
    try Self.expectHealthy(archive, "a base kept")
    _ = try archive.restore(draft: "B", to: .file(folder.path("b.inkling")))
    #expect(try folder.read("b.inkling") == folder.read("B/B-2025-10-03T10:00:00Z.inkling"))
  }
}
