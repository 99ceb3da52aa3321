// Dates as people type them, one grammar for every option and search term (`forms` lists it
// for the help and every error sentence): `2025`, `2025-10`, `2025-10-05`, a date and time
// (`2025-10-05T14:03`, with `:12` seconds, `.250` fractions, and `Z` or an offset `+02:00`;
// a space for the `T`), `today`, `yesterday`, and ages: `30min`, `12h`, `7d`, `3w`, `2mo`,
// `1y`. A bare `m` is refused: half of the people who write `30m` mean minutes, the other half
// months (`ambiguousAge`). Each expression is a period as long as its precision: a date
// without a time is the whole day (month, year) in local time, `14:03` the whole minute. An
// age is a moment (7 days ago), and stands for the range from it until now: `saved:7d` is "in
// the last 7 days", while comparisons compare ages (`saved:<7d`, less than 7 days ago).
//
// Local time is the system's or a given time zone's (LocalTime), for every form alike: days,
// months and years, ages in days and more (the same clock time that many days ago), and
// date-times written without an offset. Days are those of the proleptic Gregorian calendar,
// as in ISO 8601 and SQLite.

import FoundationEssentials
import InklingFormats

/// A half-open range of instants, in milliseconds since 1970.
public struct DateRange: Hashable, Sendable {
  public var start: Int64
  public var end: Int64
  /// Whether the range is an age (`7d`): from the moment `start` until now. Comparisons take
  /// such a range as an age, not as a period: `>7d` is older than it, before its moment.
  public var isAge: Bool

  public init(start: Int64, end: Int64, isAge: Bool = false) {
    self.start = start
    self.end = end
    self.isAge = isAge
  }
}

public enum DateExpression {
  /// Every form `parse` takes, for help texts and the sentence of an invalid date.
  public static let forms =
    "2025, 2025-10, 2025-10-05, 2025-10-05T14:03 (with :12 seconds, Z or +02:00 for UTC or an offset), "
    + "today, yesterday, or an age: 30min, 12h, 7d, 3w, 2mo, 1y"

  /// For an age written with the unit `m` (`30m`), the two ages it could mean (`30min`,
  /// `30mo`); nil for any other text.
  public static func ambiguousAge(_ text: String) -> (minutes: String, months: String)? {
    let trimmed = text.trimmingSpaces().lowercased()
    guard trimmed.hasSuffix("m"), let count = Int(trimmed.dropLast()), count >= 0 else { return nil }
    return ("\(count)min", "\(count)mo")
  }

  /// The range `text` stands for, relative to `now` in `timeZone` (nil: the system's local
  /// time, from $TZ or /etc/localtime, read only when `text` needs it).
  ///
  /// - Throws: `ArchiveError.invalidDate` when `text` is none of the forms accepted.
  public static func parse(_ text: String, now: Date = Date(), timeZone: TimeZone? = nil) throws(ArchiveError)
    -> DateRange
  {
    let local = LocalTime(timeZone)
    let written = text.trimmingSpaces()
    let trimmed = written.lowercased()
    let nowMilliseconds = milliseconds(now)
    func period(_ first: CivilDate, until next: CivilDate) -> DateRange {
      DateRange(start: local.startOfDay(first) * 1000, end: local.startOfDay(next) * 1000)
    }
    switch trimmed {
    case "today", "now":
      let today = local.civil(milliseconds: nowMilliseconds).date
      return period(today, until: today.adding(days: 1))
    case "yesterday":
      let today = local.civil(milliseconds: nowMilliseconds).date
      return period(today.adding(days: -1), until: today)
    default:
      break
    }
    // An age: from that long ago until now.
    let digits = trimmed.prefix(while: \.isNumber)
    if !digits.isEmpty, let count = Int(digits), count < 100_000,
      let start = ago(count, String(trimmed.dropFirst(digits.count)), from: nowMilliseconds, in: local)
    {
      return DateRange(start: start, end: nowMilliseconds + 1, isAge: true)
    }
    let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
    if !trimmed.contains("t"), (1...3).contains(parts.count),
      parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }),
      parts[0].count == 4, let year = Int(parts[0]),
      let month = parts.count > 1 ? Int(parts[1]) : 1, let day = parts.count > 2 ? Int(parts[2]) : 1,
      let date = CivilDate(year: year, month: month, day: day)
    {
      let next =
        switch parts.count {
        case 1: date.adding(years: 1)
        case 2: date.adding(months: 1)
        default: date.adding(days: 1)
        }
      return period(date, until: next)
    }
    if let (instant, length) = dateTime(written, in: local) {
      return DateRange(start: instant, end: instant + length)
    }
    throw .invalidDate(text)
  }

  /// The moment `count` units (`min`, `h`, `d`, `w`, `mo`, `y`) before `now`, in
  /// milliseconds; nil for another unit. Minutes and hours are exact; days and longer keep the
  /// local clock time (a day across a change to summer time is 23 hours), months and years the
  /// day of the month where the month has it (CivilDate.adding(months:)).
  static func ago(_ count: Int, _ unit: String, from now: Int64, in local: LocalTime) -> Int64? {
    if unit == "min" { return now - Int64(count) * 60_000 }
    if unit == "h" { return now - Int64(count) * 3_600_000 }
    var civil = local.civil(milliseconds: now)
    switch unit {
    case "d": civil.date = civil.date.adding(days: -count)
    case "w": civil.date = civil.date.adding(days: -7 * count)
    case "mo": civil.date = civil.date.adding(months: -count)
    case "y": civil.date = civil.date.adding(years: -count)
    default: return nil
    }
    let fraction = now - (now >= 0 ? now / 1000 : (now - 999) / 1000) * 1000
    return local.seconds(at: civil) * 1000 + fraction
  }

  /// A date and time: its first moment in milliseconds since 1970, and how long the period it
  /// names lasts (a minute, a second, or a millisecond when it has a fraction). The time is
  /// `14:03`, `14:03:12` or `14:03:12.250`, after a `T` or a space, and is UTC with a `Z`,
  /// offset with `+02:00` or `+0200`, else local. Read strictly: each field has all its digits
  /// and the date exists; a leap second (`:60`) is refused, since no clock here can name one.
  static func dateTime(_ text: String, in local: LocalTime) -> (Int64, length: Int64)? {
    // RFC 3339 allows a lowercase `z`.
    let zoneWritten = text.hasSuffix("z") ? String(text.dropLast()) + "Z" : text
    guard let read = ISO8601DateTime(zoneWritten), read.civil.second < 60 else { return nil }
    let length: Int64 = read.hasFraction ? 1 : read.hasSeconds ? 1000 : 60_000
    if let instant = read.millisecondsSince1970 { return (instant, length) }
    return (local.seconds(at: read.civil) * 1000 + Int64(read.milliseconds), length)
  }

  /// Held to Int64's range, where `Int64(_:)` would trap.
  static func milliseconds(_ date: Date) -> Int64 {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    return Int64(exactly: milliseconds) ?? (milliseconds > 0 ? .max : .min)
  }
}
