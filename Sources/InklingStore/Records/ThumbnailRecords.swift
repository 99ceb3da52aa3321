// The thumbnail cache table (migrations/0004_thumbnails.sql): one indexed SELECT per read,
// one INSERT per rendered thumbnail, and the queries behind `stats` and `gc`.
//
// The rows are a cache: the key is computed by the caller (InklingArchive's ThumbnailKey)
// from everything that determines the pixels, so this file never interprets it.

import InklingFormats

/// A rendered thumbnail to store.
package struct NewThumbnail: Sendable {
  package var key: [UInt8]
  /// drawing.content_hash of what it shows; nil for the placeholder of an undecodable drawing.
  package var contentHash: [UInt8]?
  package var background: RGBA
  package var pixelSize: Int
  package var rendererVersion: Int
  package var png: [UInt8]
  package var createdMilliseconds: Int64

  package init(
    key: [UInt8], contentHash: [UInt8]?, background: RGBA, pixelSize: Int, rendererVersion: Int, png: [UInt8],
    createdMilliseconds: Int64
  ) {
    self.key = key
    self.contentHash = contentHash
    self.background = background
    self.pixelSize = pixelSize
    self.rendererVersion = rendererVersion
    self.png = png
    self.createdMilliseconds = createdMilliseconds
  }
}

package enum ThumbnailRecords {
  /// The PNG stored under `key`, if any: one look-up in the key's unique index.
  package static func png(key: [UInt8], in db: Database) throws -> [UInt8]? {
    try db.fetchOne("SELECT png FROM thumbnail WHERE key = ?", [key]) { $0.bytes(0) }
  }

  /// Whether a row with `key` exists (without reading its PNG).
  package static func contains(key: [UInt8], in db: Database) throws -> Bool {
    try db.fetchOne("SELECT 1 FROM thumbnail WHERE key = ?", [key]) { _ in true } ?? false
  }

  /// Stores a thumbnail; a row already stored under the same key is kept when it holds the
  /// same PNG (same inputs, same renderer: the same pixels), and replaced when it does not
  /// (a row the cache refused to use, `Archive.cachedThumbnail`).
  package static func insert(_ thumbnail: NewThumbnail, in db: Database) throws {
    let b = thumbnail.background
    try db.execute(
      """
      INSERT INTO thumbnail(key, content_hash, background_r, background_g, background_b, background_a,
        pixel_size, renderer_version, png, byte_size, created_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(key) DO UPDATE SET png = excluded.png, byte_size = excluded.byte_size,
        created_ms = excluded.created_ms WHERE png IS NOT excluded.png
      """,
      [
        thumbnail.key, thumbnail.contentHash, b.red, b.green, b.blue, b.alpha, thumbnail.pixelSize,
        thumbnail.rendererVersion, thumbnail.png, thumbnail.png.count, thumbnail.createdMilliseconds,
      ])
  }

  /// Every row drawn by renderer `rendererVersion`, in id order (merging copies them).
  package static func forEach(rendererVersion: Int, in db: Database, _ body: (NewThumbnail) throws -> Void) throws {
    try db.makeStatement(
      """
      SELECT key, content_hash, background_r, background_g, background_b, background_a, pixel_size, png, created_ms
      FROM thumbnail WHERE renderer_version = ? ORDER BY id
      """
    ).forEach([rendererVersion]) { row in
      try body(
        NewThumbnail(
          key: row.bytes(0), contentHash: row.isNull(1) ? nil : row.bytes(1),
          background: RGBA(red: row.double(2), green: row.double(3), blue: row.double(4), alpha: row.double(5)),
          pixelSize: row.int(6), rendererVersion: rendererVersion, png: row.bytes(7), createdMilliseconds: row.int64(8))
      )
    }
  }

  /// The number of rows and the bytes of their PNGs.
  package static func size(in db: Database) throws -> (count: Int, bytes: Int64) {
    try db.fetchOne("SELECT count(*), coalesce(sum(byte_size), 0) FROM thumbnail") { ($0.int(0), $0.int64(1)) }
      ?? (0, 0)
  }

  /// The one definition of a row no version needs (migration 0004, invariant 3), on
  /// `thumbnail`, with the current renderer version as parameter 1: drawn by another renderer,
  /// or showing a content or background that no version has any more. Content rows are tested
  /// against one set of the (content, background) pairs the versions show, built once for the
  /// statement (migration 0010: drawings have no index by content); NULL hashes stay out of
  /// the set (`x NOT IN` a set holding NULL is NULL). A placeholder row (NULL content) is
  /// needed while an undecodable drawing has that background. A CASE, not AND and OR: outside
  /// a WHERE clause (the count `check` reports) SQLite computes both sides of an AND, so the
  /// placeholder's correlated scan of every version would run for every row.
  static let unneeded = """
    CASE
      WHEN thumbnail.renderer_version <> ?1 THEN 1
      WHEN thumbnail.content_hash IS NOT NULL THEN (thumbnail.content_hash, thumbnail.background_r,
        thumbnail.background_g, thumbnail.background_b, thumbnail.background_a) NOT IN (
          SELECT d.content_hash, v.background_r, v.background_g, v.background_b, v.background_a
          FROM drawing d JOIN version v ON v.blob_id = d.blob_id WHERE d.content_hash IS NOT NULL)
      ELSE NOT EXISTS (
        SELECT 1 FROM drawing d JOIN version v ON v.blob_id = d.blob_id
        WHERE d.status <> \(DrawingFacts.Status.decoded.rawValue) AND v.background_r = thumbnail.background_r
          AND v.background_g = thumbnail.background_g AND v.background_b = thumbnail.background_b
          AND v.background_a = thumbnail.background_a)
    END
    """

  /// Deletes the rows no version needs (`unneeded`); returns how many.
  package static func removeUnneeded(rendererVersion: Int, in db: Database) throws -> Int {
    try db.transaction {
      try db.execute("DELETE FROM thumbnail WHERE \(unneeded)", [rendererVersion])
      return db.changes
    }
  }

  /// The number of rows, and of those no version needs (`unneeded`, what `removeUnneeded`
  /// would delete).
  package static func neededCounts(rendererVersion: Int, in db: Database) throws -> (rows: Int, unneeded: Int) {
    try db.fetchOne("SELECT count(*), total(\(unneeded)) FROM thumbnail", [rendererVersion]) {
      ($0.int(0), $0.int(1))
    } ?? (0, 0)
  }

  /// Rows whose PNG is not a PNG or not of its recorded size.
  package static func damaged(in db: Database) throws -> [DamagedThumbnail] {
    try db.fetchAll(
      """
      SELECT id, key, byte_size, length(png), substr(png, 1, 8) = x'89504E470D0A1A0A' FROM thumbnail
      WHERE byte_size <> length(png) OR substr(png, 1, 8) <> x'89504E470D0A1A0A'
      """
    ) {
      DamagedThumbnail(id: $0.int64(0), key: $0.bytes(1), byteSize: $0.int(2), length: $0.int(3), isPNG: $0.int(4) != 0)
    }
  }
}

/// A cached thumbnail row that `check` reports.
package struct DamagedThumbnail: Sendable {
  package var id: Int64
  package var key: [UInt8]
  /// The size the row records, and the PNG's length.
  package var byteSize: Int, length: Int
  /// Whether the data starts with the PNG signature.
  package var isPNG: Bool
}
