// Reading a drawing's index rows back as the facts an import wrote, with every stroke's
// fingerprint: what merging another archive carries into this one, so that its drawings are
// not decoded again and DrawingIndexWriter shares stroke rows between a draft's versions
// exactly as it does for an import (by fingerprint).
//
// A draft's saves repeat its earlier strokes, so its drawings list the same stroke rows again
// and again: each row is read once per draft and kept until `forget()`, and rows are read by
// runs of ids (one statement for many strokes).

import InklingFormats

/// Reads the drawing index of one connection (the archive being merged in).
package final class DrawingIndexReader {
  private let db: Database
  private var strokes: [Int64: (facts: StrokeFacts, fingerprint: StrokeFingerprint)] = [:]
  /// Ink names and colours by id: an archive has a few dozen.
  private var inks: [Int64: (name: String, color: RGBA)] = [:]
  /// The `data_version` the inks were read at: ink rows are removed only all together (a
  /// reindex), which another connection commits, so they hold while it stays the same.
  private var inksDataVersion: Int64?

  package init(_ db: Database) {
    self.db = db
  }

  /// Drops the strokes read so far, and the inks if another connection has committed since
  /// they were read (between drafts: another draft shares none of the strokes, and its read
  /// may see another snapshot). Call it in the read transaction of the next draft.
  package func forget() {
    strokes.removeAll(keepingCapacity: true)
    let dataVersion = try? db.dataVersion()
    if dataVersion == nil || dataVersion != inksDataVersion {
      inks.removeAll(keepingCapacity: true)
      inksDataVersion = dataVersion
    }
  }

  /// The facts of blob `blobID` with one fingerprint per stroke, or nil when it has no index
  /// rows (not indexed, or rows this build cannot trust: then the caller decodes the drawing).
  ///
  /// - Throws: `StoreError` when SQLite fails, or `.damagedIndex` for a malformed stroke list or a
  ///   stroke row that is missing.
  package func facts(ofBlob blobID: Int64) throws -> DrawingFacts? {
    guard let row = try DrawingIndexRecords.read(blobID: blobID, strokes: false, in: db) else { return nil }
    try load(row.strokeIDs)
    var facts = row.facts
    facts.strokes.reserveCapacity(row.strokeIDs.count)
    facts.fingerprints.reserveCapacity(row.strokeIDs.count)
    for id in row.strokeIDs {
      guard let stroke = strokes[id] else {
        throw StoreError(kind: .damagedIndex, message: "stroke \(id) of the drawing index is missing")
      }
      facts.strokes.append(stroke.facts)
      facts.fingerprints.append(stroke.fingerprint)
    }
    return facts
  }

  /// Reads the strokes of `ids` not read yet: one query per run of consecutive ids, as a
  /// drawing's list holds them (a save's new strokes take consecutive ids), and each ink once.
  private func load(_ ids: [Int64]) throws {
    let missing = Set(ids.filter { strokes[$0] == nil }).sorted()
    guard !missing.isEmpty else { return }
    let statement = try db.statement(
      """
      SELECT id, ink_id, hidden, bounds_x, bounds_y, bounds_width, bounds_height, point_count, created_s, uuid,
        fingerprint
      FROM stroke WHERE id BETWEEN ? AND ?
      """)
    var start = 0
    while start < missing.count {
      var end = start
      while end + 1 < missing.count, missing[end + 1] == missing[end] &+ 1 { end += 1 }
      var rows: [(id: Int64, ink: Int64, facts: StrokeFacts, fingerprint: [UInt8])] = []
      try statement.forEach([missing[start], missing[end]]) { row in
        let placeholder = RGBA(red: 0, green: 0, blue: 0, alpha: 0)
        rows.append(
          (
            row.int64(0), row.int64(1),
            StrokeFacts(
              uuid: row.isNull(9) ? nil : StrokeUUID(row.bytes(9)), hidden: row.int(2) != 0, ink: "",
              color: placeholder,
              bounds: row.isNull(3)
                ? nil : Rect(x: row.double(3), y: row.double(4), width: row.double(5), height: row.double(6)),
              pointCount: row.int(7), created: row.isNull(8) ? nil : row.double(8)),
            row.bytes(10)
          ))
      }
      for var row in rows {
        guard row.fingerprint.count == 16 else {
          throw StoreError(
            kind: .damagedIndex, message: "stroke \(row.id) of the drawing index has a malformed fingerprint")
        }
        let ink = try self.ink(row.ink, ofStroke: row.id)
        row.facts.ink = ink.name
        row.facts.color = ink.color
        strokes[row.id] = (row.facts, StrokeFingerprint(prefixOf: row.fingerprint))
      }
      start = end + 1
    }
  }

  /// Ink `id`'s name and colour, read once.
  private func ink(_ id: Int64, ofStroke stroke: Int64) throws -> (name: String, color: RGBA) {
    if let known = inks[id] { return known }
    guard
      let ink = try db.fetchOne(
        "SELECT name, color_r, color_g, color_b, color_a FROM ink WHERE id = ?", [id],
        { row in
          (row.string(0), RGBA(red: row.double(1), green: row.double(2), blue: row.double(3), alpha: row.double(4)))
        })
    else {
      throw StoreError(kind: .damagedIndex, message: "stroke \(stroke) of the drawing index has no ink \(id)")
    }
    inks[id] = ink
    return ink
  }
}
