// Every URL the server writes into a page or a JSON document, built in one place from encoded
// components (Escape.urlComponent), and the URL scheme they follow:
//
//   /                                  the drafts grid: ?q= (search language) &sort= &since=
//                                      &until= &on= (dates as `list` takes them) &after= (page)
//   /draft?id=D                        a draft's timeline;  &version=K  one version, large
//   /draft?name=N                      the same by name (for addresses people type; a name
//                                      with a control character has only its id's address)
//   /draft/compare?id=D&from=J&version=K  version K beside version J, and what changed
//   /draft/versions.zip?id=D           every version's original file, in one zip
//   /trash                             the drafts in the trash (`list --trash`)
//   /versions/ID/thumbnail.png?size=S  a version's thumbnail (S = 128, 256, 512, 1024)
//   /versions/ID/render.png?scale=X    its share image at X pixels per point (1, 2 or 3);
//   /versions/ID/render.svg, .pdf      the same as vectors
//   /versions/ID/changes.png?from=ID2  what it changed against version ID2, as a picture
//   /versions/ID/file                  its original .inkling file, under its original name
//   /swatches/RRGGBBAA.svg             a colour swatch (CSP forbids inline styles)
//   /static/NAME?v=HASH                the embedded stylesheet and script
//   /api/drafts, /api/draft, /api/trash  the JSON twins of /, /draft and /trash
//
// Pages link to drafts by id (DraftID), never by name: a name may hold a tab, a newline or
// a CR, which no request target may (RequestTarget), so a draft listed under such a name
// could not be opened by it. Names people type travel in the query, not the path: browsers
// resolve `.` and `..` segments (even encoded as %2E) before sending, so a draft called ".."
// could not have a path of its own. Images and files are named by the version's id, which never changes (VersionID), so
// they can be cached for good; `r` names the renderer, whose new pixels must not be hidden by
// such a cache.
//
// A request that carried the server's token in its path (`/t/TOKEN/…`, AccessControl.swift)
// is answered with every URL under the same two segments (`prefix`), so that a browser keeps
// the token by following links alone.

import InklingArchive
import InklingPresentation
import InklingRendering

/// A URL of this server, its components already percent-encoded; made only by `Links`.
struct URLReference: Equatable, Sendable {
  fileprivate(set) var text: String
}

/// The state of a grid of drafts, as its URL holds it.
struct GridState: Equatable, Sendable {
  var query = ""
  var sort = DraftSort.newest
  var since: String?
  var until: String?
  var on: String?
  /// A page cursor's token (DraftPageCursor), for the pages after the first.
  var after: String?

  /// The same grid from its first page.
  var firstPage: GridState {
    var state = self
    state.after = nil
    return state
  }
}

enum Links {
  /// What every URL written while answering the current request starts with: the token's
  /// segments when the request had them, else nothing. Bound by RequestChain around each answer
  /// (on the thread that makes it), so that no view has to pass it on to the links it writes.
  @TaskLocal static var prefix = ""

  static func grid(_ state: GridState) -> URLReference { url("/", gridParameters(state)) }

  /// The API's page of drafts; `limit` when the client chose one, so that the next page has it too.
  static func apiDrafts(_ state: GridState, limit: Int? = nil) -> URLReference {
    url("/api/drafts", gridParameters(state) + (limit.map { [("limit", String($0))] } ?? []))
  }

  static func draft(_ id: DraftID) -> URLReference { url("/draft", [("id", String(id.rawValue))]) }

  /// A draft's timeline from version `upto` down (a page of it), at version `anchor` when given.
  static func draft(_ id: DraftID, upto: Int, anchor: Int? = nil) -> URLReference {
    var reference = url("/draft", [("id", String(id.rawValue)), ("upto", String(upto))])
    if let anchor { reference.text += "#v\(anchor)" }
    return reference
  }

  /// A draft by the name a person typed (the drafts an error page suggests).
  static func draft(named name: String) -> URLReference { url("/draft", [("name", name)]) }

  static func version(_ id: DraftID, number: Int) -> URLReference {
    url("/draft", [("id", String(id.rawValue)), ("version", String(number))])
  }

  /// Version `number` beside version `from` of the same draft.
  static func compare(_ id: DraftID, from: Int, to number: Int) -> URLReference {
    url("/draft/compare", [("id", String(id.rawValue)), ("from", String(from)), ("version", String(number))])
  }

