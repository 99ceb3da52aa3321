// The draft page's first view, its time-lapse: `/draft/timelapse.mp4?id=D`, the draft's MP4
// made on its first request by the library's `timelapseVideo` (the same code as the `timelapse`
// command) and kept in the server's picture memory, never in the archive, which the server only
// reads; and `/draft/marks?id=D`, the saves' places in the video, which the page's script
// turns into a scrubber of the saves under the player (a page of links without it).
//
// Both are keyed by the draft's versions as they are now (a new save, or a version trashed,
// makes another video) and this build's renderer. Making a video is expensive work, so both
// run on the bounded work queue. The marks come from the plan alone when the video is not made
// yet: the page asks for both at once, and the plan costs a fraction of the encoding.

import InklingArchive
import InklingFormats
import InklingPresentation
import InklingRendering

/// A draft's time-lapse as the page plays it.
struct TimelapseVideo: MemorySized {
  var mp4: [UInt8]
  var summary: TimelapseSummary
  var byteCount: Int { mp4.count + summary.marks.count * 32 }
}

/// A time-lapse's plan as the draft's JSON and marks show it, before its video is made.
struct TimelapsePlanned: MemorySized {
  var summary: TimelapseSummary
  var byteCount: Int {
    summary.marks.reduce(256) { $0 + 48 + $1.labels.reduce(0) { $0 + 16 + $1.utf8.count } }
      + summary.skipped.reduce(0) { $0 + 32 + $1.reason.utf8.count }
  }
}

enum TimelapseView {
  /// The page's video: the command's 30 seconds at 30 fps with a 2 s hold, 720 px on the long
  /// side (sharp in the page's column, and a few megabytes at most).
  static var options: TimelapseOptions {
    var options = TimelapseOptions()
    options.size = .fit(width: 720, height: 720)
    return options
  }

  /// The section of the draft page that plays the time-lapse (nothing for a draft in the
  /// trash, whose drawings the server does not draw; a sentence, and no link to a video that
  /// cannot be made, when none of its drawings decodes).
  static func section(_ draft: DraftTimelinePage) -> HTML {
    guard draft.deleted == nil else { return "" }
    guard draft.anyDrawingDecodes else {
      return """
        <section class="timelapse" id="timelapse">
        <h2 class="visually-hidden">Time-lapse</h2>
        <p class="problem" id="timelapse-problem">No time-lapse: none of its drawings can be read.</p>
        </section>
        """
    }
    let video = Links.timelapse(draft.id)
    let fileName = DraftFileName.safeName(draft.name) + " time-lapse.mp4"
    return """
      <section class="timelapse" id="timelapse" data-marks="\(Links.timelapseMarks(draft.id))">
      <h2 class="visually-hidden">Time-lapse</h2>
      <video id="timelapse-video" controls muted playsinline preload="metadata" src="\(video)"></video>
      <div class="scrubber" id="scrubber" hidden><label for="saves">Save</label><input type="range" id="saves" min="1" max="1" step="1" value="1"></div>
      <p class="mark-version" id="mark-version" aria-live="polite"></p>
      <p class="problem" id="timelapse-problem" hidden></p>
      <p class="timelapse-links"><a href="\(video)" download="\(attribute: fileName)">Download the time-lapse (MP4)</a> · <a href="\(Links.timelapseMarks(draft.id))">The saves in it</a></p>
      </section>
      """
  }

  /// `/draft/timelapse.mp4?id=D`: the video, made on its first request.
  static func video(_ context: RequestContext) throws -> Answer<ViewWork> {
    let (target, request, pool, videos) = (context.target, context.request, context.pool, context.server.videos)
    let draft = try live(target, pool: pool)
    let tag = tag(draft)
    if let condition = request.header("If-None-Match"), ResponseEncoding.matches(condition, tags: [tag]) {
      return .now(HTTPResponse(contentType: mp4, body: [], tag: tag))
    }
    if let kept = videos.picture(tag) { return .now(response(kept, tag: tag)) }
    return .later {
      if let kept = videos.picture(tag) { return response(kept, tag: tag) }
      let (mp4, summary) = try pool.withArchive { try $0.timelapseVideo(of: draft.name, options: options) }
      let made = TimelapseVideo(mp4: mp4, summary: summary)
      videos.keep(made, as: tag)
      return response(made, tag: tag)
    }
  }

