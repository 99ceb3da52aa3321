import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

/// A bounded walk (SearchCompiler: a term whose index lists many drafts, with a limit) reads
/// the sort's index and nothing before it: where it would give up, the key of the
/// `walkLength`-th draft, is read only by its fallback, in the walk's own snapshot.
@Suite struct BoundedWalkTests {
  /// Thresholds that make a thousand drafts behave like a million (SearchTests' "scaled").
  static func compiler(_ archive: Archive) -> SearchCompiler {
    SearchCompiler(database: archive.database, estimateCap: 20, walkLength: 40, fallbackEstimateCap: 200)
  }

  /// The statements prepared on the archive's connection while `operation` runs.
  static func statements(_ archive: Archive, _ operation: () throws -> Void) rethrows -> [String] {
    var found: [String] = []
    archive.database.statementPrepared = { found.append($0) }
    defer { archive.database.statementPrepared = nil }
    try operation()
    return found
  }

  @Test(arguments: [DraftSort.newest, .oldest]) func aWalkThatFindsItsMatchesReadsNoBound(_ sort: DraftSort) throws {
    let folder = try TemporaryFolder("bounded-walk")
    let archive = try OrganiseTests.archive(drafts: 200, in: folder)
    try archive.tag(.matching(DraftQuery(search: "name:draft")), with: ["portfolio"])
    let compiler = Self.compiler(archive)
    let query = try DraftQuery(search: "tag:portfolio")
    #expect(try compiler.compile(query.expression, sort: sort, limit: 10).plan == .boundedWalk)
    var names: [String] = []
    let statements = try Self.statements(archive) {
      try archive.forEachDraft(matching: query, sort: sort, limit: 10, compiler: compiler) { names.append($0.name) }
    }
    let newest = (190..<200).reversed().map { "draft \($0)" }
    #expect(names == (sort == .newest ? newest : (0..<10).map { "draft \($0)" }))
    // The walk is the one statement that reads the drafts' index.
    let walks = statements.filter { $0.contains("draft_by_latest") }
    #expect(walks.count == 1, "\(walks)")
  }

  /// Matches too sparse for the walk's 40 drafts: the rest of the walk goes on past the 40th
  /// as the walk saw it, although another connection saves a draft anew just before the
  /// fallback reads where the walk stopped (read outside the walk's snapshot, that key would
  /// be one draft earlier, and the 40th draft listed twice).
  @Test func aWalkThatGivesUpGoesOnFromWhereItStopped() throws {
    let folder = try TemporaryFolder("bounded-walk-rest")
    let archive = try OrganiseTests.archive(drafts: 1_000, in: folder)
    for index in stride(from: 0, to: 1_000, by: 20) { try archive.tag(.named("draft \(index)"), with: ["rare"]) }
    let compiler = Self.compiler(archive)
    let query = try DraftQuery(search: "tag:rare")
    let walk = try compiler.compile(query.expression, sort: .newest, limit: 10)
    #expect(walk.plan == .boundedWalk)
    // Drafts 999 to 960 hold two matches, the last draft read one of them.
    let walked = try archive.database.fetchAll(walk.sql, walk.arguments) { $0.string(0) }
    #expect(walked == ["draft 980", "draft 960"])
    let fallback = try compiler.fallback(after: walk, query.expression, sort: .newest, limit: 10, found: 2)
    try #require(fallback?.continues == true, "the rest of the walk, not a driver")

    let other = try ArchiveDatabase.open(path: archive.path, mode: .readWrite)
    defer { other.close() }
    var reads = 0
    var failure: (any Error)?
    archive.database.statementPrepared = { sql in
      guard sql.contains("draft_by_latest") else { return }
      reads += 1
      // The walk has run; the fallback is about to read where it stopped.
      guard reads == 2 else { return }
      do {
        try other.execute("UPDATE draft SET latest_saved_ms = latest_saved_ms + 3600000000 WHERE name = 'draft 1'")
      } catch {
        failure = error
      }
    }
    defer { archive.database.statementPrepared = nil }
    var names: [String] = []
    try archive.forEachDraft(matching: query, sort: .newest, limit: 10, compiler: compiler) { names.append($0.name) }
    #expect(failure == nil)
    #expect(
      try other.fetchOne("SELECT name FROM draft ORDER BY latest_saved_ms DESC LIMIT 1") { $0.string(0) } == "draft 1")
    #expect(reads == 3, "the walk, its bound and the rest of the walk")
    #expect(names == stride(from: 980, through: 800, by: -20).map { "draft \($0)" })
  }
}
