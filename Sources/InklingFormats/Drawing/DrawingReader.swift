// Reads `PKDrawing.dataRepresentation()` bytes into a `Drawing`
// (docs/pkdrawing-format.md, "Container" and "Messages").
//
// Three outcomes, kept apart because the archive treats them differently:
//  - `.drawing`: decoded; every stroke's ink index is valid.
//  - `.unreadable`: not a drawing this reader knows (no `wrd` header: a bare message or an older
//    "versioned document"; a format version other than 1…5; point property bits beyond 0x400).
//    Not an error: the archive keeps the bytes as they are.
//  - `throw DrawingReadError`: the data claims to be a drawing this reader knows but is damaged
//    or exceeds `DrawingLimits`.
//
// Decisions (documented here because the format leaves them open):
//  - NaN and infinite floats are data, not damage: they are kept as read. The renderer must
//    cope (skip non-finite points).
//  - An ink index out of range is an error (`.inkIndexOutOfRange`): PencilKit's writer never
//    produces one, and consumers may index `inks` with any stroke's `inkIndex`.
//  - A substroke without `Stroke.4` inherits its parent's ink index; substroke paths are not
//    copied (`path == nil` means "the parent's path").
//  - Unknown fields are skipped everywhere; a known field with the wrong wire type is damage.
//  - Stroke flag bits 1–4 and the header's reserved byte are not kept.

/// What `DrawingReader.read` found in a blob of drawing data.
public enum DrawingDecodeResult: Hashable, Sendable {
  /// A drawing this reader understands.
  case drawing(Drawing)
  /// Bytes that are not a drawing this reader knows ("legacy/unknown drawing format"); archive
  /// them as opaque. `bytes` is the data as given (still gzipped if it was).
  case unreadable(reason: String, bytes: [UInt8])

  /// The drawing, or nil when unreadable.
  public var drawing: Drawing? {
    if case .drawing(let drawing) = self { return drawing }
    return nil
  }
}

/// Decodes PencilKit drawing data, gzipped or not, checking every length against `DrawingLimits`.
///
/// ```swift
/// switch try DrawingReader.read(bytes) {
/// case .drawing(let drawing): render(drawing)
/// case .unreadable(let reason, let bytes): archiveOpaque(bytes, note: reason)
/// }
/// ```
public enum DrawingReader {
  /// The container magic, "wrd" + 0xF0.
  public static let magic: [UInt8] = [0x77, 0x72, 0x64, 0xF0]
  /// The container format versions this reader decodes.
  public static let knownFormatVersions: ClosedRange<UInt8> = 1...5

  /// Decodes drawing data.
  /// - Throws: `DrawingReadError` when the data is a damaged drawing or exceeds `limits`.
  public static func read(_ bytes: [UInt8], limits: DrawingLimits = .default)
    throws(DrawingReadError)
    -> DrawingDecodeResult
  {
    let outcome = bytes.withUnsafeBytes { raw in
      Result { () throws(DrawingReadError) in try decode(raw, limits: limits) }
    }
    switch try outcome.get() {
    case .drawing(let drawing): return .drawing(drawing)
    case .unreadable(let reason): return .unreadable(reason: reason, bytes: bytes)
    }
  }

