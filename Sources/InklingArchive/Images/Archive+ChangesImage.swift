// What one version changed against another, as a picture (InklingRendering's ChangesPicture):
// the earlier version faded, the strokes added in green, the strokes removed or erased in red,
// over the later version's background. `serve` shows it beside the two versions it compares.

import InklingFormats
import InklingRendering

extension Archive {
  /// The changes from version `from` to version `to` at `scale` pixels per point, with the text
  /// chunks of `to`'s share image.
  ///
  /// - Throws: `ArchiveError.invalidArgument(.renderScale)` when `scale` is not in 0 < S ≤ 16,
  ///   `.noVersionWithID` when either version is not in the archive, `.unreadableDrawing` when
  ///   either drawing does not decode.
  public func changesImage(from: VersionID, to: VersionID, scale: Double) throws(ArchiveError) -> [UInt8] {
    let spec = PictureSpec.shareImage(scale: scale)
    try spec.check()
    let lookup = VersionLookup(self)
    let before = try lookup.row(id: from)
    let after = try lookup.row(id: to)
    let image = ChangesPicture.render(
      from: try decodedDrawing(before), to: try decodedDrawing(after), background: after.background, scale: scale)
    return try pictureRenderer.png(image, spec, text: PictureRenderer.text(of: after))
  }
}

extension VersionFile {
  /// The HTTP entity tag of what this version changed against `before`, drawn at `scale` by
  /// this build's renderer (`Archive.changesImage`): it names both files, the scale and the
  /// renderer, everything the picture depends on.
  public func changesTag(against before: VersionFile, scale: Double) -> String {
    "\(before.sha256.prefix(24))-"
      + PictureRenderer().tag(fileSHA256: String(sha256.prefix(24)), .shareImage(scale: scale)) + "-changes"
  }
}
