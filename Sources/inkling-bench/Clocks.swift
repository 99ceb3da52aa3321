// Clocks and statistics shared by the benchmarks. On a shared machine the CPU time of the
// measuring thread is what other processes inflate least, so most figures give it beside
// (or instead of) the wall time.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

enum Clocks {
  /// Seconds on a monotonic clock.
  static func now() -> Double { seconds(CLOCK_MONOTONIC) }

  /// This thread's CPU time (user + system) in seconds.
  static func threadCPU() -> Double { seconds(CLOCK_THREAD_CPUTIME_ID) }

  /// This process's CPU time (user + system, every thread) in seconds.
  static func processCPU() -> Double { seconds(CLOCK_PROCESS_CPUTIME_ID) }

  private static func seconds(_ clock: clockid_t) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Wall-clock and thread CPU milliseconds of `body`.
  static func milliseconds(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
    let start = now()
    let cpuStart = threadCPU()
    try body()
    return ((now() - start) * 1000, (threadCPU() - cpuStart) * 1000)
  }

  /// The first three fields of /proc/loadavg.
  static func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
    return text.split(separator: " ").prefix(3).joined(separator: " ")
  }
}

extension Array where Element == Double {
  /// The value at quantile `q` (0…1) of the sorted values: the element at ⌊q·n⌋.
  func quantile(_ q: Double) -> Double {
    let sorted = self.sorted()
    return sorted[Swift.min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.down)))]
  }
}
