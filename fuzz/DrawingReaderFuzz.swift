// libFuzzer target for the PencilKit drawing reader; built and run by scripts/fuzz, compiled
// into the InklingFormats module (so it sees internal API) with -sanitize=fuzzer,address.
//
// For every input it checks, beyond "no crash, no out-of-bounds access, no leak":
//  1. Reading never traps, and an error always has a description.
//  2. A drawing that decodes and that the writer accepts re-encodes stably:
//     write(read(write(d))) == write(d) (bytes, so NaN payloads cannot spoil the comparison).
//  3. A drawing has the same content as itself, and its fingerprint is deterministic.
//  4. The store's point columns undo exactly, for any input: interleaved(columnar(b)) == b,
//     at the same length; so do its point streams: drawing(form(b), size: b.count) == b; and
//     any input read as a streams form decodes without trapping.
//  5. A read that skips every other stroke, given the outlines of the whole read's strokes
//     (what the drawing index does for strokes a save repeats), succeeds too, with the same
//     strokes where it decoded and their placeholders where it skipped.
//  6. A read that leaves the points encoded in the input (what the drawing index does)
//     gives the same outlines and content digests, and its strokes decode to the same form
//     and times.
//
// LLVMFuzzerInitialize writes seed inputs made by the writer when FUZZ_WRITE_SEEDS names a
// folder (scripts/fuzz does this before fuzzing), so the corpus starts with deep, varied
// drawings and not only the four device samples.

#if canImport(Glibc)
  import Glibc
#endif

/// Limits small enough that no input can push the process over libFuzzer's -rss_limit_mb=256.
/// One-minute runs from the seeds peaked at 178–224 MB with 200,000 points (session 8): an
/// input is read four ways, 19 MB of points each at that limit, beside what AddressSanitizer
/// and libFuzzer hold. At 100,000 points an input's share is half.
let fuzzLimits = DrawingLimits(
  maxBytes: 4 << 20, maxPoints: 100_000, maxStrokes: 20_000, maxNestingDepth: 32, maxInks: 1_000,
  maxReplicas: 1_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func drawingReaderFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size)
  let array = [UInt8](bytes)
  if let columns = PointColumns.columnar(array) {
    precondition(columns.count == array.count, "point columns changed the length")
    precondition(PointColumns.interleaved(columns) == array, "point columns do not undo exactly")
  }
  if let form = PointStreams.form(array) {
    precondition(
      PointStreams.formSizes(ofDrawing: array.count).contains(form.bytes.count), "a streams form of an unexpected size")
    precondition(PointStreams.drawing(form.bytes, size: array.count) == array, "point streams do not undo exactly")
  }
  _ = PointStreams.drawing(array, size: array.count)
  let result: DrawingDecodeResult
  do {
    result = try DrawingReader.read(bytes, limits: fuzzLimits)
  } catch {
    precondition(!error.description.isEmpty)
    return 0
  }
  guard case .drawing(let drawing) = result else { return 0 }
  checkSkippingRead(array, drawing)
  checkEncodedRead(array, drawing)
  precondition(drawing.hasSameContent(as: drawing), "a drawing differs from itself")
  precondition(
    drawing.contentFingerprint == drawing.contentFingerprint, "fingerprint is not deterministic")
  guard let written = try? DrawingWriter.write(drawing) else { return 0 }
  let again: Drawing
  do {
    again = try Drawing(bytes: written, limits: fuzzLimits)
  } catch {
    preconditionFailure("the reader refuses what the writer wrote: \(error)")
  }
  let rewritten = try? DrawingWriter.write(again)
  precondition(rewritten == written, "write(read(write(d))) != write(d)")
  precondition(
    again.hasSameContent(as: drawing) || containsNaN(drawing), "content changed in a round trip")
  return 0
}

