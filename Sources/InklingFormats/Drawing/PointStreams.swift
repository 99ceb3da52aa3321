// The streams form of a drawing: what the store compresses since migration 0017, instead of
// the point columns in place (PointColumns), to keep the archive small (docs/decisions.md,
// "Drawings are stored as point streams").
//
// The form of a drawing is three parts, one after the other:
//   skeleton  the drawing without the bytes of its point arrays (the container header too),
//             so its structure, UUIDs, inks and bounds come first, in their order;
//   modes     one byte per column (below): 0 for byte planes, k (1…255) for a palette of k codes;
//   columns   each column in turn: its codes as byte planes (every low byte, then every next
//             one, …), or its palette (k codes, each `width` bytes little-endian, in order of
//             first use) followed by one palette index per value.
// A column is one value of the point records (x, y, time, width, …: PointColumns.columns)
// across every point array that has it, in drawing order; each value is the zigzag code of its
// prediction residual within its own array, exactly as in PointColumns (the first value stands
// for itself, the second is predicted by the first, then locations continue the last step and
// other values repeat the last one).
//
// Why a form of its own: zstd gives each stream blocks of its own (the encoder ends a block at
// each of `Form.boundaries`), so a plane of noise-like low bytes is stored raw and a plane of
// small numbers gets an entropy table fitted to it, where in place every stroke interleaves
// the two and a block's one table fits neither. A device that stamps points on its display's
// clock gives time offsets that differ by a few values, which a palette makes one byte each.
// Palettes are in order of first use, so a save that appends strokes appends to every stream
// and palette, and a delta against the save before stays a few long matches.
//
// Which arrays leave the drawing: walking `Drawing.5` (strokes) → `Stroke.5` (paths), the first
// field 7 of a path whose point count (field 3, at least 2) and varying mask (field 4, known
// bits only) come before it, and whose length is stride × count. The decoder walks the skeleton
// by the same rule with those arrays' bytes absent, so it finds the same arrays at the same
// offsets with no list of them stored.
//
// Invariants:
//  1. `drawing(form(b)!.bytes, size: b.count) == b` for every `b` that has a form; `b` has one
//     exactly when its walk reaches its end without a malformed field and finds an array.
//  2. No input makes either direction read or write outside its buffers, loop, or trap: every
//     length is checked against the buffer and the enclosing message before it is used, the
//     walk is three fixed levels deep, and stride × count is checked for overflow.
//  3. The form of a drawing never changes: the store keeps it (a test keeps digests of it).

/// Converts drawing bytes to and from the streams form that the store compresses.
///
/// ```swift
/// if let form = PointStreams.form(bytes) {
///   // compress `form.bytes`, a block ending at each of `form.boundaries`; later:
///   // PointStreams.drawing(form.bytes, size: bytes.count) == bytes
/// }
/// ```
public enum PointStreams {
  /// A drawing in streams form, and the offsets where its streams start.
  public struct Form: Sendable {
    public let bytes: [UInt8]
    /// Where each stream after the skeleton starts, ascending: a compressor does best to
    /// end a block at each.
    public let boundaries: [Int]
  }

  /// `bytes` in streams form, or nil when they have none (not a `wrd` container, malformed,
  /// or no point array to move).
  public static func form(_ bytes: [UInt8]) -> Form? {
    bytes.withUnsafeBytes { encode($0) }
  }

  /// The sizes the streams form of a drawing of `size` bytes can have: a mode byte for each of
  /// at most 12 columns more, or less where palettes are smaller than planes.
  public static func formSizes(ofDrawing size: Int) -> ClosedRange<Int> { 0...(size + 12) }

  /// The drawing of `size` bytes whose streams form is `form`; nil when `form` is not one.
  public static func drawing(_ form: [UInt8], size: Int) -> [UInt8]? {
    form.withUnsafeBytes { decode($0, size: size) }
  }

  // MARK: - Arrays and columns

  /// A point array of the drawing: where it is, its point count and varying mask.
  struct PointArray {
    let offset: Int
    let count: Int
    let mask: UInt64
    let length: Int
  }

  /// One column of the form: the property `bit`, which of its values (`part` 1 is a
  /// location's y), and how many values all the arrays give it.
  struct StreamColumn {
    let bit: Int
    let part: Int
    let width: Int
    let order: Int
    var values: Int
  }

