// Decodes a drawing once and works out what the index keeps of it (DrawingFacts): counts,
// inks, bounds, time span, and one fingerprint per stroke — a 128-bit XXH64 pair of the
// stroke's encoded message (StrokeFingerprint), so the same stroke saved again maps to the
// same row.
//
// One indexer per worker thread, fed the saves of one draft in order. Every save repeats
// the strokes of the one before byte for byte (erasing re-encodes a stroke in place), and
// indexing must stay a small share of an import's time (about 15 %), so the indexer remembers, for the draft at hand:
//   1. the previous save's bytes, stroke ranges and fingerprints, and per stroke its
//      outline and time span: a stroke message equal byte for byte to the one at the same
//      position there is neither hashed (a memcmp instead of a hash) nor decoded
//      (DrawingReader.read(_:skipping:)); no decoded stroke is kept between saves, so a
//      worker's memory holds one save's new strokes, not a whole drawing;
//   2. per (fingerprint, ink), the stroke's facts and content digest: render bounds and the
//      canonical serialisation are costly, and are computed once per distinct stroke.
// A stroke the indexer does decode keeps its points encoded in the save's bytes
// (DrawingReader's `leavingPointsEncoded`): each point is decoded as it is digested, and
// only the first and last are read besides; a stroke whose bounds must be computed is
// decoded then.
// The key of (2) holds the ink by value, numbered (`inkNumbers`), because a stroke's bytes
// name its ink only by its index in the drawing's ink table. A stroke whose substrokes use
// another ink than its own is never remembered (its digest depends on more than the key),
// and is decoded in every save. A skipped stroke is described by (2) alone: when its facts
// are not remembered under its current ink (the ink table changed), the save is read again,
// skipping nothing.
// Gzipped drawings are decoded whole (their stroke bytes live in a buffer the reader frees).

import FoundationEssentials
import Glibc
import InklingFormats
import InklingStore

final class DrawingIndexer {
  /// The key of memory 2: the stroke's fingerprint with its ink number added to the high
  /// word (times an odd constant, so a stroke under two inks has two keys). Two (stroke, ink)
  /// pairs share a key only as two fingerprints collide, about 2^-64 a pair.
  private static func key(_ fingerprint: StrokeFingerprint, ink: Int) -> StrokeFingerprint {
    StrokeFingerprint(
      high: fingerprint.high &+ UInt64(truncatingIfNeeded: ink) &* 0x9E37_79B9_7F4A_7C15, low: fingerprint.low)
  }

  private struct Known {
    let facts: StrokeFacts
    /// The content digest; unused (zero) for a hidden stroke, which the content leaves out.
    let digest: UInt64
  }

  /// Memory 2: the place in `knownFacts` of each stroke's facts, by `key(_:ink:)`. The facts
  /// of strokes that cannot be remembered (see `facts(of:encodedIn:fingerprints:skipped:before:)`) are
  /// in `knownFacts` too, under no key.
  private var known = FingerprintTable()
  private var knownFacts: [Known] = []
  private var inkNumbers: [Ink: Int] = [:]
  /// The short name (`Ink.InkType.name`) of each numbered ink: a name costs string work.
  private var inkNames: [String] = []
  /// The last ink table numbered, and its numbers.
  private var lastInks: (table: [Ink], numbers: [Int]) = ([], [])
  private var previous = PreviousSave()

  /// The previous save of the draft at hand, stroke by stroke (memory 1).
  private struct PreviousSave {
    var message: [UInt8] = []
    var ranges: [Range<Int>] = []
    var fingerprints: [StrokeFingerprint] = []
    var strokes: [SeenStroke] = []
  }

  /// What the indexer keeps of one stroke of the previous save.
  private struct SeenStroke {
    /// Nil for a stroke the reader must decode again: one whose facts are not remembered.
    var outline: StrokeOutline?
    var span: TimeSpan?
    /// Its ink's number, and the place of its remembered facts in `knownFacts` (the entry of
    /// `known` under that ink), when remembered: a skipped stroke whose ink number is the same
    /// needs no look-up. (A place, not a copy: the facts are a few hundred bytes.)
    var ink: Int
    var known: Int?
  }

  /// A stroke's point count and the times of its first and last point, seconds since 1970.
  private struct TimeSpan {
    var points: Int
    var first: Double
    var last: Double
  }

