// Dates as people type them (../shared/docs/product.md): `2025`, `2025-10`, `2025-10-05`,
// full ISO 8601, `today`, `yesterday`, and ages `7d`, `3w`, `2m`, `1y`. A date without a
// time means the whole day (month, year) in local time, so each expression is a range. An age
// is a moment (7 days ago), and stands for the range from it until now: `saved:7d` is "in the
// last 7 days", while comparisons compare with the moment (`saved:>7d`, after it).

import Foundation

/// A half-open range of instants, in milliseconds since 1970.
public struct DateRange: Hashable, Sendable {
  public var start: Int64
  public var end: Int64
  /// Whether the range is an age (`7d`): from the moment `start` until now. Comparisons take
  /// such a range at its moment, not as a period: `>7d` is after it, not after now.
  public var isAge: Bool

  public init(start: Int64, end: Int64, isAge: Bool = false) {
    self.start = start
    self.end = end
    self.isAge = isAge
  }
}

public enum DateExpression {
  /// The range `text` stands for, relative to `now` in `timeZone` (nil: the current one).
  ///
  /// - Throws: `ArchiveError.invalidDate` when `text` is none of the forms accepted.
  public static func parse(_ text: String, now: Date = Date(), timeZone: TimeZone? = nil) throws(ArchiveError)
    -> DateRange
  {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone ?? .current
    let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
    func range(_ start: Date, _ component: Calendar.Component, _ count: Int = 1) -> DateRange {
      let end = calendar.date(byAdding: component, value: count, to: start)!
      return DateRange(start: milliseconds(start), end: milliseconds(end))
    }
    switch trimmed {
    case "today", "now":
      return range(calendar.startOfDay(for: now), .day)
    case "yesterday":
      return range(calendar.date(byAdding: .day, value: -1, to: calendar.startOfDay(for: now))!, .day)
    default:
      break
    }
    // An age: from that long ago until now.
    if let unit = trimmed.last, let count = Int(trimmed.dropLast()), count >= 0, count < 100_000 {
      let component: Calendar.Component? =
        switch unit {
        case "h": .hour
        case "d": .day
        case "w": .weekOfYear
        case "m": .month
        case "y": .year
        default: nil
        }
      if let component, let start = calendar.date(byAdding: component, value: -count, to: now) {
        return DateRange(start: milliseconds(start), end: milliseconds(now) + 1, isAge: true)
      }
    }
    let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
    if !trimmed.contains("t"), (1...3).contains(parts.count),
      parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
      parts[0].count == 4, let year = Int(parts[0])
    {
      let month = parts.count > 1 ? Int(parts[1]) : 1
      let day = parts.count > 2 ? Int(parts[2]) : 1
      let components = DateComponents(year: year, month: month, day: day)
      if let month, let day, (1...12).contains(month), (1...31).contains(day),
        let start = calendar.date(from: components),
        calendar.component(.day, from: start) == day
      {
        return range(start, parts.count == 1 ? .year : parts.count == 2 ? .month : .day)
      }
    }
    if let stamp = ISO8601Parsing.parse(text.trimmingCharacters(in: .whitespaces)) {
      return DateRange(start: milliseconds(stamp), end: milliseconds(stamp) + 1000)
    }
    throw .invalidDate(text)
  }

  static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}

/// Full ISO 8601 date-times, with or without fractional seconds and offset (local if none).
enum ISO8601Parsing {
  static func parse(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    for options: ISO8601DateFormatter.Options in [
      [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
    ] {
      formatter.formatOptions = options
      if let date = formatter.date(from: text) { return date }
    }
    let local = DateFormatter()
    local.locale = Locale(identifier: "en_US_POSIX")
    local.timeZone = .current
    for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm"] {
      local.dateFormat = format
      if let date = local.date(from: text) { return date }
    }
    return nil
  }
}
