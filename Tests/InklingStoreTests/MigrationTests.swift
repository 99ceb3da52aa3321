import Foundation
import InklingFormats
import InklingTestSupport
import Testing

@testable import InklingStore

@Suite struct MigrationTests {
  /// The repository's `migrations/` folder.
  static let folder = URL(fileURLWithPath: PackageFolder.path("migrations"))

  @Test func everyMigrationFileIsEmbeddedInOrder() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
      .filter { $0.hasSuffix(".sql") && $0.first?.isNumber == true }.sorted()
    #expect(!files.isEmpty)
    #expect(Migration.all.map(\.name) == files)
    var texts: [String] = []
    for (migration, file) in zip(Migration.all, files) {
      let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
      // A migration that runs an earlier one's statements again (0016) is its file followed by that file.
      let again = migration.sql.hasPrefix(text) ? String(migration.sql.dropFirst(text.count)) : nil
      #expect(again == "" || texts.contains(again ?? "\0"), "\(file) differs from its embedded copy")
      texts.append(text)
      let number = Int32(file.prefix(while: \.isNumber))
      #expect(number == migration.version, "\(file) is listed as version \(migration.version)")
    }
    #expect(Migration.all.first?.version == 1)
    let versions = Migration.all.map(\.version)
    #expect(zip(versions, versions.dropFirst()).allSatisfy { $0 < $1 }, "versions must increase: \(versions)")
  }

  @Test func migrationsLeaveAConsistentSchema() throws {
    let folder = try TemporaryFolder()
    let db = try ArchiveDatabase.open(path: folder.path("a.sqlite"), mode: .readWrite)
    #expect(try db.fetchAll("PRAGMA foreign_key_check") { $0.string(0) }.isEmpty)
    #expect(try db.fetchOne("PRAGMA integrity_check") { $0.string(0) } == "ok")
  }
}

/// Migration 0015: a draft's row updated once for several versions (VersionRecords.add) is
/// the row that updating it after each version gives, whatever the order of their save times.
@Suite struct DraftTallyTests {
  static let columns =
    "version_count, latest_saved_ms, latest_version_id, first_saved_ms, first_imported_ms, latest_imported_ms"

  @Test func oneUpdateForManyVersionsIsTheUpdateAfterEach() throws {
    let folder = try TemporaryFolder("tally")
    let db = try ArchiveDatabase.open(path: folder.path("a.sqlite"), mode: .readWrite)
    defer { db.close() }
    #expect(
      try db.fetchOne("SELECT count(*) FROM sqlite_master WHERE name = 'version_search_insert'") { $0.int(0) } == 0)
    try db.execute(
      "INSERT INTO blob(sha256, size, encoding, depth, data) VALUES (?, 1, 0, 0, x'00')",
      [[UInt8](repeating: 1, count: 32)])
    try db.execute(
      "INSERT INTO envelope(sha256, text, drawing_offset, base64_style) VALUES (?, x'7b7d', 1, 0)",
      [[UInt8](repeating: 2, count: 32)])
    // Save times out of order, a tie (the later insert wins) and import times in any order.
    let versions: [(saved: Int64, imported: Int64)] = [(500, 9), (200, 3), (700, 5), (700, 1), (100, 12), (650, 4)]
    func insert(_ index: Int, into draftID: Int64, leavingDraft: Bool) throws -> Int64 {
      let version = NewVersion(
        draftID: draftID, savedMilliseconds: versions[index].saved, savedSource: .fileName,
        importedMilliseconds: versions[index].imported, fileName: "\(index).inkling",
        fileSHA256: [UInt8](repeating: UInt8(index), count: 32), fileSize: 1, fileModificationNanoseconds: 0,
        blobID: 1, envelopeID: 1, background: RGBA(red: 1, green: 1, blue: 1, alpha: 1))
      let id =
        leavingDraft
        ? try VersionRecords.insertLeavingDraft(version, in: db) : try VersionRecords.insert(version, in: db)
      return try #require(id)
    }
    let one = try VersionRecords.draftID(named: "One by one", createdMilliseconds: 0, in: db).id
    let together = try VersionRecords.draftID(named: "Together", createdMilliseconds: 0, in: db).id
    // Each draft gets its first two versions alike, then the rest one by one or in one update.
    var tally = DraftTally(draftID: together)
    for index in versions.indices {
      _ = try insert(index, into: one, leavingDraft: false)
      if index < 2 {
        _ = try insert(index, into: together, leavingDraft: false)
        continue
      }
      let id = try insert(index, into: together, leavingDraft: true)
      tally.add(versionID: id, savedMilliseconds: versions[index].saved, importedMilliseconds: versions[index].imported)
    }
    try VersionRecords.add(tally, in: db)
    func row(_ id: Int64) throws -> [Int64] {
      try #require(
        try db.fetchOne("SELECT \(Self.columns) FROM draft WHERE id = ?", [id]) { row in (0..<6).map { row.int64($0) } }
      )
    }
    // The newest: the second version saved at 700 (inserted later); its id in each draft.
    let latest = { (draft: Int64) in
      try db.fetchOne("SELECT id FROM version WHERE draft_id = ? AND file_name = '3.inkling'", [draft]) { $0.int64(0) }
    }
    #expect(try row(one) == [6, 700, try #require(try latest(one)), 100, 1, 12])
    var expected = try row(one)
    expected[2] = try #require(try latest(together))
    #expect(try row(together) == expected)
  }
}
