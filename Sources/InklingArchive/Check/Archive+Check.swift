// `check`: verifies an archive and reports every problem it finds, up to a limit, each
// prefixed with where it is ("draft 'Cat' version 3: blob 4f2a9c1e07b3…: its data does not
// decode"), the way Fossil's `verify` and `test-integrity` do.
//
// Steps, in order; a step that fails to run is itself reported and the next one runs:
//   1. schema      the archive's sqlite_master against what the migrations create
//   2. sqlite      PRAGMA integrity_check (pages, b-trees, indexes, NOT NULL and CHECK)
//   3. references  PRAGMA foreign_key_check
//   4. invariants  of migrations/0001 that SQL can see: draft counters, delta chains
//                  (invariant 3), envelope offsets, one row per file (invariant 4), file
//                  names that restore as plain names
//   5. files       (full only) every blob decoded and re-hashed (invariant 2), every
//                  version's file rebuilt and compared with its SHA-256 and size (invariant 1),
//                  every drawing decoded and compared with what the drawing index (0002) says
//                  of it: status, stroke, hidden and point counts, content hash
//   6. thumbnails  (quick) every cached thumbnail is a PNG of its recorded size; those no
//                  version needs any more are counted (`gc` removes them), not reported
//
// Invariants:
//   1. Everything is read in one read transaction: a check running beside an import sees
//      one snapshot, so an import never shows up as a false problem.
//   2. `check` never writes (beyond the upgrade of an older schema that every open does);
//      it runs on archives opened read-only, and on archives whose schema was tampered with
//      (`Archive(checking:)`).
//   3. The work of steps 1–4 grows with the number of rows, not with their bytes; step 5
//      decodes each blob once (blobs are visited in insertion order, so delta bases are
//      still in BlobStore's cache) and rebuilds each version once.

import Foundation
import InklingFormats
import InklingRendering
import InklingStore

/// What `check` found.
public struct CheckReport: Sendable {
  /// One problem, with where it is.
  public struct Problem: Sendable, Equatable, CustomStringConvertible {
    /// Where: "draft 'Cat' version 3: blob 4f2a9c1e07b3…", "schema", "sqlite", …
    public var location: String
    /// What is wrong there.
    public var message: String
    public var description: String { "\(location): \(message)" }
  }

  /// What was verified.
  public struct Counts: Sendable, Equatable {
    public var drafts = 0
    public var versions = 0
    public var blobs = 0
    public var envelopes = 0
    /// Blobs decoded and re-hashed (full check).
    public var blobsVerified = 0
    /// Version files rebuilt and compared with their SHA-256 (full check).
    public var filesVerified = 0
    /// Bytes of rebuilt files (full check).
    public var fileBytesVerified: Int64 = 0
    /// Drawings that decoded as PencilKit drawings (full check).
    public var drawingsDecoded = 0
    /// Drawings kept as opaque bytes: not a format this build reads, or damaged (full check).
    public var drawingsOpaque = 0
    /// Drawings the drawing index has no row for (archives from before it; not a problem).
    public var drawingsNotIndexed = 0
    /// Cached thumbnails checked.
    public var thumbnails = 0
    /// Cached thumbnails no version needs any more (not a problem: `gc` removes them).
    public var unneededThumbnails = 0
    /// Blobs no version uses, directly or as a delta base (not a problem: `gc` removes them).
    public var unusedBlobs = 0
    /// Envelopes no version uses (not a problem).
    public var unusedEnvelopes = 0
    /// Import runs that never finished (killed or failed; what they committed is complete).
    public var interruptedImports = 0
  }

  /// Whether the full check (step 5) ran.
  public var full: Bool
  /// The first `limit` problems found.
  public var problems: [Problem]
  /// How many problems were found in all (may exceed `problems.count`).
  public var problemCount: Int
  public var counts: Counts
  /// What this build cannot check yet, one sentence each.
  public var notChecked: [String]
  public var seconds: Double

  /// True when no problem was found.
  public var isHealthy: Bool { problemCount == 0 }
}

/// How far a check has got, for a progress line.
public struct CheckProgress: Sendable {
  /// The step running: "schema", "sqlite", "references", "invariants", "files".
  public var step: String
  public var done: Int
  public var total: Int
}

