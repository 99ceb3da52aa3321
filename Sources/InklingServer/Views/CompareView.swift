// `/draft/compare?id=D&from=J&version=K`: version K beside version J (by default the one before
// it), and between them the picture of what changed (Archive.changesImage): J faded, the
// strokes K adds in green, the ones it removes or erases in red, with the counts `diff` gives.
// A drawing that does not decode has no strokes to compare: its thumbnail is shown, and the
// sentence saying why in place of the picture.

import InklingArchive
import InklingFormats
import InklingPresentation
import InklingRendering

enum CompareView {
  static func page(_ context: RequestContext) throws -> HTTPResponse {
    let (target, pool, archive) = (context.target, context.pool, context.server.commandArchive)
    let reference = try DraftView.reference(target)
    guard let number = try DraftView.versionNumber(target) else {
      throw RequestError(400, "which version? The address needs &version=K (and &from=J, else the one before)")
    }
    let from = try VersionFiles.integer(target, "from", fallback: number - 1)
    guard from >= 1, from != number else {
      throw RequestError(
        400,
        number == 1 && target.parameter("from") == nil
          ? "version 1 is the first: there is no version before it to compare with"
          : "compare two different versions, each a number from 1, not \(from) with \(number)")
    }
    let (draft, drawings, diff) = try pool.withArchive { archive in
      // The counts come from `diff` below, so the timeline counts none.
      let draft = try archive.timeline(of: reference, changesFor: [])
      for asked in [from, number] where asked > draft.versions.count {
        throw ArchiveError.noSuchVersion(draft: draft.name, number: asked, versionCount: draft.versions.count)
      }
      let drawings = try [from, number].map { try archive.drawing(of: draft.versions[$0 - 1].id) }
      let diff: Result<DrawingDiff, ArchiveError>
      do {
        diff = .success(try archive.diff(draft: draft.name, from: from, to: number))
      } catch let error as ArchiveError {
        switch error {
        case .unreadableDrawing, .notIndexed: diff = .failure(error)
        default: throw error
        }
      }
      return (draft, drawings, diff)
    }
    let trash = draft.deleted != nil
    let before = draft.versions[from - 1]
    let after = draft.versions[number - 1]
    let changes: HTML
    let summary: HTML
    switch diff {
    case .success(let diff):
      changes = """
        <figure class="changes"><img src="\(Links.changes(after.id, from: before.id, scale: 1, trash: trash))" srcset="\(Links.changes(after.id, from: before.id, scale: 2, trash: trash)) 2x"\(changesSize(drawings)) alt="What version \(number) changed against version \(from)">
        <figcaption>What changed: <span class="added">added in green</span>, <span class="removed">removed or erased in red</span>, the rest of version \(from) faded</figcaption></figure>
        """
      summary = counts(diff)
    case .failure(let error):
      let sentence = RequestError(error).message
      changes = "<figure class=\"changes\"><figcaption>\(sentence)</figcaption></figure>"
      summary = "The strokes cannot be compared."
    }
    let draftName = draft.name
    let main: HTML = """
      <nav class="crumbs" aria-label="Breadcrumb"><a href="\(Links.grid(GridState()))">Drafts</a> › <a href="\(Links.draft(draft.id))">\(name: draftName)</a></nav>
      <h1>\(name: draftName) <span class="of">version \(from) and version \(number)</span></h1>
      \(TrashView.banner(name: draft.name, deleted: draft.deleted, archive: archive))
      <p class="summary">\(summary)</p>
      <div class="compare">
      \(side(draft, before, drawings[0], trash: trash))
      \(changes)
      \(side(draft, after, drawings[1], trash: trash))
      </div>
      \(CommandsView.section(name: draft.name, deleted: draft.deleted, versionCount: draft.versions.count, number: number, archive: archive))
      """
    return HTTPResponse(
      contentType: HTTPResponse.html,
      body: Layout.page(title: "\(Escape.isolated(draftName)), version \(from) and \(number)", main: main).bytes)
  }

  /// "+12 added, −3 removed, 2 erased, 1 brought back" (or that no stroke changed), and the
  /// background's change when it has one.
  static func counts(_ diff: DrawingDiff) -> HTML {
    var parts: [HTML] = []
    if !diff.added.isEmpty { parts.append("<span class=\"added\">+\(diff.added.count) added</span>") }
    if !diff.removed.isEmpty { parts.append("<span class=\"removed\">−\(diff.removed.count) removed</span>") }
    if !diff.hidden.isEmpty { parts.append("<span class=\"removed\">\(diff.hidden.count) erased</span>") }
    if !diff.unhidden.isEmpty { parts.append("\(diff.unhidden.count) brought back") }
    if !diff.partlyErased.isEmpty {
      parts.append("<span class=\"removed\">\(diff.partlyErased.count) partly erased</span>")
    }
    if parts.isEmpty { parts.append("No strokes changed") }
    if let (from, to) = diff.backgroundChange {
      parts.append(
        "background \(DraftView.swatch(from)) \(Format.color(from)) → \(DraftView.swatch(to)) \(Format.color(to))"
      )
    }
    return HTML(joining: parts.enumerated().map { $0.offset == 0 ? $0.element : ", \($0.element)" })
  }

  /// The share image's size at one pixel a point, from the drawing index's bounds (within a
  /// few pixels of the renderer's): the page keeps its place while the images load.
  /// The changes picture's size: it draws the strokes of both versions, so it spans both
  /// drawings' bounds (Archive.changesImage draws it as a version is exported).
  private static func changesSize(_ drawings: [DrawingSummary]) -> HTML {
    let bounds = drawings.compactMap(\.bounds)
    guard let first = bounds.first else { return "" }
    let union = bounds.dropFirst().reduce(first) { a, b in
      let x = min(a.minX, b.minX)
      let y = min(a.y, b.y)
      let width = max(a.x + a.width, b.x + b.width) - x
      return Rect(x: x, y: y, width: width, height: max(a.y + a.height, b.y + b.height) - y)
    }
    let natural = RenderGeometry.export(bounds: union, canvas: nil, scale: 1)
    return " width=\"\(natural.width)\" height=\"\(natural.height)\""
  }

  private static func size(_ drawing: DrawingSummary) -> HTML {
    guard let bounds = drawing.bounds else { return "" }
    let natural = RenderGeometry.export(bounds: bounds, canvas: nil, scale: 1)
    return " width=\"\(natural.width)\" height=\"\(natural.height)\""
  }

  /// One of the two versions: its share image (its thumbnail when the drawing does not decode).
  private static func side(_ draft: DraftTimeline, _ entry: TimelineEntry, _ drawing: DrawingSummary, trash: Bool)
    -> HTML
  {
    let number = entry.version.number
    let image: HTML =
      drawing.status == .decoded
      ? "<img src=\"\(Links.render(entry.id, scale: 1, trash: trash))\" srcset=\"\(Links.render(entry.id, scale: 2, trash: trash)) 2x\"\(size(drawing)) alt=\"Version \(number)\">"
      : "<img src=\"\(Links.thumbnail(entry.id, size: 512, trash: trash))\" width=\"512\" height=\"512\" alt=\"Version \(number)\">"
    return """
      <figure>\(image)<figcaption><a href="\(Links.version(draft.id, number: number))">Version \(number)</a>, saved \(Formatting.time(entry.version.saved))</figcaption></figure>
      """
  }
}
