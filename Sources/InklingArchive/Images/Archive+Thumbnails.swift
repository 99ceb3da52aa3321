// A version's thumbnail behind one door of three calls, which every user goes through (the
// `thumbnail` command, the server's ThumbnailService, contact sheets, a warm-up pass):
//   1. `lookUpThumbnail(of:size:)`: which thumbnail it is. The version (by a draft's name and a
//      selector, or by its permanent id), its drawing's content hash from the drawing index
//      (decoded, for a drawing not indexed yet), and the cache key made of them
//      (ThumbnailCache.swift), whose hex is the thumbnail's tag. No pixels are read.
//   2. `readThumbnail(_:)`: the cached PNG, nil on a miss. It only reads, so it works on an
//      archive opened read-only: a caller asks this first and needs a writer only on a miss.
//   3. `renderThumbnails(_:workers:)`: draws them (each key once, on several threads when
//      asked), stores them in one transaction when this connection can write (a failed store
//      is not an error: the cache is only a cache) and returns them.
// Between the calls a caller may answer from what it knows: a server answers "not modified"
// from the tag alone, and queues a miss's render instead of drawing it on the request's thread.
//
// A thumbnail looked up by a draft's name comes with the version's text chunks (PNGText):
// draft, number, save time, file. One looked up by id is the cached PNG as stored, whose bytes
// depend only on what the tag does, never on the version's number (which an older save
// imported later shifts), so that a URL by id may be cached by a browser for good.
//
// The cache's table and its SQL are InklingStore's ThumbnailRecords.

import FoundationEssentials
import InklingFormats
import InklingRendering
import InklingStore

/// One version's thumbnail at one size, as `Archive.lookUpThumbnail(of:size:)` found it.
///
/// ```swift
/// let thumbnail = try archive.lookUpThumbnail(of: .draft("Cat", .latest), size: 256)
/// let png = try archive.readThumbnail(thumbnail) ?? archive.renderThumbnails([thumbnail])[0]
/// ```
public struct Thumbnail: Sendable {
  /// Which version a thumbnail shows.
  public enum Subject: Sendable, Equatable {
    /// Version `selector` of the draft called `name`, as the command line names it: its PNG
    /// carries the version's text chunks.
    case draft(String, VersionSelector)
    /// The version with this permanent id, as the web pages' URLs name it: its PNG is the
    /// cached one as stored, the same bytes for every version that looks the same.
    case version(VersionID)
  }

  let job: ThumbnailJob
  /// The version shown, as `history` tells it, when it was looked up by a draft's name; nil
  /// when it was looked up by id (its PNG then has no per-version text).
  public let version: VersionInfo?

  /// The side of the square, in pixels.
  public var size: Int { job.size }

  /// The hex SHA-256 of everything the pixels depend on (ThumbnailCache.swift): equal for
  /// equal pictures, whatever the version or draft, so a fit HTTP entity tag.
  public var tag: String { hexString(job.key) }

  /// Why the drawing does not decode, when it does not: the thumbnail is then its background
  /// with a placeholder marker (a grey crossed-out frame), so that grids stay whole.
  public var unreadable: String? { job.contentHash == nil ? job.problem ?? "the drawing does not decode" : nil }

  /// `png` as this thumbnail is returned: with the version's text chunks when it has a
  /// version; nil when `png` has no IHDR chunk to put them after (a damaged cache row).
  func withText(_ png: [UInt8]) -> [UInt8]? {
    guard let version else { return png }
    return PNGText.inserting(PictureRenderer.text(of: version), into: png)
  }
}

extension Picture {
  /// The picture of `thumbnail` whose bytes are `png` (as `readThumbnail` or
  /// `renderThumbnails` returned them); nil for a thumbnail looked up by id, which names no
  /// numbered version.
  public init?(_ thumbnail: Thumbnail, png: [UInt8]) {
    guard let version = thumbnail.version else { return nil }
    self.init(
      bytes: png, width: thumbnail.size, height: thumbnail.size, version: version, unreadable: thumbnail.unreadable)
  }
}