extension Archive {
  /// Opens an archive read-only for `check`: like `Archive(path:mode:)`, but a schema that
  /// differs from the migrations' is reported by `check` instead of refused here.
  ///
  /// - Throws: `ArchiveError(.unusableArchive)` when the file cannot be opened at all.
  public convenience init(checking path: String) throws(ArchiveError) {
    try self.init(path: path, mode: .readOnly, verifiesSchema: false)
  }

  /// Verifies the archive and reports every problem found, up to `limit`.
  ///
  /// ```swift
  /// let report = try Archive(checking: path).check(full: true)
  /// for problem in report.problems { print(problem) }
  /// ```
  /// - Parameters:
  ///   - full: also decode every blob and rebuild every version's file (reads everything).
  ///   - limit: the most problems kept in the report; counting goes on past it.
  ///   - onProgress: called now and then from the calling thread.
  /// - Throws: `ArchiveError(.unusableArchive)` only when the archive cannot be read at
  ///   all; everything else is a problem in the report.
  public func check(full: Bool = false, limit: Int = 100, onProgress: ((CheckProgress) -> Void)? = nil)
    throws(ArchiveError)
    -> CheckReport
  {
    let started = Date()
    let run = ArchiveCheck(database: database, limit: max(1, limit), onProgress: onProgress)
    try storeCall {
      // One read transaction (invariant 1), ended with ROLLBACK: it has nothing to commit,
      // and on a damaged file COMMIT itself can fail with SQLITE_CORRUPT after the steps
      // have already reported the damage.
      try database.execute("BEGIN DEFERRED")
      defer { try? database.execute("ROLLBACK") }
      run.checkSchema()
      run.checkIntegrity()
      run.checkReferences()
      run.checkInvariants()
      run.count()
      run.checkThumbnails()
      if full { run.checkFiles() }
    }
    return CheckReport(
      full: full, problems: run.problems, problemCount: run.problemCount, counts: run.counts,
      notChecked: [],
      seconds: Date().timeIntervalSince(started))
  }
}

// MARK: - The steps

/// One run of `check`: the problems found so far and what was counted.
final class ArchiveCheck {
  let database: Database
  let limit: Int
  let onProgress: ((CheckProgress) -> Void)?
  private(set) var problems: [CheckReport.Problem] = []
  private(set) var problemCount = 0
  var counts = CheckReport.Counts()
  private var lastProgress = Date.distantPast

  init(database: Database, limit: Int, onProgress: ((CheckProgress) -> Void)?) {
    self.database = database
    self.limit = limit
    self.onProgress = onProgress
  }

  func report(_ location: String, _ message: String) {
    problemCount += 1
    if problems.count < limit { problems.append(CheckReport.Problem(location: location, message: message)) }
  }

  /// Runs one step; an error that stops it is a problem of that step.
  func step(_ name: String, _ body: () throws -> Void) {
    progress(name, 0, 0, force: true)
    do {
      try body()
    } catch let error as StoreError {
      report(name, "could not be checked: \(Self.concise(error))")
    } catch {
      report(name, "could not be checked: \(error)")
    }
  }

  func progress(_ step: String, _ done: Int, _ total: Int, force: Bool = false) {
    guard let onProgress, force || Date().timeIntervalSince(lastProgress) >= 0.1 else { return }
    lastProgress = Date()
    onProgress(CheckProgress(step: step, done: done, total: total))
  }

  // MARK: 1–3: schema, SQLite, references

  func checkSchema() {
    step("schema") {
      for difference in try SchemaVerification.differences(in: database) { report("schema", difference) }
    }
  }

  func checkIntegrity() {
    step("sqlite") {
      try database.statement("PRAGMA integrity_check(\(limit))").forEach { row in
        let message = row.string(0)
        if message != "ok" { report("sqlite", message.replacingOccurrences(of: "\n", with: " ")) }
      }
    }
  }

  func checkReferences() {
    step("references") {
      var columns: [String: String] = [:]
      try database.statement("PRAGMA foreign_key_check").forEach { row in
        let table = row.string(0)
        let rowID = row.int64(1)
        let parent = row.string(2)
        let key = row.int64(3)
        let columnKey = "\(table).\(key)"
        if columns[columnKey] == nil {
          columns[columnKey] =
            try database.fetchOne(#"SELECT "from" FROM pragma_foreign_key_list(?) WHERE id = ?"#, [table, key]) {
              $0.string(0)
            } ?? "a column"
        }
        report(
          try location(table: table, rowID: rowID),
          "its \(columns[columnKey]!) refers to a \(parent) row that does not exist")
      }
    }
  }