  /// Decodes drawing data whose strokes may repeat those of a drawing decoded before,
  /// without decoding those again: for each top-level stroke message, `skip(index, range,
  /// buffer)` (the message is `buffer[range]`; `buffer` is the ungzipped container) may
  /// return the outline of the stroke it decodes to. The message is then not decoded: it
  /// counts against `limits` and has its ink indices checked through the outline, and the
  /// drawing holds `outline.placeholder` in its place (ink index and hidden flag, nothing
  /// else). A caller that keeps the previous save's stroke bytes and facts answers for
  /// messages equal byte for byte, so that reading a save costs what it added. `skip` does
  /// not escape, so the caller's closure may keep its state in local variables (captured by
  /// an escaping closure, each use of them is an exclusivity check at run time).
  /// `expectedStrokes` (at most `limits.maxStrokes` is used) sizes the stroke array.
  ///
  /// With `leavingPointsEncoded`, the paths of a drawing that is not gzipped keep their points
  /// as records in `bytes` (`StrokePath.encodedPoints`, read with those same bytes) and their
  /// `points` are empty: for a caller that looks at each point once. Such a drawing's content
  /// is digested with `strokeContentDigest(at:encodedIn:)`; other users of its points must
  /// decode them first (`Stroke.decodingPoints(in:)`). A gzipped drawing is decoded whole
  /// (its bytes are inflated into a buffer that does not outlive the read).
  /// - Throws: `DrawingReadError` as `read(_:limits:)`; `.inkIndexOutOfRange` at the
  ///   drawing, not at a stroke, when the index out of range is in a skipped stroke.
  package static func read(
    _ bytes: [UInt8], limits: DrawingLimits = .default, expectedStrokes: Int = 0, leavingPointsEncoded: Bool = false,
    skipping skip: (Int, Range<Int>, UnsafeRawBufferPointer) -> StrokeOutline?
  ) throws(DrawingReadError) -> DrawingDecodeResult {
    let outcome = withoutActuallyEscaping(skip) { skip in
      bytes.withUnsafeBytes { raw in
        Result { () throws(DrawingReadError) in
          try decode(
            raw, limits: limits, skip: skip, expectedStrokes: expectedStrokes,
            leavingPointsEncoded: leavingPointsEncoded)
        }
      }
    }
    switch try outcome.get() {
    case .drawing(let drawing): return .drawing(drawing)
    case .unreadable(let reason): return .unreadable(reason: reason, bytes: bytes)
    }
  }

  /// Decodes drawing data from borrowed memory; `.unreadable` copies the bytes.
  /// - Throws: `DrawingReadError` when the data is a damaged drawing or exceeds `limits`.
  public static func read(_ bytes: UnsafeRawBufferPointer, limits: DrawingLimits = .default)
    throws(DrawingReadError) -> DrawingDecodeResult
  {
    switch try decode(bytes, limits: limits) {
    case .drawing(let drawing): return .drawing(drawing)
    case .unreadable(let reason): return .unreadable(reason: reason, bytes: Array(bytes))
    }
  }

  // MARK: - Container

  enum Outcome {
    case drawing(Drawing)
    case unreadable(String)
  }

  static func decode(
    _ bytes: UnsafeRawBufferPointer, limits: DrawingLimits,
    skip: ((Int, Range<Int>, UnsafeRawBufferPointer) -> StrokeOutline?)? = nil, expectedStrokes: Int = 0,
    leavingPointsEncoded: Bool = false
  ) throws(DrawingReadError) -> Outcome {
    guard bytes.count <= limits.maxBytes else {
      throw DrawingReadError(.inputTooLarge(bytes: bytes.count, limit: limits.maxBytes))
    }
    guard Gzip.isGzip(bytes) else {
      return try decodeContainer(
        bytes, limits: limits, gzipped: false, skip: skip, expectedStrokes: expectedStrokes,
        leavingPointsEncoded: leavingPointsEncoded)
    }
    let unpacked: [UInt8]
    switch Result(catching: { () throws(Gzip.Failure) in
      try Gzip.decompress(bytes, limit: min(limits.maxBytes, limits.maxInflatedBytes))
    }) {
    case .success(let data): unpacked = data
    case .failure(.tooLarge(let limit)): throw DrawingReadError(.gzipTooLarge(limit: limit))
    case .failure(.corrupt(let message)): throw DrawingReadError(.gzipCorrupt(message))
    }
    let outcome = unpacked.withUnsafeBytes { raw in
      Result { () throws(DrawingReadError) in
        try decodeContainer(raw, limits: limits, gzipped: true, skip: skip, expectedStrokes: expectedStrokes)
      }
    }
    return try outcome.get()
  }

