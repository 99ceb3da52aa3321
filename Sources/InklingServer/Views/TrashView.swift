// `/trash` and its JSON twin `/api/trash`: the drafts in the trash, as `list --trash` lists
// them (newest save first), with when each went there. A trashed draft keeps its page (by id),
// which says it is in the trash (`banner`) and how to bring it back.

import FoundationEssentials
import InklingArchive
import InklingFormats
import InklingPresentation

enum TrashView {
  /// The most drafts the page lists; `list --trash` shows the rest.
  static let limit = Archive.draftPageLimit

  /// The drafts in the trash, at most `limit`, and how many there are.
  static func drafts(pool: ArchivePool) throws -> (drafts: [DraftSummary], total: Int) {
    try pool.withArchive { archive in
      let drafts = try archive.drafts(matching: .trash, limit: limit)
      let total = drafts.count < limit ? drafts.count : try archive.draftCount(matching: .trash, upTo: 1_000_000)
      return (drafts, total)
    }
  }

  static func page(_ context: RequestContext) throws -> HTTPResponse {
    let pool = context.pool
    let (drafts, total) = try drafts(pool: pool)
    let rows = drafts.map { draft -> HTML in
      """
      <tr><td><a href="\(Links.draft(draft.id))">\(name: draft.name)</a></td><td class="number">\(Format.count(draft.versionCount))</td><td>\(Formatting.time(draft.lastSaved))</td><td>\(draft.deleted.map(Formatting.time) ?? "")</td></tr>
      """
    }
    let shown: HTML =
      drafts.count < total
      ? "The \(Format.count(drafts.count)) most recently saved of \(Plural.count(total, "draft")) in the trash."
      : "\(Plural.count(total, "draft")) in the trash."
    let table: HTML =
      drafts.isEmpty
      ? "<p class=\"empty\" id=\"empty\">The trash is empty.</p>"
      : """
      <table class="trash" id="trash">
      <thead><tr><th>Name</th><th class="number">Versions</th><th>Last saved</th><th>Deleted</th></tr></thead>
      <tbody>
      \(rows)
      </tbody>
      </table>
      """
    let main: HTML = """
      <nav class="crumbs" aria-label="Breadcrumb"><a href="\(Links.grid(GridState()))">Drafts</a></nav>
      <h1>Trash</h1>
      <p class="summary">\(shown) Drafts in the trash are left out of the grid and of searches until they are undeleted; purging removes them for good.</p>
      \(table)
      <p class="twin"><a href="\(Links.apiTrash)">This page as JSON</a></p>
      """
    return HTTPResponse(contentType: HTTPResponse.html, body: Layout.page(title: "Trash", main: main).bytes)
  }

  static func api(_ context: RequestContext) throws -> HTTPResponse {
    let pool = context.pool
    let (drafts, total) = try drafts(pool: pool)
    let value: JSONValue = [
      "drafts": .array(
        drafts.map { draft in
          JSONFields.adding(
            [("id", .int(Int(draft.id.rawValue))), ("url", .string(Links.draft(draft.id).text))], to: draft.json)
        }),
      "total": .int(total),
    ]
    return HTTPResponse(contentType: HTTPResponse.json, body: Escape.json(value))
  }

  /// What a trashed draft's pages say first: since when it is in the trash, and the command
  /// that brings it back (naming the archive as the pages' other commands do).
  static func banner(name: String, deleted: Date?, archive: String?) -> HTML {
    guard let deleted else { return "" }
    let command = CommandsView.program(archive: archive) + " undelete -- " + Escape.shellWord(name)
    return """
      <div class="trashed" id="trashed" role="note">
      <p><strong>In the trash</strong> since \(Formatting.time(deleted)): left out of the grid and of searches, kept whole until it is purged. <a href="\(Links.trash)">The trash</a></p>
      <p>To bring it back: <code class="command">\(command)</code></p>
      </div>
      """
  }
}
