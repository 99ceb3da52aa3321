// `/draft?id=D` (or `?name=N`) and its JSON twin `/api/draft?id=D`: one draft's history as a timeline
// (Fossil's timeline.c): newest first, each version's thumbnail, save date, strokes added and
// removed against the version before, background swatch, "same drawing as #K", and a
// download of its original file. `&version=K` shows one version instead (VersionView).
// A draft saved thousands of times is shown a page of versions at a time (`&upto=N`: version N
// and the older ones below it), so that the page's size does not grow with its history.

import InklingArchive
import InklingFormats
import InklingPresentation

enum DraftView {
  static let thumbnailSize = 256
  /// How many of the newest versions' thumbnails a first screen of the timeline can show.
  static let eagerThumbnails = 6
  /// How many versions one page of the timeline lists.
  static let versionsPerPage = 200

  /// The draft the URL names: by `id` (the pages' links), else by `name` (an address typed).
  static func reference(_ target: RequestTarget) throws(RequestError) -> DraftReference {
    if let text = target.parameter("id") {
      guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
        let id = Int64(text)
      else { throw RequestError(400, "a draft's id is a whole number, not \"\(text)\"") }
      return .id(DraftID(rawValue: id))
    }
    guard let name = target.parameter("name"), !name.isEmpty else {
      throw RequestError(400, "which draft? The address needs ?id=ID or ?name=NAME")
    }
    return .name(name)
  }

  /// The version number from the URL, if one is asked for.
  static func versionNumber(_ target: RequestTarget) throws(RequestError) -> Int? {
    guard let text = target.parameter("version") else { return nil }
    guard let number = Int(text), number >= 1 else {
      throw RequestError(400, "a version is a number from 1, not \"\(text)\"")
    }
    return number
  }

  /// The newest version a page of the timeline lists (`upto`), when the address asks for one
  /// (the archive holds it to the draft's versions).
  static func newestShown(_ target: RequestTarget) throws(RequestError) -> Int? {
    guard let text = target.parameter("upto") else { return nil }
    guard let number = Int(text), number >= 1 else {
      throw RequestError(400, "upto is a version's number from 1, not \"\(text)\"")
    }
    return number
  }

  static func page(_ context: RequestContext) throws -> HTTPResponse {
    let (target, pool, archive) = (context.target, context.pool, context.server.commandArchive)
    let reference = try reference(target)
    if let number = try versionNumber(target) {
      return try VersionView.page(reference, number: number, pool: pool, commands: archive)
    }
    let upto = try newestShown(target)
    // Only the page's versions are read: a draft saved thousands of times costs what one
    // page of it does.
    let draft = try pool.withArchive { try $0.timelinePage(of: reference, newest: upto, count: versionsPerPage) }
    let marks = try pool.withArchive { try $0.annotations(ofDraft: draft.name) }
    let draftName = draft.name
    guard let newest = draft.versions.last, let firstSaved = draft.firstSaved, let lastSaved = draft.lastSaved else {
      var error = RequestError(404, "\u{201C}\(Escape.isolated(draftName))\u{201D} has no versions")
      error.jsonMessage = "\u{201C}\(draftName)\u{201D} has no versions"
      throw error
    }
    let versionCount = draft.versionCount
    let shown = (draft.versions.first?.version.number ?? 1)...newest.version.number
    // The newest versions' thumbnails load at once; those further down (a page holds
    // hundreds of saves) as the reader scrolls near them.
    let entries = draft.versions.reversed().enumerated().map { index, version in
      entry(draft.id, version, trash: draft.deleted != nil, lazy: index >= eagerThumbnails, shown: shown)
    }
    let main: HTML = """
      <nav class="crumbs" aria-label="Breadcrumb"><a href="\(Links.grid(GridState()))">Drafts</a></nav>
      <h1>\(name: draftName)</h1>
      \(MarksView.line(stars: marks.stars, tags: marks.tags))
      \(TrashView.banner(name: draftName, deleted: draft.deleted, archive: archive))
      \(TimelapseView.section(draft))
      <p class="summary">\(Plural.count(versionCount, "version")), first saved \(Formatting.time(firstSaved)), last saved \(Formatting.time(lastSaved))</p>
      \(notes(draft.notes, heading: "Notes"))
      <p class="file"><a class="download" href="\(Links.zip(draft.id))" download>Download all \(Plural.count(versionCount, "version")) as a zip</a> (\(Format.bytes(draft.filesSize)) of files)</p>
      \(pages(draft.id, shown: shown, versionCount: versionCount, where: "top"))
      <ol class="timeline" id="timeline" reversed start="\(shown.upperBound)">
      \(entries)
      </ol>
      \(pages(draft.id, shown: shown, versionCount: versionCount, where: "bottom"))
      <p class="twin"><a href="\(Links.apiDraft(draft.id))">This page as JSON</a></p>
      """
    return HTTPResponse(
      contentType: HTTPResponse.html, body: Layout.page(title: Escape.isolated(draftName), main: main).bytes)
  }

