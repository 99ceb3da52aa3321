// XXH64 (the xxHash specification, xxhash_spec.md): a fast,
// well-distributed, *unseeded-by-process* 64-bit hash. Swift's `Hasher` is seeded per process,
// so it cannot make fingerprints that are stored in an archive and compared later.
//
// Checked against the reference vectors: XXH64("", 0) = EF46DB3751D8E999,
// XXH64("abc", 0) = 44BC2CF5AD770999.

package enum XXHash64 {
  fileprivate static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  fileprivate static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  fileprivate static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
  fileprivate static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
  fileprivate static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

  package static func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
    bytes.withUnsafeBytes { hash($0, seed: seed) }
  }

  package static func hash(_ input: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
    let count = input.count
    var offset = 0
    @inline(__always) func word64(_ at: Int) -> UInt64 {
      UInt64(littleEndian: input.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }
    @inline(__always) func word32(_ at: Int) -> UInt64 {
      UInt64(UInt32(littleEndian: input.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
    }
    @inline(__always) func round(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
      rotl(accumulator &+ lane &* prime2, 31) &* prime1
    }
    @inline(__always) func merge(_ accumulator: UInt64, _ value: UInt64) -> UInt64 {
      (accumulator ^ round(0, value)) &* prime1 &+ prime4
    }

    var h: UInt64
    if count >= 32 {
      var v1 = seed &+ prime1 &+ prime2
      var v2 = seed &+ prime2
      var v3 = seed
      var v4 = seed &- prime1
      while offset + 32 <= count {
        v1 = round(v1, word64(offset))
        v2 = round(v2, word64(offset + 8))
        v3 = round(v3, word64(offset + 16))
        v4 = round(v4, word64(offset + 24))
        offset += 32
      }
      h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
      h = merge(h, v1)
      h = merge(h, v2)
      h = merge(h, v3)
      h = merge(h, v4)
    } else {
      h = seed &+ prime5
    }
    h &+= UInt64(count)
    while offset + 8 <= count {
      h ^= round(0, word64(offset))
      h = rotl(h, 27) &* prime1 &+ prime4
      offset += 8
    }
    if offset + 4 <= count {
      h ^= word32(offset) &* prime1
      h = rotl(h, 23) &* prime2 &+ prime3
      offset += 4
    }
    while offset < count {
      h ^= UInt64(input[offset]) &* prime5
      h = rotl(h, 11) &* prime1
      offset += 1
    }
    h ^= h >> 33
    h &*= prime2
    h ^= h >> 29
    h &*= prime3
    h ^= h >> 32
    return h
  }

  @inline(__always)
  fileprivate static func rotl(_ value: UInt64, _ bits: UInt64) -> UInt64 {
    (value << bits) | (value >> (64 - bits))
  }
}

/// XXH64 of a stream of 64-bit words (each read as 8 little-endian bytes), fed one word or
/// one 32-byte stripe at a time, so that a canonical form can be hashed without being built:
/// `finish()` equals `XXHash64.hash` of the words' bytes (`DrawingContentTests`,
/// `xxhash64OfWordsMatchesTheByteHash`, checks it).
package struct XXHash64Words {
  private var v1: UInt64
  private var v2: UInt64
  private var v3: UInt64
  private var v4: UInt64
  private let seed: UInt64
  /// Words waiting for a full stripe of four.
  private var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
  private var buffered = 0
  private var stripes = 0

  package init(seed: UInt64 = 0) {
    self.seed = seed
    v1 = seed &+ XXHash64.prime1 &+ XXHash64.prime2
    v2 = seed &+ XXHash64.prime2
    v3 = seed
    v4 = seed &- XXHash64.prime1
  }

  /// Whether the words so far fill whole stripes, so that `stripe` may be called.
  package var isAligned: Bool { buffered == 0 }

  @inline(__always)
  private static func round(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
    XXHash64.rotl(accumulator &+ lane &* XXHash64.prime2, 31) &* XXHash64.prime1
  }

  @inline(__always)
  package mutating func append(_ word: UInt64) {
    switch buffered {
    case 0: buffer.0 = word
    case 1: buffer.1 = word
    case 2: buffer.2 = word
    default:
      buffered = 0
      stripe(buffer.0, buffer.1, buffer.2, word)
      return
    }
    buffered += 1
  }

  /// Four words at once; only when `isAligned`.
  @inline(__always)
  package mutating func stripe(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) {
    v1 = Self.round(v1, a)
    v2 = Self.round(v2, b)
    v3 = Self.round(v3, c)
    v4 = Self.round(v4, d)
    stripes += 1
  }

  package func finish() -> UInt64 {
    @inline(__always) func merge(_ accumulator: UInt64, _ value: UInt64) -> UInt64 {
      (accumulator ^ Self.round(0, value)) &* XXHash64.prime1 &+ XXHash64.prime4
    }
    var h: UInt64
    if stripes > 0 {
      h = XXHash64.rotl(v1, 1) &+ XXHash64.rotl(v2, 7) &+ XXHash64.rotl(v3, 12) &+ XXHash64.rotl(v4, 18)
      h = merge(h, v1)
      h = merge(h, v2)
      h = merge(h, v3)
      h = merge(h, v4)
    } else {
      h = seed &+ XXHash64.prime5
    }
    h &+= UInt64(stripes &* 32 &+ buffered &* 8)
    @inline(__always) func tail(_ h: UInt64, _ word: UInt64) -> UInt64 {
      XXHash64.rotl(h ^ Self.round(0, word), 27) &* XXHash64.prime1 &+ XXHash64.prime4
    }
    if buffered > 0 { h = tail(h, buffer.0) }
    if buffered > 1 { h = tail(h, buffer.1) }
    if buffered > 2 { h = tail(h, buffer.2) }
    h ^= h >> 33
    h &*= XXHash64.prime2
    h ^= h >> 29
    h &*= XXHash64.prime3
    h ^= h >> 32
    return h
  }
}