  /// How often the memories paid off, over the indexer's life (for tests and tuning).
  private(set) var statistics = Statistics()

  struct Statistics: Equatable {
    var strokes = 0
    /// Fingerprints taken from the previous save (bytes equal), without hashing.
    var fingerprintsReused = 0
    /// Strokes whose facts and digest were remembered.
    var factsReused = 0
  }

  /// The memory of strokes is dropped past this many entries; it only saves work, and the
  /// import's memory must stay flat.
  static let memoryLimit = 20_000

  /// Forgets the strokes seen so far: call between drafts, whose strokes differ.
  func forget() {
    known.removeAll()
    knownFacts.removeAll(keepingCapacity: true)
    inkNumbers.removeAll(keepingCapacity: true)
    inkNames.removeAll(keepingCapacity: true)
    lastInks = ([], [])
    previous = PreviousSave()
  }

  /// Seconds between Apple's reference date (2001-01-01) and 1970-01-01.
  static let appleEpoch = 978_307_200.0

  /// The facts of `bytes`, whatever they hold: a drawing that does not decode is still
  /// described (status and reason), never an error.
  func facts(of bytes: [UInt8]) -> DrawingFacts {
    if knownFacts.count > Self.memoryLimit { forget() }
    let before = previous
    previous = PreviousSave()
    // A gzipped drawing's stroke bytes live in a buffer the reader frees: read whole.
    if bytes.withUnsafeBytes({ Gzip.isGzip($0) }) { return wholeFacts(of: bytes) }
    return facts(of: bytes, skippingFrom: before) ?? facts(of: bytes, skippingFrom: PreviousSave()) ?? Self.undescribed
  }

  /// How many strokes a save of `bytes` bytes likely holds, to size its arrays once: a save
  /// mostly keeps the strokes of the one before and adds some, so as many strokes per byte as
  /// there; a draft's first save, a stroke per kilobyte. (Sized by the strokes before alone,
  /// a save that added more than a few, and every draft's first, grew the drawing's stroke
  /// array by copying it: 300 bytes a stroke.) Too many only reserves memory; the reader
  /// caps it at the drawing's stroke limit.
  private static func expectedStrokes(inBytes count: Int, before: PreviousSave) -> Int {
    guard !before.ranges.isEmpty, !before.message.isEmpty else { return min(count / 1024, 4096) + 8 }
    let scaled = Double(before.ranges.count) * Double(count) / Double(before.message.count)
    return Int(min(scaled, 65_536)) + 8
  }

  /// What a read that skipped nothing can never give: facts for none of its strokes.
  private static let undescribed = DrawingFacts(
    status: .damaged, problem: "the drawing index could not describe this drawing")

  /// The facts of `bytes`, whose strokes equal byte for byte to those of `before` at the same
  /// index are not decoded (memory 1). Nil when what is remembered of a skipped stroke does not
  /// describe it (its ink changed), or when there is damage in one (there is no stroke to name
  /// in the error): read again, skipping nothing; with nothing to skip, never nil.
  private func facts(of bytes: [UInt8], skippingFrom before: PreviousSave) -> DrawingFacts? {
    var fingerprints: [StrokeFingerprint] = []
    var ranges: [Range<Int>] = []
    var skipped: [Bool] = []
    let capacity = Self.expectedStrokes(inBytes: bytes.count, before: before)
    fingerprints.reserveCapacity(capacity)
    ranges.reserveCapacity(capacity)
    skipped.reserveCapacity(capacity)
    var reused = 0
    let drawing: Drawing
    do {
      // A save mostly keeps its draft's strokes and adds a few.
      let result = try DrawingReader.read(bytes, expectedStrokes: capacity, leavingPointsEncoded: true) {
        index, range, buffer -> StrokeOutline? in
        guard index == fingerprints.count else { return nil }
        ranges.append(range)
        if index < before.ranges.count, before.ranges[index].count == range.count, !range.isEmpty,
          before.message.withUnsafeBytes({ old in
            memcmp(
              buffer.baseAddress! + range.lowerBound, old.baseAddress! + before.ranges[index].lowerBound, range.count)
          }) == 0
        {
          fingerprints.append(before.fingerprints[index])
          reused += 1
          skipped.append(before.strokes[index].outline != nil)
          return before.strokes[index].outline
        }
        fingerprints.append(StrokeFingerprint(hashing: UnsafeRawBufferPointer(rebasing: buffer[range])))
        skipped.append(false)
        return nil
      }
      switch result {
      case .drawing(let decoded): drawing = decoded
      case .unreadable(let reason, _): return DrawingFacts(status: .unreadable, problem: reason)
      }
    } catch {
      return skipped.contains(true) ? nil : DrawingFacts(status: .damaged, problem: String(describing: error))
    }
    guard fingerprints.count == drawing.strokes.count else { return wholeFacts(of: bytes) }
    guard
      let described = facts(of: drawing, encodedIn: bytes, fingerprints: fingerprints, skipped: skipped, before: before)
    else {
      return nil
    }
    statistics.fingerprintsReused += reused
    previous = PreviousSave(message: bytes, ranges: ranges, fingerprints: fingerprints, strokes: described.seen)
    return described.facts
  }

