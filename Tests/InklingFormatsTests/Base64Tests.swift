import Foundation
import InklingCorpus
import Testing

@testable import InklingFormats

/// The encoder against Foundation's, at every length around its block and group edges, with
/// and without JSONEncoder's escaped slashes; and the file rebuilt in pieces.
@Suite struct Base64Tests {
  /// Bytes with many `/` in their base64 (0xFF… encodes to slashes), `count` long.
  static func bytes(_ count: Int, seed: Int) -> [UInt8] {
    (0..<count).map { index in index % 5 == 0 ? 0xFF : UInt8(truncatingIfNeeded: (index &* 7919 &+ seed) >> 3) }
  }

  static func expected(_ bytes: [UInt8], escapeSlashes: Bool) -> [UInt8] {
    let text = Array(Data(bytes).base64EncodedString().utf8)
    guard escapeSlashes else { return text }
    return text.flatMap { $0 == UInt8(ascii: "/") ? [UInt8(ascii: "\\"), $0] : [$0] }
  }

  /// Checks every way of encoding `bytes` against Foundation: appended, in pieces, and matched.
  static func check(_ bytes: [UInt8], escapeSlashes: Bool, _ label: String) {
    var output: [UInt8] = [7]
    bytes.withUnsafeBytes { Base64.encode($0, escapeSlashes: escapeSlashes, into: &output) }
    let expected = Self.expected(bytes, escapeSlashes: escapeSlashes)
    #expect(output == [7] + expected, "\(label)")
    var pieces: [UInt8] = []
    bytes.withUnsafeBytes { bytes -> Void in
      Base64.encode(bytes, escapeSlashes: escapeSlashes) { piece in
        pieces.append(contentsOf: piece)
        return true
      }
    }
    #expect(pieces == expected, "\(label) in pieces")
    #expect(
      expected.withUnsafeBytes { text in
        bytes.withUnsafeBytes { Base64.matches($0, escapeSlashes: escapeSlashes, text) }
      }, "\(label) matches")
    if !expected.isEmpty {
      let wrong = Array(expected.dropLast()) + [UInt8(ascii: "*")]
      #expect(
        !wrong.withUnsafeBytes { text in
          bytes.withUnsafeBytes { Base64.matches($0, escapeSlashes: escapeSlashes, text) }
        }, "\(label) does not match a wrong ending")
    }
  }

  @Test(arguments: [false, true])
  func encodesAsFoundationDoes(escapeSlashes: Bool) {
    for count in Array(0...100) + [3071, 3072, 3073, 3074, 6144, 9217, 20_000] {
      Self.check(Self.bytes(count, seed: count), escapeSlashes: escapeSlashes, "\(count) bytes")
    }
  }

  /// The encoder takes six bytes at a time and escapes the slashes of those eight characters
  /// on a slow path: random bytes, bytes that are mostly 0xFF (slashes at every position of
  /// the eight, several at once) and nothing but 0xFF (every character a slash: the escaped
  /// text is twice as long, the most the buffers hold).
  @Test(arguments: [false, true])
  func encodesRandomAndSlashHeavyBytesAsFoundationDoes(escapeSlashes: Bool) {
    var random = SeededRandom(seed: 0xB64)
    for count in Array(0...100) + [1000, 3072, 3078, 6150, 9216, 50_001] {
      let noise = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      Self.check(noise, escapeSlashes: escapeSlashes, "\(count) random bytes")
      let mostlySlashes = (0..<count).map { _ -> UInt8 in
        random.below(4) == 0 ? UInt8(truncatingIfNeeded: random.next()) : 0xFF
      }
      Self.check(mostlySlashes, escapeSlashes: escapeSlashes, "\(count) bytes mostly 0xFF")
      Self.check([UInt8](repeating: 0xFF, count: count), escapeSlashes: escapeSlashes, "\(count) bytes of 0xFF")
    }
  }

  /// The decoder against Foundation's: every length around its eight-character steps, each
  /// slash spelled `/` or `\/` (the spelling reported back), a bad character or escape at
  /// every position refused, and padding misplaced or with bits set.
  @Test func decodesAsFoundationDoes() {
    var random = SeededRandom(seed: 0xDEC)
    for count in Array(0...80) + [3072, 3073, 20_000] {
      let bytes = (0..<count).map { _ -> UInt8 in
        random.below(3) == 0 ? 0xFF : UInt8(truncatingIfNeeded: random.next())
      }
      for escapeSlashes in [false, true] {
        let text = Self.expected(bytes, escapeSlashes: escapeSlashes)
        let decoded = text.withUnsafeBytes { Base64.decodeJSONContent($0) }
        #expect(decoded?.bytes == bytes, "\(count) bytes")
        let hasSlash = text.contains(UInt8(ascii: "/"))
        #expect(decoded?.escapedSlashes == (escapeSlashes || !hasSlash), "\(count) bytes, spelling")
        // One slash spelled plain among escaped ones, wherever it falls in a step: the same
        // bytes, and no spelling gives the text back.
        let backslashes = escapeSlashes ? text.indices.filter { text[$0] == UInt8(ascii: "\\") } : []
        // Every one up to a few thousand; beyond, every 31st, which still falls on every place
        // of the decoder's eight-character step (each mixed text is decoded whole).
        let tried =
          backslashes.count > 2_000
          ? stride(from: 0, to: backslashes.count, by: 31).map { backslashes[$0] } : backslashes
        for backslash in tried.count >= 2 ? tried : [] {
          var mixed = text
          mixed.remove(at: backslash)
          let mixedDecoding = mixed.withUnsafeBytes { Base64.decodeJSONContent($0) }
          #expect(mixedDecoding?.bytes == bytes && mixedDecoding?.escapedSlashes == nil, "\(count): \(backslash)")
        }
        guard count <= 40 else { continue }
        for position in text.indices {
          for bad in [UInt8(ascii: "*"), UInt8(ascii: "\\"), UInt8(ascii: "="), 0x80, 0] {
            var wrong = text
            wrong[position] = bad
            #expect(
              wrong.withUnsafeBytes { Base64.decodeJSONContent($0) }?.bytes == Self.foundationDecoding(wrong),
              "\(count): \(bad) at \(position)")
          }
        }
      }
    }
    // "QR==" has padding bits set: it decodes, but no spelling gives it back.
    let odd = Array("QR==".utf8).withUnsafeBytes { Base64.decodeJSONContent($0) }
    #expect(odd?.bytes == [0x41] && odd?.escapedSlashes == nil)
    for text in ["QQ=", "Q===", "QQ=Q", "=QQQ"] {
      #expect(Array(text.utf8).withUnsafeBytes { Base64.decode($0) } == nil, "\(text)")
    }
  }

  /// What Foundation decodes from JSON string content where `\/` is the one escape allowed,
  /// and padding only at the end.
  static func foundationDecoding(_ content: [UInt8]) -> [UInt8]? {
    var characters: [UInt8] = []
    var index = 0
    while index < content.count {
      if content[index] == UInt8(ascii: "\\") {
        guard index + 1 < content.count, content[index + 1] == UInt8(ascii: "/") else { return nil }
        index += 1
      }
      characters.append(content[index])
      index += 1
    }
    // Stricter than Foundation, which reads past an '=' followed by more characters.
    if let pad = characters.firstIndex(of: UInt8(ascii: "=")),
      characters[pad...].contains(where: { $0 != UInt8(ascii: "=") })
    {
      return nil
    }
    return Data(base64Encoded: Data(characters)).map(Array.init)
  }

  @Test func aFileRebuiltInPiecesIsTheFile() throws {
    let drawing = Self.bytes(10_000, seed: 3)
    let text = Array(#"{"drawingData":"","color":{"r":1}}"#.utf8)
    for spelling in EnvelopeTemplate.Base64Spelling.allCases {
      let verbatim = spelling == .verbatim ? Array("QR==".utf8) : nil
      let template = EnvelopeTemplate(text: text, drawingOffset: 16, spelling: spelling, verbatimBase64: verbatim)
      var pieces: [UInt8] = []
      template.rebuild(drawing: drawing) { pieces.append(contentsOf: $0) }
      #expect(pieces == template.rebuild(drawing: drawing), "\(spelling)")
    }
  }
}
