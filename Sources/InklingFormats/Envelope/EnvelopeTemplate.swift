// What of an `.inkling` file is not the drawing: the file's bytes with the content of the
// drawingData string cut out, and how to spell the base64 text when it goes back in.
// Many versions share a template (same colour, same layout), so the archive stores each once.

/// The bytes of an `.inkling` file minus its drawing, able to rebuild the file exactly.
public struct EnvelopeTemplate: Hashable, Sendable {
  /// How the drawing's base64 text was spelled in the file.
  public enum Base64Spelling: Int, Sendable, CaseIterable {
    /// Standard base64 with `/` written `\/`: JSONEncoder's default.
    case escapedSlashes = 0
    /// Standard base64 with plain `/` (`.withoutEscapingSlashes`, or no slash at all).
    case plainSlashes = 1
    /// Any other spelling (other escapes, non-canonical padding bits): kept verbatim.
    case verbatim = 2
  }

  /// The file without the drawingData string's content (the quotes stay).
  public var text: [UInt8]
  /// Where in `text` the base64 content goes back.
  public var drawingOffset: Int
  public var spelling: Base64Spelling
  /// The original string content, when `spelling` is `.verbatim`.
  public var verbatimBase64: [UInt8]?

  public init(text: [UInt8], drawingOffset: Int, spelling: Base64Spelling, verbatimBase64: [UInt8]?) {
    self.text = text
    self.drawingOffset = drawingOffset
    self.spelling = spelling
    self.verbatimBase64 = verbatimBase64
  }

  /// Splits `file` around the drawingData content, with a spelling known to rebuild it.
  init(file: UnsafeRawBufferPointer, drawingContent: Range<Int>, spelling: Base64Spelling) {
    var text = [UInt8](UnsafeRawBufferPointer(rebasing: file[..<drawingContent.lowerBound]))
    text.append(contentsOf: UnsafeRawBufferPointer(rebasing: file[drawingContent.upperBound...]))
    self.init(
      text: text, drawingOffset: drawingContent.lowerBound, spelling: spelling,
      verbatimBase64: spelling == .verbatim ? Array(UnsafeRawBufferPointer(rebasing: file[drawingContent])) : nil)
  }

  /// Splits `file` around the drawingData content, choosing the spelling that rebuilds it.
  init(file: UnsafeRawBufferPointer, drawingContent: Range<Int>, drawing: [UInt8]) {
    let original = UnsafeRawBufferPointer(rebasing: file[drawingContent])
    let spelling: Base64Spelling = drawing.withUnsafeBytes { bytes in
      if Base64.matches(bytes, escapeSlashes: true, original) {
        .escapedSlashes
      } else if Base64.matches(bytes, escapeSlashes: false, original) {
        .plainSlashes
      } else {
        .verbatim
      }
    }
    self.init(file: file, drawingContent: drawingContent, spelling: spelling)
  }

  /// The file these bytes came from, given its drawing, handed to `body` in pieces, in order,
  /// without building it: hashing the file needs only its pieces.
  public func rebuild(drawing: [UInt8], pieces body: (UnsafeRawBufferPointer) -> Void) {
    text.withUnsafeBytes { text in
      body(UnsafeRawBufferPointer(rebasing: text[..<drawingOffset]))
      switch spelling {
      case .escapedSlashes, .plainSlashes:
        drawing.withUnsafeBytes { drawing -> Void in
          Base64.encode(drawing, escapeSlashes: spelling == .escapedSlashes) { piece in
            body(piece)
            return true
          }
        }
      case .verbatim:
        (verbatimBase64 ?? []).withUnsafeBytes { body($0) }
      }
      body(UnsafeRawBufferPointer(rebasing: text[drawingOffset...]))
    }
  }

  /// The file these bytes came from, given its drawing.
  public func rebuild(drawing: [UInt8]) -> [UInt8] {
    let escape = spelling == .escapedSlashes
    let middle = spelling == .verbatim ? verbatimBase64?.count ?? 0 : Base64.room(drawing.count, escapeSlashes: escape)
    // Written in place, never zeroed first: the room for escaped slashes is twice what the
    // text mostly takes, and a file of a large drawing is a mapping whose untouched pages
    // never fault.
    return [UInt8](unsafeUninitializedCapacity: max(1, text.count + middle)) { file, count in
      let start = file.baseAddress!
      func append(_ bytes: UnsafeRawBufferPointer) {
        if let base = bytes.baseAddress, !bytes.isEmpty {
          UnsafeMutableRawPointer(start + count).copyMemory(from: base, byteCount: bytes.count)
        }
        count += bytes.count
      }
      count = 0
      text.withUnsafeBytes { text in
        append(UnsafeRawBufferPointer(rebasing: text[..<drawingOffset]))
        switch spelling {
        case .escapedSlashes, .plainSlashes:
          count += drawing.withUnsafeBytes { Base64.encode($0, escapeSlashes: escape, to: start + count) }
        case .verbatim:
          (verbatimBase64 ?? []).withUnsafeBytes { append($0) }
        }
        append(UnsafeRawBufferPointer(rebasing: text[drawingOffset...]))
      }
    }
  }
}
