// `/` and its JSON twin `/api/drafts`: the drafts as a grid of thumbnails, newest first as in
// the app, a page at a time (Archive.draftPage), filtered by the search language (`q`) and by
// dates (`since`, `until`, `on`, as `list` takes them), sorted by `sort`.
//
// Without a script, the last card is followed by a link to the next page; app.js fetches that
// page instead when the link scrolls into view and appends its cards, and runs the search as
// one types (fetching `/` with the new query and swapping the grid).

import InklingArchive
import InklingFormats
import InklingPresentation

enum GridView {
  /// The thumbnail size of the grid's cards (shown at half its pixels on most screens).
  static let thumbnailSize = 256
  /// How many cards a wide first screen shows: their thumbnails are not deferred.
  static let eagerThumbnails = 12

  /// The grid's state from its URL.
  static func state(_ target: RequestTarget) throws(RequestError) -> GridState {
    var state = GridState()
    state.query = target.parameter("q") ?? ""
    if let sort = target.parameter("sort"), !sort.isEmpty {
      guard let parsed = DraftSort(argument: sort) else {
        throw RequestError(400, "the order is newest, oldest, name, versions or stars, not \"\(sort)\"")
      }
      state.sort = parsed
    }
    func date(_ key: String) -> String? { target.parameter(key).flatMap { $0.isEmpty ? nil : $0 } }
    state.since = date("since")
    state.until = date("until")
    state.on = date("on")
    state.after = target.parameter("after").flatMap { $0.isEmpty ? nil : $0 }
    return state
  }

  /// The most drafts the grid counts: past it, the total reads "more than" (a search with
  /// terms counts by reading what matches, so the count is bounded as the pages are).
  static let countLimit = 10_000

  /// How many drafts match, up to `countLimit`, and whether that is all of them.
  struct Total {
    var count: Int
    var exact: Bool

    var html: HTML {
      exact
        ? "\(Plural.count(count, "draft"))"
        : "More than \(Plural.count(countLimit, "draft"))"
    }
  }

  /// The page of drafts a state asks for and how many match in all; a SearchSyntaxError for a
  /// query that does not parse.
  static func drafts(_ state: GridState, in archive: Archive, limit: Int) throws -> (page: DraftPage, total: Total) {
    let matching = try Self.query(state, in: archive)
    let page = try drafts(state, query: matching, in: archive, limit: limit)
    let count = try archive.draftCount(matching: matching, upTo: countLimit)
    return (page, Total(count: min(count, countLimit), exact: count <= countLimit))
  }

  /// The search (`@NAME`: a saved search of the archive) and the date filters of a state, as
  /// one query; a SearchSyntaxError for a search that does not parse.
  static func query(_ state: GridState, in archive: Archive) throws -> DraftQuery {
    let query: DraftQuery
    do {
      query = try archive.query(state.query)
    } catch .searchSyntax(let syntax) {
      throw syntax
    }
    let dates = try DraftQuery(since: state.since, until: state.until, on: state.on)
    return DraftQuery(query.expression && dates.expression)
  }

  static func drafts(_ state: GridState, query: DraftQuery, in archive: Archive, limit: Int) throws -> DraftPage {
    var cursor: DraftPageCursor?
    if let token = state.after {
      guard let parsed = DraftPageCursor(token: token, sort: state.sort) else {
        throw RequestError(400, "the page to continue after (\"after\") is not one this server wrote for this order")
      }
      cursor = parsed
    }
    return try archive.draftPage(matching: query, sort: state.sort, after: cursor, limit: limit)
  }

  // MARK: - HTML

  static func page(_ context: RequestContext) throws -> HTTPResponse {
    let (target, pool, pageSize) = (context.target, context.pool, context.server.pageSize)
    let state = try state(target)
    let title = state.query.isEmpty ? "Drafts" : "Search: \(Escape.isolated(state.query))"
    do {
      let (page, total) = try pool.withArchive { try drafts(state, in: $0, limit: pageSize) }
      return HTTPResponse(
        contentType: HTTPResponse.html,
        body: Layout.page(title: title, search: state, main: grid(page, total: total, state)).bytes)
    } catch let syntax as SearchSyntaxError {
      // The grid's page with the query's caret message in place of the cards.
      // Focusable, as the caret line can be wider than a phone: the keys scroll it.
      return problem(
        title: title, state,
        """
        <h1>The search does not parse</h1>
        <pre tabindex="0" role="region" aria-label="The search, and where it stops reading">\(syntax.description)</pre>
        """)
    } catch let error as ArchiveError {
      // A date the filters cannot read: the grid's page saying so, its form keeping what was
      // typed (app.js shows the same sentence over the results it had).
      let request = RequestError(error)
      guard request.status == 400 else { throw error }
      return problem(title: title, state, "<h1>A filter cannot be read</h1>\n<p>\(request.message)</p>")
    }
  }

