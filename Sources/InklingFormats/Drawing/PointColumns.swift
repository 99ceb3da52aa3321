// A reversible rearrangement of a drawing's point records that general-purpose compressors
// handle far better than the format's own layout, so that years of history stay small
// (docs/decisions.md, "Drawings are stored as point streams").
//
// `StrokeData.7` holds N records of interleaved little-endian values (x, y, time, width, …;
// docs/pkdrawing-format.md, "Point properties"). Neighbouring points of a hand-drawn
// path differ little, but interleaving hides that from zstd, which sees noisy float bytes.
// The columnar form replaces each point array, in place and at the same length, by its
// columns (every x, then every y, …). Each value, taken as an unsigned integer of its width,
// becomes its difference from a prediction (the value before it; for locations, the value
// before it plus the last step), zigzag-coded so that small differences of either sign are
// small numbers, and each column is split into byte planes (all low bytes, then the next, …).
// That makes drawings much smaller under zstd at the same level (BENCHMARKS.md, "Import,
// size and restore").
//
// Invariants:
//  1. Only the bytes inside point arrays change; every tag, length, mask and count stays where
//     it was. So the columnar form parses exactly like the original, both directions find the
//     same arrays, and `interleaved(columnar(b)) == b` for every input.
//  2. An array is rearranged only when it lies in a top-level stroke's path (`Drawing.5` →
//     `Stroke.5` → `StrokeData.7`, the last occurrence of each field, as protobuf reads
//     them), its varying mask has only known bits, and stride × N is exactly its length.
//     Anything else, including input that does not parse, is left as it is.
//  3. Input drives no recursion and no unchecked arithmetic: the walk is three fixed levels
//     of the bounds-checked `ProtobufReader`, and stride × N is checked for overflow.

/// Converts drawing bytes to and from the columnar form that the store compresses.
///
/// ```swift
/// if let columns = PointColumns.columnar(bytes) {
///   // compress `columns`; later: PointColumns.interleaved(columns) == bytes
/// }
/// ```
public enum PointColumns {
  /// `bytes` with every point array in columnar form, or nil when there is no array to
  /// rearrange (not a `wrd` container, damaged, or no strokes with points).
  public static func columnar(_ bytes: [UInt8]) -> [UInt8]? {
    rearranged(bytes, toColumns: true)
  }

  /// The original bytes of a columnar form; nil exactly when `columnar` gives nil for them.
  public static func interleaved(_ columns: [UInt8]) -> [UInt8]? {
    rearranged(columns, toColumns: false)
  }

  // MARK: - Finding the arrays

  /// One point array: where it is, and the byte width of each value in a record.
  private struct PointArray {
    var range: Range<Int>
    var count: Int
    var mask: UInt64
  }

  private static func rearranged(_ bytes: [UInt8], toColumns: Bool) -> [UInt8]? {
    let arrays = bytes.withUnsafeBytes { pointArrays(in: $0) }
    guard !arrays.isEmpty else { return nil }
    var output = bytes
    bytes.withUnsafeBytes { input in
      output.withUnsafeMutableBytes { out in
        for array in arrays {
          let source = UnsafeRawBufferPointer(rebasing: input[array.range])
          let target = UnsafeMutableRawBufferPointer(rebasing: out[array.range])
          if toColumns {
            splitColumns(source, into: target, count: array.count, mask: array.mask)
          } else {
            joinColumns(source, into: target, count: array.count, mask: array.mask)
          }
        }
      }
    }
    return output
  }

  /// The point arrays invariant 2 admits, in order; empty when the bytes do not parse.
  private static func pointArrays(in raw: UnsafeRawBufferPointer) -> [PointArray] {
    guard raw.count >= 8, raw.prefix(4).elementsEqual(DrawingReader.magic) else { return [] }
    let headerLength = Int(raw[6]) | Int(raw[7]) << 8
    guard headerLength >= 8 && headerLength <= raw.count else { return [] }
    var arrays: [PointArray] = []
    do {
      var drawing = ProtobufReader(raw, range: headerLength..<raw.count)
      while let tag = try drawing.readTag() {
        guard tag.number == 5 && tag.wireType == .lengthDelimited else {
          try drawing.skip(tag)
          continue
        }
        var stroke = try drawing.readMessage()
        var path: ProtobufReader?
        while let strokeTag = try stroke.readTag() {
          if strokeTag.number == 5 && strokeTag.wireType == .lengthDelimited {
            path = try stroke.readMessage()
          } else {
            try stroke.skip(strokeTag)
          }
        }
        if var path, let array = try pointArray(in: &path) { arrays.append(array) }
      }
    } catch {
      return []
    }
    return arrays
  }

