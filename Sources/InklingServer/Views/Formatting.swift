// How pages show dates, sizes and counts to people: local time (the server's, $TZ), as the
// command line does; machine-readable dates go into <time datetime> and JSON as ISO 8601 UTC.

import Foundation
import InklingArchive
import InklingCommandLine

enum Formatting {
  /// `2025-10-05 14:03` in the local time zone.
  static func date(_ date: Date) -> String {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var local = tm()
    guard localtime_r(&seconds, &local) != nil else { return iso(date) }
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return
      "\(local.tm_year + 1900)-\(two(local.tm_mon + 1))-\(two(local.tm_mday)) \(two(local.tm_hour)):\(two(local.tm_min))"
  }

  /// `2025-10-05T14:03:12Z`.
  static func iso(_ date: Date) -> String { ISO8601UTC.string(date, fractionalSeconds: false) }

  /// A <time> element: the local date as text, UTC in its attribute.
  static func time(_ date: Date) -> HTML {
    "<time datetime=\"\(attribute: iso(date))\">\(Formatting.date(date))</time>"
  }

  /// `3.4 KB`, as the command line prints sizes (powers of 1000).
  static func bytes(_ count: Int64) -> String {
    let units = ["B", "KB", "MB", "GB", "TB"]
    var value = Double(count)
    var unit = 0
    while value >= 1000 && unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    return unit == 0 ? "\(count) B" : String(format: value < 10 ? "%.1f %@" : "%.0f %@", value, units[unit])
  }

  /// `1 version`, `3 versions`.
  static func count(_ value: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(value) \(value == 1 ? singular : plural ?? singular + "s")"
  }

  /// `#1a1a1f`, with the alpha when not opaque.
  static func color(red: Double, green: Double, blue: Double, alpha: Double) -> String {
    func hex(_ value: Double) -> String { String(format: "%02x", Int((min(max(value, 0), 1) * 255).rounded())) }
    let base = "#" + hex(red) + hex(green) + hex(blue)
    return alpha < 1 ? base + String(format: " (alpha %.2f)", alpha) : base
  }
}
