// Decodes a drawing once and works out what the index keeps of it (DrawingFacts): counts,
// inks, bounds, time span, and one fingerprint per stroke — the SHA-256 of the stroke's
// encoded message, so the same stroke saved again maps to the same row.
//
// One indexer per worker thread. It remembers the facts of the strokes it has seen, so the
// costly part (render bounds) is done once per distinct stroke, not once per version.

import InklingFormats
import InklingStore

final class DrawingIndexer {
  private var known: [[UInt8]: StrokeFacts] = [:]
  /// Content digests of strokes seen, by their bytes and their ink (the bytes name the ink
  /// only by its index in the drawing's ink table).
  private var digests: [DigestKey: DrawingFingerprint] = [:]

  private struct DigestKey: Hashable {
    let fingerprint: [UInt8]
    let ink: Ink?
  }
  /// The memory of strokes is dropped past this many entries; it only saves work, and the
  /// import's memory must stay flat.
  static let memoryLimit = 20_000

  /// Forgets the strokes seen so far: call between drafts, whose strokes differ.
  func forget() {
    known.removeAll(keepingCapacity: true)
    digests.removeAll(keepingCapacity: true)
  }
  /// Seconds between Apple's reference date (2001-01-01) and 1970-01-01.
  static let appleEpoch = 978_307_200.0

  /// The facts of `bytes`, whatever they hold: a drawing that does not decode is still
  /// described (status and reason), never an error.
  func facts(of bytes: [UInt8]) -> DrawingFacts {
    let drawing: Drawing
    do {
      switch try DrawingReader.read(bytes) {
      case .drawing(let decoded): drawing = decoded
      case .unreadable(let reason, _): return DrawingFacts(status: .unreadable, problem: reason)
      }
    } catch {
      return DrawingFacts(status: .damaged, problem: error.description)
    }
    return facts(of: drawing, fingerprints: Self.strokeFingerprints(bytes, count: drawing.strokes.count))
  }

  func facts(of drawing: Drawing, fingerprints: [[UInt8]]) -> DrawingFacts {
    if known.count + digests.count > Self.memoryLimit { forget() }
    var strokes: [StrokeFacts] = []
    strokes.reserveCapacity(drawing.strokes.count)
    var points = 0
    var first: Double?
    var last: Double?
    for (index, stroke) in drawing.strokes.enumerated() {
      if let path = stroke.path, let head = path.points.first, let tail = path.points.last {
        points += path.points.count
        let created = path.creationDate + Self.appleEpoch
        first = min(first ?? .infinity, created + head.timeOffset)
        last = max(last ?? -.infinity, created + tail.timeOffset)
      }
      let fingerprint = fingerprints[index]
      if let facts = known[fingerprint] {
        strokes.append(facts)
        continue
      }
      let ink = drawing.ink(of: stroke)
      let facts = StrokeFacts(
        fingerprint: fingerprint, uuid: stroke.uuid?.bytes, hidden: stroke.isHidden, ink: ink?.inkType.name ?? "unknown",
        color: ink?.color ?? RGBA(red: 0, green: 0, blue: 0, alpha: 1),
        bounds: stroke.isHidden ? nil : drawing.renderBounds(ofStrokeAt: index),
        pointCount: stroke.path?.points.count ?? 0,
        created: stroke.path.map { $0.creationDate + Self.appleEpoch })
      known[fingerprint] = facts
      strokes.append(facts)
    }
    var box: Rect?
    for stroke in strokes where !stroke.hidden {
      guard let bounds = stroke.bounds else { continue }
      box = box.map { union($0, bounds) } ?? bounds
    }
    return DrawingFacts(
      status: .decoded, formatVersion: Int(drawing.formatVersion), strokes: strokes, pointCount: points,
      bounds: box, firstPoint: first?.isFinite == true ? first : nil, lastPoint: last?.isFinite == true ? last : nil,
      maxInkVersion: drawing.inks.compactMap(\.version).max().map { Int(clamping: $0) },
      contentHash: drawing.contentFingerprint { index in
        let key = DigestKey(fingerprint: fingerprints[index], ink: drawing.ink(of: drawing.strokes[index]))
        if let digest = digests[key] { return digest }
        let digest = drawing.strokeContentDigest(at: index)
        digests[key] = digest
        return digest
      }.bytes)
  }

  private func union(_ a: Rect, _ b: Rect) -> Rect {
    let minX = min(a.minX, b.minX), minY = min(a.minY, b.minY)
    return Rect(x: minX, y: minY, width: max(a.maxX, b.maxX) - minX, height: max(a.maxY, b.maxY) - minY)
  }

  /// The fingerprint of each top-level stroke message, in order. The reader has already
  /// accepted these bytes, so the walk cannot fail; if it ever disagrees with the reader's
  /// stroke count, each stroke gets a fingerprint of its own (no sharing, still correct).
  static func strokeFingerprints(_ bytes: [UInt8], count: Int) -> [[UInt8]] {
    var fingerprints: [[UInt8]] = []
    fingerprints.reserveCapacity(count)
    let message: [UInt8]
    if bytes.withUnsafeBytes({ Gzip.isGzip($0) }) {
      message = (try? bytes.withUnsafeBytes { try Gzip.decompress($0, limit: DrawingLimits.default.maxInflatedBytes) }) ?? []
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
          fingerprints.append(Array(SHA256.hash(UnsafeRawBufferPointer(rebasing: raw[range])).prefix(16)))
        } else if (try? reader.skip(tag)) == nil {
          return
        }
      }
    }
    guard fingerprints.count == count else {
      let salt = SHA256.hash(bytes)
      return (0..<count).map { index in Array(SHA256.hash(salt + withUnsafeBytes(of: index) { Array($0) }).prefix(16)) }
    }
    return fingerprints
  }
}
