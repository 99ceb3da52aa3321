// The drawing index (migrations/0002_drawing_index.sql): what is inside each drawing blob,
// written once per blob at import (or by `reindex`), read by `show`, `diff` and searches.

import InklingFormats

/// One stroke as the index keeps it.
package struct StrokeFacts: Sendable, Equatable {
  /// The first 16 bytes of the SHA-256 of the stroke's encoded message.
  package var fingerprint: [UInt8]
  package var uuid: [UInt8]?
  package var hidden: Bool
  package var ink: String
  package var color: RGBA
  package var bounds: Rect?
  package var pointCount: Int
  /// The path's creation date, seconds since 1970.
  package var created: Double?

  package init(
    fingerprint: [UInt8], uuid: [UInt8]?, hidden: Bool, ink: String, color: RGBA, bounds: Rect?, pointCount: Int,
    created: Double?
  ) {
    self.fingerprint = fingerprint; self.uuid = uuid; self.hidden = hidden; self.ink = ink; self.color = color
    self.bounds = bounds; self.pointCount = pointCount; self.created = created
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
  package var pointCount: Int
  package var bounds: Rect?
  package var firstPoint: Double?
  package var lastPoint: Double?
  package var maxInkVersion: Int?
  package var contentHash: [UInt8]?

  package init(
    status: Status, problem: String? = nil, formatVersion: Int? = nil, strokes: [StrokeFacts] = [],
    pointCount: Int = 0, bounds: Rect? = nil, firstPoint: Double? = nil, lastPoint: Double? = nil,
    maxInkVersion: Int? = nil, contentHash: [UInt8]? = nil
  ) {
    self.status = status; self.problem = problem; self.formatVersion = formatVersion; self.strokes = strokes
    self.pointCount = pointCount; self.bounds = bounds; self.firstPoint = firstPoint; self.lastPoint = lastPoint
    self.maxInkVersion = maxInkVersion; self.contentHash = contentHash
  }

  package var hiddenCount: Int { strokes.count(where: \.hidden) }
}

/// A drawing's row as read back.
package struct DrawingIndexRow: Sendable {
  package var facts: DrawingFacts
  package var strokeIDs: [Int64]
}

/// Writes drawing facts; one per writer connection, caching stroke ids between versions
/// (a save repeats every earlier stroke, so most look-ups hit the cache).
package final class DrawingIndexWriter {
  private let db: Database
  private var strokeIDs: [[UInt8]: Int64] = [:]
  /// The cache is dropped when it grows past this; it only saves look-ups.
  static let cacheLimit = 50_000

  package init(_ db: Database) { self.db = db }

  /// Whether `blobID` already has its row.
  package func isIndexed(_ blobID: Int64) throws -> Bool {
    try db.fetchOne("SELECT 1 FROM drawing WHERE blob_id = ?", [blobID]) { _ in true } ?? false
  }

  /// Stores the facts of blob `blobID`, replacing any row it had.
  package func write(_ facts: DrawingFacts, blobID: Int64) throws {
    var ids: [Int64] = []
    ids.reserveCapacity(facts.strokes.count)
    for stroke in facts.strokes { ids.append(try id(of: stroke)) }
    let bounds = facts.bounds
    try db.execute(
      """
      INSERT OR REPLACE INTO drawing(blob_id, status, problem, format_version, stroke_count, hidden_count,
        point_count, bounds_x, bounds_y, bounds_width, bounds_height, first_point_s, last_point_s,
        max_ink_version, content_hash, strokes)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        blobID, facts.status.rawValue, facts.problem, facts.formatVersion, facts.strokes.count, facts.hiddenCount,
        facts.pointCount, bounds?.x, bounds?.y, bounds?.width, bounds?.height, facts.firstPoint, facts.lastPoint,
        facts.maxInkVersion, facts.contentHash, StrokeRuns.encode(ids),
      ])
    try db.execute("DELETE FROM drawing_ink WHERE blob_id = ?", [blobID])
    var inks: [String: (ink: String, color: RGBA, count: Int)] = [:]
    for stroke in facts.strokes where !stroke.hidden {
      let key = "\(stroke.ink) \(stroke.color.red) \(stroke.color.green) \(stroke.color.blue) \(stroke.color.alpha)"
      inks[key, default: (stroke.ink, stroke.color, 0)].count += 1
    }
    for use in inks.values {
      try db.execute(
        "INSERT INTO drawing_ink(blob_id, ink, color_r, color_g, color_b, color_a, stroke_count) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [blobID, use.ink, use.color.red, use.color.green, use.color.blue, use.color.alpha, use.count])
    }
  }

  private func id(of stroke: StrokeFacts) throws -> Int64 {
    if let id = strokeIDs[stroke.fingerprint] { return id }
    if strokeIDs.count >= Self.cacheLimit { strokeIDs.removeAll(keepingCapacity: true) }
    let id: Int64
    if let existing = try db.fetchOne("SELECT id FROM stroke WHERE fingerprint = ?", [stroke.fingerprint], { $0.int64(0) }) {
      id = existing
    } else {
      let bounds = stroke.bounds
      try db.execute(
        """
        INSERT INTO stroke(fingerprint, uuid, hidden, ink, color_r, color_g, color_b, color_a, bounds_x, bounds_y,
          bounds_width, bounds_height, point_count, created_s)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
          stroke.fingerprint, stroke.uuid, stroke.hidden, stroke.ink, stroke.color.red, stroke.color.green, stroke.color.blue,
          stroke.color.alpha, bounds?.x, bounds?.y, bounds?.width, bounds?.height, stroke.pointCount, stroke.created,
        ])
      id = db.lastInsertRowID
    }
    strokeIDs[stroke.fingerprint] = id
    return id
  }

  /// Forgets cached ids (after a rollback, the rows they name may be gone).
  package func forgetCache() { strokeIDs.removeAll() }
}

