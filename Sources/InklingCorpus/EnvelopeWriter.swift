// The `.inkling` file content: the JSON object the app's `JSONEncoder` writes from
// `DraftFile { drawingData: Data, color: RGBA }` (docs/inkling-files.md, "File
// content"), and the other spellings of it that real folders hold.
//
// Invariants:
// 1. Every value token (the base64 string, each number, each extra value) is written by
//    Foundation's `JSONEncoder` itself, so default files are byte-for-byte a possible output
//    of the app's encoder on this platform.
// 2. Only the member order is ours. `JSONEncoder` leaves it to hash seeding, which differs
//    from process to process and even from one encode to the next (the doc: "JSONEncoder
//    gives no order guarantee"); the generator draws it from its seeded random stream, so
//    files are reproducible and still show every order real folders show.
// 3. The compact and pretty layouts match `JSONEncoder`'s `.sortedKeys` output exactly when
//    the order is sorted (CorpusTests checks this).
// 4. Every style decodes with `JSONDecoder` to the same drawing bytes and, bit for bit, the
//    same colour components.

import Foundation
import InklingFormats

/// How an `.inkling` file's JSON is spelled.
public enum EnvelopeStyle: String, CaseIterable, Hashable, Sendable {
  /// `JSONEncoder()` as the app uses it: compact, `/` written `\/`, members in any order.
  case jsonEncoder
  /// `.prettyPrinted`: two-space indents, `" : "`, members in any order.
  case prettyPrinted
  /// `.sortedKeys`: `color` before `drawingData`.
  case sortedKeys
  /// `[.prettyPrinted, .sortedKeys]`.
  case prettySorted
  /// `.withoutEscapingSlashes`: base64 `/` written plainly, members in any order.
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
    init(_ c: RGBA) {
      r = c.red
      g = c.green
      b = c.blue
      a = c.alpha
    }
  }

  /// A JSON value as text, or an object of named members.
  indirect enum Value {
    case token(String)
    case object([(String, Value)])
  }

  /// The bytes of an `.inkling` file holding `drawing` over `background`; `random` chooses
  /// the member order where `JSONEncoder` would leave it to chance (invariant 2).
  static func write(
    drawing: [UInt8], background: RGBA, style: EnvelopeStyle, title: String, random: inout SeededRandom
  ) -> [UInt8] {
    let data = Data(drawing)
    do {
      switch style {
      case .sortedKeys, .prettySorted:
        // Deterministic in JSONEncoder itself: use it whole.
        let encoder = JSONEncoder()
        encoder.outputFormatting = style == .sortedKeys ? [.sortedKeys] : [.prettyPrinted, .sortedKeys]
        return Array(try encoder.encode(DraftFile(drawingData: data, color: Components(background))))
      case .jsonEncoder, .prettyPrinted, .withoutEscapingSlashes, .extraKeys:
        let base64 = try token(data, escapingSlashes: style != .withoutEscapingSlashes)
        var members: [(String, Value)] = [("drawingData", .token(base64)), ("color", try colour(background, &random))]
        if style == .extraKeys {
          // What a later app version might add; unknown keys are ignored on decode.
          members += [
            ("formatVersion", .token(try token(2))), ("title", .token(try token(title))),
            ("tags", .token(try token(["inkling"]))),
            (
              "canvas",
              .object(shuffled([("width", .token(try token(820.0))), ("height", .token(try token(1180.0)))], &random))
            ),
          ]
        }
        return Array(text(.object(shuffled(members, &random)), pretty: style == .prettyPrinted, indent: 0).utf8)
      case .longNumbers:
        let base64 = try token(data, escapingSlashes: true)
        let text =
          "{\"drawingData\":\(base64),\"color\":{\"r\":\(long(background.red)),\"g\":\(long(background.green)),"
          + "\"b\":\(long(background.blue)),\"a\":\(long(background.alpha))}}"
        return Array(text.utf8)
      case .spaced:
        let base64 = try token(data, escapingSlashes: true)
        let text =
          "{ \"color\" : { \"a\" : \(long(background.alpha)), \"b\" : \(long(background.blue)), "
          + "\"g\" : \(long(background.green)), \"r\" : \(long(background.red)) }, "
          + "\"drawingData\" : \(base64) }\n"
        return Array(text.utf8)
      }
    } catch {
      // Encoding Data, finite Doubles, Strings and Ints cannot fail.
      fatalError("JSONEncoder failed on a plain value: \(error)")
    }
  }

  private static func colour(_ c: RGBA, _ random: inout SeededRandom) throws -> Value {
    .object(
      shuffled(
        [
          ("r", .token(try token(c.red))), ("g", .token(try token(c.green))), ("b", .token(try token(c.blue))),
          ("a", .token(try token(c.alpha))),
        ], &random))
  }

  /// One value as `JSONEncoder` writes it (invariant 1): encoded inside an array, brackets cut.
  static func token<T: Encodable>(_ value: T, escapingSlashes: Bool = true) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = escapingSlashes ? [] : [.withoutEscapingSlashes]
    let text = String(decoding: try encoder.encode([value]), as: UTF8.self)
    return String(text.dropFirst().dropLast())
  }

  /// `JSONEncoder`'s layout of an object: compact, or pretty with two-space indents and
  /// `" : "` (invariant 3).
  static func text(_ value: Value, pretty: Bool, indent: Int) -> String {
    switch value {
    case .token(let token): return token
    case .object(let members):
      if !pretty {
        return "{" + members.map { "\"\($0.0)\":" + text($0.1, pretty: false, indent: 0) }.joined(separator: ",") + "}"
      }
      let inner = String(repeating: " ", count: indent + 2)
      let lines = members.map { inner + "\"\($0.0)\" : " + text($0.1, pretty: true, indent: indent + 2) }
      return "{\n" + lines.joined(separator: ",\n") + "\n" + String(repeating: " ", count: indent) + "}"
    }
  }

  /// A seeded permutation (Fisher–Yates with our own generator; invariant 2).
  static func shuffled<T>(_ items: [T], _ random: inout SeededRandom) -> [T] {
    var items = items
    for i in stride(from: items.count - 1, to: 0, by: -1) {
      items.swapAt(i, Int(random.below(UInt64(i + 1))))
    }
    return items
  }

  /// `1.0` for whole numbers, else 17 significant digits, which read back to the same Double.
  static func long(_ x: Double) -> String {
    if x == x.rounded() && abs(x) < 1e15 { return "\(Int(x)).0" }
    return String(format: "%.17g", x)
  }
}
