// The drawing index (migrations/0002_drawing_index.sql, made leaner by 0005): what is inside
// each drawing blob, written once per blob at import or by `reindex` (DrawingIndexWriter.swift),
// read by `show`, `diff` and searches.

import InklingFormats

/// The key of a stroke's encoded message: 128 bits, two XXH64 of the message with different
/// seeds, as two words (cheap to hash and compare, unlike an array). Not cryptographic: it
/// only decides which saves share a stroke row, within one draft (a collision, about 2^-64
/// per pair of distinct strokes of a draft, would show one stroke's row for the other); a
/// SHA-256 would rule that out at several times the cost, for every new stroke at import.
package struct StrokeFingerprint: Hashable, Sendable {
  package var high: UInt64
  package var low: UInt64

  package init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// The key of the stroke message `message`.
  package init(hashing message: UnsafeRawBufferPointer) {
    high = XXHash64.hash(message, seed: Self.seeds.0)
    low = XXHash64.hash(message, seed: Self.seeds.1)
  }

  /// "stroke-1", "stroke-2": seeds of their own, so that a stroke key never equals the
  /// content digest (DrawingContent.swift) of the same bytes.
  private static let seeds: (UInt64, UInt64) = (0x7374_726F_6B65_2D31, 0x7374_726F_6B65_2D32)

  /// The first 16 bytes of `bytes` (which must hold at least 16).
  package init(prefixOf bytes: [UInt8]) {
    precondition(bytes.count >= 16, "a fingerprint is made from a digest of at least 16 bytes")
    (high, low) = bigEndianWords(bytes)
  }

  /// 16 bytes, big-endian: the BLOB stored in `stroke.fingerprint`.
  package var bytes: [UInt8] { bigEndianBytes(high, low) }
}

/// A stroke's UUID, its 16 bytes held in two words: copying a stroke's facts (every save
/// repeats most of a draft's strokes) then retains nothing, where an array would be retained
/// and released at each copy.
package struct StrokeUUID: Hashable, Sendable {
  package var high: UInt64
  package var low: UInt64

  /// From exactly 16 bytes, in order; nil for any other length (the drawing reader accepts
  /// only 16, so only a damaged index row can hold another).
  package init?(_ bytes: [UInt8]) {
    guard bytes.count == 16 else { return nil }
    (high, low) = bigEndianWords(bytes)
  }

  package init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// The 16 bytes, in order: what `stroke.uuid` stores.
  package var bytes: [UInt8] { bigEndianBytes(high, low) }
}

/// The first 16 bytes of `bytes` (at least 16) as two big-endian words.
private func bigEndianWords(_ bytes: [UInt8]) -> (UInt64, UInt64) {
  (bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }, bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) })
}

/// `high` and `low` as 16 bytes, big-endian.
private func bigEndianBytes(_ high: UInt64, _ low: UInt64) -> [UInt8] {
  withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { Array($0) }
}

/// One stroke as the index keeps it.
package struct StrokeFacts: Sendable, Equatable {
  package var uuid: StrokeUUID?
  package var hidden: Bool
  package var ink: String
  package var color: RGBA
  package var bounds: Rect?
  package var pointCount: Int
  /// The path's creation date, seconds since 1970.
  package var created: Double?

  package init(
    uuid: StrokeUUID?, hidden: Bool, ink: String, color: RGBA, bounds: Rect?, pointCount: Int, created: Double?
  ) {
    self.uuid = uuid
    self.hidden = hidden
    self.ink = ink
    self.color = color
    self.bounds = bounds
    self.pointCount = pointCount
    self.created = created
  }
}

/// What the index knows of one drawing.
package struct DrawingFacts: Sendable, Equatable {
  package enum Status: Int, Sendable {
    case decoded = 0
    /// Not a PencilKit drawing this build reads (legacy or unknown format): kept opaque.
    case unreadable = 1
    /// A PencilKit container that does not decode.
    case damaged = 2
  }

  package var status: Status
  package var problem: String?
  package var formatVersion: Int?
  package var strokes: [StrokeFacts]
  /// One per stroke when the facts come from a drawing; empty when read from the index
  /// (readers tell strokes apart by their row ids).
  package var fingerprints: [StrokeFingerprint]
  package var pointCount: Int
  package var bounds: Rect?
  package var firstPoint: Double?
  package var lastPoint: Double?
  package var maxInkVersion: Int?
  package var contentHash: [UInt8]?

  package init(
    status: Status, problem: String? = nil, formatVersion: Int? = nil, strokes: [StrokeFacts] = [],
    fingerprints: [StrokeFingerprint] = [], pointCount: Int = 0, bounds: Rect? = nil, firstPoint: Double? = nil,
    lastPoint: Double? = nil, maxInkVersion: Int? = nil, contentHash: [UInt8]? = nil
  ) {
    self.status = status
    self.problem = problem
    self.formatVersion = formatVersion
    self.strokes = strokes
    self.fingerprints = fingerprints
    self.pointCount = pointCount
    self.bounds = bounds
    self.firstPoint = firstPoint
    self.lastPoint = lastPoint
    self.maxInkVersion = maxInkVersion
    self.contentHash = contentHash
  }

  package var hiddenCount: Int { strokes.count(where: \.hidden) }
}

