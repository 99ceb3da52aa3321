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
// What zstd compresses is the drawing in its `layout` (migration 0007, `blob.layout`):
//   0 as written  — the bytes themselves;
//   1 point columns — `PointColumns.columnar(bytes)`: the same bytes with every point array
//             as columns of differences, about a third smaller under zstd. A delta's prefix
//             is its base's bytes in the delta's own layout, whatever the base's layout.
// A drawing is stored in layout 1 whenever it has point arrays to rearrange; raw blobs are
// always layout 0.
//
// Invariants (those of schema 0001 that encoding can keep):
//   1. `encode` returns only data that it has decoded back (with the base bytes, for a
//      delta) to exactly the bytes it was given, whose SHA-256 is the blob's `sha256`
//      (`HashedBytes` pairs them; a hash given apart is checked) — Fossil's
//      verify-before-commit (https://fossil-scm.org/home/doc/trunk/www/selfcheck.wiki). What
//      is inserted is exactly those verified bytes.
//   2. A delta's depth is at most `BlobStore.maxChainDepth`; a base at that depth, or a
//      base that is the blob itself, gives a full encoding.

import InklingFormats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a blob's `data` is stored (`blob.encoding`).
package enum BlobEncoding: Int, Sendable {
  case raw = 0
  case zstd = 1
  case delta = 2
}

/// The form of a blob's bytes that its `data` compresses (`blob.layout`).
package enum BlobLayout: Int, Sendable {
  case asWritten = 0
  case pointColumns = 1

  /// `bytes` (a drawing as written) in this layout; a drawing without point arrays to
  /// rearrange is the same in both.
  func form(of bytes: [UInt8]) -> [UInt8] {
    switch self {
    case .asWritten: bytes
    case .pointColumns: PointColumns.columnar(bytes) ?? bytes
    }
  }
}

/// A stored blob, decoded, offered as the base for encoding a later version as a delta.
package struct BlobBase: Sendable {
  package let sha256: [UInt8]
  package let bytes: [UInt8]
  /// The base's own chain depth (0 for a full blob).
  package let depth: Int
  /// `bytes` in point columns, when the caller has them (`BlobEncoder.encodeKeepingColumns`),
  /// so that encoding the next version does not rearrange the base again.
  let knownColumns: [UInt8]?

  package init(sha256: [UInt8], bytes: [UInt8], depth: Int, columns: [UInt8]? = nil) {
    self.sha256 = sha256
    self.bytes = bytes
    self.depth = depth
    self.knownColumns = columns
  }

  /// The base's bytes in `layout`: what a delta in that layout uses as its prefix.
  func form(in layout: BlobLayout) -> [UInt8] {
    layout == .pointColumns ? knownColumns ?? layout.form(of: bytes) : bytes
  }
}

/// Bytes and their SHA-256, which only this type's initializers pair: a blob's content and
/// its address, computed once.
package struct HashedBytes: Sendable {
  package let bytes: [UInt8]
  package let sha256: [UInt8]

  package init(_ bytes: [UInt8]) {
    self.bytes = bytes
    sha256 = SHA256.hash(bytes)
  }

  /// For `BlobEncoder`, which has checked `sha256` itself.
  fileprivate init(_ bytes: [UInt8], sha256: [UInt8]) {
    self.bytes = bytes
    self.sha256 = sha256
  }
}

/// A blob ready to insert: verified to decode to the bytes with hash `sha256`.
package struct EncodedBlob: Sendable, Hashable {
  package let sha256: [UInt8]
  /// The decoded size in bytes.
  package let size: Int
  package let encoding: BlobEncoding
  package let layout: BlobLayout
  /// The delta base's hash, for encoding 2.
  package let baseSHA256: [UInt8]?
  package let depth: Int
  package let data: [UInt8]

  /// Internal: only `BlobEncoder` makes these, so every one has been verified (invariant 1).
  init(
    sha256: [UInt8], size: Int, encoding: BlobEncoding, layout: BlobLayout = .asWritten, baseSHA256: [UInt8]?,
    depth: Int, data: [UInt8]
  ) {
    self.sha256 = sha256
    self.size = size
    self.encoding = encoding
    self.layout = layout
    self.baseSHA256 = baseSHA256
    self.depth = depth
    self.data = data
  }
}

extension EncodedBlob {
  /// The same delta at another depth: the data does not depend on it.
  func withDepth(_ depth: Int) -> EncodedBlob {
    EncodedBlob(
      sha256: sha256, size: size, encoding: encoding, layout: layout, baseSHA256: baseSHA256, depth: depth, data: data)
  }
}

