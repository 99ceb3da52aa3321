// A small pseudo-random generator whose output depends only on its seed: xoshiro256**
// (Blackman & Vigna), seeded through SplitMix64 as its authors recommend.
//
// Invariants:
// 1. The same seed gives the same sequence on every run, platform and Swift version: every
//    derived value (integers in a range, doubles, choices) is computed here with integer
//    arithmetic or IEEE-754 operations that are exactly rounded, never through the standard
//    library's `random(in:using:)`, whose algorithm is not promised to stay the same.
// 2. `fork(_:)` gives an independent stream per label, so that adding draws to one draft
//    does not shift the random numbers of every draft after it.
//
// It is also a `RandomNumberGenerator`, the one seeded generator of the tests and benchmarks
// (InklingTestSupport): their draws through `random(in:using:)` repeat from run to run on one
// toolchain, which is all a test needs. The corpus itself keeps to invariant 1.

/// A deterministic random number generator (xoshiro256**).
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

  /// Creates a generator from a 64-bit seed.
  public init(seed: UInt64) {
    var sm = seed
    func splitMix() -> UInt64 {
      sm &+= 0x9E37_79B9_7F4A_7C15
      var z = sm
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    s0 = splitMix()
    s1 = splitMix()
    s2 = splitMix()
    s3 = splitMix()
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    let result = rotl(s1 &* 5, 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotl(s3, 45)
    return result
  }

  private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

  /// An independent generator for a sub-task, derived from this one's seed material and a label.
  public func fork(_ label: UInt64) -> SeededRandom {
    SeededRandom(seed: s0 ^ rotl(s2, 13) ^ (label &* 0xD1B5_4A32_D192_ED03))
  }

  // MARK: - Derived values

  /// A uniform integer in `0..<bound` (Lemire's multiply-shift with rejection; exact).
  public mutating func below(_ bound: UInt64) -> UInt64 {
    precondition(bound > 0, "below(0) is a caller bug")
    var product = next().multipliedFullWidth(by: bound)
    if product.low < bound {
      let threshold = (0 &- bound) % bound
      while product.low < threshold { product = next().multipliedFullWidth(by: bound) }
    }
    return product.high
  }

  /// A uniform integer in a closed range.
  public mutating func int(_ range: ClosedRange<Int>) -> Int {
    let span = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
    if span == 0 { return Int(truncatingIfNeeded: next()) }  // the full 64-bit range
    return range.lowerBound &+ Int(truncatingIfNeeded: below(span))
  }

  /// A uniform double in `0..<1` with 53 random bits.
  public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

  /// A uniform double in `lower..<upper`.
  public mutating func double(_ lower: Double, _ upper: Double) -> Double {
    lower + (upper - lower) * unit()
  }

  /// True with probability `p`.
  public mutating func chance(_ p: Double) -> Bool { unit() < p }

  /// An approximately normal value (sum of four uniforms, scaled to unit variance).
  public mutating func gaussian(mean: Double = 0, deviation: Double = 1) -> Double {
    let sum = unit() + unit() + unit() + unit() - 2
    return mean + deviation * sum * 1.7320508075688772  // sqrt(3): variance of the sum is 1/3
  }

  /// A value spread roughly log-uniformly over `lower...upper` (both > 0): an octave
  /// (a power-of-two step from `lower`) is chosen uniformly, then a point inside it. This
  /// avoids `exp`/`log`, whose last bit may differ between C libraries (invariant 1).
  public mutating func logUniform(_ lower: Double, _ upper: Double) -> Double {
    var octaves: [Double] = [lower]
    while octaves.last! * 2 < upper { octaves.append(octaves.last! * 2) }
    octaves.append(upper)
    let index = Int(below(UInt64(octaves.count - 1)))
    return double(octaves[index], octaves[index + 1])
  }

  /// One element of a non-empty array.
  public mutating func pick<T>(_ items: [T]) -> T {
    items[Int(below(UInt64(items.count)))]
  }

  /// One element chosen with the given relative weights.
  public mutating func weighted<T>(_ items: [(T, Double)]) -> T {
    let total = items.reduce(0) { $0 + $1.1 }
    var x = unit() * total
    for (item, weight) in items {
      if x < weight { return item }
      x -= weight
    }
    return items[items.count - 1].0
  }

  /// 16 random bytes shaped as a version-4 UUID.
  public mutating func uuidBytes() -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: 16)
    let a = next()
    let b = next()
    for i in 0..<8 {
      bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * UInt64(i)))
      bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * UInt64(i)))
    }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return bytes
  }
}
