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
// What zstd compresses is the drawing in its `layout` (migration 0007, `blob.layout`; 0017,
// `blob.streams`):
//   0 as written  — the bytes themselves;
//   1 point columns — `PointColumns.columnar(bytes)`: the same bytes with every point array
//             as columns of differences, about a third smaller under zstd;
//   2 point streams — `PointStreams.form(bytes)`: those columns gathered out of the drawing
//             into streams across all its strokes, each compressed in blocks of its own
//             (stored as layout 1 with `streams` = 1).
// A delta's prefix is its base's bytes in the delta's own layout, whatever the base's layout.
// A drawing is stored in layout 2 whenever it has point arrays to gather (layout 1 when only
// PointColumns finds them); raw blobs are always layout 0.
//
// Invariants (those of schema 0001 that encoding can keep):
//   1. `encode` returns only data that it has decoded back (with the base bytes, for a
//      delta) to exactly the bytes it was given, whose SHA-256 is the blob's `sha256`
//      (`HashedBytes` pairs them; a hash given apart is checked) — Fossil's
//      verify-before-commit (Fossil's "Self-Check"). What
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

/// The form of a blob's bytes that its `data` compresses (`blob.layout`, `blob.streams`).
package enum BlobLayout: Int, Sendable {
  case asWritten = 0
  case pointColumns = 1
  /// Stored as `layout` 1 with `streams` 1: SQLite cannot widen the CHECK that migration
  /// 0007 put on `layout` without copying every blob (migration 0017).
  case pointStreams = 2

  /// The layout of a row's `layout` and `streams` columns, if this build knows it.
  init?(layout: Int, streams: Int) {
    switch (layout, streams) {
    case (0, 0): self = .asWritten
    case (1, 0): self = .pointColumns
    case (1, 1): self = .pointStreams
    default: return nil
    }
  }

  /// The row's `layout` column.
  var layoutColumn: Int { self == .asWritten ? 0 : 1 }
  /// The row's `streams` column.
  var streamsColumn: Int { self == .pointStreams ? 1 : 0 }

  /// `bytes` (a drawing as written) in this layout; a drawing without point arrays to
  /// rearrange is the same in all.
  func form(of bytes: [UInt8]) -> [UInt8] {
    switch self {
    case .asWritten: bytes
    case .pointColumns: PointColumns.columnar(bytes) ?? bytes
    case .pointStreams: PointStreams.form(bytes)?.bytes ?? bytes
    }
  }
}

/// A blob's bytes in a layout: what its data compresses, and what a delta in that layout
/// above it uses as its prefix.
package struct BlobForm: Sendable {
  package let layout: BlobLayout
  package let bytes: [UInt8]
}