  private static let fourByteBits: UInt64 = 0x002 | 0x004 | 0x200
  private static let twoByteBits: UInt64 = 0x008 | 0x010 | 0x020 | 0x040 | 0x080 | 0x100 | 0x400

  /// The columns the arrays' masks have, in bit order, with their value counts.
  static func columns(of arrays: [PointArray]) -> [StreamColumn] {
    var columns: [StreamColumn] = []
    let union = arrays.reduce(UInt64(0)) { $0 | $1.mask }
    for bit in 0..<11 where union & (1 << UInt64(bit)) != 0 {
      let values = arrays.reduce(0) { $0 + ($1.mask & (1 << UInt64(bit)) != 0 ? $1.count : 0) }
      if bit == 0 {
        columns.append(StreamColumn(bit: 0, part: 0, width: 4, order: 2, values: values))
        columns.append(StreamColumn(bit: 0, part: 1, width: 4, order: 2, values: values))
      } else {
        let width = fourByteBits & (1 << UInt64(bit)) != 0 ? 4 : 2
        columns.append(StreamColumn(bit: bit, part: 0, width: width, order: 1, values: values))
      }
    }
    return columns
  }

  /// Where `column`'s value lies in a record of `mask` (which has the column's bit).
  @inline(__always)
  static func valueOffset(of column: StreamColumn, in mask: UInt64) -> Int {
    let below = mask & ((1 << UInt64(column.bit)) - 1)
    return (below & 1 != 0 ? 8 : 0) + (below & fourByteBits).nonzeroBitCount * 4
      + (below & twoByteBits).nonzeroBitCount * 2 + column.part * 4
  }

  /// The container's header length, when `raw` starts like a drawing of `size` bytes.
  private static func headerLength(_ raw: UnsafeRawBufferPointer, size: Int) -> Int? {
    guard raw.count >= 8, raw.prefix(4).elementsEqual(DrawingReader.magic) else { return nil }
    let length = Int(raw[6]) | Int(raw[7]) << 8
    guard length >= 8 && length <= size && length <= raw.count else { return nil }
    return length
  }

  // MARK: - Walking

  /// The walk of invariant 2, over the drawing (arrays present) or its skeleton (absent).
  /// Offsets are the drawing's: in a skeleton, `position` lags them by the bytes removed.
  struct Walk {
    struct Malformed: Error {}

    let buffer: UnsafeRawBufferPointer
    let arraysPresent: Bool
    var position: Int
    var removed = 0
    var arrays: [PointArray] = []

    init(_ buffer: UnsafeRawBufferPointer, arraysPresent: Bool, from start: Int) {
      self.buffer = buffer
      self.arraysPresent = arraysPresent
      position = start
    }

    /// The drawing's offset of the next byte.
    var offset: Int { arraysPresent ? position : position + removed }

    /// Walks a drawing of `size` bytes from the end of its header.
    mutating func drawing(size: Int) throws(Malformed) {
      while offset < size {
        let (field, type) = try tag(before: size)
        if field == 5 && type == 2 {
          try stroke(end: try valueEnd(before: size))
        } else {
          try skipValue(type, before: size)
        }
      }
    }

    private mutating func stroke(end: Int) throws(Malformed) {
      while offset < end {
        let (field, type) = try tag(before: end)
        if field == 5 && type == 2 {
          try path(end: try valueEnd(before: end))
        } else {
          try skipValue(type, before: end)
        }
      }
    }

    private mutating func path(end: Int) throws(Malformed) {
      var count: UInt64?
      var mask: UInt64?
      var moved = false
      while offset < end {
        let (field, type) = try tag(before: end)
        switch (field, type) {
        case (3, 0): count = try varint(before: end)
        case (4, 0): mask = try varint(before: end)
        case (7, 2):
          let length = try varint(before: end)
          guard length <= UInt64(end - offset) else { throw Malformed() }
          if !moved, let count, let mask, PointStreams.admits(count: count, mask: mask, length: length) {
            arrays.append(PointArray(offset: offset, count: Int(count), mask: mask, length: Int(length)))
            if arraysPresent {
              guard length <= UInt64(buffer.count - position) else { throw Malformed() }
              position += Int(length)
            }
            removed += Int(length)
            moved = true
          } else {
            try skip(length, before: end)
          }
        default: try skipValue(type, before: end)
        }
      }
    }

