import Testing

@testable import InklingFormats

/// `DrawingReader.read(_:leavingPointsEncoded:skipping:)`: paths keep their points as records
/// in the bytes read, and what the drawing index takes from them (count, first and last
/// point, content digest) is what a whole read gives.
@Suite struct EncodedPointsTests {
  private func readEncoded(_ bytes: [UInt8]) throws -> Drawing? {
    try DrawingReader.read(bytes, leavingPointsEncoded: true) { _, _, _ in nil }.drawing
  }

  /// Every path of `stroke` and its substrokes, depth first.
  private func paths(_ stroke: Stroke) -> [StrokePath] {
    (stroke.path.map { [$0] } ?? []) + stroke.substrokes.flatMap(paths)
  }

  /// Checks `encoded` (read leaving points encoded in `bytes`) against `whole`.
  private func expectAgreement(_ encoded: Drawing, _ whole: Drawing, _ bytes: [UInt8]) {
    #expect(encoded.strokes.count == whole.strokes.count)
    bytes.withUnsafeBytes { raw in
      for index in whole.strokes.indices {
        let encodedPaths = paths(encoded.strokes[index])
        let wholePaths = paths(whole.strokes[index])
        #expect(encodedPaths.map(\.pointCount) == wholePaths.map(\.points.count))
        for (path, reference) in zip(encodedPaths, wholePaths) where !reference.points.isEmpty {
          #expect(path.points.isEmpty && path.encodedPoints != nil)
          // Bitwise, as content is compared: NaN is data. (The time offset is not content.)
          let times = reference.points.indices.map { path.encodedPoint($0, in: raw).timeOffset.bitPattern }
          #expect(times == reference.points.map(\.timeOffset.bitPattern))
          let span = path.encodedTimeSpan(in: raw)
          #expect(span.first.bitPattern == times.first && span.last.bitPattern == times.last)
        }
        #expect(encoded.strokeContentDigest(at: index, encodedIn: raw) == whole.strokeContentDigest(at: index))
        // Decoded, the stroke serialises as the whole read's does (equal up to NaN).
        let decoded = Drawing(inks: encoded.inks, strokes: [encoded.strokes[index].decodingPoints(in: raw)])
        #expect(paths(decoded.strokes[0]).allSatisfy { $0.encodedPoints == nil })
        #expect(decoded.strokeCanonicalWords(at: 0) == whole.strokeCanonicalWords(at: index))
      }
    }
  }

  @Test func randomDrawingsAgreeWithTheWholeRead() throws {
    var generator = RandomDrawings(seed: 31)
    var points = 0
    for _ in 0..<40 {
      let drawing = generator.drawing()
      let bytes = try drawing.dataRepresentation()
      let whole = try Drawing(bytes: bytes)
      let encoded = try #require(try readEncoded(bytes))
      expectAgreement(encoded, whole, bytes)
      points += whole.strokes.reduce(0) { $0 + paths($1).reduce(0) { $0 + $1.points.count } }
    }
    #expect(points > 1000)
  }

  @Test(arguments: DrawingSamples.names) func deviceSamplesAgreeWithTheWholeRead(name: String) throws {
    let bytes = try DrawingSamples.bytes(name)
    let whole = try DrawingSamples.drawing(name)
    let encoded = try #require(try readEncoded(bytes))
    if bytes.withUnsafeBytes({ Gzip.isGzip($0) }) {
      // Inflated into a buffer the read frees: decoded whole.
      #expect(encoded.contentFingerprint == whole.contentFingerprint)
    } else {
      expectAgreement(encoded, whole, bytes)
    }
  }

  @Test func aGzippedDrawingIsDecodedWhole() throws {
    var generator = RandomDrawings(seed: 32)
    let drawing = generator.drawing()
    let bytes = Gzip.compress(try drawing.dataRepresentation())
    let encoded = try #require(try readEncoded(bytes))
    #expect(encoded.strokes.allSatisfy { paths($0).allSatisfy { $0.encodedPoints == nil } })
    #expect(encoded.contentFingerprint == (try Drawing(bytes: bytes)).contentFingerprint)
  }

  @Test func recordsOutsideTheBytesAreRefused() throws {
    var generator = RandomDrawings(seed: 33)
    var drawing = generator.drawing()
    while !drawing.strokes.contains(where: { ($0.path?.points.count ?? 0) > 0 }) { drawing = generator.drawing() }
    let bytes = try drawing.dataRepresentation()
    let encoded = try #require(try readEncoded(bytes))
    let path = try #require(encoded.strokes.compactMap(\.path).first { $0.pointCount > 0 })
    // Other, shorter bytes: the records do not fit, so no point is read from them.
    [UInt8](repeating: 0, count: 4).withUnsafeBytes { #expect(!path.encodedPointsFit(in: $0)) }
    bytes.withUnsafeBytes { #expect(path.encodedPointsFit(in: $0)) }
  }
}
