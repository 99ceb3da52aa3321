// The `.inkling` file content: the JSON object the app's `JSONEncoder` writes from
// `DraftFile { drawingData: Data, color: RGBA }` (../shared/docs/inkling-files.md, "File
// content"), and the other spellings of it that real folders hold.
//
// Invariants:
// 1. `.jsonEncoder` is produced by Foundation's `JSONEncoder` itself, never imitated, so the
//    default files are byte-for-byte what the app writes on this platform.
// 2. Every style decodes with `JSONDecoder` to the same drawing bytes and, bit for bit, the
//    same colour components.

import Foundation
import InklingFormats

/// How an `.inkling` file's JSON is spelled.
public enum EnvelopeStyle: String, CaseIterable, Hashable, Sendable {
  /// `JSONEncoder()` as the app uses it: compact, `/` written `\/`.
  case jsonEncoder
  /// `.prettyPrinted`.
  case prettyPrinted
  /// `.sortedKeys`: `color` before `drawingData`.
  case sortedKeys
  /// `[.prettyPrinted, .sortedKeys]`.
  case prettySorted
  /// `.withoutEscapingSlashes`: base64 `/` written plainly.
  case withoutEscapingSlashes
  /// A later app version's `JSONEncoder` output with keys this one does not know.
  case extraKeys
  /// Written by hand: numbers as `1.0` and with 17 significant digits (`0.50000000000000011`).
  case longNumbers
  /// Written by hand: spaces around `:`, keys in another order, a final newline.
  case spaced
}

enum EnvelopeWriter {
  private struct DraftFile: Encodable {
    let drawingData: Data
    let color: Components
  }

  private struct Components: Encodable {
    let r: Double, g: Double, b: Double, a: Double
    init(_ c: RGBA) { r = c.red; g = c.green; b = c.blue; a = c.alpha }
  }

  /// What a later app version might add (invariant 2: unknown keys are ignored on decode).
  private struct LaterDraftFile: Encodable {
    let drawingData: Data
    let color: Components
    let formatVersion: Int
    let title: String
    let tags: [String]
    let canvas: Canvas
    struct Canvas: Encodable { let width: Double, height: Double, dark: Bool }
  }

  /// The bytes of an `.inkling` file holding `drawing` over `background`.
  static func write(drawing: [UInt8], background: RGBA, style: EnvelopeStyle, title: String) -> [UInt8] {
    let data = Data(drawing)
    let color = Components(background)
    do {
      switch style {
      case .jsonEncoder: return try encode(DraftFile(drawingData: data, color: color), [])
      case .prettyPrinted: return try encode(DraftFile(drawingData: data, color: color), [.prettyPrinted])
      case .sortedKeys: return try encode(DraftFile(drawingData: data, color: color), [.sortedKeys])
      case .prettySorted:
        return try encode(DraftFile(drawingData: data, color: color), [.prettyPrinted, .sortedKeys])
      case .withoutEscapingSlashes:
        return try encode(DraftFile(drawingData: data, color: color), [.withoutEscapingSlashes])
      case .extraKeys:
        let later = LaterDraftFile(
          drawingData: data, color: color, formatVersion: 2, title: title, tags: ["inkling"],
          canvas: .init(width: 820, height: 1180, dark: false))
        return try encode(later, [])
      case .longNumbers:
        let base64 = escapedBase64(data)
        let text =
          "{\"drawingData\":\"\(base64)\",\"color\":{\"r\":\(long(background.red)),\"g\":\(long(background.green)),"
          + "\"b\":\(long(background.blue)),\"a\":\(long(background.alpha))}}"
        return Array(text.utf8)
      case .spaced:
        let base64 = escapedBase64(data)
        let text =
          "{ \"color\" : { \"a\" : \(long(background.alpha)), \"b\" : \(long(background.blue)), "
          + "\"g\" : \(long(background.green)), \"r\" : \(long(background.red)) }, "
          + "\"drawingData\" : \"\(base64)\" }\n"
        return Array(text.utf8)
      }
    } catch {
      // Encoding a struct of Data, Doubles that are finite, Strings and Ints cannot fail.
      fatalError("JSONEncoder failed on a plain value: \(error)")
    }
  }

  private static func encode<T: Encodable>(_ value: T, _ formatting: JSONEncoder.OutputFormatting) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = formatting
    return Array(try encoder.encode(value))
  }

  private static func escapedBase64(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "/", with: "\\/")
  }

  /// `1.0` for whole numbers, else 17 significant digits, which read back to the same Double.
  static func long(_ x: Double) -> String {
    if x == x.rounded() && abs(x) < 1e15 { return "\(Int(x)).0" }
    return String(format: "%.17g", x)
  }
}
