// Dates and times of day as a wall calendar and clock show them, with no time zone: the
// proleptic Gregorian calendar (ISO 8601's, and SQLite's), counted in days from 1970-01-01 by
// Howard Hinnant's days_from_civil and civil_from_days
// ("chrono-Compatible Low-Level Date Algorithms"), so that file-name stamps, JSON dates and
// local time need no calendar object or time zone database.
//
// Invariants: `month` is 1...12 and `day` 1...the month's length (the failable initializer
// refuses anything else, and the arithmetic keeps it so); `hour` 0...23, `minute` and
// `second` 0...59, except that a CivilDateTime read from text may carry a leap second 60.

/// A day of the proleptic Gregorian calendar.
package struct CivilDate: Hashable, Comparable, Sendable {
  package private(set) var year: Int
  /// 1...12.
  package private(set) var month: Int
  /// 1...31, within the month.
  package private(set) var day: Int

  /// The date, or nil when the month has no such day (2025-02-30, 2025-13-01).
  package init?(year: Int, month: Int, day: Int) {
    guard (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, year: year) else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// The day `days` after 1970-01-01 (before it when negative).
  package init(daysSince1970 days: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// Days from 1970-01-01 to this date (negative before it).
  package var daysSince1970: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date `days` later (earlier when negative).
  package func adding(days: Int) -> CivilDate {
    CivilDate(daysSince1970: daysSince1970 + days)
  }

  /// The date `months` later (earlier when negative), on the same day of the month or, when
  /// that month is shorter, its last day, as Foundation's Calendar adds months: January 31st
  /// and one month is February 28th (29th in a leap year), not March 3rd.
  package func adding(months: Int) -> CivilDate {
    let index = year * 12 + (month - 1) + months
    let newYear = index >= 0 ? index / 12 : (index - 11) / 12
    let newMonth = index - newYear * 12 + 1
    var date = self
    date.year = newYear
    date.month = newMonth
    date.day = min(day, Self.days(inMonth: newMonth, year: newYear))
    return date
  }

  /// The date `years` later (earlier when negative); February 29th becomes the 28th in a
  /// year that is not a leap year.
  package func adding(years: Int) -> CivilDate {
    adding(months: years * 12)
  }

  /// The number of days in `month` (1...12) of `year`.
  package static func days(inMonth month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  package static func isLeapYear(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  package static func < (a: CivilDate, b: CivilDate) -> Bool {
    (a.year, a.month, a.day) < (b.year, b.month, b.day)
  }
}

/// A date and a time of day on a wall clock, to the second, in no particular time zone.
package struct CivilDateTime: Hashable, Sendable {
  package var date: CivilDate
  /// 0...23.
  package var hour: Int
  /// 0...59.
  package var minute: Int
  /// 0...59 (60 only when read from text that has a leap second).
  package var second: Int

  package init(date: CivilDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
    self.date = date
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  /// The civil date-time UTC shows at `seconds` since 1970 (before it when negative).
  package init(secondsSince1970 seconds: Int64) {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = Int(seconds - days * 86_400)
    self.init(
      date: CivilDate(daysSince1970: Int(days)), hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60,
      second: secondOfDay % 60)
  }

  /// Seconds since 1970 of the instant UTC shows this date-time; for another time zone,
  /// subtract its offset from UTC.
  package var secondsSince1970: Int64 {
    Int64(date.daysSince1970) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
  }

  /// `2025-10-05 14:03` (with `seconds`, `2025-10-05 14:03:12`); `separator` between the date
  /// and the time. Years outside 0...9999 are written as they are.
  package func text(seconds: Bool = false, separator: Character = " ") -> String {
    var out: [UInt8] = []
    out.reserveCapacity(19)
    // Digit by digit: a web page shows a date per card, and a String per number cost more than
    // the rest of a card.
    func append(_ value: Int, width: Int) {
      var divisor = 1
      for _ in 1..<width { divisor *= 10 }
      guard value >= 0, value < divisor * 10 else {  // a year before 0 or after 9999: as it is
        out.append(contentsOf: String(value).utf8)
        return
      }
      while divisor > 0 {
        out.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
        divisor /= 10
      }
    }
    append(date.year, width: 4)
    out.append(UInt8(ascii: "-"))
    append(date.month, width: 2)
    out.append(UInt8(ascii: "-"))
    append(date.day, width: 2)
    out.append(contentsOf: String(separator).utf8)
    append(hour, width: 2)
    out.append(UInt8(ascii: ":"))
    append(minute, width: 2)
    if seconds {
      out.append(UInt8(ascii: ":"))
      append(second, width: 2)
    }
    return String(decoding: out, as: UTF8.self)
  }
}