/// Check 5. Strokes are compared by outline and content digest: `==` fails on NaN.
func checkSkippingRead(_ bytes: [UInt8], _ drawing: Drawing) {
  let outlines = drawing.strokes.indices.map { StrokeOutline(of: drawing.strokes, at: $0) }
  let skipping: Drawing?
  do {
    skipping = try DrawingReader.read(bytes, limits: fuzzLimits) { index, _, _ in
      index % 2 == 0 && outlines.indices.contains(index) ? outlines[index] : nil
    }.drawing
  } catch {
    preconditionFailure("a skipping read fails where the whole read did not: \(error)")
  }
  guard let skipping, skipping.strokes.count == drawing.strokes.count else {
    preconditionFailure("a skipping read gives another drawing")
  }
  for index in drawing.strokes.indices {
    if index % 2 == 0 {
      precondition(skipping.strokes[index] == outlines[index].placeholder, "stroke \(index) is not its placeholder")
    } else {
      precondition(StrokeOutline(of: skipping.strokes, at: index) == outlines[index], "stroke \(index) reads otherwise")
      precondition(
        skipping.strokeContentDigest(at: index) == drawing.strokeContentDigest(at: index),
        "stroke \(index) reads otherwise")
    }
  }
}

/// Check 6.
func checkEncodedRead(_ bytes: [UInt8], _ drawing: Drawing) {
  let encoded: Drawing?
  do {
    encoded = try DrawingReader.read(bytes, limits: fuzzLimits, leavingPointsEncoded: true) { _, _, _ in nil }.drawing
  } catch {
    preconditionFailure("a read leaving points encoded fails where the whole read did not: \(error)")
  }
  guard let encoded, encoded.strokes.count == drawing.strokes.count else {
    preconditionFailure("a read leaving points encoded gives another drawing")
  }
  bytes.withUnsafeBytes { raw in
    for index in drawing.strokes.indices {
      precondition(
        StrokeOutline(of: encoded.strokes, at: index) == StrokeOutline(of: drawing.strokes, at: index),
        "stroke \(index) counts otherwise")
      precondition(
        encoded.strokeContentDigest(at: index, encodedIn: raw) == drawing.strokeContentDigest(at: index),
        "stroke \(index) digests otherwise")
      let decoded = Drawing(inks: encoded.inks, strokes: [encoded.strokes[index].decodingPoints(in: raw)])
      precondition(
        decoded.strokeCanonicalWords(at: 0) == drawing.strokeCanonicalWords(at: index),
        "stroke \(index) decodes otherwise")
      // Time offsets are not content: compared apart, bitwise.
      precondition(
        decoded.strokes[0].path?.points.map(\.timeOffset.bitPattern)
          == drawing.strokes[index].path?.points.map(\.timeOffset.bitPattern), "stroke \(index) times otherwise")
    }
  }
}

/// NaN compares unequal to itself in `==`, but content equality is bitwise; a round trip may
/// turn a signalling NaN quiet, so content can differ only then.
func containsNaN(_ drawing: Drawing) -> Bool {
  var pending = drawing.strokes
  while let stroke = pending.popLast() {
    if let path = stroke.path,
      path.points.contains(where: { point in
        [point.location.x, point.location.y, point.width, point.timeOffset, point.secondaryRadius]
          .contains { $0.isNaN }
      })
    {
      return true
    }
    if stroke.maskPolygons.joined().contains(where: { $0.x.isNaN || $0.y.isNaN })
      || stroke.slices.contains(where: \.isNaN)
    {
      return true
    }
    let t = stroke.transform
    if [t.a, t.b, t.c, t.d, t.tx, t.ty].contains(where: \.isNaN) { return true }
    pending.append(contentsOf: stroke.substrokes)
  }
  return drawing.inks.contains {
    [$0.color.red, $0.color.green, $0.color.blue, $0.color.alpha, $0.weight ?? 0].contains(
      where: \.isNaN)
  }
}

// MARK: - Seeds

