// Dates, sizes, counts and colours as people read them (JSON has its own exact forms).

import FoundationEssentials
import InklingArchive
import InklingFormats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// People-facing formats.
package enum Format {
  /// `yyyy-MM-dd HH:mm:ss` in the system's local time ($TZ, else /etc/localtime), the one
  /// that dates typed into `list` and `search` are read in (LocalTime); `.250` follows when
  /// the date has milliseconds, so two saves in one second, and the date `restore --at`
  /// needs to tell them apart, show as they are.
  package static func date(_ date: Date) -> String {
    let (seconds, milliseconds) = ISO8601UTC.parts(date)
    let text = LocalTime(nil).civil(at: Int64(seconds)).text(seconds: true)
    guard milliseconds != 0 else { return text }
    let digits = String(milliseconds)
    return text + "." + String(repeating: "0", count: 3 - digits.count) + digits
  }

  package static func bytes(_ count: Int64) -> String {
    let units = ["B", "KB", "MB", "GB", "TB"]
    var value = Double(count)
    var unit = 0
    while value >= 1000 && unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    return unit == 0 ? "\(count) B" : decimal(value, digits: value < 10 ? 1 : 0) + " " + units[unit]
  }

  /// `value` with its thousands grouped by commas: 13364 → "13,364". By hand, not with
  /// NumberFormatter, which sets up ICU on every call: far more work than the digits.
  package static func count(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var grouped = value < 0 ? "-" : ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
      grouped.append(digit)
    }
    return grouped
  }

  /// Stars as a row of them, `★★★`; `-` for none. Kept to 1…5, the archive's range.
  package static func stars(_ stars: Int?) -> String {
    guard let stars, stars > 0 else { return "-" }
    return String(repeating: "★", count: min(stars, 5))
  }

  /// `2025-10-05 14:03`: local time to the minute, where a date is one of many (the web's
  /// cards and tables); the same clock as `date`.
  package static func minute(_ date: Date) -> String {
    LocalTime(nil).civil(at: Int64(ISO8601UTC.parts(date).seconds)).text(seconds: false)
  }

  /// A colour as `#rrggbb` (clamped) and, when not opaque, its alpha: `#1a1a1f (alpha 0.50)`.
  package static func color(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> String {
    let base = "#" + hexByte(r) + hexByte(g) + hexByte(b)
    return a < 1 ? base + " (alpha " + decimal(a, digits: 2) + ")" : base
  }

  /// A colour component in 0…1 as two hex digits, clamped. NaN, which an archive from
  /// elsewhere can hold, is 0: a colour is shown, never a reason to stop.
  package static func hexByte(_ component: Double) -> String {
    let byte = Int((min(max(component.isNaN ? 0 : component, 0), 1) * 255).rounded())
    let digits = String(byte, radix: 16)
    return byte < 16 ? "0" + digits : digits
  }

  package static func color(_ color: RGBA) -> String {
    Self.color(color.red, color.green, color.blue, color.alpha)
  }

  /// `x,y width×height`, whole numbers without decimals; `-` for none.
  package static func rect(_ rect: Rect?) -> String {
    guard let rect else { return "-" }
    return "\(number(rect.x)),\(number(rect.y)) \(number(rect.width))×\(number(rect.height))"
  }

  /// A number as people write it: `2`, `6.2`, `0.5` (one decimal at most).
  package static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : decimal(value, digits: 1)
  }

  /// `value` with `digits` decimals, rounded as printf's `%.Nf` rounds (the exact binary
  /// value to nearest). Through the C library: Foundation's String(format:) does the same,
  /// and Foundation proper is what this module does without (FoundationEssentials has no
  /// formatter of its own).
  package static func decimal(_ value: Double, digits: Int) -> String {
    var buffer = [CChar](repeating: 0, count: 400)
    let count = withVaList([Int32(max(0, min(digits, 17))), value]) { arguments in
      vsnprintf(&buffer, buffer.count, "%.*f", arguments)
    }
    guard count >= 0, Int(count) < buffer.count else { return "\(value)" }
    return String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// A duration: `0.25 s`.
  package static func seconds(_ seconds: Double) -> String {
    decimal(seconds, digits: 2) + " s"
  }

  /// A longer span in whole units: `42 s`, `3 min 5 s`, `2 h 7 min`, `3 d 4 h`.
  package static func span(seconds: Int64) -> String {
    let (days, hours, minutes, rest) = (seconds / 86_400, seconds / 3600 % 24, seconds / 60 % 60, seconds % 60)
    if days > 0 { return "\(days) d \(hours) h" }
    if hours > 0 { return "\(hours) h \(minutes) min" }
    if minutes > 0 { return "\(minutes) min \(rest) s" }
    return "\(max(0, rest)) s"
  }

  /// A ratio as a percentage: `12.3%`.
  package static func percent(_ ratio: Double) -> String {
    decimal(ratio * 100, digits: 1) + "%"
  }
}
