import Foundation
import InklingCorpus
import InklingFormats
import Testing

@testable import InklingArchive

/// Local civil time from time zone offsets alone (what the executable has without
/// Foundation's time zone database), and the dates people type read in it, against
/// Foundation's Calendar where the two are meant to agree.
@Suite struct LocalTimeTests {
  static let berlin = LocalTime(TimeZone(identifier: "Europe/Berlin")!)
  static let utc = TimeZone(identifier: "UTC")!

  /// Seconds since 1970 of `text`, an ISO 8601 UTC stamp.
  func instant(_ text: String) -> Int64 { ISO8601DateTime(text)!.millisecondsSince1970! / 1000 }

  func civil(_ text: String) -> CivilDateTime { ISO8601DateTime(text)!.civil }

  func range(_ text: String, in zone: String, now: String = "2026-11-29T12:00:00Z") throws -> DateRange {
    try DateExpression.parse(
      text, now: Date(timeIntervalSince1970: Double(instant(now))), timeZone: TimeZone(identifier: zone)!)
  }

  // MARK: - Changes of offset

  @Test func aTimeInTheSpringGapIsReadWithTheOffsetBeforeIt() throws {
    // 2025-03-30 in Berlin: at 02:00 CET (01:00Z) clocks jump to 03:00 CEST.
    let local = Self.berlin
    #expect(local.offset(at: instant("2025-03-30T00:59:59Z")) == 3600)
    #expect(local.offset(at: instant("2025-03-30T01:00:00Z")) == 7200)
    #expect(local.seconds(at: civil("2025-03-30T01:59:59")) == instant("2025-03-30T00:59:59Z"))
    // 02:00 to 02:59 never happen; 02:30 is read as the old clock would have run on: 03:30 CEST.
    #expect(local.seconds(at: civil("2025-03-30T02:00")) == instant("2025-03-30T01:00:00Z"))
    #expect(local.seconds(at: civil("2025-03-30T02:30")) == instant("2025-03-30T01:30:00Z"))
    #expect(local.civil(at: instant("2025-03-30T01:30:00Z")) == civil("2025-03-30T03:30"))
    #expect(local.seconds(at: civil("2025-03-30T03:00")) == instant("2025-03-30T01:00:00Z"))
    #expect(local.seconds(at: civil("2025-03-30T03:30")) == instant("2025-03-30T01:30:00Z"))
    // The day is 23 hours long, and a time typed in the gap is a second from that instant.
    let day = try range("2025-03-30", in: "Europe/Berlin")
    #expect(day.start == instant("2025-03-29T23:00:00Z") * 1000 && day.end - day.start == 23 * 3_600_000)
    #expect(try range("2025-03-30T02:30", in: "Europe/Berlin").start == instant("2025-03-30T01:30:00Z") * 1000)
  }

  @Test func aTimeInTheAutumnOverlapIsTheFirstOfTheTwo() throws {
    // 2025-10-26 in Berlin: at 03:00 CEST (01:00Z) clocks go back to 02:00 CET.
    let local = Self.berlin
    #expect(local.civil(at: instant("2025-10-26T00:30:00Z")) == civil("2025-10-26T02:30"))
    #expect(local.civil(at: instant("2025-10-26T01:30:00Z")) == civil("2025-10-26T02:30"))
    #expect(local.seconds(at: civil("2025-10-26T02:30")) == instant("2025-10-26T00:30:00Z"))
    #expect(local.seconds(at: civil("2025-10-26T02:00")) == instant("2025-10-26T00:00:00Z"))
    #expect(local.seconds(at: civil("2025-10-26T01:59:59")) == instant("2025-10-25T23:59:59Z"))
    #expect(local.seconds(at: civil("2025-10-26T03:00")) == instant("2025-10-26T02:00:00Z"))
    let day = try range("2025-10-26", in: "Europe/Berlin")
    #expect(day.start == instant("2025-10-25T22:00:00Z") * 1000 && day.end - day.start == 25 * 3_600_000)
    #expect(try range("2025-10-26 02:30:00", in: "Europe/Berlin").start == instant("2025-10-26T00:30:00Z") * 1000)
  }

