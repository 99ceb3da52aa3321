// Content equality: do two drawings *look* the same? And a fingerprint of that content, stable
// across runs, processes and machines, for cache keys and "same drawing as version K" markers.
//
// Both are defined by one canonical serialisation of what is visible, so they always agree:
//  - visible strokes only (`isHidden` strokes and substrokes are left out), in drawing order;
//  - per stroke: its ink by value (identifier, colour, variant, weight — not its index, so a
//    reordered ink table changes nothing), its transform, its path's points (location and every
//    property except `timeOffset`, which changes timing, not looks), mask polygons, slices and
//    visible substrokes, recursively; a substroke without a path is marked "parent's path";
//  - not: UUIDs, sort and version IDs, the version vector, replicas, creation dates, stored
//    bounds, random seeds, render groups, format version, or which mask a property sits in.
// Doubles are compared bitwise after mapping −0 to +0 and every NaN to one NaN, so a drawing
// always has the same content as itself, NaN or not.
//
// The serialisation starts with a version tag; change the tag whenever the rules change, so
// fingerprints from different rules never match by accident.

/// A 128-bit fingerprint of a drawing's visible content (XXH64 of the canonical form, with two
/// seeds). Equal content gives equal fingerprints in every process.
public struct DrawingFingerprint: Hashable, Sendable, CustomStringConvertible {
  public var high: UInt64
  public var low: UInt64

  public init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// From the 16 bytes of `bytes`; nil for any other length.
  public init?(bytes: [UInt8]) {
    guard bytes.count == 16 else { return nil }
    high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
    low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// 16 bytes, big-endian: what to store in a BLOB column.
  public var bytes: [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64($0))) }
      + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64($0))) }
  }

  /// 32 lowercase hex digits.
  public var description: String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
  }
}

extension Drawing {
  /// Whether the two drawings show the same visible strokes (see DrawingContent.swift for the
  /// exact rules): UUIDs, version vectors and hidden strokes do not count.
  public func hasSameContent(as other: Drawing) -> Bool {
    canonicalContent() == other.canonicalContent()
  }

  /// A fingerprint of the visible content; equal exactly when `hasSameContent` is (up to hash
  /// collisions, about 2^-64 per pair).
  public var contentFingerprint: DrawingFingerprint {
    contentFingerprint { strokeContentDigest(at: $0) }
  }

  /// The content fingerprint built from one digest per visible stroke (`strokeContentDigest`),
  /// so that a caller who sees the same strokes again and again (every save repeats the
  /// earlier ones) can reuse their digests instead of serialising every point of every save.
  package func contentFingerprint(strokeDigest: (Int) -> DrawingFingerprint) -> DrawingFingerprint {
    var words: [UInt64] = [0x696E_6B6C_696E_6733]  // "inkling3": the composed form
    let visible = strokes.indices.filter { !strokes[$0].isHidden }
    words.reserveCapacity(2 + 2 * visible.count)
    words.append(UInt64(visible.count))
    for index in visible {
      let digest = strokeDigest(index)
      words.append(digest.high)
      words.append(digest.low)
    }
    return Self.fingerprint(words)
  }

  /// The fingerprint of the canonical form of stroke `index` (its ink by value, transform,
  /// points, masks, slices and visible substrokes).
  package func strokeContentDigest(at index: Int) -> DrawingFingerprint {
    var out = ContentSerializer(drawing: self, reservingFor: strokes[index])
    out.stroke(strokes[index])
    return Self.fingerprint(out.words)
  }

  private static func fingerprint(_ words: [UInt64]) -> DrawingFingerprint {
    words.withUnsafeBytes { canonical in
      DrawingFingerprint(
        high: XXHash64.hash(canonical, seed: 0), low: XXHash64.hash(canonical, seed: 0x9E37_79B9_7F4A_7C15))
    }
  }

  /// The canonical serialisation of the visible content, as little-endian 64-bit words.
  func canonicalContent() -> [UInt64] {
    var out = ContentSerializer(drawing: self)
    out.text("inkling-drawing-content-v2")
    let visible = strokes.filter { !$0.isHidden }
    out.count(visible.count)
    for stroke in visible { out.stroke(stroke) }
    return out.words
  }
}

