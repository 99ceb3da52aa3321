// ISO 8601 date-times as people and programs write them: `2025-10-05T14:03:12Z`,
// `2025-10-05T16:03:12.250+02:00`, `2025-10-05 14:03`. One scanner for every caller: the
// stamps in draft file names (ISO8601Stamp) and the dates of searches (InklingArchive's
// DateExpression), each of which then says which of the forms it takes.

/// The fields of an ISO 8601 date-time as written, checked to be a real date and time.
package struct ISO8601DateTime: Hashable, Sendable {
  /// What follows the time of day.
  package enum Zone: Hashable, Sendable {
    /// `Z`: the time is UTC.
    case utc
    /// `+02:00` or `+0200`: the time is this many seconds east of UTC; `text` as written.
    case offset(seconds: Int, text: String)
  }

  /// The date and time as written (to the second; a leap second `60` is kept as 60).
  package var civil: CivilDateTime
  /// The fraction of the second, to the millisecond (more digits are cut off, not rounded).
  package var milliseconds: Int
  package var hasSeconds: Bool
  package var hasFraction: Bool
  /// `T`, or a space between the date and the time.
  package var hasSpaceSeparator: Bool
  /// nil when no zone is written: a local time.
  package var zone: Zone?

  /// Milliseconds since 1970 of a date-time with a zone; nil for a local time.
  package var millisecondsSince1970: Int64? {
    let offset: Int
    switch zone {
    case nil: return nil
    case .utc: offset = 0
    case .offset(let seconds, _): offset = seconds
    }
    return (civil.secondsSince1970 - Int64(offset)) * 1000 + Int64(milliseconds)
  }

  /// The whole of `text` as a date-time, or nil when it is not one or has more after it.
  package init?(_ text: String) {
    let bytes = Array(text.utf8)
    guard let (value, length) = Self.scan(bytes), length == bytes.count else { return nil }
    self = value
  }

  private init(
    civil: CivilDateTime, milliseconds: Int, hasSeconds: Bool, hasFraction: Bool, hasSpaceSeparator: Bool,
    zone: Zone?
  ) {
    self.civil = civil
    self.milliseconds = milliseconds
    self.hasSeconds = hasSeconds
    self.hasFraction = hasFraction
    self.hasSpaceSeparator = hasSpaceSeparator
    self.zone = zone
  }

  /// Reads `YYYY-MM-DD`, `T` or a space, `HH:MM`, then if present `:SS`, `.` and digits
  /// (after seconds only), and `Z`, `±HH:MM` or `±HHMM`, from the start of `s`; returns the
  /// date-time and how many bytes it took. Every field has exactly its digits; the date must
  /// exist, hours are 0...23, minutes 0...59, seconds 0...60, offsets at most 18 hours.
  package static func scan(_ s: [UInt8]) -> (ISO8601DateTime, length: Int)? {
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
      let day = number(2), let date = CivilDate(year: year, month: month, day: day)
    else { return nil }
    let hasSpaceSeparator = literal(UInt8(ascii: " "))
    guard hasSpaceSeparator || literal(UInt8(ascii: "T")), let hour = number(2), literal(UInt8(ascii: ":")),
      let minute = number(2), hour < 24, minute < 60
    else { return nil }
    var second = 0
    let hasSeconds = literal(UInt8(ascii: ":"))
    if hasSeconds {
      guard let value = number(2), value <= 60 else { return nil }
      second = value
    }
    var milliseconds = 0
    var hasFraction = false
    if hasSeconds, literal(UInt8(ascii: ".")) {
      let start = i
      while i < s.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(s[i]) { i += 1 }
      guard i > start else { return nil }
      let digits = s[start..<min(i, start + 3)].map { Int($0 - UInt8(ascii: "0")) }
      milliseconds = digits.reduce(0) { $0 * 10 + $1 } * [100, 10, 1][digits.count - 1]
      hasFraction = true
    }
    var zone: Zone?
    if literal(UInt8(ascii: "Z")) {
      zone = .utc
    } else if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
      let start = i
      let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
      i += 1
      guard let offsetHours = number(2), offsetHours <= 18 else { return nil }
      _ = literal(UInt8(ascii: ":"))
      guard let offsetMinutes = number(2), offsetMinutes < 60 else { return nil }
      zone = .offset(
        seconds: sign * (offsetHours * 3600 + offsetMinutes * 60), text: String(decoding: s[start..<i], as: UTF8.self))
    }
    let civil = CivilDateTime(date: date, hour: hour, minute: minute, second: second)
    let value = ISO8601DateTime(
      civil: civil, milliseconds: milliseconds, hasSeconds: hasSeconds, hasFraction: hasFraction,
      hasSpaceSeparator: hasSpaceSeparator, zone: zone)
    return (value, i)
  }
}
