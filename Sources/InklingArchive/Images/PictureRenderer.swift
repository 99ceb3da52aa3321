// The one path from a version's drawing to a PNG, for every picture of a version (thumbnails,
// cached or not; share images, by draft, by id or in an export): decode the drawing bytes,
// draw them as the `PictureSpec` says over the version's background (or the placeholder of a
// drawing that does not decode, ThumbnailPlaceholder), encode with the text chunks.
//
// The archive's drawings carry the renderer's version from here: into every thumbnail's cache
// key and row (ThumbnailCache.swift), `gc`'s choice of rows to drop, and the share image's
// entity tag.

import InklingFormats
import InklingRendering
import InklingStore

/// Draws pictures of versions; its settings are the renderer's version and how thumbnails are
/// encoded. An `Archive` has one (`pictureRenderer`), which tests give another version to
/// simulate a renderer whose pixels change.
struct PictureRenderer: Sendable {
  /// The version of the renderer's pixels (`Renderer.version`).
  var version = Renderer.version
  /// zlib level of thumbnails, whose rows are not filtered: encoding is part of every cold
  /// thumbnail, and level 1 without filters is both faster and smaller than libpng's default
  /// (level 6, adaptive filters) on thumbnails (docs/thumbnails.md, "Measurements").
  var thumbnailCompressionLevel: Int32 = 1

  /// The `software` text chunk of every PNG this library writes.
  static let software = ("Software", "inkling-archive")

  /// Drawing bytes decoded, or why they do not decode.
  static func decode(_ bytes: [UInt8]) -> Result<Drawing, Undecodable> {
    do {
      switch try DrawingReader.read(bytes) {
      case .drawing(let drawing): return .success(drawing)
      case .unreadable(let reason, _): return .failure(Undecodable(reason: "\(reason)", isDamage: false))
      }
    } catch {
      return .failure(Undecodable(reason: "\(error)", isDamage: true))
    }
  }

  /// Why a drawing does not decode.
  struct Undecodable: Error {
    /// As the reader says it.
    var reason: String
    /// Whether the reader failed on a damaged container, rather than meeting a format it
    /// does not read.
    var isDamage: Bool

    /// The reason, said to be damage when it is.
    var described: String { isDamage ? "its drawing is damaged (\(reason))" : reason }
  }

  /// `drawing` drawn as `spec` over `background` (the placeholder when it is nil), as PNG with
  /// the Software text chunk and then `text`; for a share image, the scale it was drawn at.
  ///
  /// - Throws: `ArchiveError.imageEncoding`.
  func picture(of drawing: Drawing?, background: RGBA, _ spec: PictureSpec, text: [(String, String)] = [])
    throws(ArchiveError) -> (png: [UInt8], width: Int, height: Int, scale: Double?)
  {
    let (image, scale) = self.image(of: drawing, background: background, spec)
    return (try png(image, spec, text: text), image.width, image.height, scale)
  }

  /// `drawing` drawn as `spec` over `background`, or the placeholder when it is nil; for a
  /// share image, the scale it was drawn at.
  private func image(of drawing: Drawing?, background: RGBA, _ spec: PictureSpec) -> (
    image: RenderedImage, scale: Double?
  ) {
    switch (spec, drawing) {
    case (.thumbnail(let size), let drawing?):
      return (Renderer.thumbnail(of: drawing, background: background, pixelSize: size), nil)
    case (.thumbnail(let size), nil):
      return (ThumbnailPlaceholder.image(background: background, size: size), nil)
    case (.shareImage(let scale), let drawing?):
      let (image, geometry) = Renderer.exportWithGeometry(of: drawing, background: background, scale: scale)
      return (image, geometry.scale)
    case (.shareImage(let scale), nil):
      // As a thumbnail shows it, the size a 256-pixel thumbnail has at this scale.
      return (ThumbnailPlaceholder.image(background: background, size: max(16, Int((256 * scale).rounded()))), scale)
    }
  }