  @Test func gapsAndOverlapsWestOfGreenwichFollowTheSameRule() {
    // New York, 2025: 02:00 EST becomes 03:00 EDT on March 9th; 02:00 EDT becomes 01:00 EST on
    // November 2nd. Forward through the gap, the first of an overlap, as in Berlin.
    let local = LocalTime(TimeZone(identifier: "America/New_York")!)
    #expect(local.seconds(at: civil("2025-03-09T02:30")) == instant("2025-03-09T07:30:00Z"))
    #expect(local.civil(at: instant("2025-03-09T07:30:00Z")) == civil("2025-03-09T03:30"))
    #expect(local.seconds(at: civil("2025-11-02T01:30")) == instant("2025-11-02T05:30:00Z"))
    #expect(local.civil(at: instant("2025-11-02T06:30:00Z")) == civil("2025-11-02T01:30"))
  }

  /// Instants to civil time and back, and the start of each day, against Calendar in zones
  /// with an odd offset, a half-hour change, days that began in a gap (São Paulo's midnight
  /// changes) and a day that was skipped (Apia, 2011-12-30), from 1900 to 2100.
  @Test func agreesWithCalendarInManyZones() throws {
    var random = SeededRandom(seed: 2025)
    for identifier in [
      "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "America/Sao_Paulo",
      "Pacific/Apia", "Europe/Dublin", "UTC",
    ] {
      let zone = try #require(TimeZone(identifier: identifier))
      let local = LocalTime(zone)
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = zone
      for _ in 0..<400 {
        let seconds = Int64.random(in: -2_208_988_800...4_102_444_800, using: &random)  // 1900...2100
        let parts = calendar.dateComponents(
          [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
        let shown = local.civil(at: seconds)
        let date = try #require(CivilDate(year: parts.year!, month: parts.month!, day: parts.day!))
        let expectedCivil = CivilDateTime(date: date, hour: parts.hour!, minute: parts.minute!, second: parts.second!)
        #expect(shown == expectedCivil, "\(identifier) \(seconds)")
        let day = shown.date
        let start = calendar.startOfDay(for: Date(timeIntervalSince1970: Double(seconds)))
        #expect(local.startOfDay(day) == Int64(start.timeIntervalSince1970), "\(identifier) \(day)")
        // A wall-clock time near it, which may fall in a gap or an overlap.
        var wall = shown
        wall.hour = Int.random(in: 0...23, using: &random)
        let components = DateComponents(
          year: wall.date.year, month: wall.date.month, day: wall.date.day, hour: wall.hour, minute: wall.minute,
          second: wall.second)
        let expected = try #require(calendar.date(from: components))
        #expect(local.seconds(at: wall) == Int64(expected.timeIntervalSince1970), "\(identifier) \(wall)")
      }
    }
    // Around every change of offset in Berlin from 1980 to 2030: each instant near it, and
    // each wall-clock time from two hours before it to two after, through gaps and overlaps.
    let zone = TimeZone(identifier: "Europe/Berlin")!
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    func expected(_ wall: CivilDateTime) -> Int64 {
      let components = DateComponents(
        year: wall.date.year, month: wall.date.month, day: wall.date.day, hour: wall.hour, minute: wall.minute,
        second: wall.second)
      return Int64(calendar.date(from: components)!.timeIntervalSince1970)
    }
    var changes = 0
    var date = Date(timeIntervalSince1970: 315_532_800)
    while let next = zone.nextDaylightSavingTimeTransition(after: date), next.timeIntervalSince1970 < 1_893_456_000 {
      let change = Int64(next.timeIntervalSince1970)
      for delta in [-3601, -3600, -1800, -1, 0, 1, 1800, 3599, 3600] as [Int64] {
        let shown = Self.berlin.civil(at: change + delta)
        #expect(Self.berlin.seconds(at: shown) == expected(shown), "\(change + delta)")
      }
      let before = Self.berlin.civil(at: change - 7200).secondsSince1970
      for step in Int64(0)...16 {
        let wall = CivilDateTime(secondsSince1970: before + step * 900)
        #expect(Self.berlin.seconds(at: wall) == expected(wall), "\(wall)")
      }
      changes += 1
      date = next
    }
    #expect(changes == 100)
  }

  // MARK: - Dates people type

  @Test func timesWithoutAnOffsetAreInTheGivenTimeZone() throws {
    for text in ["2025-10-05T12:00:00", "2025-10-05T12:00", "2025-10-05 12:00:00", "2025-10-05 12:00"] {
      #expect(try range(text, in: "Europe/Berlin").start == instant("2025-10-05T10:00:00Z") * 1000, "\(text)")
      #expect(try range(text, in: "America/New_York").start == instant("2025-10-05T16:00:00Z") * 1000, "\(text)")
      let length: Int64 = text.hasSuffix(":00:00") ? 1000 : 60_000  // the second or the minute written
      #expect(
        try range(text, in: "UTC") == DateRange(start: 1_759_665_600_000, end: 1_759_665_600_000 + length), "\(text)")
    }
    // With an offset or Z, the zone does not matter.
    for text in [
      "2025-10-05T12:00:00Z", "2025-10-05T14:00:00+02:00", "2025-10-05T14:00:00+0200", "2025-10-05T12:00:00z",
    ] {
      #expect(try range(text, in: "America/New_York").start == 1_759_665_600_000, "\(text)")
    }
    #expect(
      try range("2025-10-05T12:00:00.250Z", in: "UTC") == DateRange(start: 1_759_665_600_250, end: 1_759_665_600_251))
  }

