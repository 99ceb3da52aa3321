// zstd compression of blobs, whole or as a delta against a base (the base is a raw
// "prefix": zstd.h, ZSTD_CCtx_refPrefix).
//
// Invariants:
//   1. A delta frame's window covers prefix + content (`windowLog(covering:)`), so every
//      byte of the base is reachable; the decompressor allows exactly the window it needs
//      (or zstd's default 2^27, whichever is larger) and no more.
//   2. Decompression writes into a buffer of exactly the expected size and checks that the
//      frame declares that size, fills it, and is followed by nothing: malformed input
//      throws, never traps, and never allocates more than `maxOutputSize`.
//   3. Each context is used by one thread at a time: these classes are not Sendable.

import CZstd

/// A zstd failure: a malformed frame, a size mismatch, or a library error.
package struct ZstdError: Error, CustomStringConvertible, Sendable {
  package let message: String
  package var description: String { "zstd: \(message)" }

  /// Throws for a zstd result that is an error code.
  static func check(_ result: Int) throws {
    if ZSTD_isError(result) != 0 {
      throw ZstdError(message: String(cString: ZSTD_getErrorName(result)))
    }
  }
}

/// The smallest window (as log2, at least 2^10) that covers `count` bytes.
func zstdWindowLog(covering count: Int) -> Int32 {
  var log: Int32 = 10
  while log < 31 && (1 << log) < count { log += 1 }
  return log
}

/// Compresses with one zstd context. One per thread.
package final class ZstdCompressor {
  package let level: Int32
  /// Long-distance matching for deltas over a prefix larger than this; a knob for
  /// measuring. Within the window a level's own tables are made for, the regular match
  /// finder already finds what a new version repeats of its base, and long-distance matching
  /// only adds its own pass; past it, the repeats are out of those tables' reach.
  package var longDistanceMatchingAbove = 1 << 19
  private let context: OpaquePointer
  private var scratch: UnsafeMutableRawBufferPointer

  /// A compressor at `level` (1…19; higher is smaller and slower).
  package init(level: Int32) {
    // ZSTD_createCCtx fails only when memory is exhausted; Swift itself traps then.
    guard let context = ZSTD_createCCtx() else { fatalError("ZSTD_createCCtx: out of memory") }
    self.context = context
    self.level = level
    scratch = .allocate(byteCount: 64 << 10, alignment: 16)
    ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
    // The blob's SHA-256 checks the content, so the frame carries no checksum of its own.
    ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 0)
  }

  deinit {
    ZSTD_freeCCtx(context)
    scratch.deallocate()
  }

  /// One zstd frame holding `input`; with a `prefix`, a delta that refers to it.
  ///
  /// The frame records the content size, as `ZstdDecompressor` requires. With a prefix,
  /// the window covers prefix and input, so a new version that repeats most of its base
  /// costs little more than what changed. With `blocksEndingAt` (ascending offsets into
  /// `input`), a block ends at each: every part gets entropy tables of its own.
  /// - Throws: `ZstdError` on a library failure.
  package func compress(
    _ input: UnsafeRawBufferPointer, prefix: UnsafeRawBufferPointer? = nil, blocksEndingAt boundaries: [Int] = []
  ) throws -> [UInt8] {
    ZSTD_CCtx_reset(context, ZSTD_reset_session_only)
    if let prefix, !prefix.isEmpty {
      try ZstdError.check(
        ZSTD_CCtx_setParameter(context, ZSTD_c_windowLog, zstdWindowLog(covering: prefix.count + input.count)))
      try ZstdError.check(
        ZSTD_CCtx_setParameter(
          context, ZSTD_c_enableLongDistanceMatching, prefix.count > longDistanceMatchingAbove ? 1 : 0))
      // Referenced, not copied, and used for the next frame only.
      try ZstdError.check(ZSTD_CCtx_refPrefix(context, prefix.baseAddress, prefix.count))
    } else {
      try ZstdError.check(ZSTD_CCtx_setParameter(context, ZSTD_c_windowLog, 0))  // level's default
      try ZstdError.check(ZSTD_CCtx_setParameter(context, ZSTD_c_enableLongDistanceMatching, 0))
      try ZstdError.check(ZSTD_CCtx_refPrefix(context, nil, 0))  // no prefix left from a failed call
    }
    // Each block ended early adds at most a block header and a table's worth of bytes.
    let bound = ZSTD_compressBound(input.count)
    try ZstdError.check(bound)
    let capacity = bound + boundaries.count * 512
    if scratch.count < capacity {
      scratch.deallocate()
      scratch = .allocate(byteCount: max(capacity, scratch.count * 2), alignment: 16)
    }
    var empty: UInt8 = 0
    let size = try withUnsafeMutableBytes(of: &empty) { placeholder in
      let start = input.baseAddress ?? UnsafeRawPointer(placeholder.baseAddress!)
      guard !boundaries.isEmpty else {
        return ZSTD_compress2(context, scratch.baseAddress, scratch.count, start, input.count)
      }
      try ZstdError.check(ZSTD_CCtx_setPledgedSrcSize(context, UInt64(input.count)))
      var output = ZSTD_outBuffer(dst: scratch.baseAddress, size: scratch.count, pos: 0)
      var done = 0
      for end in boundaries where end > done && end < input.count {
        try compressPart(start + done, end - done, into: &output, ZSTD_e_flush)
        done = end
      }
      try compressPart(start + done, input.count - done, into: &output, ZSTD_e_end)
      return output.pos
    }
    try ZstdError.check(size)
    return [UInt8](UnsafeRawBufferPointer(rebasing: scratch[0..<size]))
  }

  /// Compresses `count` bytes at `start` into `output`, then flushes the block or ends the
  /// frame. With room for the whole frame in `output`, one call does it all.
  private func compressPart(
    _ start: UnsafeRawPointer, _ count: Int, into output: inout ZSTD_outBuffer, _ directive: ZSTD_EndDirective
  ) throws {
    var part = ZSTD_inBuffer(src: start, size: count, pos: 0)
    let left = ZSTD_compressStream2(context, &output, &part, directive)
    try ZstdError.check(left)
    guard left == 0, part.pos == part.size else { throw ZstdError(message: "the output buffer was too small") }
  }
}

