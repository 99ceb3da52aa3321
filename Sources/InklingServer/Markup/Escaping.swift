// The one place that escapes, one function per context. Every value a page shows passes
// through one of them: HTML interpolation (HTML.swift) calls `text` or `attribute`, URLs are
// built from `urlComponent` only (Links.swift), and JSON is written by JSONWriter (which
// escapes quotes, backslashes, control characters and U+2028/U+2029) through `json`.
//
// Why these sets:
//   - text: `&` and `<` start markup; `>` closes it in odd places; quotes are escaped too so
//     that text misplaced inside an attribute still cannot end it.
//   - attribute: every attribute is written double-quoted by the pages; the same five
//     characters, so `"><img src=x onerror=…>` stays one harmless value.
//   - urlComponent: everything outside RFC 3986's unreserved set is percent-encoded, so a
//     component can never add a `/`, `?`, `&`, `#` or `=` to the URL it goes into.
//   - shellWord: a command a page shows for copying into a shell (sh, bash, zsh, fish): a
//     single-quoted word, in which nothing expands, with `'` and `\` written outside the
//     quotes (fish reads `\'` and `\\` as escapes inside them); a name with a character that
//     is unsafe to show by the one rule for terminals (`Quoted`: a newline, U+202E) as `"$(printf '…')"` with those bytes (and
//     `\`, and a leading `-`) as octal escapes, so that what is copied is what is seen and runs as one word in
//     all four (fish reads `$(…)` since 3.4); newlines at the very end of a name are lost.
//
// Names are isolated as well as escaped (docs/decisions.md, "Names are isolated in HTML, not
// only escaped"): a name holding bidi controls (U+202E RIGHT-TO-LEFT OVERRIDE, say) must not
// reorder the text around it. In markup a name goes in <bdi> (HTML.swift's `\(name:)`); where
// no element can go (the title, an attribute shown as text) it goes between U+2068 FIRST STRONG
// ISOLATE and U+2069 POP DIRECTIONAL ISOLATE. Chromium lays <bdi> out as those same two
// characters around its text, so in both forms the name is first `balanced`: a PDI of its own
// that closes no isolate it opened would close ours early, and an isolate it leaves open would
// take our closing PDI (UAX #9, X6a).

import InklingFormats
import InklingPresentation

enum Escape {
  /// Text between tags.
  static func text(_ value: String) -> String { replacing(value) }

  /// A double-quoted attribute value.
  static func attribute(_ value: String) -> String { replacing(value) }

  /// One path segment or query key or value of a URL: UTF-8, each byte outside
  /// `A–Z a–z 0–9 - . _ ~` as `%XX`.
  static func urlComponent(_ value: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(value.utf8.count * 3)
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        out.append(byte)
      default:
        out.append(UInt8(ascii: "%"))
        out.append(hexDigit(byte >> 4))
        out.append(hexDigit(byte & 0xF))
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `name` between FSI and PDI, balanced: for text that cannot hold a <bdi>.
  static func isolated(_ name: String) -> String { "\u{2068}" + balanced(name) + "\u{2069}" }

  /// `name` without the PDIs that close no isolate opened in it, and with a PDI for each
  /// isolate it leaves open; unchanged (no copy) for a name without isolate controls.
  static func balanced(_ name: String) -> String {
    guard name.unicodeScalars.contains(where: { (0x2066...0x2069).contains($0.value) }) else { return name }
    var out = String.UnicodeScalarView()
    var open = 0
    for scalar in name.unicodeScalars {
      switch scalar.value {
      case 0x2066...0x2068:
        open += 1
        out.append(scalar)
      case 0x2069:
        guard open > 0 else { continue }
        open -= 1
        out.append(scalar)
      default: out.append(scalar)
      }
    }
    out.append(contentsOf: repeatElement(Unicode.Scalar(0x2069)!, count: open))
    return String(out)
  }

  /// One word of a shell command, quoted so that the shell takes it as it is.
  static func shellWord(_ word: String) -> String {
    let plain =
      !word.isEmpty
      && word.utf8.allSatisfy { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || "_-./:@+,".utf8.contains(byte)
      }
    if plain { return word }
    // Unsafe by the rule every terminal text follows (Quoted): what is copied is what is seen.
    let unsafe = Quoted.unsafeScalars(in: word)
    guard unsafe.contains(true) else {
      var quoted = "'"
      for scalar in word.unicodeScalars {
        switch scalar {
        case "'": quoted += "'\\''"
        case "\\": quoted += "'\\\\'"
        default: quoted.unicodeScalars.append(scalar)
        }
      }
      return quoted + "'"
    }
    var format = ""
    for (scalar, invisible) in zip(word.unicodeScalars, unsafe) {
      // A leading `-` would make the format an option of printf.
      if invisible || scalar == "\\" || (scalar == "-" && format.isEmpty) {
        for byte in String(scalar).utf8 {
          let digits = String(byte, radix: 8)
          format += "\\" + String(repeating: "0", count: 3 - digits.count) + digits
        }
      } else {
        switch scalar {
        case "%": format += "%%"
        case "'": format += "'\\''"
        default: format.unicodeScalars.append(scalar)
        }
      }
    }
    return "\"$(printf '" + format + "')\""
  }

  /// A JSON document as UTF-8 bytes, one line.
  static func json(_ value: JSONValue) -> [UInt8] { Array(JSONWriter().string(value).utf8) }

  private static func replacing(_ value: String) -> String {
    // Most names need nothing: one scan, no copy.
    guard value.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
      return value
    }
    // The five are ASCII, so they are never part of a multi-byte character: bytes suffice.
    var out: [UInt8] = []
    out.reserveCapacity(value.utf8.count + 32)
    for byte in value.utf8 {
      switch byte {
      case 0x26: out.append(contentsOf: "&amp;".utf8)
      case 0x3C: out.append(contentsOf: "&lt;".utf8)
      case 0x3E: out.append(contentsOf: "&gt;".utf8)
      case 0x22: out.append(contentsOf: "&quot;".utf8)
      case 0x27: out.append(contentsOf: "&#39;".utf8)
      default: out.append(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
  }
}