/// Builds the canonical form: a sequence of 64-bit words (appending a word is one store, so
/// fingerprinting runs at memory speed). Every variable-length part is preceded by its count,
/// so two different contents cannot serialise to the same words.
private struct ContentSerializer {
  let drawing: Drawing
  var words: [UInt64] = []

  init(drawing: Drawing) {
    self.drawing = drawing
    words.reserveCapacity(
      16 + drawing.strokes.reduce(0) { $0 + 24 + ($1.path?.points.count ?? 0) * 11 })
  }

  init(drawing: Drawing, reservingFor stroke: Stroke) {
    self.drawing = drawing
    words.reserveCapacity(24 + (stroke.path?.points.count ?? 0) * 11)
  }

  mutating func word(_ value: UInt64) { words.append(value.littleEndian) }

  mutating func flag(_ value: Bool) { word(value ? 1 : 0) }

  mutating func count(_ value: Int) { word(UInt64(value)) }

  mutating func number(_ value: Double) { words.append(Self.bits(value)) }

  /// A double's word: −0 as +0, every NaN as one NaN, little-endian.
  @inline(__always) static func bits(_ value: Double) -> UInt64 {
    let bits: UInt64 = value == 0 ? 0 : value.isNaN ? 0x7FF8_0000_0000_0000 : value.bitPattern
    return bits.littleEndian
  }

  /// The UTF-8 length, then the bytes packed little-endian into words, zero-padded.
  mutating func text(_ value: String) {
    let utf8 = value.utf8
    count(utf8.count)
    var word: UInt64 = 0
    var shift: UInt64 = 0
    for byte in utf8 {
      word |= UInt64(byte) << shift
      shift += 8
      if shift == 64 {
        self.word(word)
        word = 0
        shift = 0
      }
    }
    if shift > 0 { self.word(word) }
  }

  mutating func stroke(_ stroke: Stroke) {
    if let ink = drawing.ink(of: stroke) {
      flag(true)
      text(ink.inkType.identifier)
      number(ink.color.red)
      number(ink.color.green)
      number(ink.color.blue)
      number(ink.color.alpha)
      flag(ink.variant != nil)
      if let variant = ink.variant { text(variant) }
      flag(ink.weight != nil)
      if let weight = ink.weight { number(weight) }
    } else {
      flag(false)
    }
    let t = stroke.transform
    number(t.a)
    number(t.b)
    number(t.c)
    number(t.d)
    number(t.tx)
    number(t.ty)
    if let path = stroke.path {
      flag(true)
      count(path.points.count)
      // The bulk of the form: written in place, 11 words a point, rather than appended one by
      // one (the same words as `number` gives).
      let start = words.count
      words.append(contentsOf: repeatElement(0, count: path.points.count * 11))
      words.withUnsafeMutableBufferPointer { out in
        var i = start
        for p in path.points {
          out[i] = Self.bits(p.location.x)
          out[i + 1] = Self.bits(p.location.y)
          out[i + 2] = Self.bits(p.width)
          out[i + 3] = Self.bits(p.aspectRatio)
          out[i + 4] = Self.bits(p.edgeWidth)
          out[i + 5] = Self.bits(p.force)
          out[i + 6] = Self.bits(p.azimuth)
          out[i + 7] = Self.bits(p.altitude)
          out[i + 8] = Self.bits(p.opacity)
          out[i + 9] = Self.bits(p.secondaryRadius)
          out[i + 10] = Self.bits(p.threshold)
          i += 11
        }
      }
    } else {
      flag(false)  // a substroke: the parent's path, already serialised
    }
    count(stroke.maskPolygons.count)
    for polygon in stroke.maskPolygons {
      count(polygon.count)
      for vertex in polygon {
        number(vertex.x)
        number(vertex.y)
      }
    }
    count(stroke.slices.count)
    for slice in stroke.slices { number(Double(slice)) }
    let visible = stroke.substrokes.filter { !$0.isHidden }
    count(visible.count)
    // Recursion as deep as the model nests; models from the reader nest at most
    // DrawingLimits.hardMaxNestingDepth levels.
    for substroke in visible { self.stroke(substroke) }
  }
}
