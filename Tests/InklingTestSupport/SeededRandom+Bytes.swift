// Random bytes from the one seeded generator (InklingCorpus.SeededRandom), so that tests need
// no fixtures on disk and a failure repeats with its seed.

import InklingCorpus

extension SeededRandom {
  /// The next `count` random bytes.
  package mutating func bytes(_ count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count + 8)
    while bytes.count < count { withUnsafeBytes(of: next()) { bytes.append(contentsOf: $0) } }
    return Array(bytes.prefix(count))
  }

  /// `count` random bytes of a generator seeded with `seed`.
  package static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var random = SeededRandom(seed: seed)
    return random.bytes(count)
  }
}
