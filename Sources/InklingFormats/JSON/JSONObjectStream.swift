// JSONObjectStream: one JSON object written a piece at a time, for documents whose arrays are
// too long to hold whole (an export's manifest lists every file written; `list --json` every
// draft found). Each piece is returned as text for the caller to write where it writes.
//
//     var stream = JSONObjectStream()
//     out += stream.member("version", 1)
//     out += stream.beginArray("files")
//     for file in files { out += stream.element(file.json) }
//     out += stream.endArray() + stream.end()
//
// Invariants:
//   1. Every value and key is written by `JSONWriter` (compact), so the text is what
//      `JSONWriter` writes for the same object held whole, apart from the line breaks that
//      `elementsOnLines` asks for: one before each element and one before each array's `]`,
//      so that a long list reads and compares one entry a line.
//   2. The pieces are asked for in the order of the text: members and arrays, each array's
//      elements between its begin and end, then `end()`. Anything else is our own bug, which
//      a precondition stops rather than writing text that is not JSON.

package struct JSONObjectStream: Sendable {
  private let writer: JSONWriter
  private let elementsOnLines: Bool
  private var members = 0
  /// How many elements the open array has, or nil when none is open.
  private var elements: Int?
  private var ended = false

  /// A stream writing values as `writer` does (always compact: it holds no indentation).
  package init(writer: JSONWriter = JSONWriter(), elementsOnLines: Bool = false) {
    var compact = writer
    compact.prettyPrinted = false
    self.writer = compact
    self.elementsOnLines = elementsOnLines
  }

  /// One member written whole: `{"key":value` for the first, `,"key":value` after.
  package mutating func member(_ key: String, _ value: JSONValue) -> String {
    memberStart(key) + writer.string(value)
  }

  /// The start of a member whose value is an array, up to its `[`.
  package mutating func beginArray(_ key: String) -> String {
    let text = memberStart(key) + "["
    elements = 0
    return text
  }

  /// One element of the open array, with the comma (and line break) before it.
  package mutating func element(_ value: JSONValue) -> String {
    precondition(elements != nil, "an element outside an array (invariant 2)")
    let separator = elements == 0 ? "" : ","
    elements! += 1
    return separator + (elementsOnLines ? "\n" : "") + writer.string(value)
  }

  /// The end of the open array.
  package mutating func endArray() -> String {
    precondition(elements != nil, "an array ended that was not begun (invariant 2)")
    elements = nil
    return elementsOnLines ? "\n]" : "]"
  }

  /// The end of the object (`{}` when it has no member).
  package mutating func end() -> String {
    precondition(elements == nil && !ended, "the object ended twice or inside an array (invariant 2)")
    ended = true
    return members == 0 ? "{}" : "}"
  }

  private mutating func memberStart(_ key: String) -> String {
    precondition(elements == nil && !ended, "a member inside an array or after the end (invariant 2)")
    members += 1
    return (members == 1 ? "{" : ",") + writer.string(.string(key)) + ":"
  }
}