  /// The facts of `bytes` read whole, with the stroke fingerprints taken apart from the
  /// reading: for gzipped drawings, and if the reader's strokes and the messages seen ever
  /// disagree. The next save is read whole too.
  private func wholeFacts(of bytes: [UInt8]) -> DrawingFacts {
    let drawing: Drawing
    do {
      switch try DrawingReader.read(bytes) {
      case .drawing(let decoded): drawing = decoded
      case .unreadable(let reason, _): return DrawingFacts(status: .unreadable, problem: reason)
      }
    } catch {
      return DrawingFacts(status: .damaged, problem: String(describing: error))
    }
    let fingerprints = Self.strokeFingerprints(bytes, count: drawing.strokes.count)
    return facts(of: drawing, encodedIn: [], fingerprints: fingerprints, skipped: [], before: PreviousSave())?.facts
      ?? Self.undescribed
  }

  /// The facts of `drawing`, whose strokes at the indices `skipped` marks are placeholders
  /// for those of `before` at the same index, and whose points may be left encoded in `bytes`
  /// (empty for a drawing read whole); nil when a skipped stroke's facts are not remembered
  /// under its current ink. Also what to remember of each stroke for the next save.
  private func facts(
    of drawing: Drawing, encodedIn bytes: [UInt8], fingerprints: [StrokeFingerprint], skipped: [Bool],
    before: PreviousSave
  ) -> (facts: DrawingFacts, seen: [SeenStroke])? {
    // A draft's saves repeat its ink table, or add to its end: comparing costs less than
    // hashing each ink, so only the inks after the last table are looked up.
    let kept = Self.inks(drawing.inks, startWith: lastInks.table) ? lastInks.table.count : 0
    var inks = kept == lastInks.numbers.count ? lastInks.numbers : Array(lastInks.numbers[..<kept])
    if kept < drawing.inks.count {
      for ink in drawing.inks[kept...] {
        if let number = inkNumbers[ink] {
          inks.append(number)
        } else {
          inks.append(inkNumbers.count)
          inkNumbers[ink] = inkNumbers.count
          inkNames.append(ink.inkType.name)
        }
      }
      lastInks = (drawing.inks, inks)
    }
    var strokes: [StrokeFacts] = []
    strokes.reserveCapacity(drawing.strokes.count)
    var digests: [UInt64] = []
    digests.reserveCapacity(drawing.strokes.count)
    var seen: [SeenStroke] = []
    seen.reserveCapacity(drawing.strokes.count)
    var points = 0
    var first = Double.infinity
    var last = -Double.infinity
    var box: Rect?
    // The memory is moved into a local for the loop and back after it: each use of a class's
    // stored property is an exclusivity check at run time, and this loop runs per stroke.
    var known = FingerprintTable()
    swap(&known, &self.known)
    defer { swap(&known, &self.known) }
    var knownFacts: [Known] = []
    swap(&knownFacts, &self.knownFacts)
    defer { swap(&knownFacts, &self.knownFacts) }
    var factsReused = 0
    for index in drawing.strokes.indices {
      let isSkipped = index < skipped.count && skipped[index]
      // A decoded stroke is read in place, through the array, not bound to a name: a copy of
      // a stroke or of its path retains each of their arrays. Its path's times are read once,
      // for the time span and, if the stroke is new, its facts.
      let path = isSkipped ? nil : bytes.withUnsafeBytes { drawing.strokes[index].pathTimes(encodedIn: $0) }
      let span = isSkipped ? before.strokes[index].span : path.flatMap(Self.timeSpan(of:))
      if let span {
        points += span.points
        first = min(first, span.first)
        last = max(last, span.last)
      }
      let inkIndex = drawing.strokes[index].inkIndex
      let inkNumber = inks.indices.contains(inkIndex) ? inks[inkIndex] : -1
      let key = Self.key(fingerprints[index], ink: inkNumber)
      // A skipped stroke under the same ink number is the previous save's: no look-up.
      let sameInk = isSkipped && before.strokes[index].ink == inkNumber
      // Where the stroke's facts are in `knownFacts` (read in place there: copies of them cost).
      let place: Int
      let rememberable: Bool
      if let found = (sameInk ? before.strokes[index].known : nil) ?? known[key].map({ Int($0) }) {
        place = found
        rememberable = true
        factsReused += 1
      } else if isSkipped {
        return nil
      } else {
        place = knownFacts.count
        knownFacts.append(
          Known(
            facts: facts(ofStrokeAt: index, in: drawing, path: path, encodedIn: bytes, inkNumber: inkNumber),
            digest: drawing.strokes[index].isHidden
              ? 0 : bytes.withUnsafeBytes { drawing.strokeContentDigest(at: index, encodedIn: $0) }))
        rememberable = drawing.strokes[index].substrokes.allSatisfy { Self.usesOneInk($0, inkIndex) }
        if rememberable { known[key] = Int64(place) }
      }
      strokes.append(knownFacts[place].facts)
      digests.append(knownFacts[place].digest)
      let outline =
        !rememberable ? nil : isSkipped ? before.strokes[index].outline : StrokeOutline(of: drawing.strokes, at: index)
      seen.append(SeenStroke(outline: outline, span: span, ink: inkNumber, known: rememberable ? place : nil))
      if !knownFacts[place].facts.hidden, let bounds = knownFacts[place].facts.bounds {
        box = box.map { union($0, bounds) } ?? bounds
      }
    }
    statistics.strokes += drawing.strokes.count
    statistics.factsReused += factsReused
    let facts = DrawingFacts(
      status: .decoded, formatVersion: Int(drawing.formatVersion), strokes: strokes, fingerprints: fingerprints,
      pointCount: points, bounds: box, firstPoint: first.isFinite ? first : nil, lastPoint: last.isFinite ? last : nil,
      maxInkVersion: drawing.inks.compactMap(\.version).max().map { Int(clamping: $0) },
      contentHash: drawing.contentFingerprint { digests[$0] }.bytes)
    return (facts, seen)
  }

