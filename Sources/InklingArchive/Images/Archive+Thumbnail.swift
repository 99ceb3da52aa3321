// `thumbnail`, read through the cache (ThumbnailCache.swift), and `warmThumbnails`, the pass
// that renders the newest version of many drafts on several threads (Archive+Render.swift
// draws them).
//
// A thumbnail read is: pick the version (VersionLookup), read its drawing's index row (status
// and content hash), compute the key, one indexed look-up; on a hit, splice in the text
// chunks. On a miss the drawing is read from its blob, decoded, rendered, encoded, stored
// (when the archive is writable; a failed store is not an error, the cache is only a cache)
// and returned.

import FoundationEssentials
import InklingFormats
import InklingRendering
import InklingStore

/// One thumbnail to produce: its key and what to render on a miss.
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

/// What `warmThumbnails` did.
public struct ThumbnailWarmSummary: Sendable, Equatable {
  /// Thumbnails rendered and stored.
  public var rendered = 0
  /// Drafts whose thumbnail was cached already (or shared with another draft of the pass).
  public var alreadyCached = 0
  /// Wall-clock seconds.
  public var seconds = 0.0
}

extension Archive {
  /// A version's draft-list thumbnail as PNG bytes: the drawing aspect-fit in a `size` ×
  /// `size` square over its background, from the cache when it was rendered before.
  ///
  /// A drawing that does not decode gives its background with a placeholder marker (a grey
  /// crossed-out frame), so that grids of thumbnails stay whole; `show` tells why. The PNG
  /// carries text chunks: Software, Title (the draft), Inkling Version, Creation Time (the
  /// version's save time, ISO 8601 UTC) and Inkling File (the original file name).
  ///
  /// ```swift
  /// let png = try archive.thumbnail(draft: "Cat", version: .number(2), size: 512)
  /// ```
  /// - Throws: `ArchiveError` of kind `.invalidRequest` when `size` is not one of
  ///   `ThumbnailCache.standardSizes`, `.failed` when there is no such draft or version.
  public func thumbnail(
    draft name: String, version selector: VersionSelector = .latest, size: Int = ThumbnailCache.defaultSize
  ) throws(ArchiveError) -> [UInt8] {
    try cachedOrRenderedThumbnail(draft: name, version: selector, size: size).picture.bytes
  }

  /// The thumbnail with the version it shows and whether its drawing decoded.
  public func thumbnailPicture(
    draft name: String, version selector: VersionSelector = .latest, size: Int = ThumbnailCache.defaultSize
  ) throws(ArchiveError) -> Picture {
    try cachedOrRenderedThumbnail(draft: name, version: selector, size: size).picture
  }

  /// The thumbnail when it is cached, else nil. It only reads, so it works on an archive
  /// opened read-only: a one-shot command asks this first and opens the archive for writing
  /// only on a miss, to store what it renders.
  public func cachedThumbnailPicture(
    draft name: String, version selector: VersionSelector = .latest, size: Int = ThumbnailCache.defaultSize
  ) throws(ArchiveError) -> Picture? {
    let found = try lookUpThumbnail(draft: name, version: selector, size: size)
    return found.cachedPNG.flatMap { found.picture(of: $0) }
  }

  /// `thumbnail`, also telling whether it came from the cache.
  func cachedOrRenderedThumbnail(draft name: String, version selector: VersionSelector, size: Int)
    throws(ArchiveError) -> (picture: Picture, cached: Bool)
  {
    let found = try lookUpThumbnail(draft: name, version: selector, size: size)
    if let png = found.cachedPNG, let picture = found.picture(of: png) {
      return (picture, true)
    }
    let png = try storeCall { try pictureRenderer.png(of: found.job, blobs: BlobStore(database)) }
    storeThumbnails([(found.job, png)])
    guard let picture = found.picture(of: png) else {
      preconditionFailure("PNG.encode wrote no IHDR chunk first")  // libpng always does
    }
    return (picture, false)
  }

  /// The version a thumbnail is of, what to render, and its cached PNG if there is one.
  private struct ThumbnailLookUp {
    var info: VersionInfo
    var job: ThumbnailJob
    var cachedPNG: [UInt8]?

    /// `png` with the version's text chunks spliced in; nil when it has no IHDR chunk to
    /// put them after (a damaged cache row, rendered again).
    func picture(of png: [UInt8]) -> Picture? {
      guard let text = PNGText.inserting(PictureRenderer.text(of: info), into: png) else { return nil }
      return Picture(
        bytes: text, width: job.size, height: job.size, version: info,
        unreadable: job.contentHash == nil ? job.problem ?? "the drawing does not decode" : nil)
    }
  }

  private func lookUpThumbnail(draft name: String, version selector: VersionSelector, size: Int)
    throws(ArchiveError) -> ThumbnailLookUp
  {
    try PictureSpec.thumbnail(size: size).check()
    // One read transaction for the look-ups rather than one each: a cached thumbnail is
    // mostly these, and each transaction of its own takes and drops the file's locks.
    return try inSnapshot { () throws -> ThumbnailLookUp in
      let (row, info) = try VersionLookup(self).version(draft: name, selector)
      let job = try thumbnailJob(blobID: row.blobID, background: row.background, size: size)
      return ThumbnailLookUp(info: info, job: job, cachedPNG: try cachedThumbnail(job))
    }
  }

