// `render`: a version as the app's share image; and the drawing of thumbnails, one job on this
// connection or many on several threads, each with its own read-only connection
// (`renderThumbnails`, Archive+Thumbnails.swift). Every picture is drawn by the archive's
// PictureRenderer.

import FoundationEssentials
import InklingFormats
import InklingRendering
import InklingStore
import Synchronization

/// The file format of a version's share image.
public enum PictureFormat: String, Sendable, CaseIterable {
  /// Pixels, as the app shares them.
  case png
  /// Vectors: one group per stroke, one path per visible piece of it.
  case svg
  /// Vectors on one page the size of the drawing in points.
  case pdf
}

/// A picture of one version, as `render` makes it, or a thumbnail looked up by a draft's name
/// (`init(_:png:)`).
public struct Picture: Sendable, Equatable {
  /// The file's bytes, in `format`.
  public var bytes: [UInt8]
  /// What `bytes` are: PNG unless a vector render was asked for.
  public var format: PictureFormat = .png
  /// The size in pixels (of the PNG; a vector picture's rasterised at its scale).
  public var width: Int
  public var height: Int
  /// The version drawn.
  public var version: VersionInfo
  /// Pixels per point (render only; a thumbnail is fitted to its square).
  public var scale: Double?
  /// Set when the drawing does not decode and the picture shows its background with a
  /// placeholder marker: why, as far as the archive knows.
  public var unreadable: String?
}

extension Archive {
  /// A version as the app's share image: the drawing's bounds grown by 8 pt at `scale`
  /// pixels per point over its background, as PNG with the same text chunks as a thumbnail looked up by a draft's name.
  /// Not cached: exports are large and asked for rarely.
  ///
  /// A drawing that does not decode gives the placeholder thumbnails show (its background
  /// with a crossed-out frame), as every picture of it does, and `Picture.unreadable` says why.
  ///
  /// - Throws: `ArchiveError.invalidArgument` when `scale` is not in 0 < S ≤ 16; `.noSuchDraft`,
  ///   `.noSuchVersion`.
  public func render(draft name: String, version selector: VersionSelector = .latest, scale: Double = 2)
    throws(ArchiveError) -> [UInt8]
  {
    try renderPicture(draft: name, version: selector, scale: scale).bytes
  }

  /// The share image with the version it shows and the scale it was drawn at: at most
  /// `scale`, less when the image would be larger than the renderer's limit
  /// (`RenderGeometry.maxDimension` pixels a side). As `.svg` or `.pdf`, the same page with
  /// the strokes as vectors (`VectorPicture`): the PNG's size, its scale, each stroke's
  /// visible pieces as filled outlines.
  public func renderPicture(
    draft name: String, version selector: VersionSelector = .latest, scale: Double = 2, format: PictureFormat = .png
  ) throws(ArchiveError) -> Picture {
    try PictureSpec.shareImage(scale: scale).check()
    let (row, info, drawing) = try inSnapshot { () throws -> (VersionRow, VersionInfo, [UInt8]) in
      let (row, info) = try VersionLookup(self).version(draft: name, selector)
      return (row, info, try BlobStore(database).bytes(ofBlob: row.blobID, limit: DrawingLimits.default.maxBytes))
    }
    return try renderPicture(row, info: info, scale: scale, drawing: drawing, format: format)
  }

  /// The share image of the version of `row`, described by `info` in its text chunks;
  /// `drawing` is its drawing's bytes when the caller has read them already.
  func renderPicture(
    _ row: VersionRow, info: VersionInfo, scale: Double, drawing bytes: [UInt8]? = nil, format: PictureFormat = .png
  ) throws(ArchiveError) -> Picture {
    let read: [UInt8]
    if let bytes {
      read = bytes
    } else {
      read = try storeCall { try BlobStore(database).bytes(ofBlob: row.blobID, limit: DrawingLimits.default.maxBytes) }
    }
    let drawing: Drawing?
    var unreadable: String?
    switch PictureRenderer.decode(read) {
    case .success(let decoded): drawing = decoded
    case .failure(let undecodable):
      drawing = nil
      unreadable = undecodable.reason
    }
    if format != .png {
      let vector = try pictureRenderer.vector(
        of: drawing, background: row.background, scale: scale, format: format, title: info.draftName,
        savedMilliseconds: row.savedMilliseconds)
      return Picture(
        bytes: vector.bytes, format: format, width: vector.width, height: vector.height, version: info,
        scale: vector.scale, unreadable: unreadable)
    }
    let picture = try pictureRenderer.picture(
      of: drawing, background: row.background, .shareImage(scale: scale), text: PictureRenderer.text(of: info))
    return Picture(
      bytes: picture.png, width: picture.width, height: picture.height, version: info, scale: picture.scale,
      unreadable: unreadable)
  }

  /// `2025-10-05T14:03:12Z`, the app's own stamp format (seconds; UTC).
  static func iso8601(milliseconds: Int64) -> String {
    let fraction = (milliseconds % 1000 + 1000) % 1000
    return ISO8601UTC.string(Date(timeIntervalSince1970: Double((milliseconds - fraction) / 1000)))
  }

  /// Draws `jobs` (in order) on up to `workers` threads, each with its own read-only
  /// connection; one job, or one worker, draws on this connection.
  func drawThumbnails(_ jobs: [ThumbnailJob], workers: Int) throws(ArchiveError) -> [[UInt8]] {
    let renderer = pictureRenderer
    let workerCount = min(max(1, workers), jobs.count)
    if workerCount <= 1 {
      let blobs = BlobStore(database)
      return try storeCall { try jobs.map { try renderer.png(of: $0, blobs: blobs) } }
    }
    let shared = ParallelRender(count: jobs.count)
    let archivePath = path
    let render: @Sendable () -> Void = {
      let db: Database
      do {
        db = try ArchiveDatabase.open(path: archivePath, mode: .readOnly)
      } catch {
        shared.fail(ArchiveError(error, path: archivePath))
        return
      }
      defer { db.close() }
      let blobs = BlobStore(db)
      while let index = shared.nextIndex() {
        do {
          shared.set(index, try renderer.png(of: jobs[index], blobs: blobs))
        } catch {
          shared.fail(ArchiveError(error, path: archivePath))
          return
        }
      }
    }
    // This thread renders too, as one of the workers. Threads the system refuses are only
    // fewer workers: the ones that started, and this one, render every job.
    var others: [SystemThread] = []
    for _ in 1..<workerCount {
      guard let thread = try? SystemThread(render) else { break }
      others.append(thread)
    }
    render()
    others.forEach { $0.join() }
    return try shared.results()
  }
}

/// Work shared by the rendering threads: the next job to take, the results, the first error.
private final class ParallelRender: Sendable {
  private struct State {
    var next = 0
    var pngs: [[UInt8]]
    var failure: ArchiveError?
  }
  private let state: Mutex<State>

  init(count: Int) { state = Mutex(State(pngs: Array(repeating: [], count: count))) }

  func nextIndex() -> Int? {
    state.withLock { state in
      guard state.failure == nil, state.next < state.pngs.count else { return nil }
      state.next += 1
      return state.next - 1
    }
  }

  func set(_ index: Int, _ png: [UInt8]) {
    state.withLock { $0.pngs[index] = png }
  }

  func fail(_ error: ArchiveError) {
    state.withLock { state in
      if state.failure == nil { state.failure = error }
    }
  }

  func results() throws(ArchiveError) -> [[UInt8]] {
    let (pngs, failure) = state.withLock { ($0.pngs, $0.failure) }
    if let failure { throw failure }
    return pngs
  }
}