  private static func pointArray(in path: inout ProtobufReader) throws(ProtobufError) -> PointArray? {
    var count: UInt64?
    var mask: UInt64?
    var points: Range<Int>?
    while let tag = try path.readTag() {
      switch (tag.number, tag.wireType) {
      case (3, .varint): count = try path.readVarint()
      case (4, .varint): mask = try path.readVarint()
      case (7, .lengthDelimited): points = try path.readLengthDelimitedRange()
      default: try path.skip(tag)
      }
    }
    guard let count, let mask, let points, count >= 2, mask != 0, mask & ~PointProperties.known.rawValue == 0 else {
      return nil
    }
    let stride = UInt64(PointPropertyCoding.size(of: mask))
    let (total, overflow) = stride.multipliedReportingOverflow(by: count)
    guard !overflow, total == UInt64(points.count) else { return nil }
    return PointArray(range: points, count: Int(count), mask: mask)
  }

  // MARK: - Rearranging

  /// One value of a record, by its byte width and how far back its column predicts it
  /// (PointStreams codes its columns the same way).
  enum Column {
    /// x or y of a location: 4 bytes, order 2 (a hand moves smoothly: the next point
    /// continues the last step).
    case location
    /// 4 bytes, order 1 (the next value repeats the last one).
    case wide
    /// 2 bytes, order 1.
    case narrow

    var width: Int { self == .narrow ? 2 : 4 }
  }

  /// The columns of a record of `mask`, in record order (location is two).
  static func columns(_ mask: UInt64) -> [Column] {
    var columns: [Column] = []
    for bit in 0..<11 where mask & (1 << bit) != 0 {
      switch 1 << bit {
      case 0x001: columns += [.location, .location]
      case 0x002, 0x004, 0x200: columns.append(.wide)
      default: columns.append(.narrow)
      }
    }
    return columns
  }

  /// The prediction of a value from the two before it (wrapping; zero before the first).
  @inline(__always)
  static func prediction(order: Int, previous: UInt32, beforePrevious: UInt32) -> UInt32 {
    order == 2 ? previous &+ previous &- beforePrevious : previous
  }

  /// A residual of `width` bytes as a small unsigned number: 0, −1, 1, −2, … → 0, 1, 2, 3, …
  /// (protobuf's zigzag), so that near-zero residuals of either sign leave the high byte
  /// planes zero.
  @inline(__always)
  static func zigzag(_ residual: UInt32, width: Int) -> UInt32 {
    let shift = UInt32(32 - 8 * width)
    let signed = Int32(bitPattern: residual << shift) >> shift
    return UInt32(bitPattern: (signed << 1) ^ (signed >> 31)) & mask(width)
  }

  @inline(__always)
  static func unzigzag(_ value: UInt32) -> UInt32 {
    (value >> 1) ^ (0 &- (value & 1))
  }

  @inline(__always)
  static func mask(_ width: Int) -> UInt32 { width == 4 ? .max : 0xFFFF }

  // The loops below run over every point of every stored drawing, at import and at every
  // read, so they work on raw pointers: `count` ≥ 2 and both buffers hold stride × count
  // bytes (pointArray checked it). Each column kind gets its own copy of the column loop
  // (the helpers are inlined with constant width and order) and the first two values,
  // which predict differently, are peeled off: the inner loops have no branches but their
  // own.

  private static func splitColumns(
    _ records: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer, count: Int, mask recordMask: UInt64
  ) {
    let columns = columns(recordMask)
    let stride = columns.reduce(0) { $0 + $1.width }
    let target = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var valueOffset = 0  // of the value in a record; also where its column starts, in units of `count`
    for column in columns {
      let values = records.baseAddress! + valueOffset
      let planes = target + valueOffset * count
      switch column {
      case .location: splitColumn(values, stride: stride, count: count, into: planes, width: 4, order: 2)
      case .wide: splitColumn(values, stride: stride, count: count, into: planes, width: 4, order: 1)
      case .narrow: splitColumn(values, stride: stride, count: count, into: planes, width: 2, order: 1)
      }
      valueOffset += column.width
    }
  }