    private mutating func varint(before end: Int) throws(Malformed) -> UInt64 {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        guard offset < end, position < buffer.count, shift < 64 else { throw Malformed() }
        let byte = buffer[position]
        position += 1
        value |= UInt64(byte & 0x7F) << shift
        if byte < 0x80 { return value }
        shift += 7
      }
    }

    private mutating func tag(before end: Int) throws(Malformed) -> (field: UInt64, type: UInt64) {
      let key = try varint(before: end)
      return (key >> 3, key & 7)
    }

    private mutating func skip(_ count: UInt64, before end: Int) throws(Malformed) {
      guard count <= UInt64(end - offset), count <= UInt64(buffer.count - position) else { throw Malformed() }
      position += Int(count)
    }

    private mutating func skipValue(_ type: UInt64, before end: Int) throws(Malformed) {
      switch type {
      case 0: _ = try varint(before: end)
      case 1: try skip(8, before: end)
      case 2: try skip(try varint(before: end), before: end)
      case 5: try skip(4, before: end)
      default: throw Malformed()  // groups and undefined wire types
      }
    }

    /// The end of the length-delimited value whose length comes next.
    private mutating func valueEnd(before end: Int) throws(Malformed) -> Int {
      let length = try varint(before: end)
      guard length <= UInt64(end - offset) else { throw Malformed() }
      return offset + Int(length)
    }
  }

  /// Whether a path's field 7 of `length` bytes holds `count` records of `mask` (invariant 2).
  static func admits(count: UInt64, mask: UInt64, length: UInt64) -> Bool {
    guard count >= 2, mask != 0, mask & ~PointProperties.known.rawValue == 0 else { return false }
    let (total, overflow) = UInt64(PointPropertyCoding.size(of: mask)).multipliedReportingOverflow(by: count)
    return !overflow && total == length
  }
}

// MARK: - Encoding

extension PointStreams {
  private static func encode(_ raw: UnsafeRawBufferPointer) -> Form? {
    guard let header = headerLength(raw, size: raw.count) else { return nil }
    var walk = Walk(raw, arraysPresent: true, from: header)
    do { try walk.drawing(size: raw.count) } catch { return nil }
    let arrays = walk.arrays
    guard !arrays.isEmpty else { return nil }
    let columns = columns(of: arrays)
    let skeleton = raw.count - walk.removed
    // Planes are the largest a column can take: a palette is chosen only when smaller.
    let bound = skeleton + columns.count + columns.reduce(0) { $0 + $1.width * $1.values }
    var boundaries: [Int] = []
    let codes = UnsafeMutablePointer<UInt32>.allocate(capacity: columns.reduce(0) { max($0, $1.values) })
    defer { codes.deallocate() }
    var palette = Palette()
    let bytes = [UInt8](unsafeUninitializedCapacity: bound) { output, written in
      let out = output.baseAddress!
      var at = 0
      var from = 0
      for array in arrays {
        UnsafeMutableRawPointer(out + at).copyMemory(from: raw.baseAddress! + from, byteCount: array.offset - from)
        at += array.offset - from
        from = array.offset + array.length
      }
      UnsafeMutableRawPointer(out + at).copyMemory(from: raw.baseAddress! + from, byteCount: raw.count - from)
      at += raw.count - from
      let modes = at
      at += columns.count
      for (index, column) in columns.enumerated() {
        residualCodes(of: column, in: arrays, of: raw, into: codes)
        let values = UnsafeBufferPointer(start: codes, count: column.values)
        if let size = palette.index(values, width: column.width, into: out, at: &at, boundaries: &boundaries) {
          out[modes + index] = UInt8(size)
        } else {
          out[modes + index] = 0
          for plane in 0..<column.width { boundaries.append(at + plane * column.values) }
          writePlanes(values, width: column.width, into: out + at)
          at += column.width * column.values
        }
      }
      written = at
      boundaries.insert(modes, at: 0)
    }
    return Form(bytes: bytes, boundaries: boundaries)
  }

  /// Writes the byte planes of `codes`, each `codes.count` long, from `out` on.
  private static func writePlanes(
    _ codes: UnsafeBufferPointer<UInt32>, width: Int, into out: UnsafeMutablePointer<UInt8>
  ) {
    let count = codes.count
    if width == 4 {
      for index in 0..<count {
        let code = codes[index]
        out[index] = UInt8(truncatingIfNeeded: code)
        out[count + index] = UInt8(truncatingIfNeeded: code >> 8)
        out[2 * count + index] = UInt8(truncatingIfNeeded: code >> 16)
        out[3 * count + index] = UInt8(truncatingIfNeeded: code >> 24)
      }
    } else {
      for index in 0..<count {
        let code = codes[index]
        out[index] = UInt8(truncatingIfNeeded: code)
        out[count + index] = UInt8(truncatingIfNeeded: code >> 8)
      }
    }
  }

