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
// The fingerprint is composed: each visible stroke's canonical form is hashed (XXH64, 64 bits)
// as it is produced, and the drawing's fingerprint hashes those digests under a version tag
// ("inkling4"); change the tag whenever the rules change, so fingerprints from different rules
// never match by accident (they key cached thumbnails). The form is never materialised: digests
// are a large part of what the drawing index adds to an import.

/// A 128-bit fingerprint of a drawing's visible content (XXH64, with two seeds, of the visible
/// strokes' 64-bit content digests). Equal content gives equal fingerprints in every process.
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
  /// The fingerprint is XXH64, with two seeds, of the words "inkling4" (the composed form of
  /// 64-bit stroke digests), the number of visible strokes, and their digests in order.
  package func contentFingerprint(strokeDigest: (Int) -> UInt64) -> DrawingFingerprint {
    var high = XXHash64Words(seed: 0)
    var low = XXHash64Words(seed: 0x9E37_79B9_7F4A_7C15)
    let tag: UInt64 = 0x696E_6B6C_696E_6734  // "inkling4"
    high.append(tag)
    low.append(tag)
    let visible = UInt64(strokes.count { !$0.isHidden })
    high.append(visible)
    low.append(visible)
    for index in strokes.indices where !strokes[index].isHidden {
      let digest = strokeDigest(index)
      high.append(digest)
      low.append(digest)
    }
    return DrawingFingerprint(high: high.finish(), low: low.finish())
  }

  /// The digest of stroke `index`'s canonical form (its ink by value, transform, points,
  /// masks, slices and visible substrokes): XXH64 of the form's words, hashed as they are
  /// produced (the form is never built in memory).
  package func strokeContentDigest(at index: Int) -> UInt64 {
    var out = ContentSerializer(drawing: self, sink: XXHash64Words(seed: 0))
    out.stroke(at: index, of: strokes)
    return out.sink.finish()
  }

  /// `strokeContentDigest(at:)` of a drawing whose points a read may have left encoded in
  /// `bytes` (DrawingReader.read(_:leavingPointsEncoded:skipping:)): the same digest as of the
  /// drawing read whole, each encoded point decoded as it is hashed. Decoded paths do not
  /// look at `bytes` (empty for a drawing read whole).
  package func strokeContentDigest(at index: Int, encodedIn bytes: UnsafeRawBufferPointer) -> UInt64 {
    var out = ContentSerializer(drawing: self, sink: XXHash64Words(seed: 0), encodedIn: bytes)
    out.stroke(at: index, of: strokes)
    return out.sink.finish()
  }

  /// The canonical form of stroke `index` as words (what `strokeContentDigest` hashes).
  func strokeCanonicalWords(at index: Int) -> [UInt64] {
    var out = ContentSerializer(drawing: self, sink: [UInt64]())
    out.stroke(at: index, of: strokes)
    return out.sink
  }

  /// The canonical serialisation of the visible content, as 64-bit words.
  func canonicalContent() -> [UInt64] {
    var words: [UInt64] = []
    words.reserveCapacity(16 + strokes.reduce(0) { $0 + 24 + ($1.path?.pointCount ?? 0) * 12 })
    var out = ContentSerializer(drawing: self, sink: words)
    out.text("inkling-drawing-content-v3")
    out.count(strokes.count { !$0.isHidden })
    for index in strokes.indices where !strokes[index].isHidden { out.stroke(at: index, of: strokes) }
    return out.sink
  }
}

/// Where the canonical form goes: an array (content equality) or a hash (fingerprints).
protocol ContentSink {
  mutating func append(_ word: UInt64)
  /// Whether the words so far are a whole number of 4-word stripes.
  var isAligned: Bool { get }
  /// Four words; only when `isAligned`.
  mutating func stripe(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64)
}

extension XXHash64Words: ContentSink {}

extension [UInt64]: ContentSink {
  var isAligned: Bool { count % 4 == 0 }
  mutating func stripe(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) {
    append(a)
    append(b)
    append(c)
    append(d)
  }
}

/// Builds the canonical form: a sequence of 64-bit words, fed to `sink` as they are made.
/// Every variable-length part is preceded by its count, so two different contents cannot
/// serialise to the same words. A path's points start on a 4-word stripe (zero words pad up
/// to it) and take 12 words each, the 11 properties and a zero, so that a hash sink takes
/// each point as three whole stripes; the padding sits where the words before it put it, so
/// the form stays unambiguous.
private struct ContentSerializer<Sink: ContentSink> {
  /// The drawing's inks (only they, not a copy of the whole drawing: copying a `Drawing`
  /// retains each of its arrays).
  let inks: [Ink]
  var sink: Sink
  /// The bytes holding the records of paths whose points a read left encoded.
  let encodedIn: UnsafeRawBufferPointer?

  init(drawing: Drawing, sink: Sink, encodedIn: UnsafeRawBufferPointer? = nil) {
    inks = drawing.inks
    self.sink = sink
    self.encodedIn = encodedIn
  }

  // The points' loops are functions of their own, out of the recursive `stroke(at:of:)`,
  // where the compiler does not inline the record decoding. Each writes a point's stripes
  // itself: the compiler does not inline a function for them either (even
  // `@inline(__always)`), and a call per point passes each point through memory.

