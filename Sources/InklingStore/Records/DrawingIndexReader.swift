// Reading a drawing's index rows back as the facts an import wrote, with every stroke's
// fingerprint: what merging another archive carries into this one, so that its drawings are
// not decoded again and DrawingIndexWriter shares stroke rows between a draft's versions
// exactly as it does for an import (by fingerprint).
//
// A draft's saves repeat its earlier strokes, so its drawings list the same stroke rows again
// and again: each row is read once per draft and kept until `forget()`.

import InklingFormats

/// Reads the drawing index of one connection (the archive being merged in).
package final class DrawingIndexReader {
  private let db: Database
  private var strokes: [Int64: (facts: StrokeFacts, fingerprint: StrokeFingerprint)] = [:]

  package init(_ db: Database) {
    self.db = db
  }

  /// Drops the strokes read so far (between drafts: another draft shares none of them).
  package func forget() { strokes.removeAll(keepingCapacity: true) }

  /// The facts of blob `blobID` with one fingerprint per stroke, or nil when it has no index
  /// rows (not indexed, or rows this build cannot trust: then the caller decodes the drawing).
  ///
  /// - Throws: `StoreError` when SQLite fails, or `.corrupt` for a malformed stroke list or a
  ///   stroke row that is missing.
  package func facts(ofBlob blobID: Int64) throws -> DrawingFacts? {
    guard let row = try DrawingIndexRecords.read(blobID: blobID, strokes: false, in: db) else { return nil }
    var facts = row.facts
    facts.strokes.reserveCapacity(row.strokeIDs.count)
    facts.fingerprints.reserveCapacity(row.strokeIDs.count)
    for id in row.strokeIDs {
      let stroke = try stroke(id)
      facts.strokes.append(stroke.facts)
      facts.fingerprints.append(stroke.fingerprint)
    }
    return facts
  }

  private func stroke(_ id: Int64) throws -> (facts: StrokeFacts, fingerprint: StrokeFingerprint) {
    if let known = strokes[id] { return known }
    guard
      let stroke = try db.fetchOne(
        """
        SELECT s.hidden, i.name, i.color_r, i.color_g, i.color_b, i.color_a, s.bounds_x, s.bounds_y, s.bounds_width,
          s.bounds_height, s.point_count, s.created_s, s.uuid, s.fingerprint
        FROM stroke AS s JOIN ink AS i ON i.id = s.ink_id WHERE s.id = ?
        """, [id],
        { row -> (StrokeFacts, [UInt8]) in
          (
            StrokeFacts(
              uuid: row.isNull(12) ? nil : StrokeUUID(row.bytes(12)), hidden: row.int(0) != 0, ink: row.string(1),
              color: RGBA(red: row.double(2), green: row.double(3), blue: row.double(4), alpha: row.double(5)),
              bounds: row.isNull(6)
                ? nil : Rect(x: row.double(6), y: row.double(7), width: row.double(8), height: row.double(9)),
              pointCount: row.int(10), created: row.isNull(11) ? nil : row.double(11)),
            row.bytes(13)
          )
        })
    else {
      throw StoreError(kind: .corrupt, message: "stroke \(id) of the drawing index is missing")
    }
    guard stroke.1.count == 16 else {
      throw StoreError(kind: .corrupt, message: "stroke \(id) of the drawing index has a malformed fingerprint")
    }
    let entry = (facts: stroke.0, fingerprint: StrokeFingerprint(prefixOf: stroke.1))
    strokes[id] = entry
    return entry
  }
}
