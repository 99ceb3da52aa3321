// What a thumbnail shows for a drawing that does not decode (a legacy or unknown format
// kept as opaque bytes, or a damaged PencilKit container): the version's background, as
// every thumbnail, with a crossed-out frame in the middle, so that a grid of thumbnails stays
// whole and the odd one is plain to see. `show` says why the drawing does not decode.

import InklingFormats
import InklingRendering

enum ThumbnailPlaceholder {
  /// The background (clamped to 0…1 as the renderer does) with a centred crossed-out frame a
  /// third of the side, in grey that stands out from the background.
  static func image(background: RGBA, size: Int) -> RenderedImage {
    func byte(_ v: Double) -> UInt8 { v.isNaN ? 0 : UInt8((min(max(v, 0), 1) * 255).rounded()) }
    let fill = [byte(background.red), byte(background.green), byte(background.blue), byte(background.alpha)]
    var rgba = [UInt8](repeating: 0, count: size * size * 4)
    for i in stride(from: 0, to: rgba.count, by: 4) {
      rgba[i] = fill[0]
      rgba[i + 1] = fill[1]
      rgba[i + 2] = fill[2]
      rgba[i + 3] = fill[3]
    }
    let luminance = 0.2126 * Double(fill[0]) + 0.7152 * Double(fill[1]) + 0.0722 * Double(fill[2])
    let ink: UInt8 = luminance > 128 || fill[3] < 128 ? 0x80 : 0xB0
    let side = size / 3
    let origin = (size - side) / 2
    let line = max(2, size / 64)
    func plot(_ x: Int, _ y: Int) {
      guard x >= 0, y >= 0, x < size, y < size else { return }
      let i = (y * size + x) * 4
      rgba[i] = ink
      rgba[i + 1] = ink
      rgba[i + 2] = ink
      rgba[i + 3] = 255
    }
    for t in 0..<side {
      for w in 0..<line {
        plot(origin + t, origin + w)
        plot(origin + t, origin + side - 1 - w)  // top, bottom
        plot(origin + w, origin + t)
        plot(origin + side - 1 - w, origin + t)  // left, right
        plot(origin + t + w - line / 2, origin + t)
        plot(origin + side - 1 - t + w - line / 2, origin + t)  // the cross
      }
    }
    return RenderedImage(width: size, height: size, rgba: rgba)
  }
}
