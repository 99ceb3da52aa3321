import Foundation
import InklingRendering
import Testing

/// What the vector tests share: the renderers we did not write, found where Debian puts them,
/// and how close a rasterised vector picture is to the PNG of the same page.
enum RasterComparison {
  /// The path of the Debian tool `name`; the test fails, naming the setup step, without it.
  static func tool(_ name: String) throws -> String {
    let path = "/usr/bin/" + name
    try #require(FileManager.default.isExecutableFile(atPath: path), "scripts/setup test installs \(name)")
    return path
  }

  /// The PNG at `path`, decoded.
  static func image(_ path: String) throws -> RenderedImage {
    try PNG.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
  }

  /// The peak signal-to-noise ratio of `b` against `a` over their colour channels, in dB
  /// (0 when their sizes differ, 99 when they are the same).
  static func psnr(_ a: RenderedImage, _ b: RenderedImage) -> Double {
    guard a.width == b.width, a.height == b.height else { return 0 }
    var sum = 0.0
    for i in stride(from: 0, to: a.rgba.count, by: 4) {
      for c in 0..<3 {
        let d = Double(a.rgba[i + c]) - Double(b.rgba[i + c])
        sum += d * d
      }
    }
    let mse = sum / Double(a.width * a.height * 3)
    return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
  }
}
