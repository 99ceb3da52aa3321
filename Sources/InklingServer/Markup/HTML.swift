// HTML: markup built by string interpolation in which every interpolated value is escaped by
// its type, so that no page concatenates a value into markup by hand:
//
//     let card: HTML = "<a href=\"\(Links.draft(name))\" title=\"\(attribute: name)\">\(name)</a>"
//
//   \(text)             a String, escaped as HTML text (Escape.text)
//   \(attribute: text)  a String in a double-quoted attribute (Escape.attribute)
//   \(name: text)       a name (of a draft, a file, an ink) as HTML text, isolated in <bdi>
//   \(attributeName: t) a name in an attribute people read (alt, title), isolated (FSI…PDI)
//   \(url)              a URLReference (made only by Links, its components already encoded),
//                       escaped as an attribute: URLs only ever go into href/src/action
//   \(number)           an Int
//   \(html), \(list)    markup made the same way, inserted as it is
// The literal parts are the program's own markup.

/// A piece of markup whose values were escaped when it was made.
struct HTML: ExpressibleByStringInterpolation, Sendable {
  private(set) var markup: String

  init(stringLiteral value: String) { markup = value }

  init(stringInterpolation: StringInterpolation) { markup = stringInterpolation.markup }

  /// Nothing.
  static let empty: HTML = ""

  /// The pieces one after another.
  init(joining pieces: [HTML]) { markup = pieces.map(\.markup).joined() }

  var bytes: [UInt8] { Array(markup.utf8) }

  struct StringInterpolation: StringInterpolationProtocol {
    var markup = ""

    init(literalCapacity: Int, interpolationCount: Int) {
      markup.reserveCapacity(literalCapacity + interpolationCount * 16)
    }

    mutating func appendLiteral(_ literal: String) { markup += literal }
    mutating func appendInterpolation(_ text: String) { markup += Escape.text(text) }
    mutating func appendInterpolation(attribute text: String) { markup += Escape.attribute(text) }
    mutating func appendInterpolation(name text: String) {
      markup += "<bdi>" + Escape.text(Escape.balanced(text)) + "</bdi>"
    }
    mutating func appendInterpolation(attributeName text: String) { markup += Escape.attribute(Escape.isolated(text)) }
    mutating func appendInterpolation(_ url: URLReference) { markup += Escape.attribute(url.text) }
    mutating func appendInterpolation(_ number: Int) { markup += String(number) }
    mutating func appendInterpolation(_ html: HTML) { markup += html.markup }
    mutating func appendInterpolation(_ list: [HTML]) { for html in list { markup += html.markup } }
  }
}
