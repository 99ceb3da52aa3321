// The shell of every page: head (stylesheet, script, icon), the bar with the search form, and
// the main content. The search form is a plain GET form to the grid, so it works without the
// script; app.js only makes it live.

import InklingArchive

enum Layout {
  static func page(title: String, search: GridState = GridState(), main: HTML) -> HTML {
    document(
      title: title,
      head: """
        <link rel="stylesheet" href="\(Links.asset(StaticAssets.style))">
        <link rel="icon" href="\(Links.asset(StaticAssets.icon))" type="image/svg+xml">
        <script src="\(Links.asset(StaticAssets.script))" defer></script>

        """,
      bar: """
        <header class="bar">
        <a class="home" href="\(Links.grid(GridState()))">Drafts</a>
        \(searchForm(search))
        <a class="trash-link" href="\(Links.trash)">Trash</a>
        </header>

        """,
      main: main)
  }

  /// A page for an answer given before the request's token is known to be good (a 401, a
  /// target that does not read): none of the bar's links, stylesheet or script would be let in
  /// without it, so it has none; only what was wrong.
  static func standalone(title: String, main: HTML) -> HTML {
    document(title: title, head: "", bar: "", main: main)
  }

  /// What both shapes of page share; `head` and `bar` end with a line break when not empty.
  private static func document(title: String, head: HTML, bar: HTML, main: HTML) -> HTML {
    """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>\(title) · inkling-archive</title>
    \(head)</head>
    <body>
    \(bar)<main>
    \(main)
    </main>
    </body>
    </html>

    """
  }

  static func searchForm(_ state: GridState) -> HTML {
    let sorts: [HTML] = DraftSort.allCases.map { sort in
      let label =
        switch sort {
        case .newest: "Newest first"
        case .oldest: "Oldest first"
        case .name: "By name"
        case .versions: "Most versions"
        case .stars: "Most stars"
        }
      let selected: HTML = state.sort == sort ? " selected" : ""
      return "<option value=\"\(attribute: sort.rawValue)\"\(selected)>\(label)</option>"
    }
    return """
      <form class="search" id="search" action="\(Links.grid(GridState()))" method="get" role="search">
      <input type="search" name="q" id="q" value="\(attribute: state.query)" placeholder="Search: name:cat saved:>=2025-10 strokes:>100" autocomplete="off" spellcheck="false" aria-label="Search drafts">
      <select name="sort" id="sort" aria-label="Order">\(sorts)</select>
      <input type="text" name="since" id="since" value="\(attribute: state.since ?? "")" placeholder="since" size="10" aria-label="Saved since (2025-10-05, 2025-10, 7d)">
      <input type="text" name="until" id="until" value="\(attribute: state.until ?? "")" placeholder="until" size="10" aria-label="Saved until">
      <button type="submit">Search</button>
      </form>
      """
  }
}