package enum DrawingIndexRecords {
  /// The facts of blob `blobID`, or nil when it has not been indexed.
  package static func read(blobID: Int64, in db: Database) throws -> DrawingIndexRow? {
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
      throw StoreError(kind: .corrupt, message: "the drawing index of blob \(blobID) has a malformed stroke list; run `inkling-archive reindex`")
    }
    var facts = row.facts
    facts.strokes = try strokes(ids, in: db)
    return DrawingIndexRow(facts: facts, strokeIDs: ids)
  }

  /// The stroke rows with these ids, in this order.
  static func strokes(_ ids: [Int64], in db: Database) throws -> [StrokeFacts] {
    var result: [StrokeFacts] = []
    result.reserveCapacity(ids.count)
    for id in ids {
      guard
        let stroke = try db.fetchOne(
          """
          SELECT fingerprint, hidden, ink, color_r, color_g, color_b, color_a, bounds_x, bounds_y, bounds_width,
            bounds_height, point_count, created_s, uuid FROM stroke WHERE id = ?
          """, [id],
          { row in
            StrokeFacts(
              fingerprint: row.bytes(0), uuid: row.isNull(13) ? nil : row.bytes(13), hidden: row.int(1) != 0,
              ink: row.string(2),
              color: RGBA(red: row.double(3), green: row.double(4), blue: row.double(5), alpha: row.double(6)),
              bounds: row.isNull(7)
                ? nil : Rect(x: row.double(7), y: row.double(8), width: row.double(9), height: row.double(10)),
              pointCount: row.int(11), created: row.isNull(12) ? nil : row.double(12))
          })
      else {
        throw StoreError(kind: .corrupt, message: "stroke \(id) of the drawing index is missing; run `inkling-archive reindex`")
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
    var ids: [Int64] = []
    var position = 0
    var previousEnd: Int64 = 0
    while position < bytes.count {
      guard let delta = readVarint(bytes, &position), let length = readVarint(bytes, &position),
        length <= 10_000_000, ids.count + Int(length) <= 10_000_000
      else { return nil }
      let start = previousEnd &+ unzigzag(delta)
      for offset in 0..<Int64(length) { ids.append(start &+ offset) }
      previousEnd = start &+ Int64(length)
    }
    return ids
  }

  private static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
  private static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }

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