/// A drawing's row as read back.
package struct DrawingIndexRow: Sendable {
  package var facts: DrawingFacts
  /// The stroke rows, in the drawing's order: equal ids are the same stroke.
  package var strokeIDs: [Int64]
}

/// One drawing to index: its facts, its blob, whether the blob is new in this transaction
/// (so it has no rows to replace), and the draft whose earlier strokes it may share.
package struct DrawingIndexJob: Sendable {
  package var facts: DrawingFacts
  package var blobID: Int64
  package var isNew: Bool
  package var draftID: Int64?

  package init(facts: DrawingFacts, blobID: Int64, isNew: Bool, draftID: Int64?) {
    self.facts = facts
    self.blobID = blobID
    self.isNew = isNew
    self.draftID = draftID
  }
}

package enum DrawingIndexRecords {
  /// The facts of blob `blobID`, or nil when it has not been indexed; without `strokes`, the
  /// drawing's facts and stroke ids only (`facts.strokes` empty).
  package static func read(blobID: Int64, strokes readStrokes: Bool = true, in db: Database) throws
    -> DrawingIndexRow?
  {
    guard
      let row = try db.fetchOne(
        """
        SELECT status, problem, format_version, point_count, bounds_x, bounds_y, bounds_width, bounds_height,
          first_point_s, last_point_s, max_ink_version, content_hash, strokes
        FROM drawing WHERE blob_id = ?
        """, [blobID],
        { row in
          (
            facts: DrawingFacts(
              status: DrawingFacts.Status(rawValue: row.int(0)) ?? .damaged,
              problem: row.isNull(1) ? nil : row.string(1),
              formatVersion: row.isNull(2) ? nil : row.int(2), pointCount: row.int(3),
              bounds: row.isNull(4)
                ? nil : Rect(x: row.double(4), y: row.double(5), width: row.double(6), height: row.double(7)),
              firstPoint: row.isNull(8) ? nil : row.double(8), lastPoint: row.isNull(9) ? nil : row.double(9),
              maxInkVersion: row.isNull(10) ? nil : row.int(10), contentHash: row.isNull(11) ? nil : row.bytes(11)),
            runs: row.bytes(12)
          )
        })
    else { return nil }
    guard let ids = StrokeRuns.decode(row.runs) else {
      throw StoreError(kind: .damagedIndex, message: "the drawing index of blob \(blobID) has a malformed stroke list")
    }
    var facts = row.facts
    if readStrokes { facts.strokes = try strokes(ids, in: db) }
    return DrawingIndexRow(facts: facts, strokeIDs: ids)
  }

  /// What the index says of blob `blobID` without its strokes: status, content hash and why
  /// it does not decode; nil when it is not indexed.
  package static func outline(blobID: Int64, in db: Database) throws -> (
    status: DrawingFacts.Status, contentHash: [UInt8]?, problem: String?
  )? {
    try db.fetchOne("SELECT status, content_hash, problem FROM drawing WHERE blob_id = ?", [blobID]) { row in
      (
        DrawingFacts.Status(rawValue: row.int(0)) ?? .damaged, row.isNull(1) ? nil : row.bytes(1),
        row.isNull(2) ? nil : row.string(2)
      )
    }
  }

  /// Whether some drawing's visible strokes use the ink called `name` (drawing_ink_by_ink).
  package static func usesInk(named name: String, in db: Database) throws -> Bool {
    try db.fetchOne("SELECT 1 FROM drawing_ink WHERE ink = ? LIMIT 1", [name]) { _ in true } ?? false
  }

  /// The names of the inks drawings' visible strokes use, sorted (reads drawing_ink_by_ink).
  package static func inkNames(in db: Database) throws -> [String] {
    try db.fetchAll("SELECT DISTINCT ink FROM drawing_ink ORDER BY ink") { $0.string(0) }
  }

  /// Deletes the index rows of blob `blobID` (its ink rows first, as gc always did: they count
  /// on `draft` only while the drawing row exists, migration 0009).
  package static func remove(blobID: Int64, in db: Database) throws {
    try db.execute("DELETE FROM drawing_ink WHERE blob_id = ?", [blobID])
    try db.execute("DELETE FROM drawing WHERE blob_id = ?", [blobID])
  }

  /// Deletes the whole drawing index: every drawing is then "not indexed".
  package static func removeAll(in db: Database) throws {
    try db.execute("DELETE FROM drawing_ink; DELETE FROM drawing; DELETE FROM stroke; DELETE FROM ink")
  }

  /// The blobs without a drawing row, in id order.
  package static func unindexedBlobIDs(in db: Database) throws -> [Int64] {
    try db.fetchAll("SELECT id FROM blob WHERE id NOT IN (SELECT blob_id FROM drawing) ORDER BY id") { $0.int64(0) }
  }

  /// Deletes the stroke rows no drawing's stroke list names; returns how many.
  ///
  /// - Throws: `StoreError(.damagedIndex)` when a stroke list does not decode (nothing is deleted).
  package static func removeUnusedStrokes(in db: Database) throws -> Int {
    var used = Set<Int64>()
    let lists = try db.fetchAll("SELECT blob_id, strokes FROM drawing") { ($0.int64(0), $0.bytes(1)) }
    for (blobID, list) in lists {
      guard let ids = StrokeRuns.decode(list) else {
        throw StoreError(
          kind: .damagedIndex, message: "the drawing index of blob \(blobID) has a malformed stroke list")
      }
      used.formUnion(ids)
    }
    let all = try db.fetchAll("SELECT id FROM stroke") { $0.int64(0) }
    var removed = 0
    for id in all where !used.contains(id) {
      try db.execute("DELETE FROM stroke WHERE id = ?", [id])
      removed += 1
    }
    return removed
  }

  /// Whether the blob with hash `sha256` is stored, and if so whether it is indexed.
  package static func storedBlob(sha256: [UInt8], in db: Database) throws -> (id: Int64, indexed: Bool)? {
    try db.fetchOne(
      "SELECT b.id, d.blob_id IS NOT NULL FROM blob AS b LEFT JOIN drawing AS d ON d.blob_id = b.id WHERE b.sha256 = ?",
      [sha256]
    ) { (id: $0.int64(0), indexed: $0.int(1) != 0) }
  }

  /// The stroke rows with these ids, in this order.
  static func strokes(_ ids: [Int64], in db: Database) throws -> [StrokeFacts] {
    var result: [StrokeFacts] = []
    result.reserveCapacity(ids.count)
    for id in ids {
      guard
        let stroke = try db.fetchOne(
          """
          SELECT s.hidden, i.name, i.color_r, i.color_g, i.color_b, i.color_a, s.bounds_x, s.bounds_y, s.bounds_width,
            s.bounds_height, s.point_count, s.created_s, s.uuid FROM stroke AS s JOIN ink AS i ON i.id = s.ink_id
          WHERE s.id = ?
          """, [id],
          { row in
            StrokeFacts(
              uuid: row.isNull(12) ? nil : StrokeUUID(row.bytes(12)), hidden: row.int(0) != 0, ink: row.string(1),
              color: RGBA(red: row.double(2), green: row.double(3), blue: row.double(4), alpha: row.double(5)),
              bounds: row.isNull(6)
                ? nil : Rect(x: row.double(6), y: row.double(7), width: row.double(8), height: row.double(9)),
              pointCount: row.int(10), created: row.isNull(11) ? nil : row.double(11))
          })
      else {
        throw StoreError(
          kind: .damagedIndex, message: "stroke \(id) of the drawing index is missing")
      }
      result.append(stroke)
    }
    return result
  }
}

