// `stats`: what the archive holds and what it costs, by kind of storage.

import FoundationEssentials
import InklingStore

/// What `stats` reports.
public struct ArchiveStatistics: Sendable, Equatable {
  public var drafts = 0
  public var versions = 0
  /// Bytes of the `.inkling` files imported (each version counted once).
  public var fileBytes: Int64 = 0
  /// Distinct drawings, and their decoded bytes.
  public var drawings = 0
  public var drawingBytes: Int64 = 0
  /// Stored bytes of drawings kept whole (zstd or raw) and as deltas of another drawing.
  public var fullBytes: Int64 = 0
  public var deltaBytes: Int64 = 0
  public var deltaCount = 0
  public var longestDeltaChain = 0
  /// Envelopes (what of each file is not the drawing), stored once per distinct one.
  public var envelopeBytes: Int64 = 0
  /// Pages used by the drawing index (drawing, stroke and ink tables and their indexes).
  public var indexBytes: Int64 = 0
  /// Pages used by cached thumbnails.
  public var thumbnailBytes: Int64 = 0
  /// The archive file's size (the main file; the WAL is transient).
  public var archiveFileBytes: Int64 = 0

  /// Archive size without the thumbnail cache, over the bytes of the files imported.
  public var ratio: Double {
    fileBytes > 0 ? Double(archiveFileBytes - thumbnailBytes) / Double(fileBytes) : 0
  }
}

extension Archive {
  public func statistics() throws(ArchiveError) -> ArchiveStatistics {
    try storeCall {
      var stats = ArchiveStatistics()
      (stats.drafts, stats.versions) = try StatisticsQueries.draftsAndVersions(in: database)
      stats.fileBytes = try StatisticsQueries.importedFileBytes(in: database)
      let blobs = try BlobStore(database).statistics()
      stats.drawings = Int(blobs.count)
      stats.drawingBytes = blobs.decodedBytes
      stats.fullBytes = blobs.fullBytes + blobs.rawBytes
      stats.deltaBytes = blobs.deltaBytes
      stats.deltaCount = Int(blobs.deltas)
      stats.longestDeltaChain = Int(blobs.maxDepth)
      stats.envelopeBytes = try StatisticsQueries.envelopeBytes(in: database)
      let pages = StatisticsQueries.pageBytesByTable(in: database)
      stats.indexBytes = ["drawing", "stroke", "ink", "drawing_ink"].reduce(0) { $0 + (pages[$1] ?? 0) }
      stats.thumbnailBytes = pages.filter { $0.key.hasPrefix("thumbnail") }.values.reduce(0, +)
      stats.archiveFileBytes = try database.fileBytes()
      return stats
    }
  }
}
