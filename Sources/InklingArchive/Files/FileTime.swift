// A file's modification time as nanoseconds since 1970, what the archive keeps of it
// (`version.file_mtime_ns`). An Int64 of nanoseconds reaches from 1677 to 2262-04-11; a file
// can carry any time (`touch -d 2300-01-01`), and one outside that range must not stop an
// import or a watch (the multiplication traps): it is kept as the nearest time the archive
// can hold, which restore then gives the file.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum FileTime {
  /// `time` in nanoseconds, clamped to what an Int64 holds.
  static func nanoseconds(_ time: timespec) -> Int64 {
    let (seconds, overflow) = Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return time.tv_sec < 0 ? .min : .max }
    let (total, overflowAgain) = seconds.addingReportingOverflow(Int64(time.tv_nsec))
    return overflowAgain ? .max : total
  }

  /// `milliseconds` in nanoseconds, clamped to what an Int64 holds.
  static func nanoseconds(milliseconds: Int64) -> Int64 {
    let (total, overflow) = milliseconds.multipliedReportingOverflow(by: 1_000_000)
    return overflow ? (milliseconds < 0 ? .min : .max) : total
  }
}
