// Envelope rows: the part of each `.inkling` file that is not the drawing, stored once per
// distinct template (see migrations/0001_archive.sql).

import InklingFormats

extension EnvelopeTemplate {
  /// The identity of a template row: SHA-256 over its spelling, offset and bytes.
  package var sha256: [UInt8] {
    var hasher = SHA256Hasher()
    var header = [UInt8(spelling.rawValue)]
    withUnsafeBytes(of: Int64(drawingOffset).littleEndian) { header.append(contentsOf: $0) }
    header.withUnsafeBytes { hasher.update($0) }
    text.withUnsafeBytes { hasher.update($0) }
    if let verbatimBase64 { verbatimBase64.withUnsafeBytes { hasher.update($0) } }
    return hasher.finalize()
  }
}

package enum EnvelopeRecords {
  /// The id of the row holding `template`, inserting it when new.
  package static func id(of template: EnvelopeTemplate, in db: Database) throws -> Int64 {
    let sha256 = template.sha256
    try db.execute(
      """
      INSERT INTO envelope(sha256, text, drawing_offset, base64_style, base64_text)
      VALUES (?, ?, ?, ?, ?) ON CONFLICT(sha256) DO NOTHING
      """, [sha256, template.text, template.drawingOffset, Int(template.spelling.rawValue), template.verbatimBase64])
    guard let id = try db.fetchOne("SELECT id FROM envelope WHERE sha256 = ?", [sha256], { $0.int64(0) }) else {
      throw StoreError(
        kind: .corrupt, message: "envelope \(hexString(sha256).prefix(12)) vanished right after it was stored")
    }
    return id
  }

  /// The template stored in row `id`.
  package static func template(_ id: Int64, in db: Database) throws -> EnvelopeTemplate {
    let template = try db.fetchOne(
      "SELECT text, drawing_offset, base64_style, base64_text FROM envelope WHERE id = ?", [id]
    ) { row -> EnvelopeTemplate? in
      guard let spelling = EnvelopeTemplate.Base64Spelling(rawValue: row.int(2)) else { return nil }
      let text = row.bytes(0)
      let offset = row.int(1)
      guard (0...text.count).contains(offset) else { return nil }
      return EnvelopeTemplate(
        text: text, drawingOffset: offset, spelling: spelling,
        verbatimBase64: row.isNull(3) ? nil : row.bytes(3))
    }
    guard let template, let template else {
      throw StoreError(kind: .corrupt, message: "envelope \(id) is missing or malformed")
    }
    return template
  }

  /// Deletes the envelopes no version uses; returns how many.
  package static func removeUnused(in db: Database) throws -> Int {
    try db.execute("DELETE FROM envelope WHERE id NOT IN (SELECT envelope_id FROM version)")
    return db.changes
  }
}