  /// Writes the codes of `column` over every array that has it, in order, from `codes` on.
  private static func residualCodes(
    of column: StreamColumn, in arrays: [PointArray], of raw: UnsafeRawBufferPointer,
    into codes: UnsafeMutablePointer<UInt32>
  ) {
    var next = 0
    for array in arrays where array.mask & (1 << UInt64(column.bit)) != 0 {
      let values = raw.baseAddress! + array.offset + valueOffset(of: column, in: array.mask)
      let stride = PointPropertyCoding.size(of: array.mask)
      let target = codes + next
      switch (column.width, column.order) {
      case (4, 2): code(values, stride: stride, count: array.count, into: target, width: 4, order: 2)
      case (4, _): code(values, stride: stride, count: array.count, into: target, width: 4, order: 1)
      default: code(values, stride: stride, count: array.count, into: target, width: 2, order: 1)
      }
      next += array.count
    }
  }

  /// The codes of one array's values (`count` ≥ 2, `stride` apart), as PointColumns makes them.
  @inline(__always)
  private static func code(
    _ values: UnsafeRawPointer, stride: Int, count: Int, into codes: UnsafeMutablePointer<UInt32>, width: Int,
    order: Int
  ) {
    PointColumns.codes(of: values, stride: stride, count: count, width: width, order: order) { codes[$1] = $0 }
  }

  /// A column's palette while it is built: at most 255 codes in order of first use, found by
  /// an open-addressing table of 512 slots.
  private struct Palette {
    private var slots = [Int16](repeating: -1, count: 512)
    private var codes = [UInt32](repeating: 0, count: 256)

    /// Writes `values` as a palette and indices at `out[at...]` (advancing `at`, adding the
    /// indices' start to `boundaries`) when they take at most 255 codes and at least four
    /// values each, and returns the palette's size; otherwise writes nothing that counts and
    /// returns nil.
    mutating func index(
      _ values: UnsafeBufferPointer<UInt32>, width: Int, into out: UnsafeMutablePointer<UInt8>, at: inout Int,
      boundaries: inout [Int]
    ) -> Int? {
      let limit = min(255, values.count / 4)
      guard limit > 0 else { return nil }
      // The indices go after the palette, whose size is known only at the end: written after
      // room for `limit` codes first, then moved down (planes would take more room than both).
      let indices = out + at + limit * width
      let size = slots.withUnsafeMutableBufferPointer { slots in
        codes.withUnsafeMutableBufferPointer { codes -> Int? in
          slots.update(repeating: -1)
          var size = 0
          for position in 0..<values.count {
            let value = values[position]
            var slot = Int((value &* 0x9E37_79B1) >> 23)
            while true {
              let entry = slots[slot]
              if entry < 0 {
                guard size < limit else { return nil }
                slots[slot] = Int16(size)
                codes[size] = value
                indices[position] = UInt8(truncatingIfNeeded: size)
                size += 1
                break
              }
              if codes[Int(entry)] == value {
                indices[position] = UInt8(truncatingIfNeeded: entry)
                break
              }
              slot = (slot &+ 1) & 511
            }
          }
          for index in 0..<size {
            for byte in 0..<width {
              out[at + index * width + byte] = UInt8(truncatingIfNeeded: codes[index] >> UInt32(8 * byte))
            }
          }
          return size
        }
      }
      guard let size else { return nil }
      at += size * width
      boundaries.append(at)
      UnsafeMutableRawPointer(out + at).copyMemory(from: indices, byteCount: values.count)  // memmove
      at += values.count
      return size
    }
  }
}

// MARK: - Decoding

