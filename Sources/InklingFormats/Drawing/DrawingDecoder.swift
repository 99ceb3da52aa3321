// Decodes the `Drawing`, `Ink` and `Stroke` messages (docs/pkdrawing-format.md,
// "Messages"); `+StrokeData.swift` decodes paths, `+Values.swift` the small messages.
//
// Invariants:
//  1. Every count is checked against `DrawingLimits` before anything is allocated for it.
//  2. Recursion happens only for substrokes, and only while `depth <= maxDepth`, where
//     `maxDepth <= DrawingLimits.hardMaxNestingDepth`: input cannot drive unbounded recursion.
//  3. `strokePath`, `inkContext` and `inPath` describe where the decoder is; on a throw they
//     are left as they were at the failure, so `location` names the failing stroke.
//  4. Errors thrown are only `Failure`, `Unrecognized` and `ProtobufError`; `DrawingReader`
//     turns them into a `DrawingReadError` or an `.unreadable` result.

struct DrawingDecoder {
  /// Damage or a limit: becomes a `DrawingReadError`.
  struct Failure: Error {
    var kind: DrawingReadError.Kind
    var offset: Int?
  }

  /// Not damage, but a newer format this reader cannot decode: becomes `.unreadable`.
  struct Unrecognized: Error {
    var reason: String
  }

  let buffer: UnsafeRawBufferPointer
  let limits: DrawingLimits
  let maxDepth: Int
  var strokeCount = 0
  var pointCount = 0
  var replicaCount = 0
  var versionCount = 0
  var strokePath: [Int] = []
  var inkContext: Int?
  var inPath = false
  /// The highest ink index of any stroke or substroke read so far (−1 before the first).
  var maxInkIndex = -1
  /// How many strokes the caller expects (within the limits): the stroke array's capacity.
  var expectedStrokes = 0
  /// Asked for each top-level stroke message (its index, and its range in the buffer) before
  /// decoding it; a message it returns an outline for is not decoded (DrawingReader.read(_:skipping:)).
  var skip: ((Int, Range<Int>, UnsafeRawBufferPointer) -> StrokeOutline?)?
  /// Paths keep their points as records in `buffer` (EncodedPoints) instead of decoding them:
  /// only for a buffer that outlives the drawing (DrawingReader.read(_:leavingPointsEncoded:skipping:)).
  var leavePointsEncoded = false

  init(buffer: UnsafeRawBufferPointer, limits: DrawingLimits) {
    self.buffer = buffer
    self.limits = limits
    self.maxDepth = limits.effectiveNestingDepth
    strokePath.reserveCapacity(8)
  }

  /// Where the decoder is, for error messages: "drawing", "ink 2", "stroke 3 › substroke 1 › path".
  var location: String {
    if let ink = inkContext { return "ink \(ink)" }
    guard let first = strokePath.first else { return "drawing" }
    var text = "stroke \(first)"
    for index in strokePath.dropFirst() { text += " › substroke \(index)" }
    if inPath { text += " › path" }
    return text
  }

  // MARK: - Drawing

  mutating func readDrawing(range: Range<Int>) throws -> Drawing {
    var reader = ProtobufReader(buffer, range: range)
    var drawing = Drawing(replicas: [])
    drawing.strokes.reserveCapacity(expectedStrokes)
    while let tag = try reader.readTag() {
      switch tag.number {
      case 2:
        replicaCount += 1
        guard replicaCount <= limits.maxReplicas else {
          throw Failure(kind: .tooManyReplicas(limit: limits.maxReplicas), offset: tag.offset)
        }
        drawing.replicas.append(try readUUID(&reader, tag, field: "replica UUID"))
      case 3:
        versionCount += 1
        guard versionCount <= limits.maxReplicas else {
          throw Failure(kind: .tooManyReplicas(limit: limits.maxReplicas), offset: tag.offset)
        }
        drawing.versionVector.append(try readStrokeID(&reader, tag))
      case 4:
        guard drawing.inks.count < limits.maxInks else {
          throw Failure(kind: .tooManyInks(limit: limits.maxInks), offset: tag.offset)
        }
        inkContext = drawing.inks.count
        drawing.inks.append(try readInk(&reader, tag))
        inkContext = nil
      case 5:
        strokePath.append(drawing.strokes.count)
        if let outline = try skippedStroke(&reader, tag, index: drawing.strokes.count) {
          outline.appendPlaceholder(to: &drawing.strokes)
        } else {
          try appendStroke(&reader, tag, depth: 0, inkIndex: 0, to: &drawing.strokes)
        }
        strokePath.removeLast()
      case 6: drawing.canvasBounds = try readRect(&reader, tag)
      case 7: drawing.boundsVersion = try readStrokeID(&reader, tag)
      case 8: drawing.uuid = try readUUID(&reader, tag, field: "drawing UUID")
      default: try reader.skip(tag)
      }
    }
    // Ink indices are checked after the whole message: protobuf allows inks after strokes.
    // The walk that names the stroke at fault runs only when one is: walking every stroke
    // copied each (a copy retains each of its arrays).
    if maxInkIndex >= drawing.inks.count {
      for index in drawing.strokes.indices {
        strokePath.append(index)
        try checkInkIndices(drawing.strokes[index], inkCount: drawing.inks.count)
        strokePath.removeLast()
      }
      // Not found: it is in a skipped stroke, whose substrokes are not in the drawing.
      throw Failure(kind: .inkIndexOutOfRange(index: UInt64(maxInkIndex), inkCount: drawing.inks.count), offset: nil)
    }
    return drawing
  }