  /// Stroke `index` as the index keeps it, `path` its path's times. (Each use goes through
  /// `drawing.strokes[index]`: a stroke passed as an argument is copied.)
  private func facts(
    ofStrokeAt index: Int, in drawing: Drawing, path: PathTimes?, encodedIn bytes: [UInt8], inkNumber: Int
  ) -> StrokeFacts {
    let inkIndex = drawing.strokes[index].inkIndex
    let hidden = drawing.strokes[index].isHidden
    return StrokeFacts(
      uuid: drawing.strokes[index].uuid?.words.map { StrokeUUID(high: $0.high, low: $0.low) }, hidden: hidden,
      ink: inkNumber >= 0 ? inkNames[inkNumber] : "unknown",
      color: drawing.inks.indices.contains(inkIndex)
        ? drawing.inks[inkIndex].color : RGBA(red: 0, green: 0, blue: 0, alpha: 1),
      bounds: hidden ? nil : Self.indexBounds(ofStrokeAt: index, in: drawing, encodedIn: bytes),
      pointCount: path?.pointCount ?? 0, created: path.map { $0.creationDate + Self.appleEpoch })
  }

  /// The path's point count and the times of its first and last point, seconds since 1970;
  /// nil for a path without points.
  private static func timeSpan(of path: PathTimes) -> TimeSpan? {
    guard let span = path.span else { return nil }
    let created = path.creationDate + appleEpoch
    return TimeSpan(points: path.pointCount, first: created + span.first, last: created + span.last)
  }

