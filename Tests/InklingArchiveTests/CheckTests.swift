import Foundation
import InklingCorpus
import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

/// `check` on fresh archives damaged on purpose, one way each: the fixtures are built by
/// importing a small corpus and then corrupting it with SQL, and each asserts the exact
/// problem lines the damage gives.
@Suite struct CheckTests {
  let folder: TemporaryFolder
  let archivePath: String

  /// Two drafts: "Cat" with three versions (a full blob, then deltas over it) and "Dog"
  /// with one.
  init() throws {
    folder = try TemporaryFolder("check")
    archivePath = folder.path("archive.sqlite")
    var drawing = SeededRandom.bytes(6_000, seed: 1)
    for version in 1...3 {
      drawing += SeededRandom.bytes(300, seed: UInt64(10 + version))
      try folder.write("Cat/Cat-2025-10-0\(version)T10:00:00Z.inkling", inklingFile(drawing: drawing))
    }
    try folder.write(
      "Dog/Dog-2025-10-05T10:00:00Z.inkling",
      inklingFile(drawing: SeededRandom.bytes(4_000, seed: 2), color: (0, 0, 0, 1)))
    // An import per file, so that row ids are known: Cat's versions and blobs are 1…3, Dog's 4;
    // and Cat's history continues forward, each version a delta of the one before (one import
    // of a new draft's files would store the newest whole and the older ones over it).
    let archive = try Archive(path: archivePath)
    for version in 1...3 {
      let file = folder.path("Cat/Cat-2025-10-0\(version)T10:00:00Z.inkling")
      #expect(try archive.importFiles(at: [file]).versionsImported == 1)
    }
    #expect(try archive.importFiles(at: [folder.path("Dog")]).versionsImported == 1)
  }

  /// Runs SQL on the archive through a plain connection, as someone with `sqlite3` would
  /// (with the functions the triggers call: writes to versions and drawings need them).
  func tamper(_ sql: String) throws {
    let db = try Database(path: archivePath, mode: .readWrite)
    defer { db.close() }
    try db.registerArchiveFunctions()
    try db.execute("PRAGMA foreign_keys = OFF")
    try db.execute(sql)
  }

  func check(full: Bool = true, limit: Int = 100) throws -> CheckReport {
    try Archive(checking: archivePath).check(full: full, limit: limit)
  }

  func blobHash(version: Int, of draft: String) throws -> String {
    let db = try Database(path: archivePath, mode: .readOnly)
    defer { db.close() }
    let sha = try db.fetchOne(
      """
      SELECT blob.sha256 FROM version JOIN draft ON draft.id = version.draft_id JOIN blob ON blob.id = version.blob_id
      WHERE draft.name = ? ORDER BY version.saved_ms LIMIT 1 OFFSET ?
      """, [draft, version - 1]
    ) { $0.bytes(0) }
    return hexString(Array(sha!.prefix(6))) + "…"
  }

  @Test func aHealthyArchiveHasNoProblems() throws {
    let quick = try check(full: false)
    #expect(quick.isHealthy)
    #expect(quick.problems.isEmpty)
    #expect(quick.counts.drafts == 2)
    #expect(quick.counts.versions == 4)
    #expect(quick.counts.blobs == 4)
    #expect(quick.counts.filesVerified == 0)

    let full = try check()
    #expect(full.isHealthy, "\(full.problems)")
    #expect(full.counts.blobsVerified == 4)
    #expect(full.counts.filesVerified == 4)
    #expect(full.counts.interruptedImports == 0)
    #expect(full.counts.drawingsOpaque == 4)  // random bytes: not PencilKit
    #expect(full.counts.drawingsNotIndexed == 0)
    #expect(full.notChecked.isEmpty)
  }