  /// Throws for the first stroke or substroke of `stroke` whose ink index is out of range.
  mutating func checkInkIndices(_ stroke: Stroke, inkCount: Int) throws {
    guard stroke.inkIndex >= 0 && stroke.inkIndex < inkCount else {
      throw Failure(
        kind: .inkIndexOutOfRange(index: UInt64(stroke.inkIndex), inkCount: inkCount), offset: nil)
    }
    for index in stroke.substrokes.indices {
      strokePath.append(index)
      try checkInkIndices(stroke.substrokes[index], inkCount: inkCount)
      strokePath.removeLast()
    }
  }

  // MARK: - Ink

  func readInk(_ outer: inout ProtobufReader, _ outerTag: FieldTag) throws -> Ink {
    var reader = try message(&outer, outerTag)
    // Fields in locals, the ink made once at the end: an ink filled in place would be copied
    // and destroyed on return, for each of the dozens of inks of every save the import reads.
    var color = RGBA(red: 0, green: 0, blue: 0, alpha: 0)
    var identifier = 0..<0
    var version: UInt64?
    var variant: String?
    var requiredContentVersion: UInt64?
    var weight: Double?
    while let tag = try reader.readTag() {
      switch tag.number {
      case 1: color = try readColor(&reader, tag)
      case 2:
        try expect(tag, .lengthDelimited)
        identifier = try reader.readLengthDelimitedRange()
      case 3:
        try expect(tag, .varint)
        version = try reader.readVarint()
      case 4:
        try expect(tag, .lengthDelimited)
        variant = try reader.readString()
      case 7:
        try expect(tag, .varint)
        requiredContentVersion = try reader.readVarint()
      case 8:
        try expect(tag, .fixed64)
        weight = try reader.readDouble()
      default: try reader.skip(tag)
      }
    }
    return Ink(
      inkType: Ink.InkType(identifier: UnsafeRawBufferPointer(rebasing: buffer[identifier])), color: color,
      version: version,
      variant: variant, requiredContentVersion: requiredContentVersion, weight: weight)
  }

  // MARK: - Stroke

  /// The outline `skip` gives for the message at `tag`, counted against the limits as if
  /// the message were decoded (so a drawing of skipped strokes meets the same limits as one
  /// decoded whole), with `reader` moved past it; nil, and `reader` unmoved, when there is none.
  mutating func skippedStroke(_ reader: inout ProtobufReader, _ tag: FieldTag, index: Int) throws -> StrokeOutline? {
    guard let skip, tag.wireType == .lengthDelimited else { return nil }
    var peek = reader
    let range = try peek.readLengthDelimitedRange()
    guard let outline = skip(index, range, buffer) else { return nil }
    guard outline.strokes <= limits.maxStrokes - strokeCount else {
      throw Failure(kind: .tooManyStrokes(limit: limits.maxStrokes), offset: tag.offset)
    }
    strokeCount += outline.strokes
    guard outline.depth <= maxDepth else { throw Failure(kind: .nestingTooDeep(limit: maxDepth), offset: tag.offset) }
    try countPoints(outline.points, at: tag.offset)
    maxInkIndex = max(maxInkIndex, outline.maxInkIndex)
    reader = peek
    return outline
  }

  /// A stroke with every field at its default, appended and then filled in place: a stroke
  /// made in the call to `append` would be copied into the array and then destroyed, a retain
  /// and a release for each of its arrays, for every stroke of every save.
  static let blank = Stroke(inkIndex: 0, path: nil)