/// Encodes blobs; owns a compressor and a decompressor. One per worker thread.
package final class BlobEncoder {
  /// zstd level 1: on drawing bytes it is about twice as fast as level 3 for blobs hardly
  /// larger (deltas the same size), and the highest levels make full blobs only a little
  /// smaller (`scripts/bench-zstd`). Import time is what the archive is measured on against
  /// `sqlite3 -A`, and compression is its largest cost; `gc --repack` spends the time later.
  package static let defaultLevel: Int32 = 1

  /// When a delta is at most this fraction of the raw size, the full encoding is not tried:
  /// drawing bytes (float32 points, even in point columns) compress to little less than half
  /// alone, and a delta can use every match a full frame finds, its base's besides, so a
  /// full frame cannot win.
  static let deltaIsClearlySmaller = 2

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
  /// - Throws: `StoreError(.verification)` if `sha256` is not the hash of `bytes`, or the
  ///   encoded data does not decode back to `bytes`.
  package func encode(_ bytes: [UInt8], sha256: [UInt8], base: BlobBase?) throws -> EncodedBlob {
    try encodeKeepingColumns(bytes, sha256: sha256, base: base).blob
  }

  /// As `encode`, and also `bytes` in point columns (nil when they have no point arrays), for
  /// a `BlobBase` of these bytes: the next version's delta then need not rearrange them again.
  package func encodeKeepingColumns(
    _ bytes: [UInt8], sha256: [UInt8], base: BlobBase?
  ) throws -> (blob: EncodedBlob, columns: [UInt8]?) {
    guard SHA256.hash(bytes) == sha256 else {
      throw StoreError(
        kind: .verification, message: "blob \(shortHash(sha256)): not the SHA-256 of its bytes; nothing stored")
    }
    return try encodeKeepingColumns(HashedBytes(bytes, sha256: sha256), base: base)
  }

  /// As `encodeKeepingColumns(_:sha256:base:)`, for bytes hashed already (once: their hash
  /// is also what the caller looks the blob up by).
  package func encodeKeepingColumns(
    _ hashed: HashedBytes, base: BlobBase?
  ) throws -> (blob: EncodedBlob, columns: [UInt8]?) {
    let bytes = hashed.bytes
    let sha256 = hashed.sha256
    var best = EncodedBlob(
      sha256: sha256, size: bytes.count, encoding: .raw, baseSHA256: nil, depth: 0, data: bytes)
    let deltaBase = base.flatMap { $0.depth < BlobStore.maxChainDepth && $0.sha256 != sha256 ? $0 : nil }
    let columns = PointColumns.columnar(bytes)
    let layout: BlobLayout = columns == nil ? .asWritten : .pointColumns
    let form = columns ?? bytes
    let prefix = deltaBase?.form(in: layout)
    do {
      if let deltaBase, let prefix {
        let delta = try form.withUnsafeBytes { input in
          try prefix.withUnsafeBytes { try compressor.compress(input, prefix: $0) }
        }
        if delta.count < best.data.count {
          best = EncodedBlob(
            sha256: sha256, size: bytes.count, encoding: .delta, layout: layout,
            baseSHA256: deltaBase.sha256, depth: deltaBase.depth + 1, data: delta)
        }
      }
      if best.encoding == .raw || best.data.count * Self.deltaIsClearlySmaller > bytes.count {
        let full = try form.withUnsafeBytes { try compressor.compress($0, prefix: nil) }
        // `<=` against a delta: equal sizes favour the encoding that reads faster.
        let better =
          best.encoding == .delta ? full.count <= best.data.count : full.count < best.data.count
        if better {
          best = EncodedBlob(
            sha256: sha256, size: bytes.count, encoding: .zstd, layout: layout,
            baseSHA256: nil, depth: 0, data: full)
        }
      }
    } catch let error as ZstdError {
      throw StoreError(kind: .verification, message: "blob \(shortHash(sha256)): compression failed: \(error)")
    }
    try verify(best, prefix: best.encoding == .delta ? prefix : nil, decodesTo: bytes)
    return (best, columns)
  }

  /// Decodes `blob` and checks that it gives `bytes` back exactly (invariant 1). Compared, not
  /// hashed again: `sha256` is the hash of `bytes`, so equal bytes have it, and a second
  /// SHA-256 of every drawing would be the import's largest cost after the first.
  private func verify(_ blob: EncodedBlob, prefix: [UInt8]?, decodesTo bytes: [UInt8]) throws {
    let decoded: [UInt8]
    do {
      let form = try decodeForm(
        encoding: blob.encoding.rawValue, data: blob.data, size: blob.size, prefix: prefix, decompressor: decompressor)
      decoded = try writtenBytes(ofForm: form, layout: blob.layout.rawValue)
    } catch {
      throw StoreError(
        kind: .verification,
        message: "blob \(shortHash(blob.sha256)): its encoded data does not decode (\(error)); nothing stored")
    }
    guard sameBytes(decoded, bytes) else {
      throw StoreError(
        kind: .verification,
        message: "blob \(shortHash(blob.sha256)): its encoded data decodes to other bytes "
          + "(encoding \(blob.encoding.rawValue)); nothing stored")
    }
  }
}

