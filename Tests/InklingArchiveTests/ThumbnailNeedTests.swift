// Which cached thumbnails no version needs is one expression (`ThumbnailRecords.unneeded`),
// counted by `check` and deleted by `gc`. Counted as a value, SQLite computes both sides of an
// AND: the test of a placeholder row (a correlated scan of every version) must not run for the
// rows of a drawing, or `check` costs the product of thumbnails and versions.

import CSQLite
import Foundation
import InklingCorpus
import InklingRendering
import InklingTestSupport
import Testing

@testable import InklingArchive
@testable import InklingStore

@Suite struct ThumbnailNeedTests {
  @Test func countingUnneededThumbnailsScansTheVersionsOnce() throws {
    let folder = try TemporaryFolder("thumbnail-need")
    try writeCorpus(
      CorpusSpec(drafts: 40, versionsPerDraft: 1...3, seed: 11), to: URL(fileURLWithPath: folder.path("d")))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("d")])
    let db = archive.database
    // A row for each drawing and background the versions show, as the cache keeps them …
    try db.execute(
      """
      INSERT INTO thumbnail(key, content_hash, background_r, background_g, background_b, background_a, pixel_size,
        renderer_version, png, byte_size, created_ms)
      SELECT randomblob(32), d.content_hash, v.background_r, v.background_g, v.background_b, v.background_a, 64, ?,
        x'89504E470D0A1A0A', 8, 0
      FROM drawing d JOIN version v ON v.blob_id = d.blob_id WHERE d.content_hash IS NOT NULL
      GROUP BY d.content_hash, v.background_r, v.background_g, v.background_b, v.background_a
      """, [Renderer.version])
    let needed = db.changes
    // … and three no version needs: another renderer's, a drawing no version has, and a
    // placeholder for a background no undecodable drawing has.
    try db.execute(
      """
      INSERT INTO thumbnail(key, content_hash, background_r, background_g, background_b, background_a, pixel_size,
        renderer_version, png, byte_size, created_ms)
      VALUES (randomblob(32), (SELECT content_hash FROM drawing WHERE content_hash IS NOT NULL LIMIT 1), 1, 1, 1, 1,
          64, ?1 + 1, x'89504E470D0A1A0A', 8, 0),
        (randomblob(32), randomblob(32), 1, 1, 1, 1, 64, ?1, x'89504E470D0A1A0A', 8, 0),
        (randomblob(32), NULL, 0.25, 0.5, 0.75, 1, 64, ?1, x'89504E470D0A1A0A', 8, 0)
      """, [Renderer.version])
    #expect(needed >= 40)
    #expect(try ThumbnailRecords.neededCounts(rendererVersion: Renderer.version, in: db) == (needed + 3, 3))

    let versions = try #require(try db.fetchOne("SELECT count(*) FROM version") { $0.int(0) })
    let statement = try db.makeStatement("SELECT count(*), total(\(ThumbnailRecords.unneeded)) FROM thumbnail")
    try statement.bind([Renderer.version])
    _ = try statement.step()
    let scanned = Int(sqlite3_stmt_status(statement.handle, SQLITE_STMTSTATUS_FULLSCAN_STEP, 0))
    // The versions once for the set of what they show, the thumbnails once, and the versions
    // again for the one placeholder: never once per thumbnail.
    #expect(
      scanned <= 3 * versions + needed + 3, "\(scanned) rows scanned for \(needed + 3) thumbnails, \(versions) versions"
    )
  }
}
