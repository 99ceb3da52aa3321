// Colours as people type them in `background:`: hex (`#1a1a1f`, `1a1a1f`, `#fff`) or a name.
// A hex colour matches within ±hexTolerance on each component (a colour picked by eye or read
// off a screenshot is rarely exact; extended-sRGB values round differently); a name stands
// for a region of colours, so it matches within the wider ±nameTolerance.

/// A colour to compare backgrounds with.
struct NamedColour: Equatable {
  var red: Double
  var green: Double
  var blue: Double
  var tolerance: Double

  static let hexTolerance = 0.05
  static let nameTolerance = 0.2

  /// sRGB 0…255 of the names we accept; the app's paper colours included.
  static let names: [String: (Int, Int, Int)] = [
    "white": (255, 255, 255), "black": (0, 0, 0), "red": (255, 0, 0), "green": (0, 160, 0),
    "blue": (0, 0, 255), "yellow": (255, 230, 0), "orange": (255, 150, 0), "purple": (140, 50, 180),
    "pink": (255, 170, 200), "brown": (140, 90, 40), "gray": (128, 128, 128), "grey": (128, 128, 128),
    "cyan": (0, 220, 230), "magenta": (230, 0, 200), "cream": (250, 245, 225), "beige": (235, 225, 200),
    "navy": (20, 30, 90), "teal": (0, 128, 128), "dark": (30, 30, 32), "charcoal": (54, 54, 58),
  ]

  /// The colour `text` stands for, or nil if it is neither hex nor a known name.
  static func parse(_ text: String) -> NamedColour? {
    let lowered = text.lowercased()
    if let rgb = names[lowered] {
      return NamedColour(
        red: Double(rgb.0) / 255, green: Double(rgb.1) / 255, blue: Double(rgb.2) / 255, tolerance: nameTolerance)
    }
    var hex = Substring(lowered)
    if hex.hasPrefix("#") { hex = hex.dropFirst() }
    guard hex.allSatisfy(\.isHexDigit) else { return nil }
    let digits = hex.compactMap { $0.hexDigitValue }
    let components: [Int]
    switch digits.count {
    case 3: components = digits.map { $0 * 17 }
    case 6: components = [digits[0] * 16 + digits[1], digits[2] * 16 + digits[3], digits[4] * 16 + digits[5]]
    default: return nil
    }
    return NamedColour(
      red: Double(components[0]) / 255, green: Double(components[1]) / 255, blue: Double(components[2]) / 255,
      tolerance: hexTolerance)
  }
}
