import InklingTestSupport
import Testing

@testable import InklingArchive

/// A folder with more names than a batch is read in sorted batches, never whole, and a
/// draft's files still reach the import together.
@Suite struct FolderNamesTests {
  /// 400 drafts of three saves each, in one flat folder, as a Drafts folder copied off an iPad.
  func flatFolder() throws -> TemporaryFolder {
    let folder = try TemporaryFolder("folder-names")
    for draft in 0..<400 {
      for minute in 0..<3 {
        try folder.write("Drafts/Draft \(draft)-2025-10-01T10:0\(minute):00Z.inkling", Array("{}".utf8))
      }
    }
    return folder
  }

  @Test func batchesAreSortedDisjointAndCoverTheFolder() throws {
    let folder = try flatFolder()
    var batches: [[String]] = []
    let listed = FolderNames.forEachBatch(in: folder.path("Drafts"), batchSize: 100) { names in
      batches.append(names.map(\.display))
      return true
    }
    #expect(listed)
    let all = batches.flatMap { $0 }
    #expect(all.count == 1_200)
    #expect(all == all.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    #expect(Set(all).count == 1_200)
    // Twelve batches' worth of names in ranges cut from a sample: more than twelve reads, none
    // far above a batch.
    #expect(batches.count >= 12)
    #expect(batches.allSatisfy { $0.count <= 150 })
  }

  @Test func aSmallFolderIsOneBatch() throws {
    let folder = try flatFolder()
    var batches = 0
    _ = FolderNames.forEachBatch(in: folder.path("Drafts"), batchSize: 5_000) { names in
      batches += 1
      #expect(names.count == 1_200)
      return true
    }
    #expect(batches == 1)
  }

  @Test func aFolderThatCannotBeReadSaysSo() {
    #expect(!FolderNames.forEachBatch(in: "/nonexistent-folder-names", batchSize: 10) { _ in true })
  }

  @Test func eachDraftsFilesComeTogetherAcrossBatches() throws {
    let folder = try flatFolder()
    var walker = FileWalker(maximumFileSize: 1 << 20)
    walker.batchSize = 64
    var groups: [String: Int] = [:]
    var files = 0
    walker.walk([folder.path("Drafts")]) { event in
      guard case .drafts(let found) = event else { return }
      files += found.count
      #expect(Set(found.map(\.draftName)).count == 1)
      groups[found[0].draftName, default: 0] += 1
    }
    #expect(files == 1_200)
    #expect(groups.count == 400)
    #expect(groups.values.allSatisfy { $0 == 1 })
  }
}
