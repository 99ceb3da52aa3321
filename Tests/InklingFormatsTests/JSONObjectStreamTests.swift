import InklingFormats
import Testing

/// A JSON object written piece by piece is what the writer writes for it held whole (the
/// export manifest and `list --json` write theirs so), apart from the line breaks asked for.
@Suite struct JSONObjectStreamTests {
  let drafts: [JSONValue] = [
    ["name": "Plan-B", "versions": 3, "tags": ["a", "b"]],
    ["name": "Caf\u{E9} \"quoted\"\n", "versions": 1, "stars": nil],
  ]

  /// The object as a stream writes it: two members, then `drafts` element by element.
  func streamed(_ stream: inout JSONObjectStream, _ elements: [JSONValue]) -> String {
    var text = stream.member("manifest", "test") + stream.member("version", 1) + stream.beginArray("drafts")
    for element in elements { text += stream.element(element) }
    return text + stream.endArray() + stream.end()
  }

  @Test func compactItIsWhatTheWriterWritesForTheWholeObject() {
    for elements in [drafts, [drafts[0]], []] {
      var stream = JSONObjectStream()
      let whole: JSONValue = ["manifest": "test", "version": 1, "drafts": .array(elements)]
      #expect(streamed(&stream, elements) == JSONWriter().string(whole))
    }
  }

  @Test func onLinesEachElementAndTheClosingBracketStartALine() {
    var stream = JSONObjectStream(elementsOnLines: true)
    let writer = JSONWriter()
    #expect(
      streamed(&stream, drafts)
        == #"{"manifest":"test","version":1,"drafts":["# + "\n" + writer.string(drafts[0]) + ",\n"
        + writer.string(drafts[1]) + "\n]}")
    var empty = JSONObjectStream(elementsOnLines: true)
    #expect(streamed(&empty, []) == #"{"manifest":"test","version":1,"drafts":["# + "\n]}")
  }

  @Test func valuesAreWrittenAsTheWriterGivenWritesThem() {
    var stream = JSONObjectStream(writer: JSONWriter(prettyPrinted: true, escapesNonASCII: true))
    let text = stream.member("name", "Caf\u{E9}") + stream.end()
    // Compact whatever the writer says (a stream holds no indentation), its escaping kept.
    #expect(text == #"{"name":"Caf\u00e9"}"#)
    var nothing = JSONObjectStream()
    #expect(nothing.end() == "{}")
  }
}
