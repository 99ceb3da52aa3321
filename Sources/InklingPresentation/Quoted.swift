// Names and paths shown to people, made safe for a terminal: a draft may be called
// "Esc\u{1B}[31mRED" or "New\nline", and printed raw the first would recolour the terminal and
// the second read as two names. We quote as git does with core.quotePath: a text that needs
// it is shown in double quotes with C escapes (\n, \t, \033, \\, \") and invisible characters
// as \u{…}; any other text is shown as it is. A name (or a label, a file name) also needs it
// when it holds a `"` or a `\`, as a path does for git: shown raw, a draft called `"New\nline"`
// would read as the quoted form of another, `New` and `line` on two lines. A sentence's text
// (`text`), such as the place of a merged version, `a.sqlite: "Dog" version 2`, keeps its quotes.
// JSON output is exact and never goes through here.

/// Quoting names and paths for people.
package enum Quoted {
  /// A name as it is when it is safe to print and cannot be misread, else quoted and
  /// escaped: `Plan-B` → `Plan-B`, `New\nline` → `"New\nline"`, `say "hi"` → `"say \"hi\""`.
  package static func display(_ text: String) -> String {
    needsQuoting(text) ? escaped(text) : text
  }

  /// A draft's name in a sentence: always in double quotes, escaped where needed:
  /// `Plan-B` → `"Plan-B"`.
  package static func name(_ name: String) -> String {
    needsQuoting(name) ? escaped(name) : "\"" + name + "\""
  }

  /// A path or other text in a sentence: as it is when safe to print, else quoted and
  /// escaped.
  package static func text(_ text: String) -> String {
    text.unicodeScalars.contains(where: isUnsafe) ? escaped(text) : text
  }

  /// Whether printing the name `text` raw could change or mislead the terminal, or be misread.
  package static func needsQuoting(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0 == "\"" || $0 == "\\" || isUnsafe($0) }
  }

  /// `"…"` with `"` and `\` escaped, control characters as C escapes or octal bytes, and
  /// invisible or direction-changing characters as `\u{…}`.
  package static func escaped(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\u{07}": out += "\\a"
      case "\u{08}": out += "\\b"
      case "\t": out += "\\t"
      case "\n": out += "\\n"
      case "\u{0B}": out += "\\v"
      case "\u{0C}": out += "\\f"
      case "\r": out += "\\r"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\" + octal(UInt8(scalar.value))
        } else if isUnsafe(scalar) {
          out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// Control characters (C0, DEL, C1), format characters such as zero-width spaces and the
  /// bidirectional overrides, line and paragraph separators, and unassigned or private code
  /// points that a terminal may draw as anything.
  static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned: true
    default: false
    }
  }

  private static func octal(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 8)
    return String(repeating: "0", count: 3 - digits.count) + digits
  }
}
