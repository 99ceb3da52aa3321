// Encoding drawing blobs for the store, apart from storing them: encoding is CPU work that
// runs on worker threads (one `BlobEncoder` each), inserting is the single writer's job.
//
// A blob is stored in the smallest of three encodings (schema 0001, table `blob`):
//   0 raw   — the bytes as they are, when compression does not make them smaller;
//   1 zstd  — one zstd frame;
//   2 delta — one zstd frame that uses a related blob (the previous version of the same
//             draft, usually) as its prefix; `depth = base.depth + 1`.
// Ties go to the simpler encoding (raw, then zstd), which is cheaper to read.
//
// Invariants (those of schema 0001 that encoding can keep):
//   1. `encode` returns only data that it has decoded back (with the base bytes, for a
//      delta) to bytes whose SHA-256 is the given `sha256` — Fossil's verify-before-commit
//      (https://fossil-scm.org/home/doc/trunk/www/selfcheck.wiki). What is inserted is
//      exactly those verified bytes.
//   2. A delta's depth is at most `BlobStore.maxChainDepth`; a base at that depth, or a
//      base that is the blob itself, gives a full encoding.

/// How a blob's `data` is stored (`blob.encoding`).
package enum BlobEncoding: Int, Sendable {
  case raw = 0
  case zstd = 1
  case delta = 2
}

/// A stored blob, decoded, offered as the base for encoding a later version as a delta.
package struct BlobBase: Sendable {
  package let sha256: [UInt8]
  package let bytes: [UInt8]
  /// The base's own chain depth (0 for a full blob).
  package let depth: Int

  package init(sha256: [UInt8], bytes: [UInt8], depth: Int) {
    self.sha256 = sha256
    self.bytes = bytes
    self.depth = depth
  }
}

/// A blob ready to insert: verified to decode to the bytes with hash `sha256`.
package struct EncodedBlob: Sendable, Hashable {
  package let sha256: [UInt8]
  /// The decoded size in bytes.
  package let size: Int
  /// A `BlobEncoding` raw value.
  package let encoding: Int
  /// The delta base's hash, for encoding 2.
  package let baseSHA256: [UInt8]?
  package let depth: Int
  package let data: [UInt8]

  /// Internal: only `BlobEncoder` makes these, so every one has been verified (invariant 1).
  init(sha256: [UInt8], size: Int, encoding: Int, baseSHA256: [UInt8]?, depth: Int, data: [UInt8]) {
    self.sha256 = sha256
    self.size = size
    self.encoding = encoding
    self.baseSHA256 = baseSHA256
    self.depth = depth
    self.data = data
  }
}

extension EncodedBlob {
  /// The same delta at another depth: the data does not depend on it.
  func withDepth(_ depth: Int) -> EncodedBlob {
    EncodedBlob(sha256: sha256, size: size, encoding: encoding, baseSHA256: baseSHA256, depth: depth, data: data)
  }
}

