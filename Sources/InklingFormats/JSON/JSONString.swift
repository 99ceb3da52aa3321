// JSON strings as this project writes them everywhere (RFC 8259 §7): `"` and `\` escaped,
// every control character U+0000–U+001F as \b \f \n \r \t or \u00XX, and DEL (U+007F) and
// the line and paragraph separators U+2028/U+2029 escaped too, so that the text is safe to
// embed in JavaScript and to print on a terminal. Other characters are UTF-8, or, when asked,
// \uXXXX escapes of their UTF-16 units (surrogate pairs beyond the BMP).

/// Quoting text as a JSON string.
public enum JSONString {
  /// `text` between quotes, escaped.
  public static func quoted(_ text: String, escapingNonASCII: Bool = false) -> String {
    var out = ""
    append(text, escapingNonASCII: escapingNonASCII, to: &out)
    return out
  }

  /// Appends `text` between quotes, escaped, to `out`.
  public static func append(_ text: String, escapingNonASCII: Bool = false, to out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
        out += unicodeEscape(UInt16(scalar.value))
      default:
        if escapingNonASCII && !scalar.isASCII {
          for unit in String(scalar).utf16 { out += unicodeEscape(unit) }
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }

  /// `\u001b`: four lower-case hex digits.
  private static func unicodeEscape(_ unit: UInt16) -> String {
    let hex = String(unit, radix: 16)
    return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
  }
}
