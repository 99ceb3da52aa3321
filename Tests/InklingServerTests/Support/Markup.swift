import Foundation

/// Just enough reading of the server's HTML for tests: attribute values and text, entities decoded.
enum Markup {
  /// The values of every `name="…"` attribute, in order, entities decoded.
  static func attributes(_ name: String, in html: String) -> [String] {
    matches(#"\s\#(name)="([^"]*)""#, in: html).map(unescape)
  }

  /// The `href`s of the links whose element has `id="…"`.
  static func link(id: String, in html: String) -> String? {
    matches(#"<a id="\#(id)"[^>]* href="([^"]*)""#, in: html).first.map(unescape)
  }

  /// The texts of the elements whose class is `className` (no nested tags of the same name).
  static func texts(ofClass className: String, in html: String) -> [String] {
    matches(#"class="\#(className)"[^>]*>([^<]*)<"#, in: html).map(unescape)
  }

  /// `<li class="card">` items of the grid.
  static func cardCount(_ html: String) -> Int { html.components(separatedBy: "<li class=\"card\">").count - 1 }

  /// Text as the server escapes it (the five characters of Escape.text).
  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
      .replacingOccurrences(of: "'", with: "&#39;")
  }

  static func unescape(_ text: String) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
      .replacingOccurrences(of: "&amp;", with: "&")
  }

  private static func matches(_ pattern: String, in text: String) -> [String] {
    let regex = try! NSRegularExpression(pattern: pattern)
    let range = NSRange(text.startIndex..., in: text)
    return regex.matches(in: text, range: range).compactMap { match in
      Range(match.range(at: 1), in: text).map { String(text[$0]) }
    }
  }
}
