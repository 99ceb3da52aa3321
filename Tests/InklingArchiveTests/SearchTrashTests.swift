import Foundation
import InklingCorpus
import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

/// Drafts in the trash leave every plan's results (migration 0012: the walks' indexes are
/// partial on live drafts, drivers' candidates are filtered), and `inTrash` lists exactly
/// them: random queries against the reference of SearchTests, with a fifth of the drafts
/// trashed, at the archive's thresholds and at scaled ones.
@Suite(.serialized) struct SearchTrashTests {
  final class Shared: @unchecked Sendable {
    let folder: TemporaryFolder
    let archive: Archive
    let live: [DraftModel]
    let trashed: [DraftModel]
    let liveReference: SearchTests.Reference
    let trashReference: SearchTests.Reference

    init() throws {
      folder = try TemporaryFolder.forTheProcess("search-trash")
      let archive = try Archive(path: folder.path("archive.sqlite"))
      self.archive = archive
      let models = try SearchFixture.build(
        in: archive.database, drafts: 1_500, versions: 1...6, blobs: 120, now: SearchTests.now, seed: 43
      ).models
      let inTrash = models.filter { $0.id % 5 == 2 }
      try archive.database.transaction {
        for model in inTrash {
          try DraftRecords.moveToTrash(Int64(model.id), at: SearchTests.now - Int64(model.id), in: archive.database)
        }
      }
      trashed = inTrash
      live = models.filter { $0.id % 5 != 2 }
      liveReference = SearchTests.Reference(live)
      trashReference = SearchTests.Reference(inTrash)
    }
  }
  nonisolated(unsafe) static var sharedValue: Shared?
  static func shared() throws -> Shared {
    if let sharedValue { return sharedValue }
    let value = try Shared()
    sharedValue = value
    return value
  }

  static func drafts(
    _ archive: Archive, _ compiler: SearchCompiler, _ query: DraftQuery, sort: DraftSort, limit: Int?
  ) throws -> [String] {
    var names: [String] = []
    try archive.forEachDraft(matching: query, sort: sort, limit: limit, compiler: compiler) { names.append($0.name) }
    return names
  }

  @Test func trashedDraftsLeaveEveryPlanAndTheTrashListsThem() throws {
    let shared = try Self.shared()
    #expect(shared.trashed.count == 300)
    for (label, compiler) in SearchTests.compilers(shared.archive.database) {
      var maker = SearchTests.QueryMaker(random: SeededRandom(seed: 19), models: shared.live + shared.trashed)
      var plans: Set<CompiledSearch.Plan> = []
      var found = 0
      for index in 0..<400 {
        let expression = index % 10 == 0 ? .all : maker.expression()
        let sort = DraftSort.allCases[index % 4]
        let limit: Int? = index % 3 == 0 ? nil : [1, 20, 50][index % 3]
        let live = try Self.drafts(shared.archive, compiler, DraftQuery(expression), sort: sort, limit: limit)
        #expect(
          live == shared.liveReference.expected(expression, sort: sort, limit: limit),
          "\(label): \(expression) sort \(sort) limit \(limit.map(String.init) ?? "none")")
        let trash = try Self.drafts(
          shared.archive, compiler, DraftQuery(expression, inTrash: true), sort: sort, limit: limit)
        #expect(
          trash == shared.trashReference.expected(expression, sort: sort, limit: limit),
          "\(label), trash: \(expression) sort \(sort) limit \(limit.map(String.init) ?? "none")")
        found += live.count + trash.count
        plans.insert(try compiler.compile(expression, sort: sort, limit: limit).plan)
      }
      #expect(found > 2_000)
      if label == "scaled" { #expect(plans.count == 4, "every plan should be tried: \(plans)") }
    }
  }

  /// The trash is read from its own index, and live walks still walk theirs.
  @Test func theTrashHasItsOwnIndex() throws {
    let shared = try Self.shared()
    let (_, trash) = try shared.archive.explain(DraftQuery(.all, inTrash: true), sort: .newest, limit: 50)
    #expect(trash.contains { $0.contains("draft_in_trash") }, "\(trash)")
    let (_, live) = try shared.archive.explain(.all, sort: .newest, limit: 50)
    #expect(live.contains { $0.contains("draft_by_latest") }, "\(live)")
    #expect(!live.contains("USE TEMP B-TREE FOR ORDER BY"), "\(live)")
    // A period that is empty is no constant: SQLite would find no plan on a partial index.
    let empty =
      SearchExpression.term(
        .saved(SearchPeriod(lower: 2_000, upper: 1_000))) && .term(.name(.contains("a")))
    for sort in DraftSort.allCases {
      for inTrash in [false, true] {
        #expect(try shared.archive.drafts(matching: DraftQuery(empty, inTrash: inTrash), sort: sort, limit: 20).isEmpty)
        #expect(
          try shared.archive.drafts(matching: DraftQuery(.not(empty), inTrash: inTrash), sort: sort, limit: 5).count
            == 5)
      }
    }
    // The newest save a period plan compares with is a live draft's.
    let newest = try SearchCompiler(database: shared.archive.database).newestSave()
    #expect(newest == shared.live.map(\.latestSaved).max())
  }
}
