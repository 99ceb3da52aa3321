import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

/// Which walks of the drafts map the archive file: a search with terms reads rows scattered
/// over it, a walk of every draft reads one index in order and must not map (each page a map
/// passes stays in the process's resident memory, so `list` and `export` of every draft would
/// grow with the archive up to the whole map).
@Suite struct SearchMapTests {
  static func mapped(_ archive: Archive) throws -> Int64? {
    try archive.database.fetchOne("PRAGMA mmap_size") { $0.int64(0) }
  }

  @Test func aWalkOfEveryDraftReadsThroughThePageCache() throws {
    let folder = try TemporaryFolder()
    let archive = try Archive(path: folder.path("archive.sqlite"))
    try archive.forEachDraft(matching: DraftQuery(search: "name:cat")) { _ in }
    #expect(try Self.mapped(archive) == 64 << 20)
    try archive.forEachDraft(matching: .all) { _ in }
    #expect(try Self.mapped(archive) == 0)
    try archive.forEachDraft(matching: .trash) { _ in }
    #expect(try Self.mapped(archive) == 0)
    try archive.forEachDraft(matching: DraftQuery(search: "strokes:>3")) { _ in }
    #expect(try Self.mapped(archive) == 64 << 20)
  }
}