  /// The links to the newer and older pages of a timeline that does not fit on one; nothing
  /// when it does.
  static func pages(_ draft: DraftID, shown: ClosedRange<Int>, versionCount: Int, where place: String) -> HTML {
    guard versionCount > versionsPerPage else { return "" }
    let newer: HTML =
      shown.upperBound < versionCount
      ? "<a rel=\"prev\" href=\"\(Links.draft(draft, upto: min(versionCount, shown.upperBound + versionsPerPage)))\">Newer versions</a>"
      : ""
    let older: HTML =
      shown.lowerBound > 1
      ? "<a rel=\"next\" href=\"\(Links.draft(draft, upto: shown.lowerBound - 1))\">Older versions</a>" : ""
    return """
      <nav class="pages" aria-label="Versions, \(place)"><p>Versions \(shown.upperBound) to \(shown.lowerBound) of \(versionCount)</p>\(newer) \(older)</nav>
      """
  }

  static func entry(
    _ draft: DraftID, _ entry: TimelineEntry, trash: Bool, lazy: Bool = false, shown: ClosedRange<Int>? = nil
  ) -> HTML {
    let version = entry.version
    let number = version.number
    let same: HTML =
      version.sameDrawingAs.map { same -> HTML in
        // The version it repeats may be on an older page of the timeline.
        let link: HTML =
          shown.map { $0.contains(same) } ?? true ? "#v\(same)" : "\(Links.draft(draft, upto: same, anchor: same))"
        return "<p class=\"same\">Same drawing as <a href=\"\(link)\">#\(same)</a></p>"
      } ?? ""
    let compare: HTML =
      number > 1
      ? "<p class=\"compare\"><a href=\"\(Links.compare(draft, from: number - 1, to: number))\">Compare with version \(number - 1)</a></p>"
      : ""
    let loading: HTML = lazy ? " loading=\"lazy\"" : ""
    let savedFrom: HTML = version.savedFromFileName ? "" : " <span class=\"note\">(the file's modification time)</span>"
    return """
      <li class="entry" id="v\(number)">
      <a class="thumb" href="\(Links.version(draft, number: number))"><img src="\(Links.thumbnail(entry.id, size: thumbnailSize, trash: trash))" width="\(thumbnailSize)" height="\(thumbnailSize)"\(loading) alt="Version \(number)"></a>
      <div class="facts">
      <h2><a href="\(Links.version(draft, number: number))">Version \(number)</a>\(labels(version.labels))</h2>
      <p class="saved">Saved \(Formatting.time(version.saved))\(savedFrom)</p>
      <p class="changes">\(changes(entry.changes, strokes: version.strokeCount, first: number == 1))</p>
      <p class="background">\(swatch(version.background)) Background \(Format.color(version.background))</p>
      \(same)
      \(compare)
      <p class="file">\(download(entry.id, version))</p>
      \(notes(version.notes, heading: nil))
      </div>
      </li>
      """
  }

  /// A version's labels after its title, each isolated (they are text from the archive);
  /// nothing when it has none.
  static func labels(_ labels: [String]) -> HTML {
    guard !labels.isEmpty else { return "" }
    let items = labels.map { label -> HTML in "<span class=\"label\">\(name: label)</span>" }
    return " \(HTML(joining: items.enumerated().map { $0.offset == 0 ? $0.element : " \($0.element)" }))"
  }

  /// Notes as a list, each with when it was written (the text escaped, its line breaks
  /// kept by the style sheet's `pre-line`); nothing when there are none. With `heading`, a
  /// section of its own (the draft's notes), else a list inside a version's entry.
  static func notes(_ notes: [DraftNote], heading: String?) -> HTML {
    guard !notes.isEmpty else { return "" }
    let items = notes.map { note -> HTML in
      "<li><p class=\"note-text\">\(note.text)</p> <p class=\"note-written\">Note \(Int(note.id)), written \(Formatting.time(note.written))</p></li>"
    }
    let list: HTML = "<ul class=\"notes\">\(items)</ul>"
    guard let heading else { return list }
    return "<section class=\"notes\" aria-label=\"\(attribute: heading)\"><h2>\(heading)</h2>\(list)</section>"
  }

