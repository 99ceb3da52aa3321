import Foundation
import Testing

@testable import InklingFormats

@Suite struct DraftEnvelopeTests {
  struct DraftFile: Codable {
    let drawingData: Data
    let color: RGBA
    struct RGBA: Codable { let r: Double, g: Double, b: Double, a: Double }
  }

  /// Bytes whose base64 holds several `/` characters.
  let drawing: [UInt8] = (0..<300).map { UInt8(($0 * 7919 + 63) % 256) } + [0xFF, 0xFF, 0xFF, 0xFC]

  func encode(_ options: JSONEncoder.OutputFormatting, color: DraftFile.RGBA) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = options
    return Array(try encoder.encode(DraftFile(drawingData: Data(drawing), color: color)))
  }

  @Test(arguments: [
    JSONEncoder.OutputFormatting(), .prettyPrinted, .sortedKeys, .withoutEscapingSlashes,
    [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes],
  ])
  func rebuildsWhatJSONEncoderWrites(options: JSONEncoder.OutputFormatting) throws {
    let color = DraftFile.RGBA(r: 1.0393, g: -0.0123, b: 0.50000000000000011, a: 1)
    let file = try encode(options, color: color)
    let envelope = try DraftEnvelope.parse(file)
    #expect(envelope.drawing == drawing)
    #expect(envelope.background == RGBA(red: 1.0393, green: -0.0123, blue: 0.50000000000000011, alpha: 1))
    #expect(envelope.template.rebuild(drawing: envelope.drawing) == file)
    #expect(envelope.template.spelling != .verbatim)
  }

  @Test func keepsUnknownKeysNumberFormsAndOddSpellingsExactly() throws {
    let base64 = Data(drawing).base64EncodedString()
    let texts = [
      #"{"future":{"x":[1,2,{"y":null}],"z":"\u00e9"},"color":{"a":1,"b":1.0,"g":5e-1,"r":0.50000000000000011},"drawingData":"\#(base64)"}"#,
      "\u{FEFF}{ \"drawingData\" : \"\(base64)\" ,\n\t\"color\" : { \"r\" : 0, \"g\" : 0, \"b\" : 0, \"a\" : 1 } }\n",
      // A \u escape inside the base64 text: valid JSON, but not a spelling we rebuild.
      #"{"color":{"r":0,"g":0,"b":0,"a":1},"drawingData":"\#(base64.replacingOccurrences(of: "A", with: "\\u0041"))"}"#,
    ]
    for text in texts {
      let file = Array(text.utf8)
      let envelope = try DraftEnvelope.parse(file)
      #expect(envelope.drawing == drawing)
      #expect(envelope.template.rebuild(drawing: envelope.drawing) == file)
    }
  }

  @Test func keepsMixedSlashSpellingsVerbatim() throws {
    // "////" decodes to FF FF FF; one slash escaped and three not is no encoder's spelling.
    let file = Array(#"{"drawingData":"\////","color":{"r":1,"g":1,"b":1,"a":1}}"#.utf8)
    let envelope = try DraftEnvelope.parse(file)
    #expect(envelope.drawing == [0xFF, 0xFF, 0xFF])
    #expect(envelope.template.spelling == .verbatim)
    #expect(envelope.template.rebuild(drawing: envelope.drawing) == file)
  }

  @Test func keepsNonCanonicalBase64Verbatim() throws {
    // "QR==" decodes to 0x41 like "QQ==", but has padding bits set: only verbatim rebuilds it.
    let file = Array(#"{"drawingData":"QR==","color":{"r":1,"g":1,"b":1,"a":1}}"#.utf8)
    let envelope = try DraftEnvelope.parse(file)
    #expect(envelope.drawing == [0x41])
    #expect(envelope.template.spelling == .verbatim)
    #expect(envelope.template.rebuild(drawing: envelope.drawing) == file)
  }

  @Test(arguments: [
    ("", "the file is empty"),
    (
      "{\"drawingData\":\"QQ==\"",
      "the file is incomplete (its JSON stops in the middle, after 21 bytes), as a download or copy still in progress leaves it; let it finish, then import it again"
    ),
    ("hello", "not an Inkling draft: the file is not a JSON object"),
    ("[1,2]", "not an Inkling draft: the file is not a JSON object"),
    (#"{"color":{"r":1,"g":1,"b":1,"a":1}}"#, "the key drawingData is missing"),
    (#"{"drawingData":"QQ=="}"#, "the key color is missing"),
    (#"{"drawingData":5,"color":{"r":1,"g":1,"b":1,"a":1}}"#, "drawingData is a number, not a base64 string"),
    (#"{"drawingData":"Q Q==","color":{"r":1,"g":1,"b":1,"a":1}}"#, "drawingData is not valid base64"),
    (#"{"drawingData":"QQ=","color":{"r":1,"g":1,"b":1,"a":1}}"#, "drawingData is not valid base64"),
    (#"{"drawingData":"QQ==","color":{"r":"1","g":1,"b":1,"a":1}}"#, "color.r is a string, not a number"),
    (#"{"drawingData":"QQ==","color":{"r":1,"g":1,"b":1}}"#, "color has no a component"),
    (#"{"drawingData":"QQ==","color":[1,1,1,1]}"#, "color is an array, not an object with r, g, b and a"),
    (
      #"{"drawingData":"QQ==","color":{"r":1e999,"g":1,"b":1,"a":1}}"#,
      "not an Inkling draft: invalid JSON: the number 1e999 is too large for a Double at byte 35"
    ),
    (
      #"{"drawingData":"QQ==","color":{"r":01,"g":1,"b":1,"a":1}}"#,
      "not an Inkling draft: invalid JSON: a number with a leading zero at byte 35"
    ),
    (
      #"{"drawingData":"QQ==","color":{"r":1,"g":1,"b":1,"a":1}} x"#,
      "not an Inkling draft: unexpected text after the JSON object at byte 57"
    ),
  ])
  func refusesBadInputWithAReason(text: String, reason: String) {
    #expect(throws: EnvelopeError(reason: reason)) { try DraftEnvelope.parse(Array(text.utf8)) }
  }

  @Test func refusesNonUTF8AndDeepNesting() {
    #expect(throws: EnvelopeError(reason: "not an Inkling draft: the file is not UTF-8 text")) {
      try DraftEnvelope.parse([0x7B, 0xFF, 0x7D])
    }
    let deep = "{\"x\":" + String(repeating: "[", count: 100_000) + "}"
    #expect(throws: EnvelopeError.self) { try DraftEnvelope.parse(Array(deep.utf8)) }
  }
}
