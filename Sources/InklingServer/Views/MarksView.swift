// A draft's stars and tags as the grid's cards and the draft page show them. The pages only
// read them (they are given on the command line): the stars are glyphs for the eye with the
// same fact as words for a screen reader ("4 of 5 stars"), and each tag is a link to the grid
// of the drafts that have it: the grid's search with `tag:"X"`, its value quoted by the
// library (DraftQuery.searchText), so that any tag, `client:` or `a"b` too, finds itself.

import InklingArchive
import InklingPresentation

enum MarksView {
  /// The stars and tags as one line, or nothing when the draft has neither.
  static func line(stars: Int?, tags: [String]) -> HTML {
    guard stars != nil || !tags.isEmpty else { return .empty }
    var parts: [HTML] = []
    if let stars { parts.append(Self.stars(stars)) }
    if !tags.isEmpty {
      let links = tags.map { tag -> HTML in
        "<li><a class=\"tag\" href=\"\(Links.grid(GridState(query: DraftQuery.searchText(tag: tag))))\">\(name: tag)</a></li>"
      }
      // Named by text, as the stars are: an aria-label on a list is one some readers skip.
      parts.append("<span class=\"visually-hidden\">Tags:</span><ul class=\"tags\">\(links)</ul>")
    }
    return "<div class=\"marks\">\(parts)</div>"
  }

  /// `★★★★` for the eye, "4 of 5 stars" for a screen reader.
  static func stars(_ stars: Int) -> HTML {
    let words = "\(stars) of 5 stars"
    return """
      <span class="stars" title="\(attribute: words)"><span aria-hidden="true">\(Format.stars(stars))</span><span class="visually-hidden">\(words)</span></span>
      """
  }
}