  /// `/draft/marks?id=D`: each save's place in the video, as links to its version.
  static func marksPage(_ context: RequestContext) throws -> Answer<ViewWork> {
    let (target, server) = (context.target, context.server)
    let draft = try live(target, pool: server.pool)
    return .later {
      let summary = try summary(draft, server: server)
      // The video may be of a newer state than the timeline read before it (a save imported
      // meanwhile): such a version is on the next page load.
      let marks = summary.marks.filter { draft.versions.indices.contains($0.version - 1) }.map { mark -> HTML in
        let version = draft.versions[mark.version - 1].version
        // The scrubber says this label as it moves (the page's script reads it as text).
        let labels = HTML(joining: version.labels.map { label -> HTML in " \u{201C}\(name: label)\u{201D}" })
        return """
          <li><a class="mark" href="\(Links.version(draft.id, number: mark.version))" data-seconds="\(Format.decimal(mark.seconds, digits: 3))" data-version="\(mark.version)">#\(mark.version)</a> <span class="mark-label">Version \(mark.version)\(labels), saved \(Formatting.time(version.saved)), at \(Format.number(mark.seconds)) s</span></li>
          """
      }
      let skipped: HTML =
        summary.skipped.isEmpty
        ? ""
        : "<p class=\"note\" id=\"skipped\">Left out, as their drawings do not decode: \(HTML(joining: summary.skipped.enumerated().map { "\($0.offset == 0 ? "" : ", ")version \($0.element.number)" })).</p>"
      let even: HTML =
        summary.evenPace
        ? "<p class=\"note\">The strokes carry no usable times, so each is drawn at the same pace.</p>" : ""
      let main: HTML = """
        <nav class="crumbs" aria-label="Breadcrumb"><a href="\(Links.grid(GridState()))">Drafts</a> › <a href="\(Links.draft(draft.id))">\(name: draft.name)</a></nav>
        <h1>The saves in the time-lapse of \(name: draft.name)</h1>
        <p class="summary" id="timelapse-summary" data-duration="\(Format.decimal(summary.seconds, digits: 3))">\(Plural.count(summary.marks.count, "save")) in \(Format.number(summary.seconds)) seconds, \(summary.width) × \(summary.height) px at \(summary.fps) frames a second</p>
        \(skipped)\(even)
        <ol class="marks-list" id="marks-list">
        \(marks)
        </ol>
        """
      return HTTPResponse(
        contentType: HTTPResponse.html, body: Layout.page(title: Escape.isolated(draft.name), main: main).bytes)
    }
  }

  /// The time-lapse in the draft's JSON twin: the video's address and each save's place, or
  /// why there is no time-lapse.
  static func json(_ draft: DraftTimeline, server: ServerResources) -> JSONValue {
    guard draft.deleted == nil else { return ["error": .string("The draft is in the trash.")] }
    do {
      let summary = try summary(draft, server: server)
      return summary.json(named: .init("video", .string(Links.timelapse(draft.id).text)))
    } catch let error as ArchiveError {
      return ["error": .string(RequestError(error).apiMessage)]
    } catch {
      return ["error": .string("\(error)")]
    }
  }

  // MARK: -

  private static let mp4 = "video/mp4"

  private static func response(_ video: TimelapseVideo, tag: String) -> HTTPResponse {
    var response = HTTPResponse(contentType: mp4, body: video.mp4, tag: tag)
    // A player asks for ranges to seek (a click on a save's mark).
    response.ranges = true
    return response
  }

  /// The live draft the URL names: a trashed draft has no time-lapse, as it has no renders.
  private static func live(_ target: RequestTarget, pool: ArchivePool) throws -> DraftTimeline {
    let draft = try pool.withArchive { try $0.timeline(of: DraftView.reference(target), changesFor: []) }
    guard draft.deleted == nil else {
      var error = RequestError(
        404,
        "\u{201C}\(Escape.isolated(draft.name))\u{201D} is in the trash, so it has no time-lapse; bring it back first.")
      error.jsonMessage = "\u{201C}\(draft.name)\u{201D} is in the trash, so it has no time-lapse; bring it back first."
      throw error
    }
    return draft
  }

  /// The kept video's summary, or the plan's when the video is not made yet: planned once for
  /// each state of the draft, as the video is made once, and kept beside the videos (a plan
  /// reads the newest drawing whole, which every request of the JSON or the marks would).
  private static func summary(_ draft: DraftTimeline, server: ServerResources) throws -> TimelapseSummary {
    let tag = tag(draft)
    if let kept = server.videos.picture(tag) { return kept.summary }
    // The marks carry the versions' labels, which a label added since changes.
    let planTag = labelled(tag, draft)
    if let planned = server.plans.picture(planTag) { return planned.summary }
    let summary = try server.pool.withArchive { try $0.timelapsePlan(of: draft.name, options: options).1 }
    server.plans.keep(TimelapsePlanned(summary: summary), as: planTag)
    return summary
  }

  /// `tag` followed by what names the labels of the draft's versions (FNV-1a of them).
  private static func labelled(_ tag: String, _ draft: DraftTimeline) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for entry in draft.versions where !entry.version.labels.isEmpty {
      for byte in "\(entry.version.number):\(entry.version.labels.joined(separator: "\u{0}"))\u{1}".utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
    }
    return tag + "-l" + String(hash, radix: 16)
  }

  /// What names the draft's video: what it is made of, each version's file and save time
  /// (FNV-1a of them), and the renderer. Not the ids: a purged version's id is given to the
  /// next version imported, and another archive at the path (or in another server the
  /// browser asked before) numbers its own drafts and versions alike.
  static func tag(_ draft: DraftTimeline) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for entry in draft.versions {
      let saved = Int64((entry.version.saved.timeIntervalSince1970 * 1000).rounded())
      for byte in "\(entry.version.fileSHA256)@\(saved),".utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
    }
    return "timelapse-\(draft.versions.count)-\(String(hash, radix: 16))-r\(Renderer.version)"
  }
}
