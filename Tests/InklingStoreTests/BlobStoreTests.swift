import InklingCorpus
import InklingFormats
import InklingTestSupport
import Testing

@testable import InklingStore

@Suite struct BlobStoreTests {
  let folder: TemporaryFolder
  let db: Database
  let store: BlobStore
  let encoder = BlobEncoder()

  init() throws {
    folder = try TemporaryFolder()
    db = try ArchiveDatabase.open(path: folder.path("archive.sqlite"), mode: .readWrite)
    store = BlobStore(db)
  }

  /// Encodes and inserts `bytes`, optionally as a delta against stored blob `baseID`.
  @discardableResult
  private func put(_ bytes: [UInt8], base baseID: Int64? = nil) throws -> (id: Int64, blob: EncodedBlob) {
    let base = try baseID.map { try store.base(ofBlob: $0) }
    let blob = try encoder.encode(bytes, sha256: SHA256.hash(bytes), base: base)
    let (id, inserted) = try store.insert(blob)
    #expect(inserted)
    return (id, blob)
  }

  /// A store over a new connection, which has decoded nothing yet (connections share nothing).
  private func uncachedStore() throws -> BlobStore {
    BlobStore(try ArchiveDatabase.open(path: db.path, mode: .readOnly))
  }

  @Test func fullRoundTrip() throws {
    let bytes = DrawingCorpus(seed: 1, approximateBytes: 50_000).version(0)
    let (id, blob) = try put(bytes)
    #expect(blob.encoding == BlobEncoding.zstd && blob.depth == 0 && blob.baseSHA256 == nil)
    #expect(blob.data.count < bytes.count)
    #expect(try store.bytes(ofBlob: id) == bytes)
    #expect(try uncachedStore().bytes(ofBlob: id) == bytes)  // on a connection without a cache
  }

  @Test func rawWhenCompressionDoesNotHelp() throws {
    let bytes = SeededRandom.bytes(10_000, seed: 2)
    let (id, blob) = try put(bytes)
    #expect(blob.encoding == BlobEncoding.raw && blob.data == bytes)
    #expect(try uncachedStore().bytes(ofBlob: id) == bytes)

    let (emptyID, empty) = try put([])
    #expect(empty.encoding == BlobEncoding.raw && empty.size == 0)
    #expect(try uncachedStore().bytes(ofBlob: emptyID) == [])
  }

  @Test func deltaRoundTrip() throws {
    let corpus = DrawingCorpus(seed: 3, approximateBytes: 200_000)
    let (firstID, first) = try put(corpus.version(0))
    let next = corpus.version(2)
    let (id, blob) = try put(next, base: firstID)
    #expect(blob.encoding == BlobEncoding.delta && blob.depth == 1 && blob.baseSHA256 == first.sha256)
    #expect(blob.data.count * 20 < first.data.count, "delta \(blob.data.count) vs full \(first.data.count)")
    #expect(try uncachedStore().bytes(ofBlob: id) == next)
    #expect(try db.fetchOne("SELECT base_id FROM blob WHERE id = ?", [id]) { $0.int64(0) } == firstID)
    let base = try uncachedStore().base(ofBlob: id)
    #expect(base.bytes == next && base.depth == 1 && base.sha256 == blob.sha256)
  }

  @Test func identicalBytesAreStoredOnce() throws {
    let bytes = DrawingCorpus(seed: 4, approximateBytes: 20_000).version(0)
    let (id, blob) = try put(bytes)
    let again = try store.insert(blob)
    #expect(again.id == id && !again.inserted)
    // Encoding against itself gives a full blob, never a self-delta.
    let selfBase = try encoder.encode(bytes, sha256: blob.sha256, base: store.base(ofBlob: id))
    #expect(selfBase.encoding != BlobEncoding.delta)
    #expect(try store.insert(selfBase) == (id, false))
    #expect(try store.sizes().count == 1)
  }

  @Test func chainDepthIsBoundedOver100Versions() throws {
    let corpus = DrawingCorpus(seed: 5, approximateBytes: 30_000)
    var ids: [Int64] = []
    var depths: [Int] = []
    for k in 0..<100 {
      let (id, blob) = try put(corpus.version(k), base: ids.last)
      ids.append(id)
      depths.append(blob.depth)
    }
    #expect(depths.max() == BlobStore.maxChainDepth)
    #expect(depths.allSatisfy { $0 <= BlobStore.maxChainDepth })
    // A base at the maximum depth gives a full blob: depths run 0, 1, …, 16, 0, 1, …
    #expect(Array(depths.prefix(20)) == Array(0...16) + [0, 1, 2])
    let reader = try uncachedStore()
    for (k, id) in ids.enumerated().reversed() {
      #expect(try reader.bytes(ofBlob: id) == corpus.version(k))
    }
    let stats = try store.statistics()
    #expect(stats.count == 100 && stats.maxDepth == Int64(BlobStore.maxChainDepth))
    #expect(stats.deltas == 94)
    let sizes = try store.sizes()
    #expect(sizes.full + sizes.delta + sizes.raw < stats.decodedBytes / 10)
  }

