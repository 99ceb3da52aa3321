// How pages show dates, sizes and counts to people: local time (the server's, $TZ), as the
// command line does; machine-readable dates go into <time datetime> and JSON as ISO 8601 UTC.

import FoundationEssentials
import Glibc
import InklingArchive
import InklingPresentation

enum Formatting {
  /// `2025-10-05 14:03` in the local time zone.
  static func date(_ date: Date) -> String {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var local = tm()
    guard localtime_r(&seconds, &local) != nil else { return iso(date) }
    return digits(local, seconds: false, separator: " ", suffix: "")
  }

  /// `2025-10-05T14:03:12Z`.
  static func iso(_ date: Date) -> String {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var utc = tm()
    gmtime_r(&seconds, &utc)
    return digits(utc, seconds: true, separator: "T", suffix: "Z")
  }

  /// A <time> element: the local date as text, UTC in its attribute.
  static func time(_ date: Date) -> HTML {
    "<time datetime=\"\(attribute: iso(date))\">\(Formatting.date(date))</time>"
  }

  /// `YYYY-MM-DD?HH:MM[:SS]…` of broken-down time, built as bytes: a grid page shows two
  /// dates a card, and interpolating numbers into strings cost more than the rest of a card.
  private static func digits(_ time: tm, seconds: Bool, separator: Character, suffix: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(24)
    func append(_ value: Int32, width: Int) {
      var divisor: Int32 = 1
      for _ in 1..<width { divisor *= 10 }
      guard value >= 0, value < divisor * 10 else {  // a year before 0 or after 9999: as it is
        out.append(contentsOf: String(value).utf8)
        return
      }
      var rest = value
      while divisor > 0 {
        out.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
        rest %= divisor
        divisor /= 10
      }
    }
    append(time.tm_year + 1900, width: 4)
    out.append(UInt8(ascii: "-"))
    append(time.tm_mon + 1, width: 2)
    out.append(UInt8(ascii: "-"))
    append(time.tm_mday, width: 2)
    out.append(contentsOf: String(separator).utf8)
    append(time.tm_hour, width: 2)
    out.append(UInt8(ascii: ":"))
    append(time.tm_min, width: 2)
    if seconds {
      out.append(UInt8(ascii: ":"))
      append(time.tm_sec, width: 2)
    }
    out.append(contentsOf: suffix.utf8)
    return String(decoding: out, as: UTF8.self)
  }

  /// `#1a1a1f`, with the alpha when not opaque.
  static func color(red: Double, green: Double, blue: Double, alpha: Double) -> String {
    func hex(_ value: Double) -> String {
      let byte = Int((min(max(value.isNaN ? 0 : value, 0), 1) * 255).rounded())
      let digits = String(byte, radix: 16)
      return byte < 16 ? "0" + digits : digits
    }
    let base = "#" + hex(red) + hex(green) + hex(blue)
    return alpha < 1 ? base + " (alpha " + Format.decimal(alpha, digits: 2) + ")" : base
  }
}