  /// Writes the byte planes of one column, whose values are `stride` apart from `values`.
  @inline(__always)
  private static func splitColumn(
    _ values: UnsafeRawPointer, stride: Int, count: Int, into planes: UnsafeMutablePointer<UInt8>, width: Int,
    order: Int
  ) {
    codes(of: values, stride: stride, count: count, width: width, order: order) { code, index in
      planes[index] = UInt8(truncatingIfNeeded: code)
      planes[count + index] = UInt8(truncatingIfNeeded: code >> 8)
      if width == 4 {
        planes[2 * count + index] = UInt8(truncatingIfNeeded: code >> 16)
        planes[3 * count + index] = UInt8(truncatingIfNeeded: code >> 24)
      }
    }
  }

  /// The codes of one column's `count` (≥ 2) values, `stride` apart from `values`, handed to
  /// `emit` with their index: each value's residual from its prediction, zigzagged. Point
  /// streams (PointStreams.swift) code their columns the same way.
  @inline(__always)
  static func codes(
    of values: UnsafeRawPointer, stride: Int, count: Int, width: Int, order: Int, _ emit: (UInt32, Int) -> Void
  ) {
    @inline(__always) func value(_ index: Int) -> UInt32 {
      width == 4
        ? UInt32(littleEndian: values.loadUnaligned(fromByteOffset: index * stride, as: UInt32.self))
        : UInt32(UInt16(littleEndian: values.loadUnaligned(fromByteOffset: index * stride, as: UInt16.self)))
    }
    // The first value stands for itself; the second is predicted by the first.
    var beforePrevious = value(0)
    var previous = value(1)
    emit(zigzag(beforePrevious, width: width), 0)
    emit(zigzag(previous &- beforePrevious, width: width), 1)
    for index in 2..<count {
      let next = value(index)
      emit(
        zigzag(next &- prediction(order: order, previous: previous, beforePrevious: beforePrevious), width: width),
        index)
      beforePrevious = previous
      previous = next
    }
  }

  private static func joinColumns(
    _ planes: UnsafeRawBufferPointer, into records: UnsafeMutableRawBufferPointer, count: Int, mask recordMask: UInt64
  ) {
    let columns = columns(recordMask)
    let stride = columns.reduce(0) { $0 + $1.width }
    let source = planes.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var valueOffset = 0
    for column in columns {
      let columnPlanes = source + valueOffset * count
      let values = records.baseAddress! + valueOffset
      switch column {
      case .location: joinColumn(columnPlanes, count: count, into: values, stride: stride, width: 4, order: 2)
      case .wide: joinColumn(columnPlanes, count: count, into: values, stride: stride, width: 4, order: 1)
      case .narrow: joinColumn(columnPlanes, count: count, into: values, stride: stride, width: 2, order: 1)
      }
      valueOffset += column.width
    }
  }

  /// Writes the values of one column, `stride` apart from `values`, from its byte planes.
  @inline(__always)
  private static func joinColumn(
    _ planes: UnsafePointer<UInt8>, count: Int, into values: UnsafeMutableRawPointer, stride: Int, width: Int,
    order: Int
  ) {
    decodeColumn(into: values, stride: stride, count: count, width: width, order: order) { index in
      var code = UInt32(planes[index]) | UInt32(planes[count + index]) << 8
      if width == 4 {
        code |= UInt32(planes[2 * count + index]) << 16 | UInt32(planes[3 * count + index]) << 24
      }
      return code
    }
  }

  /// Writes one column's `count` (≥ 2) values, `stride` apart from `values`, from their codes
  /// (`code(index)`): `codes(of:…)`'s inverse, which point streams use as well.
  @inline(__always)
  static func decodeColumn(
    into values: UnsafeMutableRawPointer, stride: Int, count: Int, width: Int, order: Int, _ code: (Int) -> UInt32
  ) {
    let mask = mask(width)
    @inline(__always) func put(_ value: UInt32, at index: Int) {
      if width == 4 {
        values.storeBytes(of: value.littleEndian, toByteOffset: index * stride, as: UInt32.self)
      } else {
        values.storeBytes(
          of: UInt16(truncatingIfNeeded: value).littleEndian, toByteOffset: index * stride, as: UInt16.self)
      }
    }
    // The first value stands for itself; the second is predicted by the first.
    var beforePrevious = unzigzag(code(0)) & mask
    var previous = (beforePrevious &+ unzigzag(code(1))) & mask
    put(beforePrevious, at: 0)
    put(previous, at: 1)
    for index in 2..<count {
      let next =
        (prediction(order: order, previous: previous, beforePrevious: beforePrevious) &+ unzigzag(code(index))) & mask
      put(next, at: index)
      beforePrevious = previous
      previous = next
    }
  }
}