  // MARK: 4: invariants

  func checkInvariants() {
    step("invariants") { try checkDraftCounters() }
    step("invariants") { try checkNewestDrawingColumns() }
    step("invariants") { try checkDeltaChains() }
    step("invariants") { try checkEnvelopes() }
    step("invariants") { try checkDuplicates() }
    step("invariants") { try checkFileNames() }
  }

  /// The denormalised counters of `draft` against its versions.
  private func checkDraftCounters() throws {
    try database.statement(
      """
      SELECT d.name, d.version_count, coalesce(c.n, 0), d.latest_saved_ms, c.newest,
             (SELECT saved_ms FROM version WHERE id = d.latest_version_id AND draft_id = d.id)
      FROM draft d LEFT JOIN (SELECT draft_id, count(*) AS n, max(saved_ms) AS newest FROM version GROUP BY draft_id) c
        ON c.draft_id = d.id
      WHERE d.version_count <> coalesce(c.n, 0) OR d.latest_saved_ms IS NOT c.newest
         OR (c.n > 0 AND (SELECT saved_ms FROM version WHERE id = d.latest_version_id AND draft_id = d.id) IS NOT c.newest)
      """
    ).forEach { row in
      let name = "draft '\(Self.printable(row.string(0)))'"
      if row.int(1) != row.int(2) {
        report(
          name, "its version count says \(row.int(1)) but it has \(row.int(2)) version\(row.int(2) == 1 ? "" : "s")")
      } else if row.isNull(5) && row.int(2) > 0 {
        report(name, "its newest version is not one of its versions")
      } else {
        report(name, "its newest save time does not match its versions")
      }
    }
  }

  /// Invariants 1–3 of 0008 (2 as 0009 restates it: inks count once the drawing has its
  /// row): what `draft` keeps of its newest drawing and import times, against the view that
  /// defines the first two (migration 0013).
  private func checkNewestDrawingColumns() throws {
    try database.statement(
      """
      SELECT d.name, d.latest_strokes IS NOT s.visible_strokes, d.latest_inks IS NOT coalesce(s.ink_bits, 0),
        d.first_imported_ms IS NOT c.first OR d.latest_imported_ms IS NOT c.latest
      FROM draft AS d LEFT JOIN version_drawing_summary AS s ON s.version_id = d.latest_version_id
      LEFT JOIN (SELECT draft_id, min(imported_ms) AS first, max(imported_ms) AS latest FROM version
        GROUP BY draft_id) AS c ON c.draft_id = d.id
      """
    ).forEach { row in
      let name = "draft '\(Self.printable(row.string(0)))'"
      if row.int(1) != 0 { report(name, "its newest drawing's stroke count (for strokes: searches) is out of date") }
      if row.int(2) != 0 { report(name, "its newest drawing's inks (for ink: searches) are out of date") }
      if row.int(3) != 0 { report(name, "its first and newest import times do not match its versions") }
    }
  }

  /// Invariant 3 of 0001: a delta's base is another blob, depth = base depth + 1.
  private func checkDeltaChains() throws {
    try database.statement(
      """
      SELECT b.id, b.sha256, b.encoding, b.base_id, b.depth, base.id, base.depth
      FROM blob b LEFT JOIN blob base ON base.id = b.base_id
      WHERE (b.base_id IS NULL AND (b.depth <> 0 OR b.encoding = 2))
         OR (b.base_id IS NOT NULL AND (b.encoding <> 2 OR b.base_id = b.id OR base.id IS NULL
                                        OR b.depth <> base.depth + 1 OR b.depth > \(BlobStore.maxChainDepth)))
      """
    ).forEach { row in
      let location = Self.blobLocation(row.bytes(1), id: row.int64(0))
      if row.isNull(3) {
        report(
          location, row.int(2) == 2 ? "it is a delta without a base" : "it is a full blob of depth \(row.int(4)), not 0"
        )
      } else if row.int(2) != 2 {
        report(location, "it has a delta base but encoding \(row.int(2)), not 2")
      } else if row.int64(3) == row.int64(0) {
        report(location, "it is its own delta base")
      } else if row.isNull(5) {
        return  // the foreign key check reports the missing base
      } else if row.int(4) > BlobStore.maxChainDepth {
        report(location, "its delta chain is \(row.int(4)) deep, more than \(BlobStore.maxChainDepth)")
      } else {
        report(location, "its depth is \(row.int(4)) over a base of depth \(row.int(6)), not \(row.int(6) + 1)")
      }
    }
  }

