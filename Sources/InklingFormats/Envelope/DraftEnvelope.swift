// The `.inkling` file: a JSON object written by the app's `JSONEncoder` from
// `DraftFile { drawingData: Data, color: RGBA }` (docs/inkling-files.md, "File content").
//
// Parsing splits a file into the drawing bytes and an `EnvelopeTemplate` that holds every
// other byte, so that `template.rebuild(drawing:)` gives the file back exactly. The parser
// accepts what JSONDecoder accepts (any key order and whitespace, `\/` or `/`, any JSON
// number form, unknown extra keys) and refuses the rest with a reason a person can act on.

/// A parsed `.inkling` file.
public struct DraftEnvelope: Sendable {
  /// The PencilKit bytes (`drawingData`, base64-decoded).
  public var drawing: [UInt8]
  /// The canvas background colour (`color`), exactly as parsed.
  public var background: RGBA
  /// Everything else, to rebuild the file.
  public var template: EnvelopeTemplate

  public init(drawing: [UInt8], background: RGBA, template: EnvelopeTemplate) {
    self.drawing = drawing
    self.background = background
    self.template = template
  }
}

/// Why a file is not a valid `.inkling` envelope.
public struct EnvelopeError: Error, Equatable, CustomStringConvertible, Sendable {
  public let reason: String
  public var description: String { reason }
}

extension DraftEnvelope {
  /// Parses the bytes of a `.inkling` file.
  ///
  /// - Throws: `EnvelopeError` saying what is wrong (empty file, not JSON, a key missing
  ///   or of the wrong type, invalid base64, a colour component that is not a number).
  public static func parse(_ file: UnsafeRawBufferPointer) throws(EnvelopeError) -> DraftEnvelope {
    guard !file.isEmpty else { throw EnvelopeError(reason: "the file is empty") }
    // What a download or copy still in progress leaves (iCloud Drive, a sync tool): the file
    // at its full size but still zeros, or its JSON cut off. Said as such, since the cure is
    // to let it finish, not to look for a damaged drawing.
    guard file.contains(where: { $0 != 0 }) else { throw EnvelopeError(reason: Self.incomplete("all zero bytes")) }
    guard JSONScanner.isValidUTF8(file) else {
      throw EnvelopeError(reason: "not an Inkling draft: the file is not UTF-8 text")
    }
    var scanner = JSONScanner(file)
    do {
      return try parseObject(&scanner)
    } catch let error as JSONSyntaxError {
      let atEnd = scanner.isAtEnd || error.offset >= file.count
      if atEnd, file.first == UInt8(ascii: "{") {
        throw EnvelopeError(
          reason: Self.incomplete(
            "its JSON stops in the middle, after \(file.count == 1 ? "1 byte" : "\(file.count) bytes")"))
      }
      let detail = atEnd ? "" : " at byte \(error.offset)"
      throw EnvelopeError(reason: "not an Inkling draft: invalid JSON: \(error.message)\(detail)")
    } catch let error as EnvelopeError {
      throw error
    } catch {
      throw EnvelopeError(reason: "\(error)")
    }
  }

  private static func incomplete(_ what: String) -> String {
    "the file is incomplete (\(what)), as a download or copy still in progress leaves it; let it finish, "
      + "then import it again"
  }

  public static func parse(_ file: [UInt8]) throws(EnvelopeError) -> DraftEnvelope {
    do { return try file.withUnsafeBytes { bytes in try parse(bytes) } } catch let error as EnvelopeError {
      throw error
    } catch { throw EnvelopeError(reason: "\(error)") }
  }