  /// The share image of `drawing` (the placeholder when it is nil) at `scale` as vectors, SVG
  /// or PDF (`format`, not `.png`): the PNG's page, size and scale. A PDF is dated when its
  /// version was saved (`savedMilliseconds`), not when it is made: the same version gives the
  /// same bytes, as its PNG does, so an export again finds its PDF unchanged and a served
  /// PDF keeps the entity tag it was given.
  ///
  /// - Throws: `ArchiveError.imageEncoding` when cairo fails to write the PDF.
  func vector(
    of drawing: Drawing?, background: RGBA, scale: Double, format: PictureFormat, title: String,
    savedMilliseconds: Int64
  ) throws(ArchiveError) -> (bytes: [UInt8], width: Int, height: Int, scale: Double) {
    let picture: VectorPicture
    if let drawing {
      picture = VectorPicture.export(of: drawing, background: background, scale: scale)
    } else {
      picture = VectorPicture.placeholder(
        background: background, side: max(16, Int((256 * scale).rounded())), scale: scale)
    }
    let bytes: [UInt8]
    if format == .pdf {
      do throws(VectorWriteError) {
        bytes = try picture.pdf(title: title, created: Archive.iso8601(milliseconds: savedMilliseconds))
      } catch {
        throw .imageEncoding(detail: error.detail)
      }
    } else {
      bytes = picture.svg
    }
    return (bytes, max(picture.geometry.width, 1), max(picture.geometry.height, 1), picture.geometry.scale)
  }

  /// `image`, drawn as `spec`, as PNG with the Software text chunk and then `text`.
  /// Thumbnails are encoded fast (`thumbnailCompressionLevel`, unfiltered rows), share images
  /// with libpng's defaults.
  ///
  /// - Throws: `ArchiveError.imageEncoding`.
  func png(_ image: RenderedImage, _ spec: PictureSpec, text: [(String, String)] = []) throws(ArchiveError)
    -> [UInt8]
  {
    do {
      switch spec {
      case .thumbnail:
        return try PNG.encode(
          image, text: [Self.software] + text, compressionLevel: thumbnailCompressionLevel, filter: .none)
      case .shareImage:
        return try PNG.encode(image, text: [Self.software] + text)
      }
    } catch {
      throw .imageEncoding(detail: "\(error)")
    }
  }

  /// The thumbnail `job` asks for, as the cache stores it: with the Software chunk only
  /// (invariant 1 of migration 0004), its drawing read through `blobs`.
  ///
  /// - Throws: `StoreError` when the blob cannot be read or no longer decodes.
  func png(of job: ThumbnailJob, blobs: BlobStore) throws -> [UInt8] {
    var drawing: Drawing?
    if job.contentHash != nil {
      // The index says it decodes; only a damaged blob (caught by the blob's hash check)
      // or a reader that changed its mind can fail here.
      guard
        case .success(let decoded) = Self.decode(
          try blobs.bytes(ofBlob: job.blobID, limit: DrawingLimits.default.maxBytes))
      else {
        throw StoreError(
          kind: .corrupt, message: "drawing blob \(job.blobID) no longer decodes, though its index says it does")
      }
      drawing = decoded
    }
    return try picture(of: drawing, background: job.background, .thumbnail(size: job.size)).png
  }

  /// The entity tag of the version whose file has the hex SHA-256 `fileSHA256`, drawn as
  /// `spec` by this renderer.
  func tag(fileSHA256: String, _ spec: PictureSpec) -> String {
    switch spec {
    case .thumbnail(let size): "\(fileSHA256.prefix(32))-\(size)px-r\(version)"
    case .shareImage(let scale):
      "\(fileSHA256.prefix(32))-\(scale == scale.rounded() ? String(Int(scale)) : String(scale))x-r\(version)"
    }
  }

  // MARK: - Text chunks

  /// The text chunks naming version `info` (after Software): draft, number, save time, file.
  static func text(of info: VersionInfo) -> [(String, String)] {
    [
      ("Title", info.draftName), ("Inkling Version", "\(info.number)"),
      ("Creation Time", Archive.iso8601(milliseconds: DateExpression.milliseconds(info.saved))),
      ("Inkling File", info.fileName),
    ]
  }

  /// The text chunks of the version of `row` without its number, which an older save
  /// imported later shifts (pictures by id): draft, save time, file.
  static func text(of row: VersionRow) -> [(String, String)] {
    [
      ("Title", row.draftName), ("Creation Time", Archive.iso8601(milliseconds: row.savedMilliseconds)),
      ("Inkling File", row.fileName),
    ]
  }
}
