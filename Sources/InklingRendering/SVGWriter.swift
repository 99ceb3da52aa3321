// A VectorPicture as SVG text, written here rather than through cairo's SVG surface: cairo
// writes every coordinate with six decimals and a style attribute per path, several times
// the size of the same outlines written as below, and a stroke should cost about as much as
// in the other converters of PencilKit drawings (docs/decisions.md, "SVG written by hand, PDF through cairo").
//
// The document: its size in points and its view box in the PNG's pixels; the background as
// a rectangle (so it stays an object of its own, editable); one `<g>` per stroke holding one
// `<path>` per visible piece, filled with the ink's sRGB colour and opacity under the nonzero
// rule, clipped by a `<clipPath>` where the pixel eraser left a mask. Path data are in tenths
// of a pixel: the first point absolute, the rest relative, so the numbers stay short; the
// relative steps are differences of the rounded absolute points, so no error accumulates.

import InklingFormats

extension VectorPicture {
  /// The picture as an SVG document (UTF-8).
  public var svg: [UInt8] {
    var out = SVGText()
    let width = max(geometry.width, 1)
    let height = max(geometry.height, 1)
    let points = pointSize
    out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
    out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"")
    out.append(SVGText.decimal(points.width, places: 3))
    out.append("pt\" height=\"")
    out.append(SVGText.decimal(points.height, places: 3))
    out.append("pt\" viewBox=\"0 0 \(width) \(height)\">\n")
    out.append("<rect width=\"\(width)\" height=\"\(height)\"")
    out.fill(background, alpha: background.a)
    out.append("/>\n")
    var clipID = 0
    for stroke in strokes {
      out.append("<g>")
      for piece in stroke {
        var clipReference = ""
        if !piece.clip.isEmpty {
          clipID += 1
          out.append("<clipPath id=\"c\(clipID)\"><path d=\"")
          out.pathData(piece.clip)
          out.append("\"/></clipPath>")
          clipReference = " clip-path=\"url(#c\(clipID))\""
        }
        out.append("<path\(clipReference)")
        out.fill(piece.color, alpha: piece.alpha)
        out.append(" d=\"")
        out.pathData(piece.polygons)
        out.append("\"/>")
      }
      out.append("</g>\n")
    }
    out.append("</svg>\n")
    return out.bytes
  }
}

/// SVG text as it is written: bytes, numbers in short form.
struct SVGText {
  var bytes: [UInt8] = []
  /// Whether the last number written has a decimal point.
  private var lastHadPoint = false

  mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

  /// ` fill="#rrggbb"`, and its opacity when below 1.
  mutating func fill(_ color: ClampedColor, alpha: Float) {
    append(" fill=\"#")
    for component in [color.r, color.g, color.b] {
      let byte = Canvas.byte(component)
      for nibble in [byte >> 4, byte & 15] {
        bytes.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
      }
    }
    append("\"")
    if alpha < 0.9995 {
      append(" fill-opacity=\"")
      append(Self.decimal(Double(max(alpha, 0)), places: 3))
      append("\"")
    }
  }

  /// Closed polygons as path data: `M x y l dx dy … z` per polygon, in tenths of a pixel.
  mutating func pathData(_ polygons: [[Point]]) {
    for polygon in polygons {
      guard let first = polygon.first else { continue }
      var previous = (Self.tenths(first.x), Self.tenths(first.y))
      bytes.append(UInt8(ascii: "M"))
      lastHadPoint = false
      number(previous.0, first: true)
      number(previous.1)
      bytes.append(UInt8(ascii: "l"))
      var firstStep = true
      for point in polygon.dropFirst() {
        let current = (Self.tenths(point.x), Self.tenths(point.y))
        guard current != previous else { continue }
        number(current.0 - previous.0, first: firstStep)
        number(current.1 - previous.1)
        firstStep = false
        previous = current
      }
      bytes.append(UInt8(ascii: "z"))
    }
  }

  /// A coordinate in tenths of a pixel, kept within what any reader takes.
  static func tenths(_ v: Double) -> Int {
    let clamped = min(max(v * 10, -1e12), 1e12)
    return Int(clamped.rounded())
  }

  /// `tenths` / 10 in the shortest form (`.5`, `-.5`, `12`, `1.5`), preceded by a space
  /// only where nothing else separates it from the number before: the first after a command
  /// letter needs none, a minus sign separates, and so does a leading point after a number
  /// that has a point already (`1.5.5` reads as 1.5 and .5).
  mutating func number(_ tenths: Int, first: Bool = false) {
    let magnitude = tenths.magnitude
    let whole = magnitude / 10
    let fraction = magnitude % 10
    if tenths >= 0, !first, !(whole == 0 && fraction != 0 && lastHadPoint) { bytes.append(UInt8(ascii: " ")) }
    if tenths < 0 { bytes.append(UInt8(ascii: "-")) }
    if whole != 0 || fraction == 0 { append(String(whole)) }
    lastHadPoint = fraction != 0
    if fraction != 0 {
      bytes.append(UInt8(ascii: "."))
      bytes.append(UInt8(ascii: "0") + UInt8(fraction))
    }
  }

  /// `v` with at most `places` decimals, without trailing zeros.
  static func decimal(_ v: Double, places: Int) -> String {
    guard v.isFinite else { return "0" }
    var factor = 1.0
    for _ in 0..<places { factor *= 10 }
    let scaled = Int((abs(v) * factor).rounded())
    let whole = scaled / Int(factor)
    var fraction = String(scaled % Int(factor))
    while fraction.count < places { fraction = "0" + fraction }
    while fraction.hasSuffix("0") { fraction.removeLast() }
    let sign = v < 0 && scaled != 0 ? "-" : ""
    return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
  }
}
