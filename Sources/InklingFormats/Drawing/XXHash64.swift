// XXH64 (https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md): a fast,
// well-distributed, *unseeded-by-process* 64-bit hash. Swift's `Hasher` is seeded per process,
// so it cannot make fingerprints that are stored in an archive and compared later.
//
// Checked against the reference vectors: XXH64("", 0) = EF46DB3751D8E999,
// XXH64("abc", 0) = 44BC2CF5AD770999.

package enum XXHash64 {
  private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
  private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
  private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

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
  private static func rotl(_ value: UInt64, _ bits: UInt64) -> UInt64 {
    (value << bits) | (value >> (64 - bits))
  }
}