  /// Whether `inks` starts with `table`, compared in place: `starts(with:)` copied each ink
  /// (so did `==` on the arrays' elements, hence the buffers).
  private static func inks(_ inks: [Ink], startWith table: [Ink]) -> Bool {
    guard inks.count >= table.count else { return false }
    return inks.withUnsafeBufferPointer { inks in
      table.withUnsafeBufferPointer { table in table.indices.allSatisfy { inks[$0] == table[$0] } }
    }
  }

  /// The bounds the index keeps for a visible stroke: the rectangle PencilKit stored with it
  /// (`Stroke.6`) when there is one with finite, non-negative sides, else the render bounds
  /// computed from the spline. Computing them is the costliest part of describing a stroke;
  /// for the shared samples the two agree within 2 pt on each side (GeometryTests). A stroke
  /// with substrokes always gets computed bounds: the format gives it none of its own (its
  /// substrokes have them), so a stored rectangle there would be the stroke before erasing.
  /// Rendering (thumbnails, exports) always computes; only the index takes this shortcut.
  /// Points left encoded in `bytes` (none in a drawing read whole) are decoded for the
  /// computation.
  static func indexBounds(ofStrokeAt index: Int, in drawing: Drawing, encodedIn bytes: [UInt8] = []) -> Rect? {
    if drawing.strokes[index].substrokes.isEmpty, drawing.strokes[index].path != nil,
      let stored = drawing.strokes[index].storedBounds, stored.x.isFinite,
      stored.y.isFinite, stored.width.isFinite, stored.height.isFinite, stored.width >= 0, stored.height >= 0
    {
      return stored
    }
    let decoded = bytes.withUnsafeBytes { drawing.strokes[index].decodingPoints(in: $0) }
    return Drawing(inks: drawing.inks, strokes: [decoded]).renderBounds(ofStrokeAt: 0)
  }

  /// Whether every substroke of `stroke` (at any depth) uses ink `index`, as it does.
  private static func usesOneInk(_ stroke: Stroke, _ index: Int) -> Bool {
    stroke.inkIndex == index && stroke.substrokes.allSatisfy { usesOneInk($0, index) }
  }

  private func union(_ a: Rect, _ b: Rect) -> Rect {
    let minX = min(a.minX, b.minX)
    let minY = min(a.minY, b.minY)
    return Rect(x: minX, y: minY, width: max(a.maxX, b.maxX) - minX, height: max(a.maxY, b.maxY) - minY)
  }

  /// The fingerprint of each top-level stroke message, in order. The reader has already
  /// accepted these bytes, so the walk cannot fail; if it ever disagrees with the reader's
  /// stroke count, each stroke gets a fingerprint of its own (no sharing, still correct).
  static func strokeFingerprints(_ bytes: [UInt8], count: Int) -> [StrokeFingerprint] {
    var fingerprints: [StrokeFingerprint] = []
    fingerprints.reserveCapacity(count)
    let message: [UInt8]
    if bytes.withUnsafeBytes({ Gzip.isGzip($0) }) {
      message =
        (try? bytes.withUnsafeBytes { try Gzip.decompress($0, limit: DrawingLimits.default.maxInflatedBytes) }) ?? []
    } else {
      message = bytes
    }
    message.withUnsafeBytes { raw in
      guard raw.count >= 8, raw.starts(with: DrawingReader.magic) else { return }
      let headerLength = Int(raw[6]) | Int(raw[7]) << 8
      guard headerLength >= 8, headerLength <= raw.count else { return }
      var reader = ProtobufReader(raw, range: headerLength..<raw.count)
      while let tag = try? reader.readTag() {
        if tag.number == 5, tag.wireType == .lengthDelimited, let range = try? reader.readLengthDelimitedRange() {
          fingerprints.append(StrokeFingerprint(hashing: UnsafeRawBufferPointer(rebasing: raw[range])))
        } else if (try? reader.skip(tag)) == nil {
          return
        }
      }
    }
    guard fingerprints.count == count else {
      let salt = bytes.withUnsafeBytes { StrokeFingerprint(hashing: $0) }
      return (0..<count).map { index in
        [salt.high, salt.low, UInt64(index)].withUnsafeBytes { StrokeFingerprint(hashing: $0) }
      }
    }
    return fingerprints
  }
}
