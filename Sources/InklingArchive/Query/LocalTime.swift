// Local time without Foundation's time zone database, which FoundationEssentials does not
// have (its TimeZone knows only GMT): the system's local time through the C library, as C
// tools and sqlite3's 'localtime' read it ($TZ, else /etc/localtime), or a given TimeZone's
// (an app or a test that links Foundation passes one; its offsets come from
// `secondsFromGMT(for:)`). Calendar arithmetic is done on civil dates (InklingFormats'
// CivilDate), never through Calendar.
//
// From local civil time to an instant: solve u + offset(u) = L for the local time L (written
// as if it were UTC). Away from a transition the offset a day before L and a day after are the
// same and give the one solution. Around a transition they are the offsets before and after
// it, and each gives a candidate, kept when it solves the equation:
//   - overlap (clocks go back, 02:30 happens twice): both solve it; the earlier instant is
//     taken, the first time the clock reads L, as Calendar does;
//   - gap (clocks go forward, 02:30 never happens): neither does; L is read with the offset
//     before the transition, which is the instant the clock would have read L had it not
//     jumped, so 02:30 in a one-hour gap is 03:30 of the new time, as Calendar does.
// Trying the offsets either side, rather than iterating u = L - offset(u) from L, gives the
// same answer east and west of Greenwich: the iteration picks the later instant of an overlap
// in Berlin and the earlier in New York, and moves a gap forward in one and back in the other.
// A day either side is wider than any offset (at most 14 hours) and narrower than the time
// between two transitions of any zone in use.

import FoundationEssentials
import InklingFormats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Instants and local civil date-times of one place: the system's local time, or a
/// time zone's.
///
/// ```swift
/// let local = LocalTime(nil)                      // $TZ, else /etc/localtime
/// let today = local.civil(at: now).date
/// let start = local.seconds(at: CivilDateTime(date: today))   // today's first second
/// ```
package struct LocalTime: Sendable {
  /// nil: the system's local time.
  let timeZone: TimeZone?

  /// `timeZone`'s local time; nil: the system's ($TZ, else /etc/localtime, else UTC).
  package init(_ timeZone: TimeZone?) {
    self.timeZone = timeZone
  }

  /// Seconds east of UTC of local time at `seconds` since 1970.
  package func offset(at seconds: Int64) -> Int {
    if let timeZone {
      return timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
    }
    var time = time_t(seconds)
    var parts = tm()
    // localtime_r reads the zone once per process (tzset) and is safe on any thread; it fails
    // only for a year an Int32 cannot hold, far outside any date that parses.
    guard localtime_r(&time, &parts) != nil else { return 0 }
    return parts.tm_gmtoff
  }

  /// The date and time local clocks show at `seconds` since 1970.
  package func civil(at seconds: Int64) -> CivilDateTime {
    CivilDateTime(secondsSince1970: seconds + Int64(offset(at: seconds)))
  }

  /// The date and time local clocks show at `milliseconds` since 1970, to the second.
  package func civil(milliseconds: Int64) -> CivilDateTime {
    civil(at: milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
  }

  /// The instant, in seconds since 1970, at which local clocks show `civil`: the earlier of
  /// the two in an overlap, and in a gap the time as the clocks before it would have run on
  /// (file comment).
  package func seconds(at civil: CivilDateTime) -> Int64 {
    let wall = civil.secondsSince1970
    let before = Int64(offset(at: wall - 86_400))
    let after = Int64(offset(at: wall + 86_400))
    let readBefore = wall - before
    if before == after || Int64(offset(at: readBefore)) == before { return readBefore }
    let readAfter = wall - after
    return Int64(offset(at: readAfter)) == after ? readAfter : readBefore
  }

  /// The first second of `date` in local time, in seconds since 1970 (where a day starts in a
  /// gap, the end of the gap).
  package func startOfDay(_ date: CivilDate) -> Int64 {
    seconds(at: CivilDateTime(date: date))
  }
}
