// Dates as ISO 8601 UTC text — `2025-10-05T14:03:22Z` — computed arithmetically.
//
// No formatter, locale or time-zone database is involved, so output cannot vary with the
// environment: the day is CivilDate's, the proleptic Gregorian calendar.

import FoundationEssentials

package enum ISO8601UTC {
  /// `2025-10-05T14:03:22Z`, or with `fractionalSeconds` `2025-10-05T14:03:22.250Z`
  /// (milliseconds, truncated toward the past so a date never prints as later than it is).
  /// Without it the milliseconds are written only when there are some, so a save stamped
  /// `14:03:12.250` is not told as `14:03:12`.
  package static func string(_ date: Date, fractionalSeconds: Bool = false) -> String {
    let (seconds, millis) = parts(date)
    let days = seconds.floorDivided(by: 86_400)
    let secondOfDay = seconds - days * 86_400
    let date = CivilDate(daysSince1970: days)
    var text =
      "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))T"
      + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
    if fractionalSeconds || millis != 0 { text += "." + pad(millis, 3) }
    return text + "Z"
  }

  /// Whole seconds since 1970 (toward the past) and the milliseconds after them, truncated.
  /// The archive keeps dates in milliseconds, which a `Double` of seconds holds only nearly
  /// (`.25` is exact, `.3` a hair below): a microsecond more keeps `.300` from reading `.299`.
  package static func parts(_ date: Date) -> (seconds: Int, milliseconds: Int) {
    let interval = date.timeIntervalSince1970
    let whole = interval.rounded(.down)
    // Beyond any calendar a person reads (and past what milliseconds in an Int hold), whole
    // seconds, as before there were milliseconds to show.
    guard abs(whole) < 1e15, let seconds = Int(exactly: whole) else {
      return (Int(exactly: whole) ?? (whole > 0 ? Int.max : Int.min), 0)
    }
    let milliseconds = Int(((interval - whole) * 1000 + 0.001).rounded(.down))
    return milliseconds >= 1000 ? (seconds + 1, 0) : (seconds, milliseconds)
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
