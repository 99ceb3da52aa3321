// The content-addressed, delta-compressed store of drawing bytes (table `blob`).
//
// Blobs are named by the SHA-256 of their decoded bytes, stored once, and encoded by
// `BlobEncoder` (see BlobStore+Encoding.swift). This type inserts and reads them.
//
// Invariants (schema 0001, table `blob`):
//   1. sha256 is the SHA-256 of the decoded bytes: `insert` accepts only encoder output
//      (verified when encoded), and every read re-hashes what it decoded and throws
//      `.corrupt` naming the blob when the hash differs.
//   2. A delta's base exists and is another blob; depth = base.depth + 1 ≤ maxChainDepth.
//      `insert` takes the depth from the stored base (re-encoding in full when that base
//      is at the maximum); reads stop a chain that is longer than that (a damaged archive
//      could hold a cycle) instead of looping.
//   3. Reads follow a chain iteratively from the top down to a full blob (or to a base
//      decoded recently, kept by its hash), then decode upwards: no recursion, bounded work.
//   4. Every row `insert` writes is read back and compared before it returns.

import CSQLite

/// The blobs of one archive connection.
package struct BlobStore {
  /// The longest delta chain: reading a blob decodes at most this many deltas over one
  /// full blob. 16 keeps a read under ~17 zstd frames while history stays small.
  package static let maxChainDepth = 16

  let db: Database
  let reader: Reader
  /// The largest decoded size a read accepts, checked on each row of a chain before it is
  /// decoded: another archive's rows may declare any size, and a tiny zstd frame can claim
  /// a gigabyte (merging reads them with the import's limit).
  let maximumSize: Int

  /// The blobs of `db`. Cheap: every `BlobStore` over one connection shares its zstd
  /// context and its cache of recently decoded blobs.
  package init(_ db: Database, maximumSize: Int = .max) {
    self.db = db
    self.maximumSize = maximumSize
    reader = db.companion(Reader.self) { Reader() }
  }

  // MARK: - Writing

  /// The id of the blob with this hash, if stored.
  package func id(ofSHA256 sha256: [UInt8]) throws -> Int64? {
    try db.fetchOne("SELECT id FROM blob WHERE sha256 = ?", [sha256]) { $0.int64(0) }
  }

  /// The chain depth of the blob with this hash (0 for a full blob), if stored.
  package func depth(ofSHA256 sha256: [UInt8]) throws -> Int? {
    try db.fetchOne("SELECT depth FROM blob WHERE sha256 = ?", [sha256]) { $0.int(0) }
  }

  /// The hash of blob `id`, or nil if there is no such blob.
  package func sha256(ofBlob id: Int64) throws -> [UInt8]? {
    try db.fetchOne("SELECT sha256 FROM blob WHERE id = ?", [id]) { $0.bytes(0) }
  }

  /// Stores `blob` unless a blob with its hash is stored already, and reads the row back.
  ///
  /// A delta's depth is taken from its stored base, which may differ from the depth the
  /// encoder was told (the base's bytes were already stored, deeper, under another draft);
  /// if that would exceed `maxChainDepth`, the blob is re-encoded in full here. Every row
  /// written is read back and compared before this returns (verify before commit).
  /// - Returns: the blob's id, and whether this call inserted it.
  /// - Throws: `StoreError` if the blob's delta base is not stored (code 787,
  ///   SQLITE_CONSTRAINT_FOREIGNKEY), the row reads back differently (`.verification`),
  ///   or SQLite fails.
  package func insert(_ blob: EncodedBlob) throws -> (id: Int64, inserted: Bool) {
    if let existing = try id(ofSHA256: blob.sha256) { return (existing, false) }
    let (blob, baseID) = try placed(blob)
    let id = try db.fetchOne(
      """
      INSERT INTO blob (sha256, size, encoding, layout, streams, base_id, depth, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (sha256) DO NOTHING RETURNING id
      """,
      [
        blob.sha256, blob.size, blob.encoding.rawValue, blob.layout.layoutColumn, blob.layout.streamsColumn, baseID,
        blob.depth, blob.data,
      ]
    ) { $0.int64(0) }
    guard let id else {
      // Not reached with one writer: the lookup above found no such blob.
      guard let existing = try self.id(ofSHA256: blob.sha256) else {
        throw StoreError(
          kind: .sqlite, message: "blob \(shortHash(blob.sha256)) was neither inserted nor found", path: db.path)
      }
      return (existing, false)
    }
    try verifyStored(blob, id: id)
    return (id, true)
  }

  /// Stores `blob` as the row of blob `id`, which holds the same bytes in another encoding
  /// (`gc --repack`), by the rules of `insert`: the delta's depth comes from its stored base
  /// (re-encoded in full when that base is at the maximum), and the row is read back and
  /// compared before this returns.
  ///
  /// - Throws: `StoreError(.verification)` when blob `id` does not have `blob`'s hash, when
  ///   `blob` would be a delta of itself, or when another blob is a delta of blob `id` (its
  ///   depth would then be wrong: re-encode that one first); a missing base as `insert`.
  /// - Returns: the depth stored, which is `blob.depth` unless its base said otherwise.
  @discardableResult
  package func replace(_ id: Int64, with blob: EncodedBlob) throws -> Int {
    guard try db.fetchOne("SELECT sha256 FROM blob WHERE id = ?", [id], { $0.bytes(0) }) == blob.sha256 else {
      throw invalid(blob, "is not the blob of id \(id)")
    }
    if try db.fetchOne("SELECT 1 FROM blob WHERE base_id = ? LIMIT 1", [id], { _ in true }) == true {
      throw invalid(blob, "is the delta base of another blob, which must be re-encoded first")
    }
    let (blob, baseID) = try placed(blob)
    guard baseID != id else { throw invalid(blob, "would be a delta of itself") }
    try db.execute(
      "UPDATE blob SET encoding = ?, layout = ?, streams = ?, base_id = ?, depth = ?, data = ? WHERE id = ?",
      [
        blob.encoding.rawValue, blob.layout.layoutColumn, blob.layout.streamsColumn, baseID, blob.depth, blob.data, id,
      ])
    try verifyStored(blob, id: id)
    return blob.depth
  }

  /// Stores `blob`, a full encoding (no delta base), as the row of blob `id`, whatever that
  /// row holds now: the repair of a damaged blob from a file that holds its bytes. Blobs that
  /// are deltas of it keep it as their base, with their depths counted again from 0
  /// (invariant 2); the row is read back and compared, and decoded and re-hashed, before this
  /// returns (verify before commit).
  ///
  /// - Throws: `StoreError(.verification)` when blob `id` does not have `blob`'s hash or
  ///   `blob` is a delta; `StoreError(.corrupt)` when the row does not decode to its hash.
  package func repair(_ id: Int64, with blob: EncodedBlob) throws {
    guard try db.fetchOne("SELECT sha256 FROM blob WHERE id = ?", [id], { $0.bytes(0) }) == blob.sha256 else {
      throw invalid(blob, "is not the blob of id \(id)")
    }
    guard blob.baseSHA256 == nil, blob.depth == 0 else { throw invalid(blob, "is a delta, not a full blob") }
    try db.execute(
      "UPDATE blob SET encoding = ?, layout = ?, streams = ?, base_id = NULL, depth = 0, data = ? WHERE id = ?",
      [blob.encoding.rawValue, blob.layout.layoutColumn, blob.layout.streamsColumn, blob.data, id])
    // The deltas above it, each one deeper than its base; bounded, as reads are, should the
    // damage have left a cycle.
    try db.execute(
      """
      WITH RECURSIVE above(id, depth) AS (
        SELECT id, 1 FROM blob WHERE base_id = ?1
        UNION SELECT blob.id, above.depth + 1 FROM blob JOIN above ON blob.base_id = above.id
        WHERE above.depth < \(Self.maxChainDepth)
      )
      UPDATE blob SET depth = (SELECT min(depth) FROM above WHERE above.id = blob.id) WHERE id IN (SELECT id FROM above)
      """, [id])
    try verifyStored(blob, id: id)
    _ = try decode(id)
  }

  /// `blob` at the depth its stored base gives it, and that base's id (invariant 2): a delta
  /// whose base is at the maximum depth is re-encoded in full.
  private func placed(_ blob: EncodedBlob) throws -> (blob: EncodedBlob, baseID: Int64?) {
    guard let baseSHA256 = blob.baseSHA256 else { return (blob, nil) }
    guard
      let base = try db.fetchOne(
        "SELECT id, depth FROM blob WHERE sha256 = ?", [baseSHA256], { ($0.int64(0), $0.int(1)) })
    else {
      throw StoreError(
        kind: .sqlite, code: SQLITE_CONSTRAINT | (3 << 8),  // SQLITE_CONSTRAINT_FOREIGNKEY
        message:
          "blob \(shortHash(blob.sha256)): its delta base \(shortHash(baseSHA256)) is not in the archive; insert the base first",
        path: db.path)
    }
    guard base.1 < Self.maxChainDepth else { return (try reencodeInFull(blob, baseID: base.0), nil) }
    return (blob.withDepth(base.1 + 1), base.0)
  }

  /// The blobs that are deltas of blob `id`, and their deltas, deepest first: the order in
  /// which `replace` may make them full.
  package func descendants(ofBlob id: Int64) throws -> [Int64] {
    try db.fetchAll(
      """
      WITH RECURSIVE below(id) AS (
        SELECT id FROM blob WHERE base_id = ?1
        UNION SELECT blob.id FROM blob JOIN below ON blob.base_id = below.id
      )
      SELECT blob.id FROM below JOIN blob ON blob.id = below.id ORDER BY blob.depth DESC
      """, [id]
    ) { $0.int64(0) }
  }

  /// The ids of the delta blobs, deepest first: making them full in this order never leaves
  /// a delta over a base it has outgrown.
  package func deltaIDs() throws -> [Int64] {
    try db.fetchAll("SELECT id FROM blob WHERE encoding = ? ORDER BY depth DESC", [BlobEncoding.delta.rawValue]) {
      $0.int64(0)
    }
  }

  /// Deletes the blobs no version uses and no kept blob is a delta of, with their drawing
  /// index rows; repeated, since removing the top of a chain frees its base. Returns how many.
  package func removeUnused() throws -> Int {
    var removed = 0
    while true {
      let orphans = try db.fetchAll(
        """
        SELECT id FROM blob WHERE id NOT IN (SELECT blob_id FROM version)
          AND id NOT IN (SELECT base_id FROM blob WHERE base_id IS NOT NULL)
        """
      ) { $0.int64(0) }
      if orphans.isEmpty { return removed }
      for id in orphans {
        try DrawingIndexRecords.remove(blobID: id, in: db)
        try db.execute("DELETE FROM blob WHERE id = ?", [id])
      }
      removed += orphans.count
    }
  }

  /// The delta `blob` decoded against its base and encoded again without one, for a
  /// base that is already at the maximum depth (invariant 2).
  private func reencodeInFull(_ blob: EncodedBlob, baseID: Int64) throws -> EncodedBlob {
    let base = try decode(baseID)
    let bytes: [UInt8]
    do {
      bytes = try InklingStore.decodeBlob(
        sha256: blob.sha256, encoding: blob.encoding.rawValue, layout: blob.layout, depth: 0, data: blob.data,
        size: blob.size,
        base: base, decompressor: reader.decompressor
      ).bytes
    } catch {
      throw invalid(blob, "does not decode over its base (\(error))")
    }
    guard SHA256.hash(bytes) == blob.sha256 else { throw invalid(blob, "does not decode over its base to its SHA-256") }
    return try reader.encoder.encode(bytes, sha256: blob.sha256, base: nil)
  }

  private func invalid(_ blob: EncodedBlob, _ problem: String) -> StoreError {
    StoreError(kind: .verification, message: "blob \(shortHash(blob.sha256)) \(problem); not stored", path: db.path)
  }

  /// Reads the row of blob `id` back and compares it with `blob` (Fossil's
  /// verify-before-commit, Fossil's "Self-Check"): what
  /// SQLite stored is what the encoder verified.
  private func verifyStored(_ blob: EncodedBlob, id: Int64) throws {
    let same = try db.fetchOne(
      """
      SELECT b.sha256 = ?1 AND b.size = ?2 AND b.encoding = ?3 AND b.depth = ?4 AND b.data = ?5
             AND base.sha256 IS ?6 AND b.layout = ?8 AND b.streams = ?9
      FROM blob b LEFT JOIN blob base ON base.id = b.base_id WHERE b.id = ?7
      """,
      [
        blob.sha256, blob.size, blob.encoding.rawValue, blob.depth, blob.data, blob.baseSHA256, id,
        blob.layout.layoutColumn, blob.layout.streamsColumn,
      ]
    ) { $0.int(0) == 1 }
    guard same == true else {
      throw StoreError(
        kind: .verification,
        message: "blob \(shortHash(blob.sha256)) (id \(id)) reads back differently from what was written",
        path: db.path)
    }
  }

  // MARK: - Reading

  /// The decoded bytes of blob `id`, verified against its SHA-256.
  ///
  /// - Throws: `StoreError(.corrupt)` naming the blob when its chain is broken, its data
  ///   does not decode, or the decoded bytes do not hash to its SHA-256;
  ///   `StoreError(.notFound)` when there is no blob `id`.
  package func bytes(ofBlob id: Int64) throws -> [UInt8] {
    try decode(id).bytes
  }

  /// The decoded bytes of blob `id`, as `bytes(ofBlob:)`, refused before anything is decoded
  /// when it or a blob it is decoded through declares more than `limit` bytes: a caller that
  /// refuses larger bytes anyway (the drawing reader) need never hold them, whatever another
  /// archive's rows claim.
  ///
  /// - Throws: as `bytes(ofBlob:)`, and `StoreError(.corrupt)` naming the blob past `limit`.
  package func bytes(ofBlob id: Int64, limit: Int) throws -> [UInt8] {
    try decodeChain(id, limit: limit).decoded.bytes
  }

  /// The decoded bytes of blob `id`, not hashed: for a caller that checks a digest covering
  /// every one of them (a restored file's SHA-256, over their base64) and, when that check
  /// fails, reads them again with `bytes(ofBlob:)` to name the blob if it is what is damaged.
  /// They are not kept as a base for later reads: only hashed bytes are (invariant 1).
  ///
  /// - Throws: as `bytes(ofBlob:)`, less the hash check.
  package func unhashedBytes(ofBlob id: Int64) throws -> [UInt8] {
    try decodeChain(id, hashing: false).decoded.bytes
  }

  /// The decoded bytes and depth of blob `id`, to encode the next version against.
  ///
  /// - Throws: as `bytes(ofBlob:)`.
  package func base(ofBlob id: Int64) throws -> BlobBase {
    try decode(id)
  }

  /// The decoded bytes of the blob with hash `sha256`, or nil if it is not stored.
  package func bytes(ofSHA256 sha256: [UInt8]) throws -> [UInt8]? {
    try id(ofSHA256: sha256).map { try bytes(ofBlob: $0) }
  }

  /// The largest size any blob of blob `id`'s delta chain (itself and the bases it is decoded
  /// through) declares, read without decoding any: what decoding it would hold in memory at
  /// once, at most twice this. A chain that is broken or longer than `maxChainDepth` ends
  /// where it breaks; decoding it reports that.
  ///
  /// - Throws: `StoreError` when SQLite fails.
  package func largestSize(inChainOf id: Int64) throws -> Int {
    var largest = 0
    var next: Int64? = id
    for _ in 0...Self.maxChainDepth {
      guard let current = next,
        let (size, base) = try db.fetchOne(
          "SELECT size, CASE WHEN encoding = ? THEN base_id END FROM blob WHERE id = ?",
          [BlobEncoding.delta.rawValue, current], { ($0.int64(0), $0.isNull(1) ? nil : $0.int64(1)) })
      else { break }
      largest = max(largest, Int(clamping: size))
      next = base
    }
    return largest
  }

  /// One stored row of the chain being decoded.
  private struct Link {
    let id: Int64
    let sha256: [UInt8]
    let size: Int
    let encoding: Int
    /// The row's `layout` and `streams` columns.
    let layoutColumns: (layout: Int, streams: Int)
    let baseID: Int64?
    let baseSHA256: [UInt8]?
    let depth: Int
    let data: [UInt8]

    /// The layout of the row, nil when this build does not know it.
    var layout: BlobLayout? { BlobLayout(layout: layoutColumns.layout, streams: layoutColumns.streams) }
    var layoutDescription: String { "layout \(layoutColumns.layout) (streams \(layoutColumns.streams))" }
  }

  private func link(_ id: Int64) throws -> Link? {
    try db.fetchOne(
      """
      SELECT b.sha256, b.size, b.encoding, b.base_id, base.sha256, b.depth, b.data, b.layout, b.streams
      FROM blob b LEFT JOIN blob base ON base.id = b.base_id WHERE b.id = ?
      """, [id]
    ) { row in
      Link(
        id: id, sha256: row.bytes(0), size: row.int(1), encoding: row.int(2),
        layoutColumns: (row.int(7), row.int(8)),
        baseID: row.isNull(3) ? nil : row.int64(3), baseSHA256: row.isNull(4) ? nil : row.bytes(4), depth: row.int(5),
        data: row.bytes(6))
    }
  }

  /// The order in which to read `ids` so that each is decoded over the one read before it,
  /// as positions in `ids`: chain by chain (a chain is taken where its first blob in `ids`
  /// is), each from its base up. Read in another order, a blob's base is rarely among the
  /// few the reader keeps (invariant 3), and its whole chain is decoded again: reading the
  /// versions of a draft stored as reverse deltas oldest first decodes every chain from the
  /// newest drawing down. A blob that is not stored, or whose row is on a damaged page, goes where it is.
  ///
  /// - Throws: `StoreError` when SQLite fails.
  package func decodingOrder(ofBlobs ids: [Int64]) throws -> [Int] {
    var links: [Int64: (baseID: Int64?, depth: Int)] = [:]
    for id in ids where links[id] == nil {
      do {
        links[id] = try db.fetchOne("SELECT base_id, depth FROM blob WHERE id = ?", [id]) {
          ($0.isNull(0) ? nil : $0.int64(0), $0.int(1))
        }
      } catch let error as StoreError where error.kind == .corrupt {
        // A row on a damaged page goes where it is, as a missing one does: reading it meets
        // the damage for its own versions alone, and the other blobs are still put in order
        // (salvaging a draft keeps every version that decodes).
        continue
      }
    }
    // The lowest blob of `ids` under each: where its chain is read from. Bounded as reads
    // are (invariant 2): a damaged archive's cycle must not loop.
    func root(of id: Int64) -> Int64 {
      var current = id
      for _ in 0...Self.maxChainDepth {
        guard let base = links[current]?.baseID, links[base] != nil, base != id else { break }
        current = base
      }
      return current
    }
    var chainOrder: [Int64: Int] = [:]
    let keys = ids.enumerated().map { position, id in
      let chain = root(of: id)
      let rank = chainOrder[chain] ?? chainOrder.count
      chainOrder[chain] = rank
      return (chain: rank, depth: links[id]?.depth ?? 0, position: position)
    }
    return keys.sorted { ($0.chain, $0.depth, $0.position) < ($1.chain, $1.depth, $1.position) }.map(\.position)
  }

  /// Blob `id` as stored: its row's exact data, encoding, layout and delta base, verified by
  /// decoding it (over its chain) to bytes with its SHA-256; and those bytes. Another archive
  /// can insert the same row (`insert`) without compressing anything again: the data decodes
  /// the same over any blob with the base's hash.
  ///
  /// - Throws: as `bytes(ofBlob:)`.
  package func verifiedCopy(ofBlob id: Int64) throws -> (blob: EncodedBlob, decoded: BlobBase) {
    let (top, decoded) = try decodeChain(id)
    // A row that decoded has an encoding and layout this build knows.
    guard let encoding = BlobEncoding(rawValue: top.encoding), let layout = top.layout else {
      throw corrupt(top, "its encoding \(top.encoding) or \(top.layoutDescription) is unknown")
    }
    let blob = EncodedBlob(
      sha256: top.sha256, size: top.size, encoding: encoding, layout: layout,
      baseSHA256: encoding == .delta ? top.baseSHA256 : nil, depth: top.depth, data: top.data)
    return (blob, decoded)
  }

  private func decode(_ id: Int64) throws -> BlobBase {
    try decodeChain(id).decoded
  }

  /// The row of blob `id` and its bytes, decoded and verified (unless the caller hashes them:
  /// `unhashedBytes`).
  private func decodeChain(_ id: Int64, hashing: Bool = true, limit: Int = .max) throws -> (
    top: Link, decoded: BlobBase
  ) {
    // Down the chain (invariant 3): collect rows until a full blob or a cached base.
    var chain: [Link] = []
    var below: BlobBase?  // the blob under chain.last, if cached
    var next: Int64? = id
    while let current = next {
      guard let link = try link(current) else {
        guard let above = chain.last else {
          throw StoreError(kind: .notFound, message: "there is no blob \(id) in \(db.path)", path: db.path)
        }
        throw corrupt(above, "its delta base (blob id \(current)) is missing")
      }
      guard link.size <= limit else {
        throw corrupt(link, "it declares \(link.size) bytes, more than the \(limit) it may hold here")
      }
      chain.append(link)
      guard link.size >= 0, link.size <= maximumSize, link.data.count <= maximumSize else {
        throw corrupt(link, "its size \(link.size) is outside the 0…\(maximumSize) bytes a drawing may have")
      }
      guard chain.count <= Self.maxChainDepth + 1 else {
        throw corrupt(chain[0], "its delta chain is longer than \(Self.maxChainDepth) (a cycle?)")
      }
      guard link.encoding == BlobEncoding.delta.rawValue else { break }
      guard let baseID = link.baseID, let baseSHA256 = link.baseSHA256 else {
        throw corrupt(link, "it is a delta without a base")
      }
      if let cached = reader.cached(baseSHA256) {
        below = BlobBase(sha256: baseSHA256, bytes: cached.bytes, depth: link.depth - 1, form: cached.form)
        break
      }
      next = baseID
    }
    // Up the chain: decode each over the one below, in the form the one above needs as its
    // prefix. A level stored in the same layout as the delta above it is never rearranged
    // back: only the top's bytes as written are needed, and hashed.
    var level = below.map { ChainLevel(written: $0.bytes, form: $0.knownForm) }
    for (index, link) in chain.enumerated().reversed() {
      do {
        guard let layout = link.layout else {
          throw BlobFormatError(description: "unknown \(link.layoutDescription)")
        }
        let prefix = link.encoding == BlobEncoding.delta.rawValue ? level?.form(in: layout) : nil
        let form = try decodeForm(
          encoding: link.encoding, layout: layout, data: link.data, size: link.size, prefix: prefix,
          decompressor: reader.decompressor)
        let onlyFormNeeded = index > 0 && layout != .asWritten && chain[index - 1].layout == layout
        level =
          layout == .asWritten
          ? ChainLevel(written: form, form: nil)
          : ChainLevel(
            written: onlyFormNeeded ? nil : try writtenBytes(ofForm: form, layout: layout, size: link.size),
            form: BlobForm(layout: layout, bytes: form))
      } catch {
        // Not necessarily this level's fault: a damaged level below, whose form was used
        // unhashed, can make this one's data undecodable. Name the lowest that is wrong.
        throw try corruptLink(in: chain, below: below)
      }
    }
    guard let written = level?.written, !hashing || SHA256.hash(written) == chain[0].sha256 else {
      throw try corruptLink(in: chain, below: below)
    }
    let decoded = BlobBase(sha256: chain[0].sha256, bytes: written, depth: chain[0].depth, form: level?.form)
    if hashing { reader.remember(decoded) }
    return (chain[0], decoded)
  }

  private func decodeBlob(_ link: Link, base: BlobBase?) throws -> BlobBase {
    guard let layout = link.layout else { throw BlobFormatError(description: "unknown \(link.layoutDescription)") }
    return try InklingStore.decodeBlob(
      sha256: link.sha256, encoding: link.encoding, layout: layout, depth: link.depth, data: link.data,
      size: link.size, base: base, decompressor: reader.decompressor)
  }

  /// The error for a chain whose top does not hash right, naming the lowest blob that
  /// does not (the one actually damaged). Slow path: re-decodes, hashing every level.
  private func corruptLink(in chain: [Link], below: BlobBase?) throws -> StoreError {
    var decoded = below
    for link in chain.reversed() {
      let level: BlobBase
      do {
        level = try decodeBlob(link, base: decoded)
      } catch {
        return corrupt(link, "its data does not decode (\(error))")
      }
      guard SHA256.hash(level.bytes) == link.sha256 else {
        return corrupt(link, "its data decodes to bytes with another SHA-256")
      }
      decoded = level
    }
    return corrupt(chain[0], "its data decodes to bytes with another SHA-256")
  }

  /// One level of a chain being decoded upwards: its bytes as written (nil when no level
  /// above needs them) and, when it was stored in a layout other than as written, its form.
  private struct ChainLevel {
    let written: [UInt8]?
    let form: BlobForm?

    /// The prefix a delta in `layout` above this level decodes against.
    func form(in layout: BlobLayout) -> [UInt8] {
      if let form, form.layout == layout { return form.bytes }
      guard let written else {
        // decodeChain leaves out the written bytes only of a level whose layout is the one
        // above's, and keeps its form.
        preconditionFailure("a chain level holds its bytes in the form the level above reads")
      }
      return layout.form(of: written)
    }
  }

  private func corrupt(_ link: Link, _ problem: String) -> StoreError {
    StoreError(
      kind: .corrupt,
      message: "blob \(shortHash(link.sha256)) (id \(link.id)): \(problem)",
      path: db.path)
  }

  // MARK: - Statistics

  /// Stored bytes by encoding, and the number of blobs (for `stats`).
  package func sizes() throws -> (full: Int64, delta: Int64, raw: Int64, count: Int64) {
    let stats = try statistics()
    return (stats.fullBytes, stats.deltaBytes, stats.rawBytes, stats.count)
  }

  /// What the blob table holds.
  package struct Statistics: Sendable, Hashable {
    /// Stored bytes of zstd, delta and raw blobs.
    package var fullBytes: Int64, deltaBytes: Int64, rawBytes: Int64
    /// Blobs in all, and delta blobs among them.
    package var count: Int64, deltas: Int64
    /// The sum of decoded sizes: what the blobs would take uncompressed.
    package var decodedBytes: Int64
    /// The longest delta chain.
    package var maxDepth: Int64
  }

  /// Sizes, counts and depth of the stored blobs. `length(data)` does not read the data
  /// (SQLite's length() function), so this is one pass over the rows.
  package func statistics() throws -> Statistics {
    try db.fetchOne(
      """
      SELECT total(CASE encoding WHEN \(BlobEncoding.zstd.rawValue) THEN length(data) END),
             total(CASE encoding WHEN \(BlobEncoding.delta.rawValue) THEN length(data) END),
             total(CASE encoding WHEN \(BlobEncoding.raw.rawValue) THEN length(data) END), count(*),
             total(encoding = \(BlobEncoding.delta.rawValue)), total(size),
             coalesce(max(depth), 0)
      FROM blob
      """
    ) { row in
      Statistics(
        fullBytes: row.int64(0), deltaBytes: row.int64(1), rawBytes: row.int64(2), count: row.int64(3),
        deltas: row.int64(4), decodedBytes: row.int64(5), maxDepth: row.int64(6))
    } ?? Statistics(fullBytes: 0, deltaBytes: 0, rawBytes: 0, count: 0, deltas: 0, decodedBytes: 0, maxDepth: 0)
  }
}