  static func zip(_ id: DraftID) -> URLReference { url("/draft/versions.zip", [("id", String(id.rawValue))]) }

  static func timelapse(_ id: DraftID) -> URLReference { url("/draft/timelapse.mp4", [("id", String(id.rawValue))]) }

  static func timelapseMarks(_ id: DraftID) -> URLReference { url("/draft/marks", [("id", String(id.rawValue))]) }

  static func apiDraft(_ id: DraftID) -> URLReference { url("/api/draft", [("id", String(id.rawValue))]) }

  static func apiVersion(_ id: DraftID, number: Int) -> URLReference {
    url("/api/draft", [("id", String(id.rawValue)), ("version", String(number))])
  }

  /// A page of a version's strokes in the API, from stroke index `from`.
  static func apiStrokes(_ id: DraftID, number: Int, from: Int) -> URLReference {
    url(
      "/api/draft",
      [("id", String(id.rawValue)), ("version", String(number)), ("strokes", "1"), ("strokesFrom", String(from))])
  }

  static var trash: URLReference { url("/trash", []) }

  static var apiTrash: URLReference { url("/api/trash", []) }

  /// A version's thumbnail; `trash` when its draft is in the trash, whose pictures are drawn
  /// only for its own pages (VersionFiles.swift).
  static func thumbnail(_ id: VersionID, size: Int, trash: Bool = false) -> URLReference {
    url(
      "/versions/\(id)/thumbnail.png",
      [("size", String(size)), ("r", String(Renderer.version))] + (trash ? [("trash", "1")] : []))
  }

  static func render(_ id: VersionID, scale: Int, trash: Bool = false, format: PictureFormat = .png) -> URLReference {
    url(
      "/versions/\(id)/render.\(format.rawValue)",
      [("scale", String(scale)), ("r", String(Renderer.version))] + (trash ? [("trash", "1")] : []))
  }

  /// What version `id` changed against version `from`, drawn (ChangesPicture).
  static func changes(_ id: VersionID, from: VersionID, scale: Int, trash: Bool = false) -> URLReference {
    url(
      "/versions/\(id)/changes.png",
      [("from", String(from.rawValue)), ("scale", String(scale)), ("r", String(Renderer.version))]
        + (trash ? [("trash", "1")] : []))
  }

  static func file(_ id: VersionID) -> URLReference { url("/versions/\(id)/file", []) }

  /// A swatch of an RGBA colour with components in 0…1.
  static func swatch(red: Double, green: Double, blue: Double, alpha: Double) -> URLReference {
    url("/swatches/" + [red, green, blue, alpha].map(Format.hexByte).joined() + ".svg", [])
  }

  static func asset(_ asset: StaticAssets.Asset) -> URLReference {
    url("/static/" + asset.name, [("v", asset.tag)])
  }

  /// The path and query of a request target, encoded again (a redirect to the same page).
  /// Without its empty segments: `//evil.example/` as a Location is another site.
  static func sameTarget(_ target: RequestTarget) -> URLReference {
    let segments = target.segments.filter { !$0.isEmpty }.map(Escape.urlComponent)
    return url("/" + segments.joined(separator: "/"), target.query.map { ($0.key, $0.value) })
  }

  /// `path` (fixed names, numbers or encoded segments) with encoded parameters, under `prefix`.
  private static func url(_ path: String, _ parameters: [(String, String)]) -> URLReference {
    guard !parameters.isEmpty else { return URLReference(text: prefix + path) }
    let query = parameters.map { Escape.urlComponent($0.0) + "=" + Escape.urlComponent($0.1) }
    return URLReference(text: prefix + path + "?" + query.joined(separator: "&"))
  }

  private static func gridParameters(_ state: GridState) -> [(String, String)] {
    var parameters: [(String, String)] = []
    if !state.query.isEmpty { parameters.append(("q", state.query)) }
    if state.sort != .newest { parameters.append(("sort", state.sort.rawValue)) }
    for (key, value) in [("since", state.since), ("until", state.until), ("on", state.on)] {
      if let value, !value.isEmpty { parameters.append((key, value)) }
    }
    if let after = state.after { parameters.append(("after", after)) }
    return parameters
  }
}