// MARK: - Shared by encoder and store

/// Whether `a` and `b` hold the same bytes, by `memcmp` (Array's `==` compares element by
/// element).
func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
  a.count == b.count
    && a.withUnsafeBytes { a in
      b.withUnsafeBytes { b in a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
    }
}

/// The first 12 hex digits of a hash, as blobs are named in messages: "4f2a9c1e07b3…".
func shortHash(_ sha256: [UInt8]) -> String {
  hexString(Array(sha256.prefix(6))) + "…"
}

/// A `decodeBlob` failure that is not zstd's: a wrong size or an unknown encoding.
struct BlobFormatError: Error, CustomStringConvertible {
  let description: String
}

/// Blob `sha256` decoded from its stored row (no hash check: callers do that), as the base
/// of the next link up a chain: with its point columns when those are what was stored, so a
/// delta above it in the same layout uses them as its prefix without rearranging again.
///
/// - Parameter base: the decoded base; required for encoding 2.
/// - Throws: `ZstdError` or `BlobFormatError`.
func decodeBlob(
  sha256: [UInt8], encoding: Int, layout: Int, depth: Int, data: [UInt8], size: Int, base: BlobBase?,
  decompressor: ZstdDecompressor
) throws -> BlobBase {
  guard let blobLayout = BlobLayout(rawValue: layout) else {
    throw BlobFormatError(description: "unknown layout \(layout)")
  }
  let prefix = encoding == BlobEncoding.delta.rawValue ? base?.form(in: blobLayout) : nil
  let form = try decodeForm(encoding: encoding, data: data, size: size, prefix: prefix, decompressor: decompressor)
  return BlobBase(
    sha256: sha256, bytes: try writtenBytes(ofForm: form, layout: layout), depth: depth,
    columns: blobLayout == .pointColumns ? form : nil)
}

/// What stored `data` decompresses to: the blob's bytes in its layout.
///
/// - Parameter prefix: for encoding 2, the base's bytes in the delta's layout.
/// - Throws: `ZstdError` or `BlobFormatError`.
func decodeForm(encoding: Int, data: [UInt8], size: Int, prefix: [UInt8]?, decompressor: ZstdDecompressor) throws
  -> [UInt8]
{
  switch BlobEncoding(rawValue: encoding) {
  case .raw:
    guard data.count == size else { throw BlobFormatError(description: "\(data.count) raw bytes, expected \(size)") }
    return data
  case .zstd:
    return try data.withUnsafeBytes { try decompressor.decompress($0, expectedSize: size, prefix: nil) }
  case .delta:
    guard let prefix else { throw BlobFormatError(description: "a delta without its base") }
    return try data.withUnsafeBytes { input in
      try prefix.withUnsafeBytes { try decompressor.decompress(input, expectedSize: size, prefix: $0) }
    }
  case nil:
    throw BlobFormatError(description: "unknown encoding \(encoding)")
  }
}

/// The bytes as written of a blob whose `form` is in `layout`.
/// - Throws: `BlobFormatError` for an unknown layout, or a form that layout 1 cannot undo.
func writtenBytes(ofForm form: [UInt8], layout: Int) throws -> [UInt8] {
  switch BlobLayout(rawValue: layout) {
  case .asWritten:
    return form
  case .pointColumns:
    guard let bytes = PointColumns.interleaved(form) else {
      throw BlobFormatError(description: "layout 1 (point columns), but the data holds no point arrays")
    }
    return bytes
  case nil:
    throw BlobFormatError(description: "unknown layout \(layout)")
  }
}
