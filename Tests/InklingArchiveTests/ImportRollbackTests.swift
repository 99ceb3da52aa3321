// An import whose transaction SQLite rolls back whole (SQLITE_FULL and I/O errors can; here a
// trigger's RAISE(ROLLBACK) does) stops there: it does not go on outside a transaction, with
// index jobs and cached stroke ids of rows that are gone. Before this test, such an import went
// on, failed at its next index rows, and left 17 drawings not indexed.

import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

@testable import InklingArchive

@Suite struct ImportRollbackTests {
  @Test func aBatchRolledBackBySQLiteEndsTheImportAndAnotherImportCompletesIt() throws {
    let folder = try TemporaryFolder("rollback")
    let drafts = folder.path("Drafts")
    let corpus = try writeCorpus(
      CorpusSpec(drafts: 12, versionsPerDraft: 2...5, seed: 7), to: URL(fileURLWithPath: drafts))
    let files = corpus.drafts.reduce(0) { $0 + $1.files.count }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    // The 20th version rolls the import's whole transaction back: a temporary trigger (the
    // archive's own schema is checked at each import), made with `temp_store` already as the
    // import sets it (a change of `temp_store` drops the temporary schema).
    try archive.database.execute("PRAGMA temp_store = MEMORY")
    try archive.database.execute(
      """
      CREATE TEMP TRIGGER roll_back AFTER INSERT ON main.version WHEN NEW.id = 20
      BEGIN SELECT RAISE(ROLLBACK, 'the test rolls the transaction back'); END
      """)
    #expect(throws: ArchiveError.self) { try archive.importFiles(at: [drafts]) }
    try archive.database.execute("DROP TRIGGER IF EXISTS temp.roll_back")
    #expect(try archive.check(full: true).problems.isEmpty)

    let summary = try archive.importFiles(at: [drafts])
    let report = try archive.check(full: true)
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(report.counts.versions == files)
    #expect(report.counts.drawingsNotIndexed == 0)
    #expect(summary.versionsImported + summary.alreadyArchived == files)
  }
}

/// A disk that fills during an import: the import ends at the batch that did not fit, with an
/// error that counts exactly what the batches before it committed, and the same import run
/// again completes it. SQLite's `max_page_count` fails writes past a size with SQLITE_FULL, as
/// a full disk does.
@Suite struct DiskFullImportTests {
  @Test func anImportThatFillsTheDiskSaysWhatItCommitted() throws {
    let folder = try TemporaryFolder("disk-full")
    let drafts = folder.path("Drafts")
    // More files than one batch holds, so that at least one commits before the disk fills.
    let corpus = try writeCorpus(
      CorpusSpec(drafts: 300, versionsPerDraft: 4...4, seed: 14, strokesPerVersion: 1...2),
      to: URL(fileURLWithPath: drafts))
    let files = corpus.drafts.reduce(0) { $0 + $1.files.count }
    #expect(files > VersionWriter.batchFiles * 2)

    let measure = try Archive(path: folder.path("measure.sqlite"))
    let emptyPages = try pageCount(measure)
    _ = try measure.importFiles(at: [drafts])
    let fullPages = try pageCount(measure)

    let archive = try Archive(path: folder.path("archive.sqlite"))
    let room = emptyPages + (fullPages - emptyPages) * 7 / 10
    try archive.database.execute("PRAGMA max_page_count = \(room)")
    var committed: ArchiveError.CommittedImport?
    do {
      _ = try archive.importFiles(at: [drafts])
    } catch {
      guard case .importStopped(let path, let counts, .diskFull) = error else {
        Issue.record("expected the import to stop at a full disk, got \(error)")
        return
      }
      #expect(path == archive.path)
      committed = counts
    }
    let counts = try #require(committed)
    let report = try archive.check(full: true)
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(counts.versions > 0 && counts.versions < files)
    #expect(report.counts.versions == counts.versions)
    #expect(report.counts.drafts == counts.draftsCreated)

    try archive.database.execute("PRAGMA max_page_count = 1073741823")
    let summary = try archive.importFiles(at: [drafts])
    #expect(summary.alreadyArchived == counts.versions)
    #expect(summary.versionsImported == files - counts.versions)
    #expect(try archive.check(full: true).problems.isEmpty)
  }

  private func pageCount(_ archive: Archive) throws -> Int {
    try #require(try archive.database.fetchOne("PRAGMA page_count") { $0.int(0) })
  }
}