  /// Envelopes whose drawing offset lies outside their text, or whose base64 style and
  /// verbatim text disagree.
  private func checkEnvelopes() throws {
    try database.statement(
      """
      SELECT id, drawing_offset, length(CAST(text AS BLOB)), base64_style, base64_text IS NOT NULL FROM envelope
      WHERE drawing_offset < 0 OR drawing_offset > length(CAST(text AS BLOB))
         OR base64_style NOT IN (0, 1, 2) OR (base64_style = 2) <> (base64_text IS NOT NULL)
      """
    ).forEach { row in
      let location = "envelope \(row.int64(0))"
      if row.int(1) < 0 || row.int(1) > row.int(2) {
        report(location, "its drawing offset \(row.int(1)) lies outside its \(row.int(2)) bytes of text")
      } else {
        report(location, "its base64 style \(row.int(3)) does not match its verbatim base64 text")
      }
    }
  }

  /// Invariant 4 of 0001: one row per (draft, save time, file content).
  private func checkDuplicates() throws {
    try database.statement(
      """
      SELECT min(id), count(*) FROM version GROUP BY draft_id, saved_ms, file_sha256 HAVING count(*) > 1
      """
    ).forEach { row in
      report(try versionLocation(row.int64(0)), "it is stored \(row.int(1)) times (one row per file is expected)")
    }
  }

  /// File names that no file system folder can hold as one entry (a slash, NUL, `.`, `..`,
  /// empty, over 255 bytes): the import never stores such a name, so it was put there by
  /// hand. Restore writes a safe name instead. Control characters are not in this list:
  /// Linux allows them, and a name the disk had is a name the archive keeps.
  private func checkFileNames() throws {
    try database.statement(
      """
      SELECT id, file_name FROM version
      WHERE typeof(file_name) <> 'text' OR instr(file_name, '/') > 0 OR file_name IN ('', '.', '..')
         OR length(CAST(file_name AS BLOB)) > 255 OR instr(CAST(file_name AS BLOB), x'00') > 0
      """
    ).forEach { row in
      report(
        try versionLocation(row.int64(0)),
        "its file name \"\(Self.printable(row.string(1), maximum: 60))\" is not a plain file name "
          + "(restore writes a safe name instead)")
    }
  }

  func count() {
    step("invariants") {
      let row = try database.fetchOne(
        """
        SELECT (SELECT count(*) FROM draft), (SELECT count(*) FROM version), (SELECT count(*) FROM blob),
               (SELECT count(*) FROM envelope),
               (SELECT count(*) FROM blob b WHERE NOT EXISTS (SELECT 1 FROM version WHERE blob_id = b.id)
                                              AND NOT EXISTS (SELECT 1 FROM blob c WHERE c.base_id = b.id)),
               (SELECT count(*) FROM envelope e WHERE NOT EXISTS (SELECT 1 FROM version WHERE envelope_id = e.id)),
               (SELECT count(*) FROM import_run WHERE finished_ms IS NULL)
        """
      ) { row in (row.int(0), row.int(1), row.int(2), row.int(3), row.int(4), row.int(5), row.int(6)) }
      guard let row else { return }
      counts.drafts = row.0
      counts.versions = row.1
      counts.blobs = row.2
      counts.envelopes = row.3
      counts.unusedBlobs = row.4
      counts.unusedEnvelopes = row.5
      counts.interruptedImports = row.6
    }
  }

  // MARK: 6: thumbnails