// MARK: - Reader state

extension BlobStore {
  /// The decompressor and a few recently decoded blobs, by hash, one per connection.
  /// Reading the versions of a draft in order then decodes one delta each instead of a
  /// whole chain. Keyed by SHA-256, an entry can never be stale: those bytes are what that
  /// hash names, and they were verified before they were remembered. Only bases come from
  /// here: the blob asked for is always decoded from its stored row, so every read still
  /// checks what is on disk. An entry keeps the blob's form when its row stored one other
  /// than as written: the next delta in that layout uses it as its prefix as it is, where
  /// rearranging the bytes again would cost as much as the decoding.
  final class Reader {
    let decompressor = ZstdDecompressor()
    /// For the rare re-encoding in `insert`; made on first use.
    lazy var encoder = BlobEncoder()
    private var recent: [(sha256: [UInt8], bytes: [UInt8], form: BlobForm?)] = []
    private static let entries = 4
    private static let maxBytes = 64 << 20

    func cached(_ sha256: [UInt8]) -> (bytes: [UInt8], form: BlobForm?)? {
      guard let index = recent.firstIndex(where: { $0.sha256 == sha256 }) else { return nil }
      let entry = recent.remove(at: index)
      recent.insert(entry, at: 0)  // most recently used first
      return (entry.bytes, entry.form)
    }

    func remember(_ blob: BlobBase) {
      guard blob.bytes.count + (blob.knownForm?.bytes.count ?? 0) <= Self.maxBytes / Self.entries else { return }
      recent.removeAll { $0.sha256 == blob.sha256 }
      recent.insert((blob.sha256, blob.bytes, blob.knownForm), at: 0)
      if recent.count > Self.entries { recent.removeLast() }
    }
  }
}
