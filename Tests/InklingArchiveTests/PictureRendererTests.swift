import InklingFormats
import InklingRendering
import InklingTestSupport
import Testing

@testable import InklingArchive

/// Every picture of a version comes from PictureRenderer, whose renderer version keys the
/// thumbnails and names the share image in its entity tag.
@Suite struct PictureRendererTests {
  @Test func theShareImagesTagNamesTheFileTheScaleAndTheRenderer() {
    let file = VersionFile(
      draftName: "Cat", fileName: "Cat.inkling", size: 1, sha256: String(repeating: "ab", count: 32),
      draftInTrash: false)
    let hash = String(repeating: "ab", count: 16)
    #expect(file.tag(of: .shareImage(scale: 2)) == "\(hash)-2x-r\(Renderer.version)")
    #expect(file.tag(of: .shareImage(scale: 1.5)) == "\(hash)-1.5x-r\(Renderer.version)")
    #expect(PictureRenderer(version: 7).tag(fileSHA256: file.sha256, .shareImage(scale: 3)) == "\(hash)-3x-r7")
  }

  @Test func aPlaceholderShareImageIsAThumbnailsSizeAtItsScale() throws {
    let picture = try PictureRenderer().picture(
      of: nil, background: RGBA(red: 1, green: 1, blue: 1, alpha: 1), .shareImage(scale: 2))
    #expect(picture.width == 512 && picture.height == 512 && picture.scale == 2)
    #expect(PictureSpec.shareImage(scale: 2) != .shareImage(scale: 3))
    #expect(throws: ArchiveError.invalidArgument(.renderScale(0))) { try PictureSpec.shareImage(scale: 0).check() }
    #expect(throws: ArchiveError.invalidArgument(.thumbnailSize(100))) { try PictureSpec.thumbnail(size: 100).check() }
  }
}
