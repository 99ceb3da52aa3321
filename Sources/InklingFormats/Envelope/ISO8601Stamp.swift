// The date in a draft's file name: `yyyy-MM-dd'T'HH:mm:ss'Z'` as ISO8601DateFormatter writes
// it, plus what copies off a device may carry instead: fractional seconds and an offset.

/// A parsed file-name stamp.
public struct ISO8601Stamp: Hashable, Sendable {
  public var millisecondsSince1970: Int64
  /// The offset as written (`+02:00`), or nil for `Z`.
  public var offset: String?
  public var hasFraction: Bool

  /// Parses a stamp at the start of `text`; returns it and its length in Unicode scalars.
  static func parsePrefix(_ text: String) -> (ISO8601Stamp, Int)? {
    let s = Array(text.utf8)
    var i = 0
    func number(_ count: Int) -> Int? {
      guard i + count <= s.count else { return nil }
      var value = 0
      for byte in s[i..<i + count] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      i += count
      return value
    }
    func literal(_ byte: UInt8) -> Bool {
      guard i < s.count, s[i] == byte else { return false }
      i += 1
      return true
    }
    guard let year = number(4), literal(UInt8(ascii: "-")), let month = number(2), literal(UInt8(ascii: "-")),
      let day = number(2), literal(UInt8(ascii: "T")), let hour = number(2), literal(UInt8(ascii: ":")),
      let minute = number(2), literal(UInt8(ascii: ":")), let second = number(2)
    else { return nil }
    guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60,
      second < 61
    else { return nil }
    var milliseconds = 0
    var hasFraction = false
    if literal(UInt8(ascii: ".")) {
      let start = i
      while i < s.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(s[i]) { i += 1 }
      guard i > start else { return nil }
      let digits = s[start..<min(i, start + 3)].map { Int($0 - UInt8(ascii: "0")) }
      milliseconds = digits.reduce(0) { $0 * 10 + $1 } * [100, 10, 1][digits.count - 1]
      hasFraction = true
    }
    var offsetSeconds = 0
    var offset: String?
    if literal(UInt8(ascii: "Z")) {
    } else if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
      let start = i
      let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
      i += 1
      guard let offsetHours = number(2), offsetHours <= 18 else { return nil }
      _ = literal(UInt8(ascii: ":"))
      guard let offsetMinutes = number(2), offsetMinutes < 60 else { return nil }
      offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
      offset = String(decoding: s[start..<i], as: UTF8.self)
    } else {
      return nil
    }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
    let stamp = ISO8601Stamp(
      millisecondsSince1970: seconds * 1000 + Int64(milliseconds), offset: offset, hasFraction: hasFraction)
    // Every byte consumed is ASCII, so bytes and Unicode scalars count alike.
    return (stamp, i)
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
  /// `days_from_civil`), so that parsing needs no calendar object.
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
