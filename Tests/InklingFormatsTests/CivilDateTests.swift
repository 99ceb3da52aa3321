import Foundation
import InklingCorpus
import InklingFormats
import Testing

/// Days of the proleptic Gregorian calendar and ISO 8601 date-times, against Foundation's
/// UTC calendar where it agrees (from 1583 on: before, it is the Julian calendar).
@Suite struct CivilDateTests {
  static var utcCalendar: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }

  @Test func daysRoundTripAndAgreeWithFoundation() {
    let calendar = Self.utcCalendar
    var random = SeededRandom(seed: 1970)
    // 1583-01-01 is day -141_349; 9999-12-31 is day 2_932_896.
    let samples =
      [-141_349, -1, 0, 1, 10_957, 11_016, 2_932_896]
      + (0..<2000).map { _ in Int.random(in: -141_349...2_932_896, using: &random) }
    for days in samples {
      let date = CivilDate(daysSince1970: days)
      #expect(date.daysSince1970 == days)
      let parts = calendar.dateComponents(
        [.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
      #expect([date.year, date.month, date.day] == [parts.year, parts.month, parts.day], "day \(days)")
    }
    // Far outside any draft's dates, the arithmetic still holds.
    for days in [-1_000_000_000, -719_468, -719_469, 1_000_000_000] {
      #expect(CivilDate(daysSince1970: days).daysSince1970 == days)
    }
  }

  @Test func daysBefore1970() {
    #expect(CivilDate(daysSince1970: -1) == CivilDate(year: 1969, month: 12, day: 31))
    #expect(CivilDate(year: 1900, month: 1, day: 1)!.daysSince1970 == -25_567)
    #expect(CivilDate(year: 0, month: 3, day: 1)!.daysSince1970 == -719_468)
    #expect(CivilDate(year: -1, month: 12, day: 31)!.adding(days: 1) == CivilDate(year: 0, month: 1, day: 1))
    let before = CivilDateTime(secondsSince1970: -1)
    #expect(before.date == CivilDate(year: 1969, month: 12, day: 31))
    #expect(before.hour == 23 && before.minute == 59 && before.second == 59)
    #expect(before.secondsSince1970 == -1)
    #expect(CivilDateTime(secondsSince1970: -86_400).text(seconds: true) == "1969-12-31 00:00:00")
    #expect(CivilDateTime(secondsSince1970: -86_401).text(seconds: true, separator: "T") == "1969-12-30T23:59:59")
  }

  @Test func leapYears() {
    for (year, leap) in [(2024, true), (2025, false), (2000, true), (1900, false), (2100, false), (1600, true)] {
      #expect(CivilDate.isLeapYear(year) == leap, "\(year)")
      #expect((CivilDate(year: year, month: 2, day: 29) != nil) == leap, "\(year)")
      let yearLength =
        CivilDate(year: year + 1, month: 1, day: 1)!.daysSince1970
        - CivilDate(year: year, month: 1, day: 1)!.daysSince1970
      #expect(yearLength == (leap ? 366 : 365), "\(year)")
    }
    #expect(CivilDate(year: 2025, month: 2, day: 30) == nil)
    #expect(CivilDate(year: 2025, month: 4, day: 31) == nil)
    #expect(CivilDate(year: 2025, month: 13, day: 1) == nil)
    #expect(CivilDate(year: 2025, month: 0, day: 1) == nil)
    #expect(CivilDate(year: 2025, month: 1, day: 0) == nil)
  }

  @Test func monthsAreAddedWithTheDayClampedAsCalendarDoes() {
    func date(_ year: Int, _ month: Int, _ day: Int) -> CivilDate { CivilDate(year: year, month: month, day: day)! }
    #expect(date(2025, 1, 31).adding(months: 1) == date(2025, 2, 28))
    #expect(date(2024, 1, 31).adding(months: 1) == date(2024, 2, 29))
    #expect(date(2024, 3, 31).adding(months: -1) == date(2024, 2, 29))
    #expect(date(2025, 1, 31).adding(months: 3) == date(2025, 4, 30))
    #expect(date(2025, 12, 31).adding(months: 2) == date(2026, 2, 28))
    #expect(date(2025, 1, 15).adding(months: -13) == date(2023, 12, 15))
    #expect(date(2025, 1, 15).adding(months: -24) == date(2023, 1, 15))
    #expect(date(2024, 2, 29).adding(years: 1) == date(2025, 2, 28))
    #expect(date(2024, 2, 29).adding(years: 4) == date(2028, 2, 29))
    #expect(date(2024, 2, 29).adding(years: -1) == date(2023, 2, 28))
    #expect(date(1, 1, 31).adding(months: -2) == date(0, 11, 30))
    #expect(date(0, 1, 1).adding(months: -1) == date(-1, 12, 1))

    // Two years and a month back from late March is February: Foundation's Calendar (Swift
    // 6.3) answers March 1st in 2022 and February 28th in 2024.
    #expect(date(2024, 3, 31).adding(months: -25) == date(2022, 2, 28))
    #expect(date(2026, 3, 29).adding(months: -25) == date(2024, 2, 29))

    // Otherwise the same as Calendar, for every day of four years and several lengths.
    let calendar = Self.utcCalendar
    var day = date(2023, 1, 1)
    while day < date(2027, 1, 1) {
      let start = Date(timeIntervalSince1970: Double(day.daysSince1970) * 86_400)
      for months in [-37, -13, -12, -1, 1, 2, 11, 12, 13, 48] {
        let expected = calendar.date(byAdding: .month, value: months, to: start)!
        #expect(Double(day.adding(months: months).daysSince1970) * 86_400 == expected.timeIntervalSince1970)
      }
      day = day.adding(days: 1)
    }
  }

  @Test func dateTimesAreReadStrictly() throws {
    let utc = try #require(ISO8601DateTime("2025-10-05T14:03:12Z"))
    #expect(utc.millisecondsSince1970 == 1_759_672_992_000)
    #expect(utc.hasSeconds && !utc.hasSpaceSeparator && !utc.hasFraction && utc.zone == .utc)
    #expect(ISO8601DateTime("2025-10-05T16:03:12+02:00")?.millisecondsSince1970 == 1_759_672_992_000)
    #expect(ISO8601DateTime("2025-10-05T11:33:12-0230")?.millisecondsSince1970 == 1_759_672_992_000)
    #expect(ISO8601DateTime("2025-10-05T14:03:12.25Z")?.millisecondsSince1970 == 1_759_672_992_250)
    #expect(ISO8601DateTime("2025-10-05T14:03:12.123456Z")?.millisecondsSince1970 == 1_759_672_992_123)
    #expect(ISO8601DateTime("1969-12-31T23:59:59.500Z")?.millisecondsSince1970 == -500)
    let local = try #require(ISO8601DateTime("2025-10-05 14:03"))
    #expect(local.zone == nil && local.millisecondsSince1970 == nil && !local.hasSeconds && local.hasSpaceSeparator)
    #expect(local.civil == CivilDateTime(date: CivilDate(year: 2025, month: 10, day: 5)!, hour: 14, minute: 3))
    for text in [
      "2025-02-30T10:00:00Z", "2025-10-5T14:03:12Z", "2025-10-05T14:3", "2025-10-05T4:03", "2025-10-05T24:00:00Z",
      "2025-10-05T14:60", "2025-10-05T14:03:61Z", "2025-10-05T14:03:12.Z", "2025-10-05T14:03:12+19:00",
      "2025-10-05T14:03:12+02", "12025-10-05T14:03:12Z", "2025-10-05T14:03:12ZZ", "2025-10-05  14:03",
      "2025-10-05t14:03", "2025-10-05", "20251005T140312Z", "2025-10-05T14:03.5",
    ] {
      #expect(ISO8601DateTime(text) == nil, "\(text)")
    }
  }
}