  /// Migration 0019's invariants: a tag no draft has, a label filed under another draft.
  @Test func organisingRowsThatBreakTheirRulesAreReported() throws {
    try tamper(
      """
      INSERT INTO tag(name) VALUES ('Orphan');
      INSERT INTO version_label(version_id, draft_id, name)
        SELECT v.id, (SELECT id FROM draft WHERE name = 'Dog'), 'final' FROM version AS v
        JOIN draft ON draft.id = v.draft_id WHERE draft.name = 'Cat' ORDER BY v.saved_ms LIMIT 1;
      """)
    let report = try check(full: false)
    #expect(
      report.problems.map(\.description) == [
        "tag 'Orphan': no draft has it, so it should be gone",
        "draft 'Cat' version 1: a note or label of it is filed under another draft",
      ])
  }

  /// Migration 0019's invariant 1 and 5: a tag and a label whose names are not in NFC (an
  /// `e` and a combining accent), which no command writes and a search by the name misses.
  @Test func organisingNamesNotInNFCAreReported() throws {
    try tamper(
      """
      INSERT INTO tag(name) VALUES ('cafe\u{301}');
      INSERT INTO draft_tag(draft_id, tag_id) SELECT (SELECT id FROM draft WHERE name = 'Cat'), id FROM tag;
      INSERT INTO version_label(version_id, draft_id, name)
        SELECT v.id, v.draft_id, 'fine\u{301}' FROM version AS v
        JOIN draft ON draft.id = v.draft_id WHERE draft.name = 'Cat' ORDER BY v.saved_ms LIMIT 1;
      """)
    let report = try check(full: false)
    #expect(
      report.problems.map(\.description) == [
        "tag 'cafe\u{301}': its name is not in NFC, so it is not found as it is written",
        "label 'fine\u{301}': its name is not in NFC, so it is not found as it is written",
      ])
  }

  @Test func aDamagedDeltaBaseIsReportedForEveryVersionThatNeedsIt() throws {
    let base = try blobHash(version: 1, of: "Cat")
    let second = try blobHash(version: 2, of: "Cat")
    let third = try blobHash(version: 3, of: "Cat")
    // The first version's blob is the full one; the others are deltas over it (or over each other).
    try tamper(
      """
      UPDATE blob SET data = zeroblob(length(data)) WHERE id =
        (SELECT blob_id FROM version JOIN draft ON draft.id = version.draft_id WHERE draft.name = 'Cat' ORDER BY saved_ms LIMIT 1)
      """)
    let report = try check()
    #expect(!report.isHealthy)
    // Random bytes do not compress: the full blob is stored as is, so zeros decode to zeros.
    let damage = "blob \(base) (id 1): its data decodes to bytes with another SHA-256"
    #expect(
      report.problems.map(\.description) == [
        "draft 'Cat' version 1: blob \(base): its data decodes to bytes with another SHA-256",
        "draft 'Cat' version 2: blob \(second): its delta chain is damaged: \(damage)",
        "draft 'Cat' version 3: blob \(third): its delta chain is damaged: \(damage)",
      ])
    #expect(report.counts.filesVerified == 1)
    // The quick check cannot see damage inside blob data.
    #expect(try check(full: false).isHealthy)
  }

  @Test func anEditedEnvelopeNoLongerRebuildsItsFiles() throws {
    try tamper(
      "UPDATE envelope SET text = CAST(replace(CAST(text AS TEXT), '\"a\"', '\"A\"') AS BLOB) WHERE id = (SELECT envelope_id FROM version WHERE id = 4)"
    )
    let report = try check()
    #expect(report.problemCount == 1)
    #expect(report.problems.first?.location == "draft 'Dog' version 1")
    #expect(report.problems.first?.message.hasPrefix("its rebuilt file does not match its SHA-256 ") == true)
  }

  @Test func wrongCountersBrokenChainsAndMissingRows() throws {
    try tamper(
      """
      UPDATE draft SET version_count = 7 WHERE name = 'Dog';
      UPDATE blob SET depth = 5 WHERE id = 2;
      UPDATE version SET blob_id = 999 WHERE id = 4;
      """)
    let report = try check(full: false)
    let second = try blobHash(version: 2, of: "Cat")
    let third = try blobHash(version: 3, of: "Cat")
    #expect(
      report.problems.map(\.description) == [
        "draft 'Dog' version 1: its blob_id refers to a blob row that does not exist",
        "draft 'Dog': its version count says 7 but it has 1 version",
        "blob \(second) (id 2): its depth is 5 over a base of depth 0, not 1",
        "blob \(third) (id 3): its depth is 2 over a base of depth 5, not 6",
      ])
  }

  @Test func aTamperedSchemaIsRefusedAtOpenAndReportedByCheck() throws {
    try tamper(
      """
      DROP INDEX version_by_blob;
      CREATE TRIGGER evil AFTER INSERT ON version BEGIN DELETE FROM version WHERE id = new.id; END;
      """)
    #expect(throws: ArchiveError.self) { try Archive(path: archivePath, mode: .readOnly) }
    do {
      _ = try Archive(path: archivePath, mode: .readWrite)
      Issue.record("a tampered archive opened")
    } catch {
      #expect(
        error
          == .unusableArchive(
            path: archivePath,
            reason: .changedSchema(
              detail: "index version_by_blob is missing; trigger evil is not part of the archive's schema")))
    }
    let report = try check(full: false)
    #expect(
      report.problems.map(\.description) == [
        "schema: index version_by_blob is missing",
        "schema: trigger evil is not part of the archive's schema",
      ])
  }

  @Test func aRewrittenTableDefinitionIsReported() throws {
    // Through writable_schema, the way a careless repair tool would: the table's SQL no longer
    // has the CHECK on saved_source.
    try tamper(
      """
      PRAGMA writable_schema = ON;
      UPDATE sqlite_master SET sql = replace(sql, 'CHECK (saved_source IN (''stamp'', ''mtime''))', '')
        WHERE name = 'version';
      PRAGMA writable_schema = OFF;
      """)
    let report = try check(full: false)
    #expect(
      report.problems.first?.description.hasPrefix(
        "schema: table version has a different definition: CREATE TABLE version(") == true)
  }

  @Test func fileNamesThatWouldEscapeTheRestoreFolderAreReported() throws {
    try tamper(
      """
      UPDATE version SET file_name = '../../etc/passwd' WHERE id = 1;
      UPDATE version SET file_name = 'a' || char(10) || 'b.inkling' WHERE id = 2;
      UPDATE version SET file_name = '..' WHERE id = 4
      """)
    let report = try check(full: false)
    // A control character is allowed (Linux file names may hold one); the others cannot be one name.
    #expect(
      report.problems.map(\.description) == [
        "draft 'Cat' version 1: its file name \"../../etc/passwd\" is not a plain file name (restore writes a safe name instead)",
        "draft 'Dog' version 1: its file name \"..\" is not a plain file name (restore writes a safe name instead)",
      ])
  }

  @Test func aDrawingIndexThatDisagreesWithItsDrawing() throws {
    try tamper("UPDATE drawing SET status = 0, problem = NULL WHERE blob_id = 4")
    let report = try check()
    #expect(report.problemCount == 1)
    let dog = try blobHash(version: 1, of: "Dog")
    #expect(
      report.problems.first?.description.hasPrefix(
        "draft 'Dog' version 1: blob \(dog): the drawing index says decoded, but it is not a format this build reads (")
        == true,
      "\(report.problems)")
  }

  @Test func damagedAndUnneededThumbnails() throws {
    try tamper(
      """
      INSERT INTO thumbnail (key, content_hash, background_r, background_g, background_b, background_a, pixel_size,
        renderer_version, png, byte_size, created_ms)
      VALUES (zeroblob(32), NULL, 0.5, 0.5, 0.5, 1, 64, 1, x'00010203', 4, 0),
             (randomblob(32), NULL, 7, 7, 7, 1, 64, 1, x'89504E470D0A1A0A00', 9, 0);
      """)
    let report = try check(full: false)
    #expect(report.problems.map(\.description) == ["thumbnail 000000000000… (id 1): its data is not a PNG image"])
    #expect(report.counts.thumbnails == 2)
    #expect(report.counts.unneededThumbnails == 2)
  }

  @Test func theLimitKeepsTheFirstProblemsAndCountsTheRest() throws {
    try tamper("UPDATE blob SET data = x'00'")
    let report = try check(limit: 2)
    #expect(report.problems.count == 2)
    #expect(report.problemCount == 4)
  }

  @Test func aCheckBesideAnImportSeesOneSnapshot() throws {
    // Many more files for a second import that runs while checks run on other connections.
    for index in 0..<200 {
      try folder.write(
        "More/Draft \(index % 10)-2025-11-\(String(format: "%02d", 1 + index / 10))T10:00:00Z.inkling",
        inklingFile(drawing: SeededRandom.bytes(2_000 + index, seed: UInt64(100 + index))))
    }
    let path = archivePath
    let more = folder.path("More")
    let importer = Thread {
      let archive = try? Archive(path: path)
      _ = try? archive?.importFiles(at: [more])
    }
    importer.start()
    var checks = 0
    repeat {
      let report = try check(full: true)
      #expect(report.isHealthy, "\(report.problems)")
      checks += 1
    } while !importer.isFinished && checks < 50
    while !importer.isFinished { usleep(10_000) }
    let final = try check()
    #expect(final.isHealthy)
    #expect(final.counts.versions == 204)
  }
}
