// Text in the search language made from a value, for what writes a search rather than a person
// typing one (the web grid's tag links): the value double-quoted, so that the parser reads it
// back exactly (SearchParser: a quoted part is literal, never a keyword, a field name, a glob
// or a tag group), whatever it holds.

extension DraftQuery {
  /// `tag:"X"`: the drafts that have exactly the tag `tag` (any case and accents), even one
  /// that ends in `:` or `*` or holds quotes.
  public static func searchText(tag: String) -> String {
    "tag:" + quotedValue(tag)
  }

  /// `text` between double quotes, its `\` and `"` escaped as the search language reads them.
  public static func quotedValue(_ text: String) -> String {
    var quoted = "\""
    for character in text.unicodeScalars {
      if character == "\"" || character == "\\" { quoted.unicodeScalars.append("\\") }
      quoted.unicodeScalars.append(character)
    }
    return quoted + "\""
  }
}