  /// Cached thumbnails: damaged rows are problems; rows nothing needs are counted (the
  /// "needed" rule is ThumbnailRecords.removeUnneeded's, the one `gc` applies).
  func checkThumbnails() {
    step("thumbnails") {
      try database.statement(
        """
        SELECT id, key, byte_size, length(png), substr(png, 1, 8) = x'89504E470D0A1A0A' FROM thumbnail
        WHERE byte_size <> length(png) OR substr(png, 1, 8) <> x'89504E470D0A1A0A'
        """
      ).forEach { row in
        let location = "thumbnail \(hexString(Array(row.bytes(1).prefix(6))))… (id \(row.int64(0)))"
        if row.int(4) == 0 {
          report(location, "its data is not a PNG image")
        } else {
          report(location, "its size says \(row.int(2)) bytes, but it holds \(row.int(3))")
        }
      }
      let background = """
        v.background_r = t.background_r AND v.background_g = t.background_g
          AND v.background_b = t.background_b AND v.background_a = t.background_a
        """
      let row = try database.fetchOne(
        """
        SELECT count(*), coalesce(sum(t.renderer_version <> ?1 OR NOT EXISTS (
          SELECT 1 FROM drawing d JOIN version v ON v.blob_id = d.blob_id
          WHERE CASE WHEN t.content_hash IS NULL THEN d.status <> 0 ELSE d.content_hash = t.content_hash END
            AND \(background))), 0)
        FROM thumbnail t
        """, [Renderer.version]
      ) { ($0.int(0), $0.int(1)) }
      counts.thumbnails = row?.0 ?? 0
      counts.unneededThumbnails = row?.1 ?? 0
    }
  }

  // MARK: 5: every blob and every file (full)

  func checkFiles() {
    step("files") {
      let blobs = BlobStore(database)
      let indexer = DrawingIndexer()
      var templates: [Int64: EnvelopeTemplate] = [:]
      var done = 0
      let total = counts.blobs
      // A separate statement: the loop below runs other statements on the connection.
      let walk = try database.makeStatement("SELECT id, sha256, size FROM blob ORDER BY id")
      try walk.forEach { row in
        let id = row.int64(0)
        let sha256 = row.bytes(1)
        let size = row.int(2)
        done += 1
        progress("files", done, total)
        var drawing: [UInt8]?
        var blobProblem: String?
        do {
          let bytes = try blobs.bytes(ofBlob: id)
          if bytes.count != size {
            blobProblem = "it decodes to \(bytes.count) bytes, but its size says \(size)"
          } else {
            drawing = bytes
            counts.blobsVerified += 1
          }
        } catch let error as StoreError {
          // The store names the blob that is actually damaged: this one, or a delta base below it.
          let message = Self.concise(error)
          let own = "\(Self.blobLocation(sha256, id: id)): "
          blobProblem =
            message.hasPrefix(own) ? String(message.dropFirst(own.count)) : "its delta chain is damaged: \(message)"
        }
        let versions = try database.fetchAll(
          "SELECT id, envelope_id, file_sha256, file_size FROM version WHERE blob_id = ? ORDER BY id", [id]
        ) { ($0.int64(0), $0.int64(1), $0.bytes(2), $0.int64(3)) }
        let blobName = Self.blobLocation(sha256, id: nil)
        if let blobProblem {
          if versions.isEmpty { report(Self.blobLocation(sha256, id: id), blobProblem) }
          for version in versions { report(try versionLocation(version.0) + ": " + blobName, blobProblem) }
          return
        }
        guard let drawing else { return }
        let location =
          try versions.first.map { try versionLocation($0.0) + ": " + blobName } ?? Self.blobLocation(sha256, id: id)
        try checkDrawing(drawing, blobID: id, indexer: indexer, location: location)
        for (versionID, envelopeID, fileSHA256, fileSize) in versions {
          if templates[envelopeID] == nil {
            if templates.count >= 4096 { templates.removeAll(keepingCapacity: true) }
            do {
              templates[envelopeID] = try EnvelopeRecords.template(envelopeID, in: database)
            } catch let error as StoreError {
              report(try versionLocation(versionID) + ": envelope \(envelopeID)", Self.concise(error))
              continue
            }
          }
          let file = templates[envelopeID]!.rebuild(drawing: drawing)
          if SHA256.hash(file) != fileSHA256 {
            report(
              try versionLocation(versionID),
              "its rebuilt file does not match its SHA-256 \(hexString(fileSHA256).prefix(12))… (envelope \(envelopeID), \(blobName))"
            )
          } else if Int64(file.count) != fileSize {
            report(
              try versionLocation(versionID), "its rebuilt file has \(file.count) bytes, but its size says \(fileSize)")
          } else {
            counts.filesVerified += 1
            counts.fileBytesVerified += fileSize
          }
        }
      }
    }
  }