extension PointStreams {
  private static func decode(_ form: UnsafeRawBufferPointer, size: Int) -> [UInt8]? {
    guard size >= 0, let header = headerLength(form, size: size) else { return nil }
    var walk = Walk(form, arraysPresent: false, from: header)
    do { try walk.drawing(size: size) } catch { return nil }
    let arrays = walk.arrays
    guard !arrays.isEmpty else { return nil }
    let columns = columns(of: arrays)
    let skeleton = walk.position
    guard form.count - skeleton >= columns.count else { return nil }
    let codes = UnsafeMutablePointer<UInt32>.allocate(capacity: columns.reduce(0) { max($0, $1.values) })
    defer { codes.deallocate() }
    var complete = false
    // Every byte is written: the skeleton fills the gaps between the arrays, whose records
    // the columns fill (a record is its columns' values and nothing else).
    let output = [UInt8](unsafeUninitializedCapacity: size) { buffer, written in
      let out = UnsafeMutableRawBufferPointer(buffer)
      written = size
      var from = 0
      var at = 0
      for array in arrays {
        let count = array.offset - at
        (out.baseAddress! + at).copyMemory(from: form.baseAddress! + from, byteCount: count)
        from += count
        at = array.offset + array.length
      }
      (out.baseAddress! + at).copyMemory(from: form.baseAddress! + from, byteCount: size - at)
      let modes = skeleton
      var cursor = skeleton + columns.count
      for (index, column) in columns.enumerated() {
        guard readCodes(column, mode: Int(form[modes + index]), form, at: &cursor, into: codes) else { return }
        restoreValues(of: column, in: arrays, from: codes, into: out)
      }
      complete = cursor == form.count
    }
    return complete ? output : nil
  }

  /// Reads `column.values` codes at `form[cursor...]` in `mode` (planes or a palette of that
  /// many codes), advancing `cursor`; false when the form is too short or an index is past
  /// its palette.
  private static func readCodes(
    _ column: StreamColumn, mode: Int, _ form: UnsafeRawBufferPointer, at cursor: inout Int,
    into codes: UnsafeMutablePointer<UInt32>
  ) -> Bool {
    let values = column.values
    let width = column.width
    let source = form.baseAddress!.assumingMemoryBound(to: UInt8.self)
    if mode == 0 {
      guard (form.count - cursor) / width >= values else { return false }
      let planes = source + cursor
      if width == 4 {
        for index in 0..<values {
          codes[index] =
            UInt32(planes[index]) | UInt32(planes[values + index]) << 8 | UInt32(planes[2 * values + index]) << 16
            | UInt32(planes[3 * values + index]) << 24
        }
      } else {
        for index in 0..<values { codes[index] = UInt32(planes[index]) | UInt32(planes[values + index]) << 8 }
      }
      cursor += width * values
      return true
    }
    guard form.count - cursor >= mode * width + values else { return false }
    var palette = [UInt32](repeating: 0, count: 256)
    for entry in 0..<mode {
      var code: UInt32 = 0
      for byte in 0..<width { code |= UInt32(source[cursor + entry * width + byte]) << UInt32(8 * byte) }
      palette[entry] = code
    }
    cursor += mode * width
    let indices = source + cursor
    var largest: UInt8 = 0
    palette.withUnsafeBufferPointer { palette in
      for index in 0..<values {
        let entry = indices[index]
        largest = max(largest, entry)
        codes[index] = palette[Int(entry)]
      }
    }
    cursor += values
    return Int(largest) < mode
  }

  /// Writes `column`'s values back into every array that has it, from their codes.
  private static func restoreValues(
    of column: StreamColumn, in arrays: [PointArray], from codes: UnsafePointer<UInt32>,
    into out: UnsafeMutableRawBufferPointer
  ) {
    var next = 0
    for array in arrays where array.mask & (1 << UInt64(column.bit)) != 0 {
      let values = out.baseAddress! + array.offset + valueOffset(of: column, in: array.mask)
      let stride = PointPropertyCoding.size(of: array.mask)
      let source = codes + next
      switch (column.width, column.order) {
      case (4, 2): restore(source, count: array.count, into: values, stride: stride, width: 4, order: 2)
      case (4, _): restore(source, count: array.count, into: values, stride: stride, width: 4, order: 1)
      default: restore(source, count: array.count, into: values, stride: stride, width: 2, order: 1)
      }
      next += array.count
    }
  }

  /// One array's values from their codes: `code`'s inverse.
  @inline(__always)
  private static func restore(
    _ codes: UnsafePointer<UInt32>, count: Int, into values: UnsafeMutableRawPointer, stride: Int, width: Int,
    order: Int
  ) {
    PointColumns.decodeColumn(into: values, stride: stride, count: count, width: width, order: order) { codes[$0] }
  }
}