/// Decompresses with one zstd context. One per thread.
package final class ZstdDecompressor {
  /// The largest content this decompressor will produce (1 GiB): a damaged size field
  /// must not make it allocate without bound.
  package static let maxOutputSize = 1 << 30

  private let context: OpaquePointer

  package init() {
    // ZSTD_createDCtx fails only when memory is exhausted; Swift itself traps then.
    guard let context = ZSTD_createDCtx() else { fatalError("ZSTD_createDCtx: out of memory") }
    self.context = context
  }

  deinit {
    ZSTD_freeDCtx(context)
  }

  /// The content of the one zstd frame in `input`, which must be exactly `expectedSize`
  /// bytes; `prefix` is the base a delta was made against.
  ///
  /// - Throws: `ZstdError` if `input` is not exactly one well-formed frame of that size
  ///   (garbage, truncation, trailing bytes, wrong or missing prefix that breaks decoding).
  package func decompress(_ input: UnsafeRawBufferPointer, expectedSize: Int, prefix: UnsafeRawBufferPointer? = nil)
    throws -> [UInt8]
  {
    try decompress(input, sizes: expectedSize...expectedSize, prefix: prefix)
  }

  /// As `decompress(_:expectedSize:prefix:)`, for a frame whose content may be of any size in
  /// `sizes` (it declares which).
  package func decompress(
    _ input: UnsafeRawBufferPointer, sizes: ClosedRange<Int>, prefix: UnsafeRawBufferPointer? = nil
  )
    throws -> [UInt8]
  {
    guard sizes.lowerBound >= 0, sizes.upperBound <= Self.maxOutputSize else {
      throw ZstdError(message: "expected size \(sizes.upperBound) is out of range")
    }
    guard let start = input.baseAddress, !input.isEmpty else { throw ZstdError(message: "no data") }
    let declared = ZSTD_getFrameContentSize(start, input.count)
    switch declared {
    case UInt64.max: throw ZstdError(message: "the frame does not declare its size")  // ZSTD_CONTENTSIZE_UNKNOWN
    case UInt64.max - 1: throw ZstdError(message: "not a zstd frame")  // ZSTD_CONTENTSIZE_ERROR
    case UInt64(sizes.lowerBound)...UInt64(sizes.upperBound): break
    default:
      let expected = sizes.count == 1 ? "\(sizes.lowerBound)" : "\(sizes.lowerBound)…\(sizes.upperBound)"
      throw ZstdError(message: "the frame holds \(declared) bytes, expected \(expected)")
    }
    let expectedSize = Int(declared)
    let frameSize = ZSTD_findFrameCompressedSize(start, input.count)
    try ZstdError.check(frameSize)
    guard frameSize == input.count else {
      throw ZstdError(message: "\(input.count - frameSize) bytes after the frame")
    }

    ZSTD_DCtx_reset(context, ZSTD_reset_session_and_parameters)  // also drops any prefix
    let window = max(27, zstdWindowLog(covering: (prefix?.count ?? 0) + expectedSize))
    try ZstdError.check(ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, window))
    if let prefix, !prefix.isEmpty {
      try ZstdError.check(ZSTD_DCtx_refPrefix(context, prefix.baseAddress, prefix.count))
    }
    return try [UInt8](unsafeUninitializedCapacity: max(expectedSize, 1)) { output, count in
      let size = ZSTD_decompressDCtx(context, output.baseAddress, expectedSize, start, input.count)
      try ZstdError.check(size)
      guard size == expectedSize else {
        throw ZstdError(message: "the frame decoded to \(size) bytes, expected \(expectedSize)")
      }
      count = size
    }
  }
}
