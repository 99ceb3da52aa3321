import Foundation
import InklingFormats
import Testing

@Suite struct JSONWriterTests {
  let compact = JSONWriter()

  /// The escaping itself is JSONString's (InklingFormatsTests' JSONStringTests).
  @Test func stringsAreEscapedAsJSONStringEscapesThem() {
    let text = "a\"b\\c/\n\u{1B}\u{7F}\u{2028} é😀"
    #expect(compact.string(.string(text)) == JSONString.quoted(text))
    #expect(JSONWriter(escapesNonASCII: true).string(.string(text)) == JSONString.quoted(text, escapingNonASCII: true))
  }

  @Test func bytesThatAreNotUTF8BecomeReplacementCharacters() {
    #expect(JSONValue.string(lossyUTF8: [0x66, 0xFF, 0x6F, 0xC3]) == .string("f\u{FFFD}o\u{FFFD}"))
  }

  @Test func numbers() {
    let values: [JSONValue] = [
      .int(42), .int(-7), .int(Int.max), .double(0.1), .double(3), .double(-0.5), .double(1e-5),
      .double(1e300), .double(.nan), .double(.infinity), .double(-.infinity), .double(2.0 / 3.0),
    ]
    #expect(
      compact.string(.array(values))
        == "[42,-7,9223372036854775807,0.1,3.0,-0.5,1e-05,1e+300,null,null,null,0.6666666666666666]"
    )
  }

  @Test func doublesRoundTrip() throws {
    for value in [
      0.1, 2.0 / 3.0, 1e-5, 123456.789, .pi, Double.leastNonzeroMagnitude,
      Double.greatestFiniteMagnitude,
    ] {
      let text = compact.string(.double(value))
      #expect(Double(text) == value, "\(text)")
      // …and is a JSON number Foundation's parser accepts.
      let parsed =
        try JSONSerialization.jsonObject(with: Data("[\(text)]".utf8), options: []) as? [Double]
      #expect(parsed == [value])
    }
  }

  @Test func datesAreISO8601UTC() {
    let dates: [(TimeInterval, String)] = [
      (0, "1970-01-01T00:00:00Z"),
      (1_759_673_002, "2025-10-05T14:03:22Z"),
      // Milliseconds when a date has some, truncated: never later than it is.
      (1_759_673_002.999, "2025-10-05T14:03:22.999Z"), (1_759_673_002.3, "2025-10-05T14:03:22.300Z"),
      (1_759_673_002.9999, "2025-10-05T14:03:22.999Z"),
      (-1, "1969-12-31T23:59:59Z"),
      (951_782_400, "2000-02-29T00:00:00Z"),
      (4_102_444_800, "2100-01-01T00:00:00Z"),
    ]
    for (interval, expected) in dates {
      #expect(compact.string(.date(Date(timeIntervalSince1970: interval))) == "\"\(expected)\"")
    }
    let precise = JSONWriter(fractionalSeconds: true)
    #expect(
      precise.string(.date(Date(timeIntervalSince1970: 1_759_673_002.25)))
        == #""2025-10-05T14:03:22.250Z""#)
    #expect(
      precise.string(.date(Date(timeIntervalSince1970: -0.5))) == #""1969-12-31T23:59:59.500Z""#)
  }

  @Test func objectsKeepKeyOrder() {
    let value: JSONValue = [
      "zebra": 1, "apple": "a", "mid": [true, false, nil], "empty": [:], "none": [],
    ]
    #expect(
      compact.string(value)
        == #"{"zebra":1,"apple":"a","mid":[true,false,null],"empty":{},"none":[]}"#)
  }

  @Test func prettyPrinting() {
    let value: JSONValue = [
      "name": "Cat",
      "versions": [["number": 1, "saved": .date(Date(timeIntervalSince1970: 0))]],
      "tags": [],
    ]
    #expect(
      JSONWriter(prettyPrinted: true).string(value) == """
        {
          "name": "Cat",
          "versions": [
            {
              "number": 1,
              "saved": "1970-01-01T00:00:00Z"
            }
          ],
          "tags": []
        }
        """)
  }

  @Test func ndjsonLinesAreCompactEvenWhenPretty() {
    let writer = JSONWriter(prettyPrinted: true)
    let lines = [JSONValue](arrayLiteral: ["n": 1, "s": "a\nb"], ["n": 2, "s": .null]).map(
      writer.line
    ).joined()
    #expect(lines == "{\"n\":1,\"s\":\"a\\nb\"}\n{\"n\":2,\"s\":null}\n")
  }

  @Test func outputParsesBackWithFoundation() throws {
    let text = "\u{00}\u{1F}\"\\ é😀 \u{2028}"
    let json = compact.string(["k": .string(text)])
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
    #expect(object == ["k": text])
  }
}