  /// Reads the 8-byte header, then the `Drawing` message at the offset it gives.
  static func decodeContainer(
    _ bytes: UnsafeRawBufferPointer, limits: DrawingLimits, gzipped: Bool,
    skip: ((Int, Range<Int>, UnsafeRawBufferPointer) -> StrokeOutline?)? = nil, expectedStrokes: Int = 0,
    leavingPointsEncoded: Bool = false
  ) throws(DrawingReadError) -> Outcome {
    let what = gzipped ? "gzipped data" : "data"
    let hasMagic = bytes.count >= 4 && bytes.prefix(4).elementsEqual(magic)
    guard hasMagic else {
      if !bytes.isEmpty && bytes.count < 4 && magic.starts(with: bytes) {
        throw DrawingReadError(.truncatedHeader(bytes: bytes.count))
      }
      if gzipped && Gzip.isGzip(bytes) {
        return .unreadable("legacy/unknown drawing format: gzip inside gzip")
      }
      return .unreadable(
        "legacy/unknown drawing format: the \(what) does not start with the drawing header 77 72 64 F0"
      )
    }
    guard bytes.count >= 8 else { throw DrawingReadError(.truncatedHeader(bytes: bytes.count)) }
    let version = bytes[4]
    guard knownFormatVersions.contains(version) else {
      return .unreadable("unknown drawing format version \(version) (this reader knows 1–5)")
    }
    let headerLength = Int(bytes[6]) | Int(bytes[7]) << 8
    guard headerLength >= 8 && headerLength <= bytes.count else {
      throw DrawingReadError(
        .badHeaderLength(headerLength: headerLength, totalBytes: bytes.count), location: "header",
        offset: 6)
    }
    var decoder = DrawingDecoder(buffer: bytes, limits: limits)
    decoder.skip = skip
    decoder.leavePointsEncoded = leavingPointsEncoded && !gzipped
    decoder.expectedStrokes = min(max(expectedStrokes, 0), limits.maxStrokes)
    do {
      var drawing = try decoder.readDrawing(range: headerLength..<bytes.count)
      drawing.formatVersion = version
      return .drawing(drawing)
    } catch let failure as DrawingDecoder.Unrecognized {
      return .unreadable("\(decoder.location): \(failure.reason)")
    } catch let failure as DrawingDecoder.Failure {
      throw DrawingReadError(failure.kind, location: decoder.location, offset: failure.offset)
    } catch let error as ProtobufError {
      throw DrawingReadError(
        DrawingReadError.Kind(error.kind), location: decoder.location, offset: error.offset)
    } catch {
      fatalError("DrawingDecoder throws only Failure, Unrecognized and ProtobufError, not \(error)")
    }
  }
}

extension DrawingReadError.Kind {
  init(_ kind: ProtobufError.Kind) {
    switch kind {
    case .truncated: self = .truncated
    case .varintTooLong: self = .varintTooLong
    case .lengthPastEnd(let length, let remaining):
      self = .lengthPastEnd(length: length, remaining: remaining)
    case .groupNotSupported(let field): self = .groupNotSupported(field: field)
    case .invalidWireType(let type): self = .invalidWireType(type)
    case .invalidFieldNumber(let number): self = .invalidFieldNumber(number)
    }
  }
}

extension Drawing {
  /// Decodes drawing data, treating an unknown format as an error.
  ///
  /// Prefer `DrawingReader.read` where "not a drawing we know" must be told apart from damage.
  /// - Throws: `DrawingReadError`; `.unrecognizedFormat` for data `DrawingReader` calls unreadable.
  public init(bytes: [UInt8], limits: DrawingLimits = .default) throws(DrawingReadError) {
    switch try DrawingReader.read(bytes, limits: limits) {
    case .drawing(let drawing): self = drawing
    case .unreadable(let reason, _): throw DrawingReadError(.unrecognizedFormat(reason))
    }
  }
}
