// `/draft?id=D&version=K` and its JSON twin: one version large (the app's share image at the
// display's scale, through srcset), what its drawing holds, and its original file. The JSON is
// `show --json`'s ({"draft","version","drawing"}; `&strokes=1` adds the stroke list as
// `show --strokes` does), with the API's fields on the version.

import InklingArchive
import InklingFormats
import InklingPresentation
import InklingRendering

enum VersionView {
  /// The share image's scales offered to the browser (srcset), one per display density.
  static let scales = [1, 2, 3]

  /// The least the longer side of the large view measures, in CSS pixels. The share image is
  /// the drawing's bounds at one pixel a point, so a few strokes drawn on a device make an
  /// image of 52 × 57 px, or a 25 × 126 px sliver: shown at that size, a version page has
  /// nothing to look at. Such an image is shown larger (as the grid's thumbnails scale a
  /// drawing up to their square), and the browser picks the scale it needs for that size.
  static let minimumSide = 512

  /// The large view: the share image at the display size (at least `minimumSide` on its longer
  /// side), offered at each scale by its pixel width. The sizes come from the drawing index's
  /// bounds, within a few pixels of the renderer's own (which rounds each stroke out): near
  /// enough for the browser to choose a scale, and the display size is ours anyway.
  static func largeImage(_ id: VersionID, bounds: Rect?, alt: HTML, trash: Bool) -> HTML {
    guard let bounds else {
      // An empty drawing exports its canvas (the app's, 1024 × 768 pt by default): large already.
      let sources = scales.map { "\(Links.render(id, scale: $0, trash: trash).text) \($0)x" }.joined(separator: ", ")
      return "<img src=\"\(Links.render(id, scale: 1, trash: trash))\" srcset=\"\(attribute: sources)\" alt=\"\(alt)\">"
    }
    let natural = RenderGeometry.export(bounds: bounds, canvas: nil, scale: 1)
    let enlarge = max(1, Double(minimumSide) / Double(max(natural.width, natural.height)))
    let width = Int((Double(natural.width) * enlarge).rounded())
    let height = Int((Double(natural.height) * enlarge).rounded())
    let sources = scales.map { scale in
      "\(Links.render(id, scale: scale, trash: trash).text) \(RenderGeometry.export(bounds: bounds, canvas: nil, scale: Double(scale)).width)w"
    }
    return """
      <img src="\(Links.render(id, scale: 1, trash: trash))" srcset="\(attribute: sources.joined(separator: ", "))" sizes="(max-width: \(width)px) 100vw, \(width)px" width="\(width)" height="\(height)" alt="\(alt)">
      """
  }

  static func page(_ reference: DraftReference, number: Int, pool: ArchivePool, commands archive: String?) throws
    -> HTTPResponse
  {
    let (draft, entry, drawing) = try read(reference, number: number, pool: pool)
    let count = draft.versionCount
    let version = entry.version
    let draftName = draft.name
    let previous: HTML =
      number > 1
      ? "<a rel=\"prev\" href=\"\(Links.version(draft.id, number: number - 1))\">← Version \(number - 1)</a>" : ""
    let next: HTML =
      number < count
      ? "<a rel=\"next\" href=\"\(Links.version(draft.id, number: number + 1))\">Version \(number + 1) →</a>" : ""
    let compare: HTML =
      number > 1
      ? "<a href=\"\(Links.compare(draft.id, from: number - 1, to: number))\">Compare with version \(number - 1)</a>"
      : ""
    let image: HTML
    if drawing.status == .decoded {
      image = largeImage(
        entry.id, bounds: drawing.bounds, alt: "\(attributeName: draftName), version \(number)",
        trash: draft.deleted != nil)
    } else {
      image = """
        <img src="\(Links.thumbnail(entry.id, size: 512, trash: draft.deleted != nil))" width="512" height="512" alt="\(attributeName: draftName), version \(number)">
        <figcaption>\(drawing.problem ?? "The drawing is \(drawing.status.rawValue).")</figcaption>
        """
    }
    let main: HTML = """
      <nav class="crumbs" aria-label="Breadcrumb"><a href="\(Links.grid(GridState()))">Drafts</a> › <a href="\(Links.draft(draft.id))">\(name: draftName)</a></nav>
      <h1>\(name: draftName) <span class="of">version \(number) of \(count)</span>\(DraftView.labels(version.labels))</h1>
      \(TrashView.banner(name: draft.name, deleted: draft.deleted, archive: archive))
      <nav class="steps" aria-label="Versions">\(previous) \(next) \(compare)</nav>
      <figure class="large">\(image)</figure>
      \(facts(draft.id, entry, drawing))
      \(DraftView.notes(version.notes, heading: "Notes on this version"))
      \(DraftView.notes(draft.notes, heading: "Notes on the draft"))
      <p class="file">\(DraftView.download(entry.id, version))</p>
      \(drawing.status == .decoded ? pictureLinks(entry.id, version, trash: draft.deleted != nil) : "")
      \(CommandsView.section(name: draft.name, deleted: draft.deleted, versionCount: count, number: number, archive: archive))
      <p class="twin"><a href="\(Links.apiVersion(draft.id, number: number))">This page as JSON</a></p>
      """
    return HTTPResponse(
      contentType: HTTPResponse.html,
      body: Layout.page(title: "\(Escape.isolated(draftName)), version \(number)", main: main).bytes)
  }