  @Test func onlyTheFormsOfTheGrammarAreTaken() {
    for text in [
      "2025-02-30", "2025-02-29", "1900-02-29", "2025-13", "2025-00", "2025-10-32", "2025-02-30T10:00:00Z",
      "2025-02-30T10:00", "2025-02-30 10:00", "2025-10-05T14:03:60Z", "2025-10-05T14:03:60", "2025-10-05T24:00",
      "2025-10-05t14:03", "2025-10-05T14:03:22+19:00", "20251005T140322Z", "25-10-05", "2025-10-05T", "tomorrow",
      "7x", "-1d", "30m", "1m", "2M", "7 d", "7dd", "min", "mo",
    ] {
      #expect(throws: ArchiveError.invalidDate(text), "\(text)") {
        try DateExpression.parse(text, timeZone: Self.utc)
      }
    }
    for text in [
      "2024-02-29", "2000-02-29", " 2025-10-05 ", "2025-10-05T14:03:22.123456Z", "0000-01-01", "9999-12-31",
      "2025-10-05T14:03Z", "2025-10-05T14:03+02:00", "2025-10-05 14:03:22Z", "2025-10-05T14:03:22.5",
      "2025-10-05 14:03:22.5", "30min", "2mo", "12H", "0d",
    ] {
      #expect(throws: Never.self, "\(text)") { try DateExpression.parse(text, timeZone: Self.utc) }
    }
  }

  @Test func aDateIsAsLongAsItsPrecision() throws {
    let minute = try range("2025-10-05T10:00Z", in: "Europe/Berlin")
    #expect(minute.start == instant("2025-10-05T10:00:00Z") * 1000 && minute.end - minute.start == 60_000)
    let offset = try range("2025-10-05T12:00+02:00", in: "UTC")
    #expect(offset == minute)
    let second = try range("2025-10-05T10:00:07Z", in: "UTC")
    #expect(second.start == minute.start + 7000 && second.end - second.start == 1000)
    let local = try range("2025-10-05T12:00", in: "Europe/Berlin")
    #expect(local == minute)
    let fraction = try range("2025-10-05T12:00:00.250", in: "Europe/Berlin")
    #expect(fraction.start == minute.start + 250 && fraction.end - fraction.start == 1)
  }

  @Test func minutesAndMonthsAreSpelledOut() throws {
    let now = "2025-03-31T10:00:00Z"
    #expect(try range("30min", in: "UTC", now: now).start == instant("2025-03-31T09:30:00Z") * 1000)
    #expect(try range("1mo", in: "UTC", now: now).start == instant("2025-02-28T10:00:00Z") * 1000)
    #expect(DateExpression.ambiguousAge("30m")! == ("30min", "30mo"))
    #expect(DateExpression.ambiguousAge("30mo") == nil && DateExpression.ambiguousAge("2025-10") == nil)
  }

  @Test func daysMonthsAndYearsAreWholeLocalPeriods() throws {
    #expect(try range("2024", in: "UTC").end - range("2024", in: "UTC").start == 366 * 86_400_000)
    #expect(try range("2025", in: "UTC").end - range("2025", in: "UTC").start == 365 * 86_400_000)
    #expect(try range("2024-02", in: "UTC").end - range("2024-02", in: "UTC").start == 29 * 86_400_000)
    #expect(try range("2100-02", in: "UTC").end - range("2100-02", in: "UTC").start == 28 * 86_400_000)
    let october = try range("2025-10", in: "Europe/Berlin")
    #expect(october.start == instant("2025-09-30T22:00:00Z") * 1000)
    #expect(october.end == instant("2025-10-31T23:00:00Z") * 1000)
    #expect(
      try range("today", in: "Europe/Berlin", now: "2025-10-05T22:30:00Z")
        == range("2025-10-06", in: "Europe/Berlin"))
    #expect(
      try range("yesterday", in: "Europe/Berlin", now: "2025-10-05T22:30:00Z")
        == range("2025-10-05", in: "Europe/Berlin"))
  }

  @Test func agesKeepTheClockTimeAndClampTheDay() throws {
    // Seven days back across the end of summer time: the same 13:00, 169 hours earlier.
    let week = try range("7d", in: "Europe/Berlin", now: "2025-10-27T12:00:00Z")
    #expect(week.isAge && week.start == instant("2025-10-20T11:00:00Z") * 1000)
    #expect(week.end == instant("2025-10-27T12:00:00Z") * 1000 + 1)
    #expect(try range("1w", in: "Europe/Berlin", now: "2025-10-27T12:00:00Z").start == week.start)
    // Hours are exact.
    #expect(
      try range("24h", in: "Europe/Berlin", now: "2025-10-27T12:00:00Z").start
        == instant("2025-10-26T12:00:00Z") * 1000)
    // A month before March 31st is February's last day; a year before February 29th the 28th.
    #expect(try range("1mo", in: "UTC", now: "2025-03-31T10:00:00Z").start == instant("2025-02-28T10:00:00Z") * 1000)
    #expect(try range("1mo", in: "UTC", now: "2024-03-31T10:00:00Z").start == instant("2024-02-29T10:00:00Z") * 1000)
    #expect(try range("1y", in: "UTC", now: "2024-02-29T10:00:00Z").start == instant("2023-02-28T10:00:00Z") * 1000)
    #expect(try range("4y", in: "UTC", now: "2024-02-29T10:00:00Z").start == instant("2020-02-29T10:00:00Z") * 1000)
    // The fraction of a second of now is kept.
    let now = Date(timeIntervalSince1970: 1_759_665_600.25)
    #expect(try DateExpression.parse("2d", now: now, timeZone: Self.utc).start == 1_759_492_800_250)
  }

  @Test func instantsBefore1970() throws {
    #expect(LocalTime(Self.utc).civil(milliseconds: -500) == civil("1969-12-31T23:59:59"))
    #expect(LocalTime(Self.utc).civil(milliseconds: -1000) == civil("1969-12-31T23:59:59"))
    #expect(LocalTime(Self.utc).civil(milliseconds: -1001) == civil("1969-12-31T23:59:58"))
    #expect(Self.berlin.civil(at: -1) == civil("1970-01-01T00:59:59"))
    #expect(try range("1969-12-31", in: "UTC") == DateRange(start: -86_400_000, end: 0))
    #expect(try range("1969-12-31", in: "Europe/Berlin") == DateRange(start: -90_000_000, end: -3_600_000))
    #expect(try range("1969-12-31T23:59:59.5Z", in: "UTC").start == -500)
    // Before 1893 Berlin kept its local mean time, 53 minutes 28 seconds ahead of UTC.
    #expect(Self.berlin.offset(at: instant("1850-06-01T00:00:00Z")) == 3208)
    #expect(try range("1850-06-01", in: "Europe/Berlin").start == (instant("1850-06-01T00:00:00Z") - 3208) * 1000)
    // Years before the Gregorian calendar began are proleptic, as in ISO 8601 and SQLite.
    #expect(try range("1500-03-01", in: "UTC").start == -14_826_672_000_000)
  }
}
