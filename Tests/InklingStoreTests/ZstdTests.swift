import InklingCorpus
import InklingTestSupport
import Testing

@testable import InklingStore

@Suite struct ZstdTests {
  let compressor = ZstdCompressor(level: 3)
  let decompressor = ZstdDecompressor()

  private func compress(_ bytes: [UInt8], prefix: [UInt8]? = nil) throws -> [UInt8] {
    try bytes.withUnsafeBytes { input in
      guard let prefix else { return try compressor.compress(input, prefix: nil) }
      return try prefix.withUnsafeBytes { try compressor.compress(input, prefix: $0) }
    }
  }

  private func decompress(_ frame: [UInt8], _ size: Int, prefix: [UInt8]? = nil) throws -> [UInt8] {
    try frame.withUnsafeBytes { input in
      guard let prefix else { return try decompressor.decompress(input, expectedSize: size, prefix: nil) }
      return try prefix.withUnsafeBytes { try decompressor.decompress(input, expectedSize: size, prefix: $0) }
    }
  }

  @Test(arguments: [0, 1, 100, 65_536, 3_000_000])
  func fullRoundTrip(size: Int) throws {
    let bytes = Array(DrawingCorpus(seed: UInt64(size), approximateBytes: size).version(0).prefix(size))
    let frame = try compress(bytes)
    #expect(try decompress(frame, bytes.count) == bytes)
  }

  @Test func deltaRoundTripIsSmall() throws {
    let corpus = DrawingCorpus(seed: 7, approximateBytes: 500_000)
    let base = corpus.version(0)
    let next = corpus.version(3)
    let full = try compress(next)
    let delta = try compress(next, prefix: base)
    #expect(try decompress(delta, next.count, prefix: base) == next)
    #expect(delta.count * 10 < full.count, "delta \(delta.count) vs full \(full.count)")
    // Without its base, a delta cannot be decoded.
    #expect(throws: ZstdError.self) { try decompress(delta, next.count) }
  }

  @Test func aLargeBaseStaysReachable() throws {
    // A base larger than level 3's default window: the delta must still see all of it.
    let corpus = DrawingCorpus(seed: 8, approximateBytes: 6_000_000)
    let base = corpus.version(0)
    let next = corpus.version(1)
    let delta = try compress(next, prefix: base)
    #expect(delta.count < 20_000, "delta is \(delta.count) bytes")
    #expect(try decompress(delta, next.count, prefix: base) == next)
  }

  @Test func sizesMustMatchExactly() throws {
    let bytes = DrawingCorpus(seed: 1, approximateBytes: 10_000).version(0)
    let frame = try compress(bytes)
    #expect(throws: ZstdError.self) { try decompress(frame, bytes.count - 1) }
    #expect(throws: ZstdError.self) { try decompress(frame, bytes.count + 1) }
    #expect(throws: ZstdError.self) { try decompress(frame + [0], bytes.count) }
    #expect(throws: ZstdError.self) { try decompress(Array(frame.dropLast()), bytes.count) }
    #expect(throws: ZstdError.self) { try decompress(frame, -1) }
    #expect(throws: ZstdError.self) { try decompress(frame, Int.max) }
    #expect(throws: ZstdError.self) { try decompress([], 0) }
  }

  @Test func garbageThrowsAndNeverTraps() throws {
    var generator = SeededRandom(seed: 42)
    let bytes = DrawingCorpus(seed: 2, approximateBytes: 20_000).version(0)
    let frame = try compress(bytes)
    for round in 0..<2000 {
      var damaged = frame
      switch round % 3 {
      case 0:  // flip a few bytes
        for _ in 0...(round % 4) {
          let i = Int.random(in: 0..<damaged.count, using: &generator)
          damaged[i] ^= UInt8.random(in: 1...255, using: &generator)
        }
      case 1:  // cut it short
        damaged = Array(damaged.prefix(Int.random(in: 0..<damaged.count, using: &generator)))
      default:  // random bytes, sometimes with a zstd magic number in front
        damaged = (0..<Int.random(in: 1...300, using: &generator)).map { _ in
          UInt8.random(in: 0...255, using: &generator)
        }
        if round % 2 == 0 { damaged = [0x28, 0xB5, 0x2F, 0xFD] + damaged }
      }
      // Either an error, or exactly the expected number of bytes (possibly wrong ones: the
      // blob store's SHA-256 check catches those).
      if let out = try? decompress(damaged, bytes.count) { #expect(out.count == bytes.count) }
    }
  }
}

@Suite struct SHA256Tests {
  @Test func knownDigests() {
    #expect(hexString(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      hexString(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }

  @Test func streamingMatchesOneShot() {
    let bytes = DrawingCorpus(seed: 3, approximateBytes: 100_000).version(0)
    var hasher = SHA256Hasher()
    var copy = hasher
    bytes.withUnsafeBytes { all in
      hasher.update(UnsafeRawBufferPointer(rebasing: all[0..<1000]))
      copy = hasher  // continues independently from here
      hasher.update(UnsafeRawBufferPointer(rebasing: all[1000...]))
    }
    #expect(hasher.finalize() == SHA256.hash(bytes))
    #expect(copy.finalize() == SHA256.hash(Array(bytes.prefix(1000))))
    // After finalize a hasher starts over.
    #expect(hasher.finalize() == SHA256.hash([]))
  }

  @Test func hex() {
    #expect(hexString([0x00, 0x4F, 0x2A, 0xFF]) == "004f2aff")
    #expect(hexString([]) == "")
  }
}
