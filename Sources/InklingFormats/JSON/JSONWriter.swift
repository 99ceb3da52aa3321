// JSONWriter: JSONValue → text, compact (one line, for NDJSON) or pretty (two-space indent).
//
// Strings are escaped as everywhere in the project (InklingFormats' JSONString), with
// `escapesNonASCII` as \uXXXX escapes. Swift strings are always valid Unicode, so the output
// is always valid UTF-8.
//
// Numbers: integers as integers; Doubles with Swift's shortest round-trip description
// ("0.1", "1e-05", "3.0"), all valid JSON numbers; NaN and ±infinity, which JSON cannot
// express, as null. Dates: ISO 8601 UTC, with milliseconds when they are not 0 (always with `fractionalSeconds`).

import FoundationEssentials

package struct JSONWriter: Sendable {
  /// Newlines and two-space indentation; `"key": value`.
  package var prettyPrinted: Bool
  /// Writes non-ASCII characters as \u escapes instead of UTF-8.
  package var escapesNonASCII: Bool
  /// Writes every date with milliseconds (`2025-10-05T14:03:22.000Z`), not only those that
  /// have some.
  package var fractionalSeconds: Bool

  package init(
    prettyPrinted: Bool = false, escapesNonASCII: Bool = false, fractionalSeconds: Bool = false
  ) {
    self.prettyPrinted = prettyPrinted
    self.escapesNonASCII = escapesNonASCII
    self.fractionalSeconds = fractionalSeconds
  }

  /// The value as JSON text, without a trailing newline.
  package func string(_ value: JSONValue) -> String {
    var out = ""
    write(value, into: &out, indent: 0)
    return out
  }

  /// The value as one NDJSON line: compact, ending in "\n", whatever `prettyPrinted` says.
  package func line(_ value: JSONValue) -> String {
    var compact = self
    compact.prettyPrinted = false
    return compact.string(value) + "\n"
  }

  // MARK: - Values

  private func write(_ value: JSONValue, into out: inout String, indent: Int) {
    switch value {
    case .null: out += "null"
    case .bool(let flag): out += flag ? "true" : "false"
    case .int(let number): out += String(number)
    case .double(let number): out += Self.number(number)
    case .string(let text): writeString(text, into: &out)
    case .date(let date):
      writeString(ISO8601UTC.string(date, fractionalSeconds: fractionalSeconds), into: &out)
    case .array(let elements):
      writeContainer("[", "]", elements, into: &out, indent: indent) { element, out in
        write(element, into: &out, indent: indent + 1)
      }
    case .object(let members):
      writeContainer("{", "}", members, into: &out, indent: indent) { member, out in
        writeString(member.key, into: &out)
        out += prettyPrinted ? ": " : ":"
        write(member.value, into: &out, indent: indent + 1)
      }
    }
  }

  private func writeContainer<Element>(
    _ open: String, _ close: String, _ elements: [Element], into out: inout String, indent: Int,
    _ writeElement: (Element, inout String) -> Void
  ) {
    out += open
    guard !elements.isEmpty else {
      out += close
      return
    }
    let inner = prettyPrinted ? "\n" + String(repeating: "  ", count: indent + 1) : ""
    for (index, element) in elements.enumerated() {
      if index > 0 { out += "," }
      out += inner
      writeElement(element, &out)
    }
    out += prettyPrinted ? "\n" + String(repeating: "  ", count: indent) : ""
    out += close
  }

  /// Shortest round-trip text for a Double; null for values JSON cannot express.
  static func number(_ value: Double) -> String {
    value.isFinite ? "\(value)" : "null"
  }

  // MARK: - Strings

  private func writeString(_ text: String, into out: inout String) {
    JSONString.append(text, escapingNonASCII: escapesNonASCII, to: &out)
  }
}