@_cdecl("LLVMFuzzerInitialize")
public func drawingReaderFuzzInitialize(
  _ argc: UnsafeMutablePointer<CInt>?,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
  guard let folder = getenv("FUZZ_WRITE_SEEDS").map({ String(cString: $0) }), !folder.isEmpty else {
    return 0
  }
  var random = SeededRandom(seed: 0x5EED)
  for index in 0..<40 {
    let drawing = seedDrawing(&random, strokes: 1 + index % 6, depth: index % 5)
    guard var bytes = try? DrawingWriter.write(drawing, maxNestingDepth: 32) else { continue }
    if index % 7 == 3 { bytes = Gzip.compress(bytes) }
    let path = "\(folder)/writer-\(index).pkdrawing"
    guard let file = fopen(path, "wb") else { continue }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
  }
  return 0
}

/// A coordinate the format stores exactly (a binary32 value), from -2000/7 to 2000/7.
func seedCoordinate(_ random: inout SeededRandom) -> Double {
  Double(Float(Int(random.below(4000)) - 2000) / 7)
}

func seedDrawing(_ random: inout SeededRandom, strokes: Int, depth: Int) -> Drawing {
  let masks: [(UInt64, UInt64)] = [
    (0x3, 0x3FC), (0x7, 0x3F8), (0x103, 0x2FC), (0x3FF, 0), (0x1, 0),
  ]
  var drawing = Drawing(
    replicas: [.zero, UUIDBytes((0..<16).map { UInt8($0) })],
    versionVector: [StrokeID(clock: 1, replicaIndex: 1, subclock: 1)],
    inks: [
      Ink(inkType: .pen, color: RGBA(red: 0, green: 0, blue: 0, alpha: 1), version: 3),
      Ink(
        inkType: .marker, color: RGBA(red: 1, green: 0.5, blue: 0, alpha: 1), version: 3,
        variant: "linear", weight: 0.5),
    ], canvasBounds: .zero, boundsVersion: StrokeID(clock: 0, replicaIndex: 0, subclock: 0),
    uuid: UUIDBytes([UInt8](repeating: 7, count: 16)))
  for index in 0..<strokes {
    let (varying, constant) = masks[Int(random.next() % UInt64(masks.count))]
    let points = (0..<Int(random.next() % 12)).map { _ in
      StrokePoint(location: Point(x: seedCoordinate(&random), y: seedCoordinate(&random)), timeOffset: 0.5)
    }
    var stroke = Stroke(
      uuid: UUIDBytes([UInt8](repeating: UInt8(index), count: 16)),
      sortID: StrokeID(clock: UInt64(index), replicaIndex: 1, subclock: 1),
      versionID: StrokeID(clock: 0, replicaIndex: 1, subclock: 0), inkIndex: index % 2,
      path: StrokePath(
        creationDate: 7e8, points: points, varyingProperties: PointProperties(rawValue: varying),
        constantProperties: PointProperties(rawValue: constant), createdWithFinger: index % 2 == 0),
      storedBounds: Rect(x: 1, y: 2, width: 3, height: 4), isHidden: index % 3 == 2,
      randomSeed: random.next() >> 8)
    if index % 2 == 1 {
      stroke.transform = AffineTransform(a: 1, b: 0.5, c: -0.5, d: 1, tx: 10, ty: 20)
    }
    var child = Stroke(
      versionID: StrokeID(clock: 2, replicaIndex: 0, subclock: 0), inkIndex: index % 2, path: nil)
    child.maskPolygons = [[Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10)]]
    child.slices = [0, 1.5, 2, 3]
    for _ in 0..<depth {
      var parent = Stroke(
        versionID: StrokeID(clock: 3, replicaIndex: 1, subclock: 0), inkIndex: index % 2, path: nil)
      parent.substrokes = [child, child]
      child = parent
    }
    if depth > 0 { stroke.substrokes = [child] }
    drawing.strokes.append(stroke)
  }
  return drawing
}