extension Archive {
  // MARK: - The door

  /// Which thumbnail `subject` has at `size` pixels: its version, its tag, what to draw.
  ///
  /// - Throws: `ArchiveError.invalidArgument(.thumbnailSize)` when `size` is not one of
  ///   `ThumbnailCache.standardSizes`; `.noSuchDraft`, `.noSuchVersion`, `.noSuchLabel`,
  ///   `.noVersionSavedBy` or `.noVersionWithID` when there is no such version.
  public func lookUpThumbnail(of subject: Thumbnail.Subject, size: Int = ThumbnailCache.defaultSize)
    throws(ArchiveError) -> Thumbnail
  {
    try PictureSpec.thumbnail(size: size).check()
    switch subject {
    case .version(let id):
      let row = try VersionLookup(self).row(id: id)
      return Thumbnail(job: try thumbnailJob(blobID: row.blobID, background: row.background, size: size), version: nil)
    case .draft(let name, let selector):
      // One read transaction for the look-ups rather than one each: each transaction of its
      // own takes and drops the file's locks, and a cached thumbnail is mostly these.
      return try inSnapshot { () throws -> Thumbnail in
        let (row, info) = try VersionLookup(self).version(draft: name, selector)
        return Thumbnail(
          job: try thumbnailJob(blobID: row.blobID, background: row.background, size: size), version: info)
      }
    }
  }

  /// The thumbnail's PNG when the cache has it, else nil (`renderThumbnails` draws it).
  ///
  /// A row is data like any other (an archive from elsewhere can hold a PNG of any size under
  /// any key), so a PNG that is not the square the thumbnail is, or has no IHDR chunk to put
  /// the text after, is a miss: drawn again and stored over it.
  /// - Throws: `ArchiveError` when the archive cannot be read.
  public func readThumbnail(_ thumbnail: Thumbnail) throws(ArchiveError) -> [UInt8]? {
    try cachedPNG(thumbnail.job).flatMap(thumbnail.withText)
  }

  /// Draws `thumbnails` (each distinct tag once) on up to `workers` threads, each with a
  /// read-only connection of its own, stores them in the cache in one transaction when this
  /// archive was opened read-write, and returns their PNGs in order.
  ///
  /// A store that fails (another process holds the write lock for more than a quarter of a
  /// second) only means they are drawn again next time, so it is not reported.
  /// - Throws: `ArchiveError` when the archive cannot be read.
  @discardableResult
  public func renderThumbnails(_ thumbnails: [Thumbnail], workers: Int = 1) throws(ArchiveError) -> [[UInt8]] {
    var distinct: [ThumbnailJob] = []
    var index: [[UInt8]: Int] = [:]
    for thumbnail in thumbnails where index[thumbnail.job.key] == nil {
      index[thumbnail.job.key] = distinct.count
      distinct.append(thumbnail.job)
    }
    let pngs = try drawThumbnails(distinct, workers: workers)
    storeRows(Array(zip(distinct, pngs)))
    return thumbnails.map { thumbnail in
      guard let index = index[thumbnail.job.key], let png = thumbnail.withText(pngs[index]) else {
        preconditionFailure("every thumbnail's key is drawn, and PNG.encode writes its IHDR chunk first")
      }
      return png
    }
  }

  /// Stores thumbnails looked up by id and drawn on other connections (`png` as
  /// `renderThumbnails` returned it), as `renderThumbnails` stores its own: for a server whose
  /// readers must never take the write lock, and whose one writer stores what they drew.
  package func storeThumbnails(_ drawn: [(thumbnail: Thumbnail, png: [UInt8])]) {
    storeRows(
      drawn.map { thumbnail, png in
        // A PNG with text chunks would be served as every other version's that shares its row.
        precondition(thumbnail.version == nil, "only thumbnails by id are stored as they were returned")
        return (thumbnail.job, png)
      })
  }

