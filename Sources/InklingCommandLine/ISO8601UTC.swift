// Dates as ISO 8601 UTC text — `2025-10-05T14:03:22Z` — computed arithmetically.
//
// No formatter, locale or time-zone database is involved, so output cannot vary with the
// environment. The civil-date conversion is Howard Hinnant's days_from_civil inverse
// (http://howardhinnant.github.io/date_algorithms.html#civil_from_days), valid for the
// proleptic Gregorian calendar far beyond any draft's lifetime.

import FoundationEssentials

package enum ISO8601UTC {
  /// `2025-10-05T14:03:22Z`, or with `fractionalSeconds` `2025-10-05T14:03:22.250Z`
  /// (milliseconds, truncated toward the past so a date never prints as later than it is).
  package static func string(_ date: Date, fractionalSeconds: Bool = false) -> String {
    let interval = date.timeIntervalSince1970
    let whole = interval.rounded(.down)
    let millis = fractionalSeconds ? min(999, Int(((interval - whole) * 1000).rounded(.down))) : 0
    let seconds = Int(whole)
    let days = seconds.floorDivided(by: 86_400)
    let secondOfDay = seconds - days * 86_400
    let (year, month, day) = civil(fromDays: days)
    var text =
      "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
      + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
    if fractionalSeconds { text += "." + pad(millis, 3) }
    return text + "Z"
  }

  /// Year, month (1–12), day (1–31) of the day `days` after 1970-01-01.
  static func civil(fromDays days: Int) -> (Int, Int, Int) {
    let z = days + 719_468
    let era = z.floorDivided(by: 146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(abs(value))
    return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count))
      + digits
  }
}

extension Int {
  /// Division rounding toward negative infinity (dates before 1970 need it).
  fileprivate func floorDivided(by divisor: Int) -> Int {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}
