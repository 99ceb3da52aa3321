// The thumbnail cache: what a thumbnail's key is made of, and the cache-wide operations that
// `stats` and `gc` call. The table and its invariants are in migrations/0004_thumbnails.sql;
// the SQL is in InklingStore's ThumbnailRecords; a thumbnail is looked up, read and rendered
// through Archive+Thumbnails.swift.
//
// A thumbnail is determined by four things, and its key is the SHA-256 of exactly those:
//  1. the drawing's visible content: drawing.content_hash (the reader's content fingerprint),
//     or "undecodable" for a drawing that does not decode (all such drawings look the same:
//     the background with a placeholder marker, see ThumbnailPlaceholder);
//  2. the background colour, as the four IEEE-754 bit patterns stored for the version;
//  3. the pixel size;
//  4. the renderer's version (PictureRenderer), so that a renderer whose pixels change never
//     reads old rows.
// Draft names, version numbers and dates are not in it: they go into PNG text chunks when a
// thumbnail is read (PNGText), so versions of different drafts with the same drawing and
// colour share one row.

import FoundationEssentials
import InklingFormats
import InklingRendering
import InklingStore

/// The archive's cache of rendered thumbnails.
///
/// ```swift
/// let (count, bytes) = try ThumbnailCache.size(in: archive)   // for `stats`
/// let removed = try ThumbnailCache.removeUnneeded(in: archive) // for `gc`
/// ```
public enum ThumbnailCache {
  /// The sizes `Archive.lookUpThumbnail` accepts, as the freedesktop thumbnail sizes (normal, large,
  /// x-large, xx-large).
  public static let standardSizes = [128, 256, 512, 1024]
  /// The size `Archive.lookUpThumbnail` uses when none is given.
  public static let defaultSize = 256

  /// The number of cached thumbnails and the bytes of their PNGs.
  ///
  /// - Throws: `ArchiveError` when the archive cannot be read.
  public static func size(in archive: Archive) throws(ArchiveError) -> (count: Int, bytes: Int64) {
    try archive.storeCall { try ThumbnailRecords.size(in: archive.database) }
  }

  /// Deletes the cached thumbnails that no version needs any more: drawn by an older (or
  /// newer) renderer, or of a drawing content or background that no version has since
  /// drafts or versions were removed. Returns how many were deleted. Safe at any time: a
  /// thumbnail deleted by mistake is rendered again on its next use.
  ///
  /// Thumbnails of drawings that are not indexed (archives made before the drawing index,
  /// not yet `reindex`ed) count as unneeded: `gc` cannot tell their content without decoding.
  /// - Throws: `ArchiveError` when the archive is read-only or cannot be written.
  public static func removeUnneeded(in archive: Archive) throws(ArchiveError) -> Int {
    guard archive.mode == .readWrite else { throw .openedReadOnly(path: archive.path) }
    return try archive.storeCall {
      try ThumbnailRecords.removeUnneeded(rendererVersion: archive.pictureRenderer.version, in: archive.database)
    }
  }

  /// The cache key of a thumbnail (see the top of this file).
  static func key(contentHash: [UInt8]?, background: RGBA, pixelSize: Int, rendererVersion: Int) -> [UInt8] {
    var bytes = Array("inkling-thumbnail\0".utf8)
    if let contentHash {
      bytes.append(1)
      bytes.append(UInt8(truncatingIfNeeded: contentHash.count))
      bytes += contentHash
    } else {
      bytes.append(0)
    }
    func word(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    for component in [background.red, background.green, background.blue, background.alpha] {
      word(component.bitPattern)
    }
    word(UInt64(bitPattern: Int64(pixelSize)))
    word(UInt64(bitPattern: Int64(rendererVersion)))
    return SHA256.hash(bytes)
  }
}