/// Stroke id lists packed as runs of consecutive ids: varint (start − previous end),
/// varint length. A later save's strokes are the earlier ones plus new consecutive ids, so
/// a drawing of hundreds of strokes packs into a few bytes.
package enum StrokeRuns {
  package static func encode(_ ids: [Int64]) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = 0
    var previousEnd: Int64 = 0
    while index < ids.count {
      var length = 1
      while index + length < ids.count, ids[index + length] == ids[index] &+ Int64(length) { length += 1 }
      appendVarint(zigzag(ids[index] &- previousEnd), to: &bytes)
      appendVarint(UInt64(length), to: &bytes)
      previousEnd = ids[index] &+ Int64(length)
      index += length
    }
    return bytes
  }

  /// The ids, or nil when the bytes are not a valid run list.
  package static func decode(_ bytes: [UInt8]) -> [Int64]? {
    guard let runs = runs(bytes) else { return nil }
    var ids: [Int64] = []
    for run in runs {
      for offset in 0..<Int64(run.length) { ids.append(run.first &+ offset) }
    }
    return ids
  }

  /// The runs, (first id, length) each, or nil when the bytes are not a valid run list.
  package static func runs(_ bytes: [UInt8]) -> [(first: Int64, length: Int)]? {
    var runs: [(first: Int64, length: Int)] = []
    var count = 0
    var position = 0
    var previousEnd: Int64 = 0
    while position < bytes.count {
      guard let delta = readVarint(bytes, &position), let length = readVarint(bytes, &position),
        length <= 10_000_000, count + Int(length) <= 10_000_000
      else { return nil }
      let start = previousEnd &+ unzigzag(delta)
      if length > 0 { runs.append((start, Int(length))) }
      count += Int(length)
      previousEnd = start &+ Int64(length)
    }
    return runs
  }

  private static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
  private static func unzigzag(_ value: UInt64) -> Int64 {
    Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
  }

  private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  private static func readVarint(_ bytes: [UInt8], _ position: inout Int) -> UInt64? {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while position < bytes.count, shift < 64 {
      let byte = bytes[position]
      position += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
    return nil
  }
}