  private static func parseObject(_ scanner: inout JSONScanner) throws -> DraftEnvelope {
    guard scanner.peek() == UInt8(ascii: "{") else {
      throw EnvelopeError(reason: "not an Inkling draft: the file is not a JSON object")
    }
    scanner.position += 1
    // Later duplicates win, as in Foundation's JSONDecoder; the earlier ones stay in the text.
    var drawing: JSONScanner.StringToken?
    /// The drawing's base64 decoded as it was scanned, when that one pass could read it.
    var decoded: Base64.JSONDecoding?
    var background: RGBA?
    if scanner.peek() != UInt8(ascii: "}") {
      repeat {
        let key = scanner.text(of: try scanner.scanString())
        try scanner.expect(UInt8(ascii: ":"), "':'")
        switch key {
        case "drawingData":
          guard scanner.peek() == UInt8(ascii: "\"") else {
            throw EnvelopeError(reason: "drawingData is \(valueKind(scanner.peek())), not a base64 string")
          }
          let start = scanner.position + 1
          if let fast = Base64.decodeJSONString(scanner.bytes, from: start) {
            drawing = JSONScanner.StringToken(contentStart: start, contentEnd: fast.end, hasEscapes: fast.hasEscapes)
            decoded = fast.decoding
            scanner.position = fast.end + 1
          } else {
            drawing = try scanner.scanString()
            decoded = nil
          }
        case "color":
          background = try parseColor(&scanner)
        default:
          try scanner.skipValue()
        }
      } while try separator(&scanner)
    }
    try scanner.expect(UInt8(ascii: "}"), "'}'")
    scanner.skipWhitespace()
    guard scanner.isAtEnd else {
      throw EnvelopeError(
        reason: "not an Inkling draft: unexpected text after the JSON object at byte \(scanner.position)")
    }
    guard let drawing else { throw EnvelopeError(reason: "the key drawingData is missing") }
    guard let background else { throw EnvelopeError(reason: "the key color is missing") }
    let bytes = scanner.bytes
    let span = drawing.contentStart..<drawing.contentEnd
    let content = UnsafeRawBufferPointer(rebasing: bytes[span])
    // The common case in one pass: base64 with `/` or `\/`, and its spelling for free.
    if let fast = decoded ?? Base64.decodeJSONContent(content) {
      let spelling: EnvelopeTemplate.Base64Spelling =
        switch fast.escapedSlashes {
        case true?: .escapedSlashes
        case false?: .plainSlashes
        case nil: .verbatim
        }
      let template = EnvelopeTemplate(file: bytes, drawingContent: span, spelling: spelling)
      return DraftEnvelope(drawing: fast.bytes, background: background, template: template)
    }
    // Any other escape (`\u0041`…): JSON's meaning first, then base64; kept verbatim if need be.
    guard let decoded = JSONScanner.unescape(content).withUnsafeBytes({ Base64.decode($0) }) else {
      throw EnvelopeError(reason: "drawingData is not valid base64")
    }
    let template = EnvelopeTemplate(file: bytes, drawingContent: span, drawing: decoded)
    return DraftEnvelope(drawing: decoded, background: background, template: template)
  }

  /// Consumes a ',' (true: another member follows) or sees the closing '}' (false).
  private static func separator(_ scanner: inout JSONScanner) throws -> Bool {
    if scanner.peek() == UInt8(ascii: ",") {
      scanner.position += 1
      return true
    }
    if scanner.peek() == UInt8(ascii: "}") { return false }
    throw scanner.error(scanner.isAtEnd ? "the text ends inside the object" : "expected ',' or '}'")
  }

  private static func parseColor(_ scanner: inout JSONScanner) throws -> RGBA {
    guard scanner.peek() == UInt8(ascii: "{") else {
      throw EnvelopeError(reason: "color is \(valueKind(scanner.peek())), not an object with r, g, b and a")
    }
    scanner.position += 1
    var components: [String: Double] = [:]
    if scanner.peek() != UInt8(ascii: "}") {
      repeat {
        let key = scanner.text(of: try scanner.scanString())
        try scanner.expect(UInt8(ascii: ":"), "':'")
        if ["r", "g", "b", "a"].contains(key) {
          let next = scanner.peek()
          guard let next, next == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) else {
            throw EnvelopeError(reason: "color.\(key) is \(valueKind(next)), not a number")
          }
          components[key] = try scanner.scanNumber()
        } else {
          try scanner.skipValue()
        }
      } while try separator(&scanner)
    }
    try scanner.expect(UInt8(ascii: "}"), "'}'")
    for key in ["r", "g", "b", "a"] where components[key] == nil {
      throw EnvelopeError(reason: "color has no \(key) component")
    }
    return RGBA(red: components["r"]!, green: components["g"]!, blue: components["b"]!, alpha: components["a"]!)
  }

  private static func valueKind(_ first: UInt8?) -> String {
    switch first {
    case UInt8(ascii: "\""): "a string"
    case UInt8(ascii: "{"): "an object"
    case UInt8(ascii: "["): "an array"
    case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
    case UInt8(ascii: "n"): "null"
    case nil: "missing"
    default: "a number"
    }
  }
}
