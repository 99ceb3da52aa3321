// The seed of a test that explores at random (kills at random moments, random requests): new on
// every run, so that runs together cover more, and printed, so that a failure can be repeated.

import InklingCorpus

#if canImport(Glibc)
  import Glibc
#endif

package enum TestSeed {
  /// The environment variable that fixes the seed of every such test.
  package static let variable = "INKLING_TEST_SEED"

  /// A generator for the test named `test`, seeded from `INKLING_TEST_SEED` when it is set and
  /// from the clock otherwise; the seed goes to standard error either way.
  package static func generator(for test: String) -> SeededRandom {
    let seed: UInt64
    if let text = getenv(variable), let given = UInt64(String(cString: text)) {
      seed = given
    } else {
      var now = timespec()
      clock_gettime(CLOCK_REALTIME, &now)
      seed = UInt64(truncatingIfNeeded: now.tv_sec) &* 1_000_000_007 &+ UInt64(truncatingIfNeeded: now.tv_nsec)
    }
    let line = "\(test): seed \(seed) (\(variable)=\(seed) repeats it)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    return SeededRandom(seed: seed)
  }
}
