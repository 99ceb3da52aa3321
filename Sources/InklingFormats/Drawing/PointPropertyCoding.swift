// The byte layout of point properties in `StrokeData.6` (constants) and `StrokeData.7`
// (points), shared by the reader and the writer so they cannot disagree
// (docs/pkdrawing-format.md, "Point properties").
//
// Invariants:
//  1. Values are stored in bit order, packed, little-endian; `size(of:)` is the sum of the
//     sizes of the bits in a mask, so a record of `size(of: mask)` bytes holds exactly the
//     values `decode`/`encode` touch.
//  2. `encode` of a value `decode` produced gives back the same raw bytes: uint16 values are
//     decoded as `raw / scale` and encoded as `round(value × scale)`, which recovers `raw`
//     exactly for every raw value 0…65535 (the error of one multiplication is far below 0.5).
//  3. Masks passed in contain only bits of `PointProperties.known` (callers check).

enum PointPropertyCoding {
  static let aspectRatioScale = 1000.0
  static let edgeWidthScale = 10.0
  static let forceScale = 1000.0
  static let azimuthScale = 10430.2192  // 65536 / 2π
  static let altitudeScale = 41720.8768  // 65535 / (π/2)
  static let opacityScale = 32767.5
  static let thresholdScale = 32767.5

  /// The values a point takes for properties in neither mask (`StrokePoint`'s defaults).
  static let defaultPoint = StrokePoint(location: Point(x: 0, y: 0))

  /// Bytes one record of `mask` takes: location 8, the other float properties 4, uint16s 2.
  @inline(__always)
  static func size(of mask: UInt64) -> Int {
    let floats: UInt64 = 0x002 | 0x004 | 0x200
    let halves: UInt64 = 0x008 | 0x010 | 0x020 | 0x040 | 0x080 | 0x100 | 0x400
    return (mask & 1 != 0 ? 8 : 0) + (mask & floats).nonzeroBitCount * 4 + (mask & halves)
      .nonzeroBitCount * 2
  }

  // MARK: - Decoding

  /// Sets the properties in `mask` from the record at `record`.
  @inline(__always)
  static func decode(_ mask: UInt64, from record: UnsafeRawPointer, into point: inout StrokePoint) {
    var offset = 0
    @inline(__always) func float() -> Double {
      defer { offset += 4 }
      return Double(
        Float(
          bitPattern: UInt32(
            littleEndian: record.loadUnaligned(fromByteOffset: offset, as: UInt32.self))))
    }
    @inline(__always) func half(_ scale: Double) -> Double {
      defer { offset += 2 }
      return Double(
        UInt16(littleEndian: record.loadUnaligned(fromByteOffset: offset, as: UInt16.self))) / scale
    }
    if mask & 0x001 != 0 { point.location = Point(x: float(), y: float()) }
    if mask & 0x002 != 0 { point.timeOffset = float() }
    if mask & 0x004 != 0 { point.width = float() }
    if mask & 0x008 != 0 { point.aspectRatio = half(aspectRatioScale) }
    if mask & 0x010 != 0 { point.edgeWidth = half(edgeWidthScale) }
    if mask & 0x020 != 0 { point.force = half(forceScale) }
    if mask & 0x040 != 0 { point.azimuth = half(azimuthScale) }
    if mask & 0x080 != 0 { point.altitude = half(altitudeScale) }
    if mask & 0x100 != 0 { point.opacity = half(opacityScale) }
    if mask & 0x200 != 0 { point.secondaryRadius = float() }
    if mask & 0x400 != 0 { point.threshold = half(thresholdScale) }
  }

  /// The point each record of a path is decoded over: the defaults, with the constants of
  /// `mask` (`StrokeData.6`) from `constants` set (nil when there are none).
  static func base(constant mask: UInt64, from constants: UnsafeRawPointer?) -> StrokePoint {
    var base = defaultPoint
    if mask != 0, let constants { decode(mask, from: constants, into: &base) }
    return base
  }

  /// Decodes `count` records of `mask` starting at `first`, each starting from `base`.
  static func decodePoints(
    count: Int, mask: UInt64, from first: UnsafeRawPointer?, base: StrokePoint
  ) -> [StrokePoint] {
    guard count > 0 else { return [] }
    let stride = size(of: mask)
    return [StrokePoint](unsafeUninitializedCapacity: count) { out, initialized in
      let target = out.baseAddress!  // capacity > 0
      if stride == 0 || first == nil {
        target.initialize(repeating: base, count: count)
      } else {
        var record = first!
        for index in 0..<count {
          var point = base
          decode(mask, from: record, into: &point)
          (target + index).initialize(to: point)
          record += stride
        }
      }
      initialized = count
    }
  }

  // MARK: - Encoding

  /// Appends the record of `mask` for `point`. Floats are rounded to binary32; uint16 values
  /// are rounded and clamped to 0…65535 (NaN → 0), except azimuth, which wraps around 2π.
  @inline(__always)
  static func encode(_ mask: UInt64, _ point: StrokePoint, into bytes: inout [UInt8]) {
    @inline(__always) func float(_ value: Double) {
      let bits = Float(value).bitPattern
      bytes.append(UInt8(truncatingIfNeeded: bits))
      bytes.append(UInt8(truncatingIfNeeded: bits >> 8))
      bytes.append(UInt8(truncatingIfNeeded: bits >> 16))
      bytes.append(UInt8(truncatingIfNeeded: bits >> 24))
    }
    @inline(__always) func half(_ raw: UInt16) {
      bytes.append(UInt8(truncatingIfNeeded: raw))
      bytes.append(UInt8(truncatingIfNeeded: raw >> 8))
    }
    if mask & 0x001 != 0 {
      float(point.location.x)
      float(point.location.y)
    }
    if mask & 0x002 != 0 { float(point.timeOffset) }
    if mask & 0x004 != 0 { float(point.width) }
    if mask & 0x008 != 0 { half(clamped(point.aspectRatio * aspectRatioScale)) }
    if mask & 0x010 != 0 { half(clamped(point.edgeWidth * edgeWidthScale)) }
    if mask & 0x020 != 0 { half(clamped(point.force * forceScale)) }
    if mask & 0x040 != 0 { half(wrapped(point.azimuth * azimuthScale)) }
    if mask & 0x080 != 0 { half(clamped(point.altitude * altitudeScale)) }
    if mask & 0x100 != 0 { half(clamped(point.opacity * opacityScale)) }
    if mask & 0x200 != 0 { float(point.secondaryRadius) }
    if mask & 0x400 != 0 { half(clamped(point.threshold * thresholdScale)) }
  }

  // Rounding is done with `+ 0.5` and truncating conversion rather than `rounded()`, which
  // calls libm: executables that link only this module do not link libm.

  /// `value` rounded (half away from zero) to the nearest integer in 0…65535; NaN gives 0.
  @inline(__always)
  static func clamped(_ value: Double) -> UInt16 {
    guard value > 0 else { return 0 }  // also NaN
    guard value < 65535 else { return 65535 }
    return UInt16(value + 0.5)
  }

  /// `value` rounded, modulo 65536 (an angle: 65536 is a full turn); non-finite or huge gives 0.
  @inline(__always)
  static func wrapped(_ value: Double) -> UInt16 {
    guard value.magnitude < 0x1p62 else { return 0 }  // also NaN and infinity
    let rounded = Int64(value < 0 ? value - 0.5 : value + 0.5)
    return UInt16(truncatingIfNeeded: rounded)  // two's complement: modulo 65536, also below 0
  }
}