/// Encodes blobs; owns a compressor and a decompressor. One per worker thread.
package final class BlobEncoder {
  /// zstd level 1: on drawing bytes it compresses ~300 MB/s per core (deltas ~440 MB/s),
  /// twice level 3's speed for blobs about 1% larger (deltas the same size); levels up to 19
  /// make full blobs only ~2% smaller (ZstdBenchmarkTests). Import time is what the archive
  /// is measured on against `sqlite3 -A`, and compression is its largest cost.
  package static let defaultLevel: Int32 = 1

  /// When a delta is at most this fraction of the raw size, the full encoding is not tried:
  /// drawing bytes (float32 points) compress ~1.1–1.5× alone, so a full frame cannot win.
  static let deltaIsClearlySmaller = 4

  private let compressor: ZstdCompressor
  private let decompressor = ZstdDecompressor()

  package init(level: Int32 = BlobEncoder.defaultLevel) {
    compressor = ZstdCompressor(level: level)
  }

  /// `bytes` in their smallest encoding, as a delta against `base` when that is smaller.
  ///
  /// - Parameters:
  ///   - sha256: the SHA-256 of `bytes`, as the caller computed it (and checked here).
  ///   - base: the decoded previous version, if any; ignored at `maxChainDepth`.
  /// - Throws: `StoreError(.verification)` if the encoded data does not decode back to
  ///   bytes with hash `sha256` (so also if `sha256` is not the hash of `bytes`).
  package func encode(_ bytes: [UInt8], sha256: [UInt8], base: BlobBase?) throws -> EncodedBlob {
    var best = EncodedBlob(
      sha256: sha256, size: bytes.count, encoding: BlobEncoding.raw.rawValue, baseSHA256: nil, depth: 0, data: bytes)
    let deltaBase = base.flatMap { $0.depth < BlobStore.maxChainDepth && $0.sha256 != sha256 ? $0 : nil }
    do {
      if let deltaBase {
        let delta = try bytes.withUnsafeBytes { input in
          try deltaBase.bytes.withUnsafeBytes { try compressor.compress(input, prefix: $0) }
        }
        if delta.count < best.data.count {
          best = EncodedBlob(
            sha256: sha256, size: bytes.count, encoding: BlobEncoding.delta.rawValue, baseSHA256: deltaBase.sha256,
            depth: deltaBase.depth + 1, data: delta)
        }
      }
      if best.encoding == BlobEncoding.raw.rawValue || best.data.count * Self.deltaIsClearlySmaller > bytes.count {
        let full = try bytes.withUnsafeBytes { try compressor.compress($0, prefix: nil) }
        // `<=` against a delta: equal sizes favour the encoding that reads faster.
        let better = best.encoding == BlobEncoding.delta.rawValue ? full.count <= best.data.count : full.count < best.data.count
        if better {
          best = EncodedBlob(
            sha256: sha256, size: bytes.count, encoding: BlobEncoding.zstd.rawValue, baseSHA256: nil, depth: 0, data: full)
        }
      }
    } catch let error as ZstdError {
      throw StoreError(kind: .verification, message: "blob \(shortHash(sha256)): compression failed: \(error)")
    }
    try verify(best, base: deltaBase?.bytes)
    return best
  }

  /// Decodes `blob` and checks its hash (invariant 1).
  private func verify(_ blob: EncodedBlob, base: [UInt8]?) throws {
    let decoded: [UInt8]
    do {
      decoded = try decodeBlob(
        encoding: blob.encoding, data: blob.data, size: blob.size,
        base: blob.encoding == BlobEncoding.delta.rawValue ? base : nil, decompressor: decompressor)
    } catch {
      throw StoreError(
        kind: .verification, message: "blob \(shortHash(blob.sha256)): its encoded data does not decode (\(error)); nothing stored")
    }
    guard SHA256.hash(decoded) == blob.sha256 else {
      throw StoreError(
        kind: .verification,
        message: "blob \(shortHash(blob.sha256)): its encoded data decodes to bytes with another SHA-256 "
          + "(encoding \(blob.encoding)); nothing stored")
    }
  }
}

// MARK: - Shared by encoder and store

/// The first 12 hex digits of a hash, as blobs are named in messages: "4f2a9c1e07b3…".
func shortHash(_ sha256: [UInt8]) -> String {
  hexString(Array(sha256.prefix(6))) + "…"
}

/// A `decodeBlob` failure that is not zstd's: a wrong size or an unknown encoding.
struct BlobFormatError: Error, CustomStringConvertible {
  let description: String
}

/// The decoded bytes of stored `data` (no hash check: callers do that).
///
/// - Parameter base: the decoded base bytes; required for encoding 2.
/// - Throws: `ZstdError` or `BlobFormatError`.
func decodeBlob(encoding: Int, data: [UInt8], size: Int, base: [UInt8]?, decompressor: ZstdDecompressor) throws -> [UInt8] {
  switch BlobEncoding(rawValue: encoding) {
  case .raw:
    guard data.count == size else { throw BlobFormatError(description: "\(data.count) raw bytes, expected \(size)") }
    return data
  case .zstd:
    return try data.withUnsafeBytes { try decompressor.decompress($0, expectedSize: size, prefix: nil) }
  case .delta:
    guard let base else { throw BlobFormatError(description: "a delta without its base") }
    return try data.withUnsafeBytes { input in
      try base.withUnsafeBytes { try decompressor.decompress(input, expectedSize: size, prefix: $0) }
    }
  case nil:
    throw BlobFormatError(description: "unknown encoding \(encoding)")
  }
}