  @Test func aTamperedFullBlobIsCorruptAndNamed() throws {
    let bytes = SeededRandom.bytes(1000, seed: 6)
    let (id, blob) = try put(bytes)
    var damaged = bytes
    damaged[500] ^= 1
    try db.execute("UPDATE blob SET data = ? WHERE id = ?", [damaged, id])
    let error = storeError { _ = try uncachedStore().bytes(ofBlob: id) }
    #expect(error?.kind == .corrupt)
    #expect(error?.message.contains("blob \(hexString(Array(blob.sha256.prefix(6))))… (id \(id))") == true)
    #expect(error?.message.contains("another SHA-256") == true)
    #expect(error?.path == db.path)
  }

  @Test func garbageDataIsCorruptNotATrap() throws {
    let bytes = DrawingCorpus(seed: 7, approximateBytes: 20_000).version(0)
    let (id, blob) = try put(bytes)
    try db.execute("UPDATE blob SET data = ? WHERE id = ?", [SeededRandom.bytes(blob.data.count, seed: 8), id])
    let error = storeError { _ = try uncachedStore().bytes(ofBlob: id) }
    #expect(error?.kind == .corrupt)
    #expect(error?.message.contains("does not decode") == true)
    try db.execute("UPDATE blob SET size = 1 << 40 WHERE id = ?", [id])
    #expect(storeError { _ = try uncachedStore().bytes(ofBlob: id) }?.kind == .corrupt)
  }

  @Test func aDamagedBaseIsNamedWhenReadingItsDelta() throws {
    let corpus = DrawingCorpus(seed: 9, approximateBytes: 20_000)
    let (baseID, base) = try put(corpus.version(0))
    let (id, _) = try put(corpus.version(1), base: baseID)
    // Same frame, one content byte changed: decodes, but to other bytes.
    let raw = corpus.version(0)
    try db.execute(
      "UPDATE blob SET encoding = 0, data = ? WHERE id = ?",
      [Array(raw.prefix(100)) + [raw[100] ^ 1] + Array(raw.dropFirst(101)), baseID])
    let error = storeError { _ = try uncachedStore().bytes(ofBlob: id) }
    #expect(error?.kind == .corrupt)
    #expect(error?.message.contains("blob \(hexString(Array(base.sha256.prefix(6))))… (id \(baseID))") == true)
  }

  @Test func blobsAreReadChainByChainFromTheirBasesUp() throws {
    // Two drafts stored as reverse deltas (the newest whole, each older a delta of the one
    // after it), their versions asked for oldest first, interleaved; and a blob not stored.
    func reverseChain(seed: UInt64, count: Int) throws -> [Int64] {
      let corpus = DrawingCorpus(seed: seed, approximateBytes: 20_000)
      var ids: [Int64] = []
      for k in (0..<count).reversed() { ids.insert(try put(corpus.version(k), base: ids.first).id, at: 0) }
      return ids
    }
    let a = try reverseChain(seed: 21, count: 4)
    let b = try reverseChain(seed: 22, count: 3)
    let asked = [a[0], b[0], a[1], 999, b[1], a[2], b[2], a[3]]
    let order = try store.decodingOrder(ofBlobs: asked)
    #expect(order.map { asked[$0] } == [a[3], a[2], a[1], a[0], b[2], b[1], b[0], 999])
    // A cycle (a damaged archive) still gives every position once.
    try db.execute("UPDATE blob SET encoding = 2, base_id = ? WHERE id = ?", [a[0], a[3]])
    #expect(try store.decodingOrder(ofBlobs: a).sorted() == [0, 1, 2, 3])
  }

  @Test func aCycleOfDeltasEnds() throws {
    let corpus = DrawingCorpus(seed: 10, approximateBytes: 20_000)
    let (baseID, _) = try put(corpus.version(0))
    let (id, _) = try put(corpus.version(1), base: baseID)
    try db.execute("UPDATE blob SET encoding = 2, base_id = ? WHERE id = ?", [id, baseID])
    let error = storeError { _ = try uncachedStore().bytes(ofBlob: id) }
    #expect(error?.kind == .corrupt)
    #expect(error?.message.contains("longer than \(BlobStore.maxChainDepth)") == true)
  }