  /// "+12 added, −3 removed, 2 erased" (the counts that are not zero), or why there are no counts.
  static func changes(_ changes: StrokeChanges?, strokes: Int?, first: Bool) -> HTML {
    guard let changes else {
      return "<span class=\"note\">The drawing cannot be compared (not indexed, or it does not decode)</span>"
    }
    var parts: [HTML] = []
    if first {
      parts.append("\(Plural.count(changes.added, "stroke"))")
    } else {
      // Only what changed: "−0 removed" on every version that only adds is noise.
      if changes.added > 0 { parts.append("<span class=\"added\">+\(changes.added) added</span>") }
      if changes.removed > 0 { parts.append("<span class=\"removed\">−\(changes.removed) removed</span>") }
      if changes.hidden > 0 { parts.append("\(changes.hidden) erased") }
      if changes.unhidden > 0 { parts.append("\(changes.unhidden) brought back") }
      if changes.partlyErased > 0 { parts.append("\(changes.partlyErased) partly erased") }
      if parts.isEmpty { parts.append("no strokes changed") }
    }
    if let strokes, !first { parts.append("\(Plural.count(strokes, "stroke")) in all") }
    return HTML(joining: parts.enumerated().map { $0.offset == 0 ? $0.element : ", \($0.element)" })
  }

  static func swatch(_ color: RGBA) -> HTML {
    "<img class=\"swatch\" src=\"\(Links.swatch(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha))\" width=\"14\" height=\"14\" alt=\"\">"
  }

  /// The version's file to download, and when the draft was renamed since, that the file
  /// keeps the name it was saved under (restore gives it back byte for byte, name included).
  static func download(_ id: VersionID, _ version: VersionInfo) -> HTML {
    let link: HTML = """
      <a class="download" href="\(Links.file(id))" download="\(attribute: version.fileName)">Download \(name: version.fileName)</a> (\(Format.bytes(version.fileSize)))
      """
    guard let saved = DraftFileName(version.fileName),
      saved.draftName != DraftFileName.canonicalName(DraftFileName.safeName(version.draftName))
    else { return link }
    return """
      \(link) <span class="note renamed">the original file name: the draft was called \(name: saved.draftName) when this was saved</span>
      """
  }

  // MARK: - JSON

  static func api(_ context: RequestContext) throws -> Answer<ViewWork> {
    let (target, pool, server) = (context.target, context.pool, context.server)
    let (strokesPerPage, fullPaths) = (server.strokesPerPage, server.fullPaths)
    let reference = try reference(target)
    if let number = try versionNumber(target) {
      guard target.parameter("strokes") == "1" else {
        return .now(try VersionView.api(reference, number: number, strokes: nil, fullPaths: fullPaths, pool: pool))
      }
      let from = try VersionFiles.integer(target, "strokesFrom", fallback: 0)
      guard from >= 0 else { throw RequestError(400, "strokesFrom is 0 or more, not \(from)") }
      return .later {
        try VersionView.api(
          reference, number: number, strokes: (from, strokesPerPage), fullPaths: fullPaths, pool: pool)
      }
    }
    let draft = try pool.withArchive { try $0.timeline(of: reference) }
    let marks = try pool.withArchive { try $0.annotations(ofDraft: draft.name) }
    // The time-lapse's marks need the drawings decoded: work for the queue.
    return .later {
      var value: JSONValue = [
        "draft": .string(draft.name),
        "versions": .array(
          draft.versions.map {
            JSONFields.version($0, draft: draft.id, trash: draft.deleted != nil, fullPaths: fullPaths)
          }),
        "draftID": .int(Int(draft.id.rawValue)),
        "timelapse": TimelapseView.json(draft, server: server),
      ]
      if !draft.notes.isEmpty { value = JSONFields.adding([("notes", .array(draft.notes.map(\.json)))], to: value) }
      if let deleted = draft.deleted { value = JSONFields.adding([("deleted", .date(deleted))], to: value) }
      if let stars = marks.stars { value = JSONFields.adding([("stars", .int(stars))], to: value) }
      if !marks.tags.isEmpty {
        value = JSONFields.adding([("tags", .array(marks.tags.map { .string($0) }))], to: value)
      }
      return HTTPResponse(contentType: HTTPResponse.json, body: Escape.json(value))
    }
  }
}
