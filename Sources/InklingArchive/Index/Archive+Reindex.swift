// `reindex`: filling the drawing index (migration 0002) for drawings it has no row for, or
// building it again from nothing.

import FoundationEssentials
import InklingStore

extension Archive {
  /// Decodes and indexes every drawing that has no index row yet (or, with `all`, drops
  /// the whole index and builds it again), in batches. Returns how many drawings were
  /// indexed. Interrupted, it leaves drawings "not indexed", which a plain `reindex` fills.
  @discardableResult
  public func reindex(all: Bool = false, progress: ((Int, Int) -> Void)? = nil) throws(ArchiveError) -> Int {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    return try storeCall {
      if all {
        // From nothing, so that strokes are shared as at import and no row is left over.
        try database.transaction { try DrawingIndexRecords.removeAll(in: database) }
      }
      let ids = try DrawingIndexRecords.unindexedBlobIDs(in: database)
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
}