  mutating func points(_ points: [StrokePoint]) {
    for p in points {
      sink.stripe(Self.bits(p.location.x), Self.bits(p.location.y), Self.bits(p.width), Self.bits(p.aspectRatio))
      sink.stripe(Self.bits(p.edgeWidth), Self.bits(p.force), Self.bits(p.azimuth), Self.bits(p.altitude))
      sink.stripe(Self.bits(p.opacity), Self.bits(p.secondaryRadius), Self.bits(p.threshold), 0)
    }
  }

  mutating func encodedPoints(of path: StrokePath) {
    guard let bytes = encodedIn, path.encodedPointsFit(in: bytes), let encoded = path.encodedPoints else {
      preconditionFailure("a drawing with encoded points is digested without its bytes")
    }
    // One point decoded over the last: a record sets every property its mask holds, and the
    // others keep the base's values.
    var p = path.encodedBase(inChecked: bytes)
    let mask = path.varyingProperties.rawValue
    let stride = PointPropertyCoding.size(of: mask)
    var record = bytes.baseAddress! + Int(encoded.records)
    for _ in 0..<encoded.count {
      PointPropertyCoding.decode(mask, from: record, into: &p)
      sink.stripe(Self.bits(p.location.x), Self.bits(p.location.y), Self.bits(p.width), Self.bits(p.aspectRatio))
      sink.stripe(Self.bits(p.edgeWidth), Self.bits(p.force), Self.bits(p.azimuth), Self.bits(p.altitude))
      sink.stripe(Self.bits(p.opacity), Self.bits(p.secondaryRadius), Self.bits(p.threshold), 0)
      record += stride
    }
  }

  mutating func word(_ value: UInt64) { sink.append(value) }

  mutating func flag(_ value: Bool) { word(value ? 1 : 0) }

  mutating func count(_ value: Int) { word(UInt64(value)) }

  mutating func number(_ value: Double) { sink.append(Self.bits(value)) }

  /// A double's word: −0 as +0, every NaN as one NaN. (−0 + 0 is +0 in IEEE arithmetic, and
  /// x + 0 is x for every other x: one addition instead of a second, data-dependent branch,
  /// eleven times a point.)
  @inline(__always) static func bits(_ value: Double) -> UInt64 {
    value.isNaN ? 0x7FF8_0000_0000_0000 : (value + 0).bitPattern
  }

  /// The UTF-8 length, then the bytes packed little-endian into words, zero-padded.
  mutating func text(_ value: String) {
    var value = value
    value.withUTF8 { text(UnsafeRawBufferPointer($0)) }
  }

  /// `text` of the UTF-8 bytes `utf8`, eight at a time (every stroke names its ink so).
  private mutating func text(_ utf8: UnsafeRawBufferPointer) {
    count(utf8.count)
    var offset = 0
    while offset + 8 <= utf8.count {
      word(UInt64(littleEndian: utf8.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
      offset += 8
    }
    guard offset < utf8.count else { return }
    var word: UInt64 = 0
    for (shift, byte) in utf8[offset...].enumerated() { word |= UInt64(byte) << (8 * UInt64(shift)) }
    self.word(word)
  }

  /// Stroke `index` of `strokes`. (Each use goes through `strokes[index]`: a stroke or an
  /// ink bound to a name is copied, which retains each of its arrays and strings.)
  mutating func stroke(at index: Int, of strokes: [Stroke]) {
    let inkIndex = strokes[index].inkIndex
    if inks.indices.contains(inkIndex) {
      flag(true)
      text(inks[inkIndex].inkType.identifier)
      number(inks[inkIndex].color.red)
      number(inks[inkIndex].color.green)
      number(inks[inkIndex].color.blue)
      number(inks[inkIndex].color.alpha)
      flag(inks[inkIndex].variant != nil)
      if let variant = inks[inkIndex].variant { text(variant) }
      flag(inks[inkIndex].weight != nil)
      if let weight = inks[inkIndex].weight { number(weight) }
    } else {
      flag(false)
    }
    let t = strokes[index].transform
    number(t.a)
    number(t.b)
    number(t.c)
    number(t.d)
    number(t.tx)
    number(t.ty)
    if let count = strokes[index].path?.pointCount {
      flag(true)
      self.count(count)
      // The bulk of the form: three stripes a point.
      while !sink.isAligned { word(0) }
      if strokes[index].path!.encodedPoints != nil {
        encodedPoints(of: strokes[index].path!)
      } else {
        points(strokes[index].path!.points)
      }
    } else {
      flag(false)  // a substroke: the parent's path, already serialised
    }
    count(strokes[index].maskPolygons.count)
    for polygon in strokes[index].maskPolygons {
      count(polygon.count)
      for vertex in polygon {
        number(vertex.x)
        number(vertex.y)
      }
    }
    count(strokes[index].slices.count)
    for slice in strokes[index].slices { number(Double(slice)) }
    count(strokes[index].substrokes.count { !$0.isHidden })
    // Recursion as deep as the model nests; models from the reader nest at most
    // DrawingLimits.hardMaxNestingDepth levels.
    for substroke in strokes[index].substrokes.indices where !strokes[index].substrokes[substroke].isHidden {
      self.stroke(at: substroke, of: strokes[index].substrokes)
    }
  }
}
