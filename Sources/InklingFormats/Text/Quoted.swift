// Text from data made safe for a terminal: the one rule every command, sentence and error
// follows, and the library too where it words a place or a problem (check, merge). A draft
// may be called "Esc\u{1B}[31mRED" or "New\nline", and an ink identifier or a file name in an
// archive someone handed over may hold anything: printed raw the first would recolour the
// terminal, the second read as two names, and a U+202E RIGHT-TO-LEFT OVERRIDE would show
// `x\u{202E}gnp.exe` as `xexe.png`.
//
// What is unsafe (`unsafeScalars`): C0 and C1 controls and DEL, format characters (the bidi
// embeddings, overrides, isolates and marks, zero-width spaces, soft hyphens, tags), line and
// paragraph separators, private-use, surrogate and unassigned code points (a terminal may
// draw them as anything), and the other characters Unicode says to draw as nothing
// (Default_Ignorable_Code_Point: Hangul fillers, variation selectors). Two kinds of those
// are part of how a word is written and print as written: a zero-width joiner inside one
// grapheme (the emoji sequence 👩‍💻) or a joiner between two letters of a script they shape
// (ZWNJ in Persian, می‌خواهم), and a variation selector after an emoji (❤️).
//
// How it is shown: as git does with core.quotePath, a text that needs it is shown in double
// quotes with C escapes (\n, \t, \033, \\, \") and the other unsafe characters as \u{…}, the
// way Swift writes them, so the exact text can be typed back: a `DRAFT` argument given as
// printed, in its quotes, is read through `unescaped`; any other text as it is. A name
// (or a label, a file name) also needs it when it holds a `"` or a `\`, as a path does for
// git: shown raw, a draft called `"New\nline"` would read as the quoted form of another,
// `New` and `line` on two lines. A sentence's text (`text`), such as the place of a merged
// version, `a.sqlite: "Dog" version 2`, keeps its quotes. JSON output is exact and never goes
// through here.

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
    hasUnsafeScalars(text) ? escaped(text) : text
  }

  /// Whether printing the name `text` raw could change or mislead the terminal, or be misread.
  package static func needsQuoting(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0 == "\"" || $0 == "\\" } || hasUnsafeScalars(text)
  }

  /// Whether any scalar of `text` is unsafe by `unsafeScalars`, without building the list for
  /// the text most names are: none is unsafe wherever it stands.
  private static func hasUnsafeScalars(_ text: String) -> Bool {
    text.unicodeScalars.contains(where: isUnsafe) && unsafeScalars(in: text).contains(true)
  }

  /// `"…"` with `"` and `\` escaped, control characters as C escapes or octal bytes, and
  /// the other unsafe characters as `\u{…}`.
  package static func escaped(_ text: String) -> String {
    var out = "\""
    for (scalar, unsafe) in zip(text.unicodeScalars, unsafeScalars(in: text)) {
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
        } else if unsafe {
          out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// The text a quoted form (`escaped`) stands for, or nil when `quoted` is not one: in double
  /// quotes, each `\` starting one of the escapes `escaped` writes. This is the way back from
  /// what is printed: a `DRAFT` argument given as printed, quotes and all, is the name.
  ///
  ///     Quoted.unescaped(#""x\u{202E}gnp.exe""#)  // "x\u{202E}gnp.exe"
  package static func unescaped(_ quoted: String) -> String? {
    var scalars = Array(quoted.unicodeScalars)
    guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { return nil }
    scalars = Array(scalars.dropFirst().dropLast())
    var out = String.UnicodeScalarView()
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      // A `"` inside is always written escaped: one bare is not a quoted form.
      if scalar == "\"" { return nil }
      guard scalar == "\\" else {
        out.append(scalar)
        continue
      }
      guard index < scalars.count else { return nil }
      let code = scalars[index]
      index += 1
      switch code {
      case "\"", "\\": out.append(code)
      case "a": out.append("\u{07}")
      case "b": out.append("\u{08}")
      case "t": out.append("\t")
      case "n": out.append("\n")
      case "v": out.append("\u{0B}")
      case "f": out.append("\u{0C}")
      case "r": out.append("\r")
      case "0"..."7":
        guard index + 2 <= scalars.count,
          let value = UInt32(String(String.UnicodeScalarView([code, scalars[index], scalars[index + 1]])), radix: 8),
          value < 0x80, let decoded = Unicode.Scalar(value)
        else { return nil }
        out.append(decoded)
        index += 2
      case "u":
        guard index < scalars.count, scalars[index] == "{",
          let close = scalars[index...].firstIndex(of: "}"), close - index - 1 >= 1, close - index - 1 <= 6,
          let value = UInt32(String(String.UnicodeScalarView(scalars[(index + 1)..<close])), radix: 16),
          let decoded = Unicode.Scalar(value)
        else { return nil }
        out.append(decoded)
        index = close + 1
      default: return nil
      }
    }
    return String(out)
  }

  /// For each Unicode scalar of `text` in order, whether printing it raw could change or
  /// mislead a terminal: the rule at the top of this file, which every other way of showing
  /// text (a query under its caret, a command for a shell) asks too.
  package static func unsafeScalars(in text: String) -> [Bool] {
    let flags = text.unicodeScalars.map(isUnsafe)
    // Most text has none: the graphemes are looked at only for text that has.
    guard flags.contains(true) else { return flags }
    var result: [Bool] = []
    result.reserveCapacity(flags.count)
    let characters = Array(text)
    for (index, character) in characters.enumerated() {
      let scalars = Array(character.unicodeScalars)
      let next = index + 1 < characters.count ? characters[index + 1].unicodeScalars.first : nil
      for position in scalars.indices {
        result.append(isUnsafe(scalars[position]) && !isWritten(scalars, at: position, before: next))
      }
    }
    return result
  }

  /// Whether one Unicode scalar is unsafe wherever it stands.
  private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: return true
    default: return scalar.properties.isDefaultIgnorableCodePoint
    }
  }

  /// Whether the unsafe scalar at `position` of one grapheme's `scalars` is part of how the
  /// text is written (the exceptions at the top of this file); `next` starts the grapheme
  /// after it.
  private static func isWritten(_ scalars: [Unicode.Scalar], at position: Int, before next: Unicode.Scalar?)
    -> Bool
  {
    guard position > 0, !isUnsafe(scalars[0]) else { return false }
    let base = scalars[0]
    let following = position + 1 < scalars.count ? scalars[position + 1] : next
    switch scalars[position].value {
    case 0x200D:
      // ZWJ: inside an emoji sequence it joins two pictures into one; between letters of a
      // script it shapes it asks for the joined form (Arabic, a Devanagari half form).
      if position + 1 < scalars.count && base.properties.isEmoji && scalars[position + 1].properties.isEmoji {
        return true
      }
      return isShaped(base) && following.map(isShaped) == true
    case 0x200C:
      // ZWNJ: keeps two letters of such a script apart, a visible difference.
      return isShaped(base) && following.map(isShaped) == true
    case 0xFE0E, 0xFE0F:
      return position == 1 && base.properties.isEmoji
    default:
      return false
    }
  }

  /// A letter of a script whose letters change shape with the joiners: Arabic, Syriac, N'Ko,
  /// the Indic scripts and Mongolian.
  private static func isShaped(_ scalar: Unicode.Scalar) -> Bool {
    guard scalar.properties.isAlphabetic || scalar.properties.generalCategory == .nonspacingMark else { return false }
    switch scalar.value {
    case 0x0600...0x07FF, 0x0860...0x08FF, 0x0900...0x0DFF, 0x1800...0x18AF, 0xFB50...0xFDFF, 0xFE70...0xFEFF:
      return true
    default:
      return false
    }
  }

  private static func octal(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 8)
    return String(repeating: "0", count: 3 - digits.count) + digits
  }
}