  /// Reads a stroke and, recursively, its substrokes (`depth` 0 for a top-level stroke) onto
  /// the end of `strokes`; `inkIndex` is the stroke's until its message names one. (Decoded in
  /// place: a stroke returned by value would be copied, which retains each of its arrays.)
  mutating func appendStroke(
    _ outer: inout ProtobufReader, _ outerTag: FieldTag, depth: Int, inkIndex: Int, to strokes: inout [Stroke]
  ) throws {
    strokeCount += 1
    guard strokeCount <= limits.maxStrokes else {
      throw Failure(kind: .tooManyStrokes(limit: limits.maxStrokes), offset: outerTag.offset)
    }
    var reader = try message(&outer, outerTag)
    strokes.append(Self.blank)
    strokes[strokes.count - 1].inkIndex = inkIndex
    try readStroke(&reader, depth: depth, into: &strokes[strokes.count - 1])
    maxInkIndex = max(maxInkIndex, strokes[strokes.count - 1].inkIndex)
  }

  /// Reads the fields of a stroke message into `stroke`.
  private mutating func readStroke(_ reader: inout ProtobufReader, depth: Int, into stroke: inout Stroke) throws {
    while let tag = try reader.readTag() {
      switch tag.number {
      case 1: stroke.uuid = try readUUID(&reader, tag, field: "stroke UUID")
      case 2: stroke.sortID = try readStrokeID(&reader, tag)
      case 3: stroke.versionID = try readStrokeID(&reader, tag)
      case 4:
        try expect(tag, .varint)
        let index = try reader.readVarint()
        // Out of range for Int: keep it out of range of any ink table; checked after the message.
        stroke.inkIndex = index > UInt64(Int.max) ? Int.max : Int(index)
      case 5:
        inPath = true
        stroke.path = try readStrokeData(&reader, tag)
        inPath = false
      case 6: stroke.storedBounds = try readRect(&reader, tag)
      case 7: stroke.transform = try readTransform(&reader, tag)
      case 8:
        try expect(tag, .varint)
        let flags = try reader.readVarint()
        stroke.isHidden = flags & 1 != 0
        stroke.randomSeed = flags >> 5
      case 9: stroke.substrokesVersion = try readStrokeID(&reader, tag)
      case 10: stroke.maskPolygons.append(try readMaskPolygon(&reader, tag))
      case 11:
        guard depth < maxDepth else {
          throw Failure(kind: .nestingTooDeep(limit: maxDepth), offset: tag.offset)
        }
        strokePath.append(stroke.substrokes.count)
        // A substroke without an ink index of its own has its parent's.
        try appendStroke(&reader, tag, depth: depth + 1, inkIndex: stroke.inkIndex, to: &stroke.substrokes)
        strokePath.removeLast()
      case 12: try readSlices(&reader, tag, into: &stroke.slices)
      case 16: stroke.renderGroupID = try readUUID(&reader, tag, field: "render group UUID")
      default: try reader.skip(tag)
      }
    }
  }

  mutating func readMaskPolygon(_ reader: inout ProtobufReader, _ tag: FieldTag) throws -> [Point] {
    try expect(tag, .lengthDelimited)
    let range = try reader.readLengthDelimitedRange()
    guard range.count % 8 == 0 else {
      throw Failure(kind: .maskPolygonSize(bytes: range.count), offset: tag.offset)
    }
    let vertices = range.count / 8
    try countPoints(vertices + 1, at: tag.offset)  // + 1: the polygon itself costs memory too
    var polygon: [Point] = []
    polygon.reserveCapacity(vertices)
    var offset = range.lowerBound
    for _ in 0..<vertices {
      polygon.append(Point(x: Double(loadFloat(offset)), y: Double(loadFloat(offset + 4))))
      offset += 8
    }
    return polygon
  }

  /// `Stroke.12`, repeated float: packed (one length-delimited run) or one 32-bit field each.
  func readSlices(_ reader: inout ProtobufReader, _ tag: FieldTag, into slices: inout [Float])
    throws
  {
    switch tag.wireType {
    case .fixed32:
      slices.append(try reader.readFloat())
    case .lengthDelimited:
      let range = try reader.readLengthDelimitedRange()
      guard range.count % 4 == 0 else {
        throw Failure(kind: .slicesSize(bytes: range.count), offset: tag.offset)
      }
      slices.reserveCapacity(slices.count + range.count / 4)
      for offset in stride(from: range.lowerBound, to: range.upperBound, by: 4) {
        slices.append(loadFloat(offset))
      }
    default:
      throw Failure(
        kind: .wrongWireType(field: tag.number, wireType: tag.wireType.rawValue), offset: tag.offset
      )
    }
  }
}