/// A stored blob, decoded, offered as the base for encoding a later version as a delta.
package struct BlobBase: Sendable {
  package let sha256: [UInt8]
  package let bytes: [UInt8]
  /// The base's own chain depth (0 for a full blob).
  package let depth: Int
  /// `bytes` in the layout they were stored in, when the caller has them
  /// (`BlobEncoder.encodeKeepingForm`), so that encoding the next version does not
  /// rearrange the base again.
  let knownForm: BlobForm?

  package init(sha256: [UInt8], bytes: [UInt8], depth: Int, form: BlobForm? = nil) {
    self.sha256 = sha256
    self.bytes = bytes
    self.depth = depth
    self.knownForm = form?.layout == .asWritten ? nil : form
  }

  /// The base's bytes in `layout`: what a delta in that layout uses as its prefix.
  func form(in layout: BlobLayout) -> [UInt8] {
    if let knownForm, knownForm.layout == layout { return knownForm.bytes }
    return layout.form(of: bytes)
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
  /// zstd level 2: on drawings in point streams it stores a little less than level 1 for
  /// hardly more of an import's time, where level 3 costs more than it saves and the highest
  /// levels make blobs only a few percent smaller (`inkling-bench blobs`, `scripts/bench-zstd`;
  /// BENCHMARKS.md). Import time is what the archive is measured on against `tar | zstd`,
  /// and compression is among its largest costs; `gc --repack` spends the time later
  /// (docs/decisions.md, "Drawings are stored as point streams").
  package static let defaultLevel: Int32 = 2

  /// When a delta is at most this fraction of the raw size, the full encoding is not tried:
  /// drawing bytes (float32 points, even in point columns) compress to little less than half
  /// alone, and a delta can use every match a full frame finds, its base's besides, so a
  /// full frame cannot win.
  static let deltaIsClearlySmaller = 2

  private let compressor: ZstdCompressor
  private let decompressor = ZstdDecompressor()

  /// Knobs for measuring (`inkling-bench blobs`); the defaults are what the store writes.
  /// False: drawings in point columns in place, as before migration 0017.
  package var pointStreams = true
  /// Whether a delta's blocks end where its streams do, as a full blob's always do. They do
  /// not: a delta is mostly copies of its base, and a block ended early costs its headers
  /// and tables for a few new bytes.
  package var blocksInDeltas = false
  /// A block is ended early only where both parts are at least this long: a block costs a
  /// header and its own entropy tables, which a short stream does not repay.
  package var shortestBlock = 256

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
    try encodeKeepingForm(bytes, sha256: sha256, base: base).blob
  }

  /// As `encode`, and also `bytes` in the layout they were encoded in (nil when that is as
  /// written), for a `BlobBase` of these bytes: the next version's delta then need not
  /// rearrange them again.
  package func encodeKeepingForm(
    _ bytes: [UInt8], sha256: [UInt8], base: BlobBase?
  ) throws -> (blob: EncodedBlob, form: BlobForm?) {
    guard SHA256.hash(bytes) == sha256 else {
      throw StoreError(
        kind: .verification, message: "blob \(shortHash(sha256)): not the SHA-256 of its bytes; nothing stored")
    }
    return try encodeKeepingForm(HashedBytes(bytes, sha256: sha256), base: base)
  }

  /// As `encodeKeepingForm(_:sha256:base:)`, for bytes hashed already (once: their hash is
  /// also what the caller looks the blob up by).
  package func encodeKeepingForm(
    _ hashed: HashedBytes, base: BlobBase?
  ) throws -> (blob: EncodedBlob, form: BlobForm?) {
    let bytes = hashed.bytes
    let sha256 = hashed.sha256
    var best = EncodedBlob(
      sha256: sha256, size: bytes.count, encoding: .raw, baseSHA256: nil, depth: 0, data: bytes)
    let deltaBase = base.flatMap { $0.depth < BlobStore.maxChainDepth && $0.sha256 != sha256 ? $0 : nil }
    let (layout, form, boundaries) = self.form(of: bytes)
    let prefix = deltaBase?.form(in: layout)
    do {
      if let deltaBase, let prefix {
        let delta = try form.withUnsafeBytes { input in
          try prefix.withUnsafeBytes {
            try compressor.compress(input, prefix: $0, blocksEndingAt: blocksInDeltas ? boundaries : [])
          }
        }
        if delta.count < best.data.count {
          best = EncodedBlob(
            sha256: sha256, size: bytes.count, encoding: .delta, layout: layout,
            baseSHA256: deltaBase.sha256, depth: deltaBase.depth + 1, data: delta)
        }
      }
      if best.encoding == .raw || best.data.count * Self.deltaIsClearlySmaller > bytes.count {
        let full = try form.withUnsafeBytes { try compressor.compress($0, prefix: nil, blocksEndingAt: boundaries) }
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
    return (best, layout == .asWritten ? nil : BlobForm(layout: layout, bytes: form))
  }

  /// The layout `bytes` are stored in, their form in it, and where a block of its
  /// compression should end.
  func form(of bytes: [UInt8]) -> (BlobLayout, [UInt8], [Int]) {
    if pointStreams, let streams = PointStreams.form(bytes) {
      var boundaries: [Int] = []
      for boundary in streams.boundaries
      where boundary - (boundaries.last ?? 0) >= shortestBlock && streams.bytes.count - boundary >= shortestBlock {
        boundaries.append(boundary)
      }
      return (.pointStreams, streams.bytes, boundaries)
    }
    if let columns = PointColumns.columnar(bytes) { return (.pointColumns, columns, []) }
    return (.asWritten, bytes, [])
  }

  /// Decodes `blob` and checks that it gives `bytes` back exactly (invariant 1). Compared, not
  /// hashed again: `sha256` is the hash of `bytes`, so equal bytes have it, and a second
  /// SHA-256 of every drawing would be the import's largest cost after the first.
  private func verify(_ blob: EncodedBlob, prefix: [UInt8]?, decodesTo bytes: [UInt8]) throws {
    let decoded: [UInt8]
    do {
      let form = try decodeForm(
        encoding: blob.encoding.rawValue, layout: blob.layout, data: blob.data, size: blob.size, prefix: prefix,
        decompressor: decompressor)
      decoded = try writtenBytes(ofForm: form, layout: blob.layout, size: blob.size)
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

extension BlobEncoder {
  /// The bytes `blob` decodes to over `base` (its delta base, decoded), not hashed: what
  /// reading one link of a chain costs (`inkling-bench blobs`).
  /// - Throws: `ZstdError` or `BlobFormatError`.
  package static func decode(_ blob: EncodedBlob, base: BlobBase?, decompressor: ZstdDecompressor) throws -> [UInt8] {
    try decodeBlob(
      sha256: blob.sha256, encoding: blob.encoding.rawValue, layout: blob.layout, depth: blob.depth, data: blob.data,
      size: blob.size, base: base, decompressor: decompressor
    ).bytes
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
/// of the next link up a chain: with its form when it was stored in a layout other than as
/// written, so a delta above it in the same layout uses it as its prefix without rearranging
/// again.
///
/// - Parameter base: the decoded base; required for encoding 2.
/// - Throws: `ZstdError` or `BlobFormatError`.
func decodeBlob(
  sha256: [UInt8], encoding: Int, layout: BlobLayout, depth: Int, data: [UInt8], size: Int, base: BlobBase?,
  decompressor: ZstdDecompressor
) throws -> BlobBase {
  let prefix = encoding == BlobEncoding.delta.rawValue ? base?.form(in: layout) : nil
  let form = try decodeForm(
    encoding: encoding, layout: layout, data: data, size: size, prefix: prefix, decompressor: decompressor)
  return BlobBase(
    sha256: sha256, bytes: try writtenBytes(ofForm: form, layout: layout, size: size), depth: depth,
    form: BlobForm(layout: layout, bytes: form))
}

/// What stored `data` decompresses to: the blob's bytes in its layout.
///
/// - Parameter prefix: for encoding 2, the base's bytes in the delta's layout.
/// - Throws: `ZstdError` or `BlobFormatError`.
func decodeForm(
  encoding: Int, layout: BlobLayout, data: [UInt8], size: Int, prefix: [UInt8]?, decompressor: ZstdDecompressor
) throws -> [UInt8] {
  let sizes = layout == .pointStreams ? PointStreams.formSizes(ofDrawing: size) : size...size
  switch BlobEncoding(rawValue: encoding) {
  case .raw:
    guard data.count == size else { throw BlobFormatError(description: "\(data.count) raw bytes, expected \(size)") }
    return data
  case .zstd:
    return try data.withUnsafeBytes { try decompressor.decompress($0, sizes: sizes, prefix: nil) }
  case .delta:
    guard let prefix else { throw BlobFormatError(description: "a delta without its base") }
    return try data.withUnsafeBytes { input in
      try prefix.withUnsafeBytes { try decompressor.decompress(input, sizes: sizes, prefix: $0) }
    }
  case nil:
    throw BlobFormatError(description: "unknown encoding \(encoding)")
  }
}

/// The bytes as written of a blob of `size` bytes whose `form` is in `layout`.
/// - Throws: `BlobFormatError` for a form that its layout cannot undo.
func writtenBytes(ofForm form: [UInt8], layout: BlobLayout, size: Int) throws -> [UInt8] {
  switch layout {
  case .asWritten:
    return form
  case .pointColumns:
    guard let bytes = PointColumns.interleaved(form) else {
      throw BlobFormatError(description: "layout 1 (point columns), but the data holds no point arrays")
    }
    return bytes
  case .pointStreams:
    guard let bytes = PointStreams.drawing(form, size: size) else {
      throw BlobFormatError(description: "layout 2 (point streams), but the data is not a drawing in streams")
    }
    return bytes
  }
}
