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