  /// The draft with version `number` as its timeline gives it (a page of that version alone:
  /// not the rest of a long history), and what the version's drawing holds.
  static func read(_ reference: DraftReference, number: Int, pool: ArchivePool) throws -> (
    DraftTimelinePage, TimelineEntry, DrawingSummary
  ) {
    try pool.withArchive { archive in
      let draft = try archive.timelinePage(of: reference, newest: number, count: 1)
      guard number <= draft.versionCount, let entry = draft.versions.last else {
        throw ArchiveError.noSuchVersion(draft: draft.name, number: number, versionCount: draft.versionCount)
      }
      return (draft, entry, try archive.drawing(of: entry.id))
    }
  }

  /// The share image to download as PNG, or as vectors (SVG and PDF), each named after the file.
  static func pictureLinks(_ id: VersionID, _ version: VersionInfo, trash: Bool) -> HTML {
    let stem =
      version.fileName.lowercased().hasSuffix(".inkling")
      ? String(version.fileName.dropLast(".inkling".count)) : version.fileName
    var links: [HTML] = []
    for format in PictureFormat.allCases {
      if !links.isEmpty { links.append(" · ") }
      links.append(
        """
        <a class="picture" href="\(Links.render(id, scale: 2, trash: trash, format: format))" \
        download="\(attribute: stem + "." + format.rawValue)">\(format.rawValue.uppercased())</a>
        """)
    }
    return "<p class=\"pictures\">The picture: \(links)</p>"
  }

  static func facts(_ draft: DraftID, _ entry: TimelineEntry, _ drawing: DrawingSummary) -> HTML {
    let version = entry.version
    let background = version.background
    var rows: [(String, HTML)] = [
      ("Saved", Formatting.time(version.saved)),
      ("Imported", Formatting.time(version.imported)),
      ("File", "\(name: version.fileName), \(Format.bytes(version.fileSize))"),
      (
        "Background",
        "\(DraftView.swatch(background)) \(Format.color(background))"
      ),
      ("Changes", DraftView.changes(entry.changes, strokes: version.strokeCount, first: version.number == 1)),
    ]
    if drawing.status == .decoded {
      rows.append(
        ("Strokes", "\(StrokeTable.counts(drawing)); \(drawing.pointCount) points"))
      let inks = drawing.inks.map { ink -> HTML in
        "<li>\(DraftView.swatch(ink.color)) \(name: ink.ink), \(Plural.count(ink.strokeCount, "stroke"))</li>"
      }
      rows.append(("Inks", inks.isEmpty ? "none" : "<ul class=\"inks\">\(inks)</ul>"))
    } else {
      rows.append(("Drawing", "\(drawing.status.rawValue)\(drawing.problem.map { ": " + $0 } ?? "")"))
    }
    if let same = version.sameDrawingAs {
      rows.append(
        ("Same drawing as", "<a href=\"\(Links.version(draft, number: same))\">version \(same)</a>"))
    }
    let items = rows.map { row -> HTML in "<dt>\(row.0)</dt><dd>\(row.1)</dd>" }
    return "<dl class=\"facts\">\(items)</dl>"
  }

  /// The version's JSON; with `strokes` (the first stroke's index and how many), a page of its
  /// strokes and, when more follow, the URL of the next.
  static func api(
    _ reference: DraftReference, number: Int, strokes: (from: Int, count: Int)?, fullPaths: Bool, pool: ArchivePool
  ) throws -> HTTPResponse {
    let (draft, entry, drawing) = try read(reference, number: number, pool: pool)
    var drawingJSON = drawing.json(strokes: false)
    if let (from, count) = strokes {
      let page = drawing.strokes.dropFirst(from).prefix(count)
      let next = from + page.count < drawing.strokes.count ? from + page.count : nil
      drawingJSON = JSONFields.adding(
        [
          ("strokeList", .array(page.map(\.json))), ("strokesFrom", .int(from)),
          ("strokesNext", next.map { .string(Links.apiStrokes(draft.id, number: number, from: $0).text) } ?? .null),
        ], to: drawingJSON)
    }
    var value: JSONValue = [
      "draft": .string(draft.name),
      "version": JSONFields.version(entry, draft: draft.id, trash: draft.deleted != nil, fullPaths: fullPaths),
      "drawing": drawingJSON, "draftID": .int(Int(draft.id.rawValue)),
    ]
    if let deleted = draft.deleted { value = JSONFields.adding([("deleted", .date(deleted))], to: value) }
    return HTTPResponse(contentType: HTTPResponse.json, body: Escape.json(value))
  }
}