  @Test func aDeltaNeedsItsBaseStored() throws {
    let corpus = DrawingCorpus(seed: 11, approximateBytes: 20_000)
    let v0 = corpus.version(0)
    let v1 = corpus.version(1)
    let base = BlobBase(sha256: SHA256.hash(v0), bytes: v0, depth: 0)
    let delta = try encoder.encode(v1, sha256: SHA256.hash(v1), base: base)
    #expect(delta.encoding == BlobEncoding.delta)
    let error = storeError { _ = try store.insert(delta) }
    #expect(error?.code == 787)
    #expect(error?.message.contains("not in the archive") == true)
    #expect(try store.sizes().count == 0)
  }

  @Test func aWrongHashIsCaughtWhenEncoding() throws {
    let bytes = DrawingCorpus(seed: 12, approximateBytes: 10_000).version(0)
    let error = storeError { _ = try encoder.encode(bytes, sha256: SHA256.hash([1, 2, 3]), base: nil) }
    #expect(error?.kind == .verification)
  }

  @Test func aMissingBlobIsNotFound() throws {
    #expect(storeError { _ = try store.bytes(ofBlob: 99) }?.kind == .notFound)
    #expect(try store.id(ofSHA256: SHA256.hash([])) == nil)
    #expect(try store.bytes(ofSHA256: SHA256.hash([])) == nil)
  }

  @Test func sizesAddUpByEncoding() throws {
    let corpus = DrawingCorpus(seed: 13, approximateBytes: 20_000)
    let (fullID, full) = try put(corpus.version(0))
    let (_, delta) = try put(corpus.version(1), base: fullID)
    let (_, raw) = try put(SeededRandom.bytes(500, seed: 14))
    let sizes = try store.sizes()
    #expect(sizes.full == Int64(full.data.count) && sizes.delta == Int64(delta.data.count))
    #expect(sizes.raw == Int64(raw.data.count) && sizes.count == 3)
  }

