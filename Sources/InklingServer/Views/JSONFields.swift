// The API's JSON is the command line's (InklingPresentation) plus what a page links to: each
// object of the CLI's shape gains fields at its end (URLs, a version's id and stroke changes),
// so a script written against `--json` reads the API unchanged.

import InklingArchive
import InklingFormats
import InklingPresentation

enum JSONFields {
  /// `object` with `fields` appended (after its own, in order).
  static func adding(_ fields: [(String, JSONValue)], to object: JSONValue) -> JSONValue {
    guard case .object(let members) = object else { return object }
    return .object(members + fields.map { JSONValue.Member($0.0, $0.1) })
  }

  /// {"added":N,"removed":N,"hidden":N,"unhidden":N,"partlyErased":N}, or null when unknown.
  static func changes(_ changes: StrokeChanges?) -> JSONValue {
    guard let changes else { return .null }
    return [
      "added": .int(changes.added), "removed": .int(changes.removed), "hidden": .int(changes.hidden),
      "unhidden": .int(changes.unhidden), "partlyErased": .int(changes.partlyErased),
    ]
  }

  private static func lastComponent(_ path: String) -> String {
    String(path.split(separator: "/").last ?? "")
  }

  /// What the API adds to a version of the timeline: its id, changes and URLs. Without
  /// `fullPaths` (a server reachable beyond this machine), each source's path is only its file
  /// name, and a label that is a path (an import's default, the folder it read) only its last
  /// folder's: the machine's folders are not the visitors' business.
  static func version(_ entry: TimelineEntry, draft: DraftID, trash: Bool, fullPaths: Bool) -> JSONValue {
    var version = entry.version
    if !fullPaths {
      for index in version.sources.indices {
        version.sources[index].path = lastComponent(version.sources[index].path)
        if version.sources[index].label.hasPrefix("/") {
          version.sources[index].label = lastComponent(version.sources[index].label)
        }
      }
    }
    return adding(
      [
        ("id", .int(Int(entry.id.rawValue))), ("changes", changes(entry.changes)),
        ("url", .string(Links.version(draft, number: entry.version.number).text)),
        ("thumbnail", .string(Links.thumbnail(entry.id, size: DraftView.thumbnailSize, trash: trash).text)),
        ("render", .string(Links.render(entry.id, scale: 2, trash: trash).text)),
        ("file", .string(Links.file(entry.id).text)),
      ], to: version.json)
  }
}
