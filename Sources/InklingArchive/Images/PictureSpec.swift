// What a picture of one version is drawn as: the draft-list thumbnail at a size, or the app's
// share image at a scale. With the version's drawing and background and the renderer's
// version, it is everything the pixels depend on: PictureRenderer draws it, and its entity tag
// comes from those same inputs.

import InklingFormats
import InklingRendering

/// Which picture of a version.
public enum PictureSpec: Sendable, Hashable {
  /// The drawing aspect-fit in a `size` × `size` square over its background, `size` one of
  /// `ThumbnailCache.standardSizes`; cached in the archive.
  case thumbnail(size: Int)
  /// The app's share image: the drawing's bounds grown by 8 pt at `scale` pixels per point
  /// (0 < `scale` ≤ 16; less when the image would pass `RenderGeometry.maxDimension` a side).
  case shareImage(scale: Double)

  /// - Throws: `ArchiveError.invalidArgument(.thumbnailSize)` for a size that is not a standard
  ///   one, `.invalidArgument(.renderScale)` for a scale out of range.
  func check() throws(ArchiveError) {
    switch self {
    case .thumbnail(let size):
      guard ThumbnailCache.standardSizes.contains(size) else { throw .invalidArgument(.thumbnailSize(size)) }
    case .shareImage(let scale):
      guard scale.isFinite, scale > 0, scale <= 16 else { throw .invalidArgument(.renderScale(scale)) }
    }
  }
}

extension VersionFile {
  /// The HTTP entity tag of this file's version drawn as `spec` by this build's renderer: equal
  /// for equal pictures, as it names the file's content, the picture and the renderer.
  ///
  /// A thumbnail's is its `Thumbnail.tag`, the cache key, which versions that look the
  /// same share; this one names the file, so it serves for a share image.
  public func tag(of spec: PictureSpec) -> String {
    PictureRenderer().tag(fileSHA256: sha256, spec)
  }

  /// The entity tag of this version's share image at `scale` in `format`: a vector picture's
  /// is the PNG's with the format after it, as the same drawing gives a different file.
  public func tag(ofShareImageAt scale: Double, format: PictureFormat) -> String {
    let png = tag(of: .shareImage(scale: scale))
    return format == .png ? png : png + "-" + format.rawValue
  }
}