  /// Renders and stores the thumbnails of the newest version of `drafts` (every draft when
  /// nil) that are not cached yet, on `workers` threads. For an import that wants thumbnails
  /// ready when it ends (see docs/thumbnails.md): call it after `importFiles` with the names
  /// of the drafts imported.
  ///
  /// The drafts are read, rendered and stored a page at a time (`warmPageSize`), so memory
  /// holds one page's thumbnails, whatever the archive's size.
  /// - Throws: `ArchiveError` when the archive is read-only or cannot be read; names that
  ///   are not drafts are skipped.
  @discardableResult
  public func warmThumbnails(
    drafts names: [String]? = nil, size: Int = ThumbnailCache.defaultSize, workers: Int = 2
  ) throws(ArchiveError) -> ThumbnailWarmSummary {
    try warmThumbnails(drafts: names, size: size, workers: workers, pageSize: Self.warmPageSize)
  }

  /// The drafts `warmThumbnails` reads, renders and stores at a time: enough to keep its
  /// threads busy and its transactions few, few enough that their PNGs are small beside the
  /// process.
  static let warmPageSize = 256

  /// `warmThumbnails` with pages of `pageSize` drafts.
  func warmThumbnails(drafts names: [String]?, size: Int, workers: Int, pageSize: Int) throws(ArchiveError)
    -> ThumbnailWarmSummary
  {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    try PictureSpec.thumbnail(size: size).check()
    let started = Date()
    var summary = ThumbnailWarmSummary()
    var pages = WarmPages(names: names, size: pageSize)
    while let page = try pages.next(self) {
      // A key met earlier in the pass was stored with its page, and is found cached here.
      var seen = Set<[UInt8]>()
      var missing: [ThumbnailJob] = []
      for version in page {
        let job = try thumbnailJob(version, size: size)
        let cached = try storeCall { try ThumbnailRecords.contains(key: job.key, in: database) }
        if !seen.insert(job.key).inserted || cached {
          summary.alreadyCached += 1
        } else {
          missing.append(job)
        }
      }
      let pngs = try renderThumbnails(missing, workers: workers)
      storeThumbnails(Array(zip(missing, pngs)))
      summary.rendered += missing.count
    }
    summary.seconds = Date().timeIntervalSince(started)
    return summary
  }

  // MARK: - Jobs

  /// The job for one drawing blob at one size: its key from the drawing index, or, for a
  /// blob that is not indexed yet, from decoding it.
  func thumbnailJob(blobID: Int64, background: RGBA, size: Int) throws(ArchiveError) -> ThumbnailJob {
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

  func thumbnailJob(_ version: NewestVersion, size: Int) throws(ArchiveError) -> ThumbnailJob {
    guard let status = version.status else {
      return try thumbnailJob(blobID: version.blobID, background: version.background, size: size)
    }
    return job(
      contentHash: status == .decoded ? version.contentHash : nil, background: version.background, size: size,
      blobID: version.blobID)
  }

  private func job(contentHash: [UInt8]?, background: RGBA, size: Int, blobID: Int64) -> ThumbnailJob {
    let rendererVersion = pictureRenderer.version
    return ThumbnailJob(
      key: ThumbnailCache.key(
        contentHash: contentHash, background: background, pixelSize: size, rendererVersion: rendererVersion),
      contentHash: contentHash, background: background, size: size, rendererVersion: rendererVersion, blobID: blobID)
  }
}

/// The drafts `warmThumbnails` warms, a page at a time: the names given, in order, each
/// looked up through the name's index; or every live draft, by id, each page continuing after
/// the last draft of the one before.
private struct WarmPages {
  let names: [String]?
  let size: Int
  private var nextName = 0
  /// Where the next page of every draft begins; nil after a page shorter than `size`, the last.
  private var afterDraftID: Int64? = 0

  init(names: [String]?, size: Int) {
    self.names = names
    self.size = max(1, size)
  }

  /// The newest versions of the next page's drafts (names that are not drafts left out); nil
  /// after the last page.
  mutating func next(_ archive: Archive) throws(ArchiveError) -> [NewestVersion]? {
    let database = archive.database
    guard let names else {
      guard let after = afterDraftID else { return nil }
      let page = try archive.storeCall {
        try VersionRecords.newestVersions(afterDraftID: after, limit: size, in: database)
      }
      afterDraftID = page.count < size ? nil : page.last?.draftID
      return page.isEmpty ? nil : page
    }
    guard nextName < names.count else { return nil }
    let chosen = names[nextName..<min(names.count, nextName + size)]
    nextName = chosen.endIndex
    return try archive.storeCall {
      try database.readTransaction {
        try chosen.compactMap { name in
          try VersionRecords.newestVersion(ofDraftNamed: DraftFileName.canonicalName(name), in: database)
        }
      }
    }
  }
}
