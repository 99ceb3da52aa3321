// `/draft?name=N` and its JSON twin `/api/draft?name=N`: one draft's history as a timeline
// (Fossil's timeline.c): newest first, each version's thumbnail, save date, strokes added and
// removed against the version before, background swatch, "same drawing as #K", and a
// download of its original file. `&version=K` shows one version instead (VersionView).

import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

enum DraftView {
  static let thumbnailSize = 256

  /// The draft's name from the URL.
  static func name(_ target: RequestTarget) throws(RequestError) -> String {
    guard let name = target.parameter("name"), !name.isEmpty else {
      throw RequestError(400, "which draft? The address needs ?name=NAME")
    }
    return name
  }

  /// The version number from the URL, if one is asked for.
  static func versionNumber(_ target: RequestTarget) throws(RequestError) -> Int? {
    guard let text = target.parameter("version") else { return nil }
    guard let number = Int(text), number >= 1 else {
      throw RequestError(400, "a version is a number from 1, not \"\(text)\"")
    }
    return number
  }

  static func page(_ target: RequestTarget, pool: ArchivePool) throws -> HTTPResponse {
    let name = try name(target)
    if let number = try versionNumber(target) { return try VersionView.page(name: name, number: number, pool: pool) }
    let timeline = try pool.withArchive { try $0.timeline(of: name) }
    guard let newest = timeline.last else { throw RequestError(404, "\"\(name)\" has no versions") }
    let draftName = newest.version.draftName
    let entries = timeline.reversed().map { entry(draftName, $0) }
    let main: HTML = """
      <nav class="crumbs"><a href="\(Links.grid(GridState()))">Drafts</a></nav>
      <h1>\(draftName)</h1>
      <p class="summary">\(Plural.count(timeline.count, "version")), first saved \(Formatting.time(timeline[0].version.saved)), last saved \(Formatting.time(newest.version.saved))</p>
      <ol class="timeline" id="timeline" reversed>
      \(entries)
      </ol>
      <p class="twin"><a href="\(Links.apiDraft(draftName))">This page as JSON</a></p>
      """
    return HTTPResponse(contentType: HTTPResponse.html, body: Layout.page(title: draftName, main: main).bytes)
  }

  static func entry(_ name: String, _ entry: TimelineEntry) -> HTML {
    let version = entry.version
    let number = version.number
    let same: HTML =
      version.sameDrawingAs.map { "<p class=\"same\">Same drawing as <a href=\"#v\($0)\">#\($0)</a></p>" } ?? ""
    let savedFrom: HTML = version.savedFromFileName ? "" : " <span class=\"note\">(the file's modification time)</span>"
    return """
      <li class="entry" id="v\(number)">
      <a class="thumb" href="\(Links.version(name, number: number))"><img src="\(Links.thumbnail(entry.id, size: thumbnailSize))" width="\(thumbnailSize)" height="\(thumbnailSize)" alt="Version \(number)"></a>
      <div class="facts">
      <h2><a href="\(Links.version(name, number: number))">Version \(number)</a></h2>
      <p class="saved">Saved \(Formatting.time(version.saved))\(savedFrom)</p>
      <p class="changes">\(changes(entry.changes, strokes: version.strokeCount, first: number == 1))</p>
      <p class="background">\(swatch(version.background)) Background \(Formatting.color(red: version.background.red, green: version.background.green, blue: version.background.blue, alpha: version.background.alpha))</p>
      \(same)
      <p class="file">\(download(entry.id, version))</p>
      </div>
      </li>
      """
  }

  /// "+12 strokes, −3 removed, 2 erased", or why there are no counts.
  static func changes(_ changes: StrokeChanges?, strokes: Int?, first: Bool) -> HTML {
    guard let changes else {
      return "<span class=\"note\">The drawing cannot be compared (not indexed, or it does not decode)</span>"
    }
    var parts: [HTML] = []
    if first {
      parts.append("\(Plural.count(changes.added, "stroke"))")
    } else {
      parts.append("<span class=\"added\">+\(changes.added) added</span>")
      parts.append("<span class=\"removed\">−\(changes.removed) removed</span>")
      if changes.hidden > 0 { parts.append("\(changes.hidden) erased") }
      if changes.unhidden > 0 { parts.append("\(changes.unhidden) brought back") }
    }
    if let strokes, !first { parts.append("\(Plural.count(strokes, "stroke")) in all") }
    return HTML(joining: parts.enumerated().map { $0.offset == 0 ? $0.element : ", \($0.element)" })
  }

  static func swatch(_ color: RGBA) -> HTML {
    "<img class=\"swatch\" src=\"\(Links.swatch(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha))\" width=\"14\" height=\"14\" alt=\"\">"
  }

  static func download(_ id: VersionID, _ version: VersionInfo) -> HTML {
    """
    <a class="download" href="\(Links.file(id))" download="\(attribute: version.fileName)">Download \(version.fileName)</a> (\(Format.bytes(version.fileSize)))
    """
  }

  // MARK: - JSON

  static func api(_ target: RequestTarget, pool: ArchivePool, strokesPerPage: Int, fullPaths: Bool) throws -> Routed {
    let name = try name(target)
    if let number = try versionNumber(target) {
      guard target.parameter("strokes") == "1" else {
        return .now(try VersionView.api(name: name, number: number, strokes: nil, fullPaths: fullPaths, pool: pool))
      }
      let from = try VersionFiles.integer(target, "strokesFrom", fallback: 0)
      guard from >= 0 else { throw RequestError(400, "strokesFrom is 0 or more, not \(from)") }
      return .later {
        try VersionView.api(
          name: name, number: number, strokes: (from, strokesPerPage), fullPaths: fullPaths, pool: pool)
      }
    }
    let timeline = try pool.withArchive { try $0.timeline(of: name) }
    let value: JSONValue = [
      "draft": .string(timeline.first?.version.draftName ?? name),
      "versions": .array(timeline.map { JSONFields.version($0, fullPaths: fullPaths) }),
    ]
    return .now(HTTPResponse(contentType: HTTPResponse.json, body: Escape.json(value)))
  }
}