  @Test func aDeltaTakesItsDepthFromTheStoredBase() throws {
    let corpus = DrawingCorpus(seed: 15, approximateBytes: 20_000)
    var ids: [Int64] = []
    for k in 0..<6 { ids.append(try put(corpus.version(k), base: ids.last).id) }
    // An encoder told the wrong depth of the base (as when the base's bytes were stored
    // earlier, deeper, under another draft).
    let stored = try store.base(ofBlob: ids[5])
    #expect(stored.depth == 5)
    let next = corpus.version(6)
    let blob = try encoder.encode(
      next, sha256: SHA256.hash(next), base: BlobBase(sha256: stored.sha256, bytes: stored.bytes, depth: 1))
    #expect(blob.depth == 2)
    let (id, inserted) = try store.insert(blob)
    #expect(inserted)
    #expect(try store.base(ofBlob: id).depth == 6)
    #expect(
      try db.fetchOne("SELECT depth, encoding FROM blob WHERE id = ?", [id]) { [$0.int(0), $0.int(1)] } == [6, 2])
  }

  @Test func aDeltaOverABaseAtTheMaximumDepthIsStoredInFull() throws {
    let corpus = DrawingCorpus(seed: 16, approximateBytes: 20_000)
    var ids: [Int64] = []
    for k in 0...BlobStore.maxChainDepth { ids.append(try put(corpus.version(k), base: ids.last).id) }
    let deepest = try store.base(ofBlob: ids.last!)
    #expect(deepest.depth == BlobStore.maxChainDepth)
    let next = corpus.version(BlobStore.maxChainDepth + 1)
    let blob = try encoder.encode(
      next, sha256: SHA256.hash(next), base: BlobBase(sha256: deepest.sha256, bytes: deepest.bytes, depth: 3))
    #expect(blob.encoding == BlobEncoding.delta)
    let (id, _) = try store.insert(blob)
    #expect(
      try db.fetchOne("SELECT depth, encoding, base_id IS NULL FROM blob WHERE id = ?", [id]) {
        [$0.int(0), $0.int(1), $0.int(2)]
      } == [0, 1, 1])
    #expect(try uncachedStore().bytes(ofBlob: id) == next)
  }

  @Test func insertReadsEveryRowBack() throws {
    // A trigger stands in for a storage bug: what is stored differs from what was written.
    try db.execute(
      "CREATE TEMP TRIGGER damage AFTER INSERT ON main.blob BEGIN UPDATE blob SET data = x'00' WHERE id = new.id; END")
    let bytes = DrawingCorpus(seed: 17, approximateBytes: 10_000).version(0)
    let blob = try encoder.encode(bytes, sha256: SHA256.hash(bytes), base: nil)
    let error = storeError { _ = try db.transaction { try store.insert(blob) } }
    #expect(error?.kind == .verification)
    #expect(error?.message.contains("reads back differently") == true)
    #expect(try store.sizes().count == 0)  // the transaction rolled back
  }

  /// `replace` (gc --repack) keeps insert's rules: the depth comes from the stored base, a
  /// base at the maximum depth gives a full blob, and the row is read back.
  @Test func replacingABlobKeepsTheDepthRuleAndReadsTheRowBack() throws {
    let corpus = DrawingCorpus(seed: 18, approximateBytes: 20_000)
    var ids: [Int64] = []
    for k in 0...BlobStore.maxChainDepth + 1 { ids.append(try put(corpus.version(k)).id) }
    // A chain of full blobs re-encoded as deltas, each of the one before, told a wrong depth.
    for k in 1..<ids.count {
      let below = try store.base(ofBlob: ids[k - 1])
      let bytes = try store.bytes(ofBlob: ids[k])
      let blob = try encoder.encode(
        bytes, sha256: SHA256.hash(bytes), base: BlobBase(sha256: below.sha256, bytes: below.bytes, depth: 0))
      #expect(blob.depth == 1)
      let stored = try store.replace(ids[k], with: blob)
      #expect(stored == (k <= BlobStore.maxChainDepth ? k : 0), "blob \(k)")
      #expect(try uncachedStore().bytes(ofBlob: ids[k]) == corpus.version(k))
    }
    // Blob 1 is now the base of blob 2: re-encoding it would leave blob 2 at the wrong depth.
    let bytes = try store.bytes(ofBlob: ids[1])
    let full = try encoder.encode(bytes, sha256: SHA256.hash(bytes), base: nil)
    #expect(storeError { _ = try store.replace(ids[1], with: full) }?.kind == .verification)
    // Another blob's bytes are not this blob's.
    #expect(storeError { _ = try store.replace(ids[0], with: full) }?.kind == .verification)
    // What SQLite stores is compared with what was written.
    let last = ids[ids.count - 1]
    try db.execute(
      "CREATE TEMP TRIGGER damage AFTER UPDATE ON main.blob BEGIN UPDATE blob SET data = x'00' WHERE id = new.id; END")
    let lastBytes = try store.bytes(ofBlob: last)
    let again = try encoder.encode(lastBytes, sha256: SHA256.hash(lastBytes), base: nil)
    let error = storeError { _ = try db.transaction { try store.replace(last, with: again) } }
    #expect(error?.kind == .verification && error?.message.contains("reads back differently") == true)
    #expect(try uncachedStore().bytes(ofBlob: last) == lastBytes)  // rolled back
  }

  @Test func storesOverOneConnectionShareTheirReader() throws {
    #expect(BlobStore(db).reader === store.reader)
    #expect(try uncachedStore().reader !== store.reader)
    // Versions read in order on one connection, through a new BlobStore each time.
    let corpus = DrawingCorpus(seed: 18, approximateBytes: 20_000)
    var ids: [Int64] = []
    for k in 0..<20 { ids.append(try put(corpus.version(k), base: ids.last).id) }
    let reader = try ArchiveDatabase.open(path: db.path, mode: .readOnly)
    for (k, id) in ids.enumerated() { #expect(try BlobStore(reader).bytes(ofBlob: id) == corpus.version(k)) }
  }

  // MARK: - Layouts (migrations 0007, 0017)

  @Test func drawingsAreStoredInPointStreamsAndOtherBytesAsWritten() throws {
    let corpus = DrawingCorpus(seed: 19, approximateBytes: 60_000)
    let (firstID, first) = try put(corpus.version(0))
    let (nextID, next) = try put(corpus.version(3), base: firstID)
    #expect(first.layout == BlobLayout.pointStreams && next.layout == BlobLayout.pointStreams)
    #expect(
      try db.fetchOne("SELECT layout, streams FROM blob WHERE id = ?", [firstID]) { [$0.int(0), $0.int(1)] } == [1, 1])
    #expect(next.encoding == BlobEncoding.delta)
    // The same drawing compressed as written is larger.
    let asWritten = try corpus.version(0).withUnsafeBytes { try ZstdCompressor(level: 1).compress($0) }
    #expect(first.data.count < asWritten.count)
    #expect(try uncachedStore().bytes(ofBlob: firstID) == corpus.version(0))
    #expect(try uncachedStore().bytes(ofBlob: nextID) == corpus.version(3))

    let text = Array(String(repeating: "not a drawing, ", count: 400).utf8)
    let (textID, textBlob) = try put(text)
    #expect(textBlob.layout == BlobLayout.asWritten && textBlob.encoding == BlobEncoding.zstd)
    #expect(try uncachedStore().bytes(ofBlob: textID) == text)
  }

  @Test func aDeltaInPointStreamsReadsOverABaseStoredAsWritten() throws {
    // A base as archives before migration 0007 stored it, then a new version over it.
    let corpus = DrawingCorpus(seed: 20, approximateBytes: 40_000)
    let old = corpus.version(0)
    let whole = try old.withUnsafeBytes { try ZstdCompressor(level: 1).compress($0) }
    try db.execute(
      "INSERT INTO blob (sha256, size, encoding, layout, depth, data) VALUES (?, ?, 1, 0, 0, ?)",
      [SHA256.hash(old), old.count, whole])
    let baseID = db.lastInsertRowID
    let (id, blob) = try put(corpus.version(2), base: baseID)
    #expect(blob.encoding == BlobEncoding.delta && blob.layout == BlobLayout.pointStreams)
    #expect(try uncachedStore().bytes(ofBlob: baseID) == old)
    #expect(try uncachedStore().bytes(ofBlob: id) == corpus.version(2))
  }

  @Test func rowsInPointColumnsReadOverAndUnderRowsInPointStreams() throws {
    // Archives before migration 0017 stored point columns (layout 1, streams 0); a merge can
    // bring such a delta over a base that this archive holds in point streams.
    let corpus = DrawingCorpus(seed: 22, approximateBytes: 40_000)
    let compressor = ZstdCompressor(level: 1)
    func insertInColumns(_ bytes: [UInt8], over base: [UInt8]?, baseID: Int64?, depth: Int) throws -> Int64 {
      let form = try #require(PointColumns.columnar(bytes))
      let prefix = try base.map { try #require(PointColumns.columnar($0)) }
      let data = try form.withUnsafeBytes { input in
        try prefix.map { prefix in try prefix.withUnsafeBytes { try compressor.compress(input, prefix: $0) } }
          ?? compressor.compress(input)
      }
      try db.execute(
        "INSERT INTO blob (sha256, size, encoding, layout, base_id, depth, data) VALUES (?, ?, ?, 1, ?, ?, ?)",
        [SHA256.hash(bytes), bytes.count, baseID == nil ? 1 : 2, baseID, depth, data])
      return db.lastInsertRowID
    }
    let oldID = try insertInColumns(corpus.version(0), over: nil, baseID: nil, depth: 0)
    let (streamsID, streams) = try put(corpus.version(1), base: oldID)
    #expect(streams.encoding == BlobEncoding.delta && streams.layout == BlobLayout.pointStreams)
    let topID = try insertInColumns(corpus.version(2), over: corpus.version(1), baseID: streamsID, depth: 2)
    for (id, k) in [(oldID, 0), (streamsID, 1), (topID, 2)] {
      #expect(try uncachedStore().bytes(ofBlob: id) == corpus.version(k))
    }
    #expect(try store.bytes(ofBlob: topID) == corpus.version(2))  // over the cached base's form
  }

  @Test func aWrongLayoutIsCorruptNotATrap() throws {
    let text = Array(String(repeating: "plain text ", count: 300).utf8)
    let (textID, _) = try put(text)
    try db.execute("UPDATE blob SET layout = 1 WHERE id = ?", [textID])
    let error = storeError { _ = try uncachedStore().bytes(ofBlob: textID) }
    #expect(error?.kind == .corrupt)
    #expect(error?.message.contains("point columns") == true)

    let drawing = DrawingCorpus(seed: 21, approximateBytes: 20_000).version(0)
    let (drawingID, _) = try put(drawing)
    try db.execute("UPDATE blob SET streams = 0 WHERE id = ?", [drawingID])
    #expect(storeError { _ = try uncachedStore().bytes(ofBlob: drawingID) }?.kind == .corrupt)
    try db.execute("UPDATE blob SET layout = 0 WHERE id = ?", [drawingID])
    #expect(storeError { _ = try uncachedStore().bytes(ofBlob: drawingID) }?.kind == .corrupt)

    let (streamsID, _) = try put(DrawingCorpus(seed: 23, approximateBytes: 20_000).version(0))
    try db.execute(
      "UPDATE blob SET data = ? WHERE id = ?",
      [try text.withUnsafeBytes { try ZstdCompressor(level: 1).compress($0) }, streamsID])
    let streamsError = storeError { _ = try uncachedStore().bytes(ofBlob: streamsID) }
    #expect(streamsError?.kind == .corrupt)
    #expect(streamsError?.message.contains("point streams") == true)
  }
}
