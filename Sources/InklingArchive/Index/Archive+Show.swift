// `show`, `diff` and `reindex`: reading and filling the drawing index.

import Foundation
import InklingFormats
import InklingStore

extension Archive {
  /// One version of a draft with what its drawing holds.
  public func show(draft name: String, version selector: VersionSelector = .latest) throws(ArchiveError) -> (
    version: VersionInfo, drawing: DrawingSummary
  ) {
    let (row, info) = try versionRow(draft: name, selector)
    let facts = try storeCall { try DrawingIndexRecords.read(blobID: row.blobID, in: database) }
    return (info, facts.map { DrawingSummary($0.facts) } ?? .notIndexed)
  }

  /// The strokes added, removed, hidden and unhidden between two versions (numbers as in
  /// `history`), and the background change.
  public func diff(draft name: String, from a: Int, to b: Int) throws(ArchiveError) -> DrawingDiff {
    let (rowA, infoA) = try versionRow(draft: name, .number(a))
    let (rowB, infoB) = try versionRow(draft: name, .number(b))
    let (factsA, factsB) = try storeCall {
      (
        try DrawingIndexRecords.read(blobID: rowA.blobID, in: database),
        try DrawingIndexRecords.read(blobID: rowB.blobID, in: database)
      )
    }
    guard let factsA, let factsB else {
      throw .notIndexed(draft: infoA.draftName)
    }
    let before = DrawingSummary(factsA.facts).strokes
    let after = DrawingSummary(factsB.facts).strokes
    // A stroke is the same stroke in both when its UUID is (hiding a stroke re-encodes it);
    // without a UUID, when it is the same row of the index (the same bytes).
    enum Key: Hashable {
      case uuid(StrokeUUID)
      case row(Int64)
    }
    func key(_ row: DrawingIndexRow, _ index: Int) -> Key {
      row.facts.strokes[index].uuid.map(Key.uuid) ?? .row(row.strokeIDs[index])
    }
    var beforeByKey: [Key: StrokeSummary] = [:]
    for (index, stroke) in before.enumerated() { beforeByKey[key(factsA, index)] = stroke }
    var afterKeys = Set<Key>()
    var diff = DrawingDiff(from: infoA, to: infoB, added: [], removed: [], hidden: [], unhidden: [])
    for (index, stroke) in after.enumerated() {
      let k = key(factsB, index)
      afterKeys.insert(k)
      switch (beforeByKey[k], stroke.hidden) {
      case (nil, false): diff.added.append(stroke)
      // Hiding drops a stroke's path: describe it as it was when visible.
      case (let old?, true) where !old.hidden: diff.hidden.append(old)
      case (let old?, false) where old.hidden: diff.unhidden.append(stroke)
      default: break
      }
    }
    for (index, stroke) in before.enumerated() where !stroke.hidden && !afterKeys.contains(key(factsA, index)) {
      diff.removed.append(stroke)
    }
    return diff
  }

  /// Decodes and indexes every drawing that has no index row yet (or, with `all`, drops
  /// the whole index and builds it again), in batches. Returns how many drawings were
  /// indexed. Interrupted, it leaves drawings "not indexed", which a plain `reindex` fills.
  @discardableResult
  public func reindex(all: Bool = false, progress: ((Int, Int) -> Void)? = nil) throws(ArchiveError) -> Int {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    return try storeCall {
      if all {
        // From nothing, so that strokes are shared as at import and no row is left over.
        try database.transaction {
          try database.execute("DELETE FROM drawing_ink; DELETE FROM drawing; DELETE FROM stroke; DELETE FROM ink")
        }
      }
      let ids = try database.fetchAll("SELECT id FROM blob WHERE id NOT IN (SELECT blob_id FROM drawing) ORDER BY id") {
        $0.int64(0)
      }
      let indexer = DrawingIndexer()
      let writer = DrawingIndexWriter(database)
      var done = 0
      for batch in stride(from: 0, to: ids.count, by: 200).map({ Array(ids[$0..<min($0 + 200, ids.count)]) }) {
        // Another connection may insert strokes between our transactions.
        defer { writer.transactionEnded() }
        try database.transaction {
          for id in batch {
            let bytes = try BlobStore(database).bytes(ofBlob: id)
            try writer.write(indexer.facts(of: bytes), blobID: id)
          }
        }
        done += batch.count
        progress?(done, ids.count)
      }
      return done
    }
  }

  /// A version's row and its history entry.
  func versionRow(draft name: String, _ selector: VersionSelector) throws(ArchiveError) -> (VersionRow, VersionInfo) {
    let versions = try versions(of: name)
    let index: Int
    switch selector {
    case .latest:
      index = versions.count - 1
    case .number(let number):
      guard (1...versions.count).contains(number) else {
        throw .noSuchVersion(draft: versions[0].info.draftName, number: number, versionCount: versions.count)
      }
      index = number - 1
    case .at(let range):
      guard let last = versions.lastIndex(where: { $0.row.savedMilliseconds < range.end }) else {
        throw .noVersionSavedBy(
          draft: versions[0].info.draftName, date: Self.date(range.end), firstSaved: versions[0].info.saved)
      }
      index = last
    }
    return versions[index]
  }
}