  // MARK: - Look-ups without the door's version look-up

  /// The thumbnail of `version`, a draft's newest version as a contact sheet lists it, with
  /// no text: for callers that look versions up in bulk.
  func thumbnail(of version: NewestVersion, size: Int) throws(ArchiveError) -> Thumbnail {
    guard let status = version.status else {
      return Thumbnail(
        job: try thumbnailJob(blobID: version.blobID, background: version.background, size: size), version: nil)
    }
    return Thumbnail(
      job: job(
        contentHash: status == .decoded ? version.contentHash : nil, background: version.background, size: size,
        blobID: version.blobID),
      version: nil)
  }

  /// The job for one drawing blob at one size: its key from the drawing index, or, for a
  /// blob that is not indexed yet, from decoding it.
  private func thumbnailJob(blobID: Int64, background: RGBA, size: Int) throws(ArchiveError) -> ThumbnailJob {
    let indexed = try storeCall { try DrawingIndexRecords.outline(blobID: blobID, in: database) }
    let contentHash: [UInt8]?
    var problem: String?
    if let indexed {
      contentHash = indexed.status == .decoded ? indexed.contentHash : nil
      problem = indexed.problem
    } else {
      let bytes = try storeCall { try BlobStore(database).bytes(ofBlob: blobID, limit: DrawingLimits.default.maxBytes) }
      switch PictureRenderer.decode(bytes) {
      case .success(let drawing): contentHash = drawing.contentFingerprint.bytes
      case .failure(let undecodable):
        contentHash = nil
        problem = undecodable.reason
      }
    }
    var made = job(contentHash: contentHash, background: background, size: size, blobID: blobID)
    made.problem = problem
    return made
  }

  private func job(contentHash: [UInt8]?, background: RGBA, size: Int, blobID: Int64) -> ThumbnailJob {
    let rendererVersion = pictureRenderer.version
    return ThumbnailJob(
      key: ThumbnailCache.key(
        contentHash: contentHash, background: background, pixelSize: size, rendererVersion: rendererVersion),
      contentHash: contentHash, background: background, size: size, rendererVersion: rendererVersion, blobID: blobID)
  }

  // MARK: - The cache's rows

  /// The cached PNG of `job`, if any, and only if it is the square `job.size` pixels wide
  /// that the job draws.
  private func cachedPNG(_ job: ThumbnailJob) throws(ArchiveError) -> [UInt8]? {
    guard let png = try storeCall({ try ThumbnailRecords.png(key: job.key, in: database) }),
      let size = PNG.size(of: png), size.width == job.size, size.height == job.size
    else { return nil }
    return png
  }

  /// Stores drawn thumbnails in one transaction when the archive is writable.
  private func storeRows(_ items: [(ThumbnailJob, [UInt8])]) {
    guard mode == .readWrite, !items.isEmpty else { return }
    let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
    // Waiting out an import's write lock for the usual 5 s is not worth it for a cache row.
    try? database.setBusyTimeout(milliseconds: 250)
    defer { try? database.setBusyTimeout(milliseconds: ArchiveDatabase.busyTimeout) }
    _ = try? database.transaction {
      for (job, png) in items {
        try ThumbnailRecords.insert(
          NewThumbnail(
            key: job.key, contentHash: job.contentHash, background: job.background, pixelSize: job.size,
            rendererVersion: job.rendererVersion, png: png, createdMilliseconds: now),
          in: database)
      }
    }
  }
}

/// One thumbnail to draw: its key and what to draw.
struct ThumbnailJob: Sendable {
  var key: [UInt8]
  /// The drawing's content hash; nil when the drawing does not decode (a placeholder).
  var contentHash: [UInt8]?
  var background: RGBA
  var size: Int
  /// The version of the renderer that draws it, in its key and its cache row.
  var rendererVersion: Int
  var blobID: Int64
  /// Why the drawing does not decode, when the index knows.
  var problem: String? = nil
}