  /// Decodes a drawing and compares it with its row in the drawing index. A drawing that
  /// does not decode is not a problem (the archive keeps such bytes as they are); an index
  /// that says something else about it is.
  private func checkDrawing(_ bytes: [UInt8], blobID: Int64, indexer: DrawingIndexer, location: String) throws {
    let facts = indexer.facts(of: bytes)
    if facts.status == .decoded { counts.drawingsDecoded += 1 } else { counts.drawingsOpaque += 1 }
    let row = try database.fetchOne(
      "SELECT status, stroke_count, hidden_count, point_count, content_hash FROM drawing WHERE blob_id = ?", [blobID]
    ) { row in
      (
        status: row.int(0), strokes: row.int(1), hidden: row.int(2), points: row.int(3),
        hash: row.isNull(4) ? nil : row.bytes(4)
      )
    }
    guard let row else {
      counts.drawingsNotIndexed += 1
      return
    }
    let names = ["decoded", "not a format this build reads", "damaged"]
    let said = names.indices.contains(row.status) ? names[row.status] : "status \(row.status)"
    if row.status != facts.status.rawValue {
      let now =
        facts.status == .decoded
        ? "it decodes" : "it is \(names[facts.status.rawValue])" + (facts.problem.map { " (\($0))" } ?? "")
      report(location, "the drawing index says \(said), but \(now)")
    } else if facts.status == .decoded
      && (row.strokes != facts.strokes.count || row.hidden != facts.hiddenCount || row.points != facts.pointCount
        || row.hash != facts.contentHash)
    {
      report(
        location,
        "the drawing index says \(row.strokes) strokes (\(row.hidden) hidden), \(row.points) points, but the drawing has "
          + "\(facts.strokes.count) (\(facts.hiddenCount) hidden), \(facts.pointCount), or another content hash")
    }
  }

  // MARK: - Locations

  /// "draft 'Cat' version 3", or "version row 12" when its draft is missing.
  func versionLocation(_ id: Int64) throws -> String {
    let found = try database.fetchOne(
      """
      SELECT draft.name,
        (SELECT count(*) FROM version w WHERE w.draft_id = v.draft_id
           AND (w.saved_ms < v.saved_ms OR (w.saved_ms = v.saved_ms AND w.id <= v.id)))
      FROM version v LEFT JOIN draft ON draft.id = v.draft_id WHERE v.id = ?
      """, [id]
    ) { row -> String in
      guard !row.isNull(0) else { return "version row \(id)" }
      return "draft '\(Self.printable(row.string(0)))' version \(row.int(1))"
    }
    return found ?? "version row \(id)"
  }

  func location(table: String, rowID: Int64) throws -> String {
    switch table {
    case "version": return try versionLocation(rowID)
    case "blob":
      let sha256 = try database.fetchOne("SELECT sha256 FROM blob WHERE id = ?", [rowID]) { $0.bytes(0) }
      return sha256.map { Self.blobLocation($0, id: rowID) } ?? "blob \(rowID)"
    case "draft":
      let name = try database.fetchOne("SELECT name FROM draft WHERE id = ?", [rowID]) { $0.string(0) }
      return name.map { "draft '\(Self.printable($0))'" } ?? "draft row \(rowID)"
    default: return "\(table) row \(rowID)"
    }
  }

  /// "blob 4f2a9c1e07b3…", with its row id when given.
  static func blobLocation(_ sha256: [UInt8], id: Int64?) -> String {
    "blob \(hexString(Array(sha256.prefix(6))))…" + (id.map { " (id \($0))" } ?? "")
  }

  /// Text safe to print on one line: control characters escaped, long text shortened.
  static func printable(_ text: String, maximum: Int = 80) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      if scalar.value < 0x20 || scalar.value == 0x7F {
        result += "\\u{" + String(scalar.value, radix: 16) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result.count <= maximum ? result : String(result.prefix(maximum - 1)) + "…"
  }

  /// What a store error says is wrong (store messages name neither the archive nor advice).
  static func concise(_ error: StoreError) -> String {
    error.kind == .sqlite ? error.description : error.message
  }
}
