// `gc`: removes what no version needs (drawings, envelopes, index rows, cached
// thumbnails), and with `repack`, stores every draft's history again as a chain of reverse
// deltas (newest whole) at a high zstd level — the smallest encoding, and the best one too
// when imports arrived out of order or in parallel.

import FoundationEssentials
import InklingRendering
import InklingStore

/// What `gc` did.
public struct GarbageReport: Sendable, Equatable {
  public var drawingsRemoved = 0
  public var envelopesRemoved = 0
  public var strokesRemoved = 0
  public var thumbnailsRemoved = 0
  public var drawingsRepacked = 0
  public var bytesBefore: Int64 = 0
  public var bytesAfter: Int64 = 0
}

extension Archive {
  /// The zstd level `gc --repack` compresses at unless told otherwise. Import uses level 1,
  /// for speed; a repack is the time to spend CPU once for a smaller file, as
  /// `git gc --aggressive` does (BENCHMARKS.md, "Import, size and restore").
  public static let repackLevel: Int32 = 19

  /// How long `gc` waits for the write lock that another command holds (milliseconds): an
  /// import of a large folder commits batch after batch for minutes.
  static let waitForOtherWriters: Int32 = 30 * 60 * 1000

  /// How long one repack transaction runs at most before it commits, so that an import
  /// beside it waits for the lock far less than its own busy timeout.
  static let repackTransactionSeconds = 0.25

  /// Removes unreferenced rows; with `repack`, re-encodes every drawing at zstd `level`
  /// (1…19); then compacts the file. Each step is one transaction, so a kill leaves the
  /// archive as before that step.
  public func collectGarbage(repack: Bool = false, level: Int32 = Archive.repackLevel) throws(ArchiveError)
    -> GarbageReport
  {
    try collectGarbage(repack: repack, level: level, betweenRepackTransactions: {})
  }

  /// `collectGarbage`, calling `betweenRepackTransactions` after each transaction of the
  /// repack: where another process's import may commit (tests put one there).
  func collectGarbage(repack: Bool, level: Int32, betweenRepackTransactions: () throws -> Void)
    throws(ArchiveError) -> GarbageReport
  {
    guard (1...19).contains(level) else {
      throw .invalidArgument(.compressionLevel(Int(level)))
    }
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    return try storeCall {
      // An import committing beside the collection is waited for, not an error: its
      // writer takes the lock back between its batches, and each step here is short.
      try database.setBusyTimeout(milliseconds: Self.waitForOtherWriters)
      defer { try? database.setBusyTimeout(milliseconds: ArchiveDatabase.busyTimeout) }
      var report = GarbageReport()
      report.bytesBefore = try database.fileBytes()
      try database.transaction {
        report.drawingsRemoved = try BlobStore(database).removeUnused()
        report.envelopesRemoved = try EnvelopeRecords.removeUnused(in: database)
        report.strokesRemoved = try DrawingIndexRecords.removeUnusedStrokes(in: database)
      }
      // Its own transaction: a cache, whatever happened above.
      report.thumbnailsRemoved = try ThumbnailRecords.removeUnneeded(
        rendererVersion: pictureRenderer.version, in: database)
      if repack {
        report.drawingsRepacked = try repackBlobs(level: level, between: betweenRepackTransactions)
        // Blobs kept only as bases of old deltas are free now.
        report.drawingsRemoved += try database.transaction { try BlobStore(database).removeUnused() }
      }
      try database.vacuum()
      report.bytesAfter = try database.fileBytes()
      return report
    }
  }

  /// Every draft's drawings encoded again, newest first: the newest whole, each older one
  /// as a delta of the one saved after it where that is smaller — reverse deltas, as Fossil
  /// keeps history. A save mostly repeats the strokes of the save before, so an older
  /// version costs a few copy instructions against the newer one, and all of a draft's
  /// strokes are compressed together in one frame instead of one frame per save (smaller
  /// at the same level; the newest version, the one read most, is then one frame).
  ///
  /// First every delta is stored in full (at level 1: only the second pass's encoding
  /// stays), so that while the second pass rewrites encodings no chain mixes old and new
  /// links (and grows past the bound); in the second pass bases are always blobs re-encoded
  /// earlier, so no chain can loop, and a blob shared by several drafts is encoded once.
  ///
  /// An import may commit between two transactions: its new blobs are deltas of blobs this
  /// pass has not reached yet, so before a blob is re-encoded the deltas stored over it
  /// since the first pass are made full too (their order, deepest first, is the first
  /// pass's rule). New drafts wait for the next repack.
  private func repackBlobs(level: Int32, between: () throws -> Void) throws -> Int {
    let encoder = BlobEncoder(level: level)
    let unchain = BlobEncoder(level: 1)
    let deltas = try BlobStore(database).deltaIDs()
    for batch in stride(from: 0, to: deltas.count, by: 200).map({ Array(deltas[$0..<min($0 + 200, deltas.count)]) }) {
      try database.transaction {
        let store = BlobStore(database)
        for blobID in batch {
          try Self.storeInFull(try store.descendants(ofBlob: blobID) + [blobID], store, unchain)
        }
      }
      try between()
    }
    let drafts = try VersionRecords.draftIDs(in: database)
    var done = Set<Int64>()
    var depth: [Int64: Int] = [:]
    var next = 0
    while next < drafts.count {
      let started = Date()
      try database.transaction {
        let store = BlobStore(database)
        while next < drafts.count, Date().timeIntervalSince(started) < Self.repackTransactionSeconds {
          let draft = drafts[next]
          next += 1
          var previous: (id: Int64, base: BlobBase)?  // the version saved after this one
          for blobID in try VersionRecords.blobIDsNewestFirst(ofDraft: draft, in: database) {
            let bytes = try store.bytes(ofBlob: blobID)
            let sha256 = SHA256.hash(bytes)
            var knownForm: BlobForm?
            if !done.contains(blobID) {
              let newer = try store.descendants(ofBlob: blobID)
              try Self.storeInFull(newer, store, unchain)
              done.subtract(newer)
              let base = previous.flatMap { $0.id == blobID ? nil : $0.base }
              let (encoded, form) = try encoder.encodeKeepingForm(bytes, sha256: sha256, base: base)
              knownForm = form
              // The store's rules and read-back, as for an import: the base by its hash.
              depth[blobID] = try store.replace(blobID, with: encoded)
              done.insert(blobID)
            }
            previous = (
              blobID, BlobBase(sha256: sha256, bytes: bytes, depth: depth[blobID] ?? 0, form: knownForm)
            )
          }
        }
      }
      try between()
    }
    return done.count
  }

  /// Stores each of `blobIDs` whole, in this order (deepest first).
  private static func storeInFull(_ blobIDs: [Int64], _ store: BlobStore, _ encoder: BlobEncoder) throws {
    for blobID in blobIDs {
      let bytes = try store.bytes(ofBlob: blobID)
      try store.replace(blobID, with: try encoder.encode(bytes, sha256: SHA256.hash(bytes), base: nil))
    }
  }
}