  /// The grid's page with `explanation` where the cards would be, as a 400.
  static func problem(title: String, _ state: GridState, _ explanation: HTML) -> HTTPResponse {
    let main: HTML = """
      <section class="problem" id="problem" role="alert">
      \(explanation)
      </section>
      <ul class="grid" id="grid"></ul>
      <nav class="pages" id="pages" aria-label="Pages"></nav>
      \(help)
      """
    return HTTPResponse(
      status: 400, contentType: HTTPResponse.html, body: Layout.page(title: title, search: state, main: main).bytes,
      cache: .none)
  }

  static func grid(_ page: DraftPage, total: Total, _ state: GridState) -> HTML {
    // The first screen's thumbnails load at once; the rest (and every card of a later page,
    // which "More drafts" adds below the fold) when the reader scrolls near them.
    let cards = page.drafts.enumerated().map { index, entry -> HTML in
      let draft = entry.draft
      let loading: HTML = state.after == nil && index < eagerThumbnails ? "" : " loading=\"lazy\""
      return """
        <li class="card"><a href="\(Links.draft(draft.id))"><img src="\(Links.thumbnail(entry.latestVersion, size: thumbnailSize))" width="\(thumbnailSize)" height="\(thumbnailSize)"\(loading) alt=""><bdi class="name">\(Escape.balanced(draft.name))</bdi></a><span class="meta">\(Formatting.time(draft.lastSaved)) · \(Plural.count(draft.versionCount, "version"))</span>\(MarksView.line(stars: draft.stars, tags: draft.tags))</li>
        """
    }
    var next = state
    next.after = page.next?.token
    let more: HTML =
      page.next == nil ? "" : "<a id=\"more\" rel=\"next\" href=\"\(Links.grid(next))\">More drafts</a>"
    let first: HTML =
      state.after == nil ? "" : "<a id=\"first\" href=\"\(Links.grid(state.firstPage))\">First page</a>"
    let empty: HTML =
      page.drafts.isEmpty && state.after == nil ? "<p class=\"empty\" id=\"empty\">No drafts match.</p>" : ""
    let count: HTML = total.count == 0 ? "" : "\(total.html)"
    // The page's heading, for those who move by headings: the bar above already shows where
    // one is, so it is not shown twice.
    return """
      <h1 class="visually-hidden">Drafts</h1>
      <div id="problem"></div>
      <p class="summary count" id="count">\(count)</p>
      \(empty)
      <ul class="grid" id="grid">
      \(cards)
      </ul>
      <nav class="pages" id="pages" aria-label="Pages">\(first)\(more)</nav>
      \(help)
      <p class="twin"><a href="\(Links.apiDrafts(state))">This page as JSON</a></p>
      """
  }

  static let help: HTML = """
    <details class="help"><summary>The search language</summary><pre tabindex="0" role="region" aria-label="The search language">\(SearchParser.helpText)</pre></details>
    """

  // MARK: - JSON

  static func api(_ context: RequestContext) throws -> HTTPResponse {
    let (target, pool, pageSize) = (context.target, context.pool, context.server.pageSize)
    let state = try state(target)
    var limit = pageSize
    let chosen = target.parameter("limit")
    if let text = chosen {
      guard let value = Int(text), (1...Archive.draftPageLimit).contains(value) else {
        throw RequestError(400, "limit is a number of drafts from 1 to \(Archive.draftPageLimit), not \"\(text)\"")
      }
      limit = value
    }
    do {
      let (page, total) = try pool.withArchive { try Self.drafts(state, in: $0, limit: limit) }
      var next = state
      next.after = page.next?.token
      let cards: [JSONValue] = page.drafts.map { entry in
        JSONFields.adding(
          [
            ("id", .int(Int(entry.draft.id.rawValue))), ("url", .string(Links.draft(entry.draft.id).text)),
            ("thumbnail", .string(Links.thumbnail(entry.latestVersion, size: thumbnailSize).text)),
          ], to: entry.draft.json)
      }
      let value: JSONValue = [
        "drafts": .array(cards),
        "next": page.next == nil ? .null : .string(Links.apiDrafts(next, limit: chosen == nil ? nil : limit).text),
        "total": .int(total.count), "totalIsExact": .bool(total.exact),
      ]
      return HTTPResponse(contentType: HTTPResponse.json, body: Escape.json(value))
    } catch let syntax as SearchSyntaxError {
      let value: JSONValue = [
        "error": .string(syntax.description), "status": 400, "query": .string(syntax.query),
        "column": .int(syntax.column), "message": .string(syntax.message),
      ]
      return HTTPResponse(status: 400, contentType: HTTPResponse.json, body: Escape.json(value), cache: .none)
    }
  }
}
