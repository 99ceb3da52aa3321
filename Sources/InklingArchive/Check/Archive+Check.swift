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
//                  names that restore as plain names; reverts (0012, invariant 2)
//   5. files       (full only) every blob decoded and re-hashed (invariant 2), every
//                  version's file rebuilt and compared with its SHA-256 and size (invariant 1)
//                  and parsed: it must hold the drawing stored for it (FileProof), every drawing decoded and compared with what the drawing index (0002) says
//                  of it: status, stroke, hidden and point counts, content hash
//   6. thumbnails  (quick) every cached thumbnail is a PNG of its recorded size; those no
//                  version needs any more are counted (`gc` removes them), not reported
//
// Invariants:
//   1. Everything is read in one read transaction: a check running beside an import sees
//      one snapshot, so an import never shows up as a false problem.
//   2. `check` never writes (beyond the upgrade of an older schema that every open does);
//      it runs on archives opened read-only, and on archives whose schema was tampered with
//      (`Archive(checking:)`). One exception, after the snapshot and only when what it found
//      differs from what the archive holds: a full check records which versions it found
//      damaged (migration 0018), through a connection of its own, when the archive can be
//      written; an import of their files then repairs them. A healthy archive is not written.
//   3. The work of steps 1–4 grows with the number of rows, not with their bytes; step 5
//      decodes each blob once (blobs are visited in insertion order, so delta bases are
//      still in BlobStore's cache) and rebuilds each version once.

import FoundationEssentials
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
    /// Import runs under way while the check ran (their writer holds the run's lock).
    public var runningImports = 0
  }

  /// Whether the full check (step 5) ran.
  public var full: Bool
  /// The first `limit` problems found.
  public var problems: [Problem]
  /// How many problems were found in all (may exceed `problems.count`).
  public var problemCount: Int
  /// How many of them are in what `reindex(all: true)` builds again from the drawings (the
  /// drawing index, and what drafts keep of their newest drawing's index rows).
  public var drawingIndexProblemCount = 0
  public var counts: Counts
  /// What this check did not look at.
  public var notChecked: [NotChecked]
  public var seconds: Double

  /// True when no problem was found.
  public var isHealthy: Bool { problemCount == 0 }
  /// True when every problem found is one `reindex(all: true)` mends.
  public var onlyDrawingIndexProblems: Bool { problemCount > 0 && drawingIndexProblemCount == problemCount }

  /// A damaged version and the files that can repair it: the paths its sources recorded when
  /// they delivered it (`import` them again). A version without any has none listed.
  public struct Repairable: Sendable, Equatable {
    /// Where: "draft 'Cat' version 3".
    public var location: String
    public var paths: [String]
  }

  /// The damaged versions the full check found (their files do not rebuild), the first
  /// `limit` of them, with the files that repair them.
  public var repairable: [Repairable] = []
  /// How many versions the full check found damaged.
  public var damagedVersionCount = 0

  /// Something a check did not look at.
  public enum NotChecked: Sendable, Equatable {
    /// The stored bytes: `drawings` drawings were neither decoded nor re-hashed, and the files
    /// of `versions` versions not rebuilt (what the full check does).
    case storedBytes(drawings: Int, versions: Int)
  }
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
      // One read transaction (invariant 1), rolled back: it has nothing to commit, and on a
      // damaged file a commit itself can fail with SQLITE_CORRUPT after the steps have
      // already reported the damage.
      try database.snapshot {
        run.checkSchema()
        run.checkIntegrity()
        run.checkReferences()
        run.checkInvariants()
        run.count()
        run.checkThumbnails()
        if full { run.checkFiles() }
      }
    }
    // Outside the snapshot: a run that finished since it began is neither running nor
    // interrupted, and one whose writer holds its lock is running (ImportRunLock).
    var counts = run.counts
    let unfinished = try storeCall { Set(try ImportRunRecords.unfinished(in: database)) }
    let lastFinished = try storeCall { try ImportRunRecords.lastFinished(in: database) } ?? 0
    for runID in run.unfinishedImports where unfinished.contains(runID) {
      if ImportRunLock.isHeld(run: runID, archivePath: path) {
        counts.runningImports += 1
      } else if runID > lastFinished {
        // An interruption an import begun since has not yet followed to its end (a rerun).
        counts.interruptedImports += 1
      }
    }
    let notChecked: [CheckReport.NotChecked] =
      full || counts.blobs == 0 ? [] : [.storedBytes(drawings: counts.blobs, versions: counts.versions)]
    var report = CheckReport(
      full: full, problems: run.problems, problemCount: run.problemCount, counts: counts, notChecked: notChecked,
      seconds: Date().timeIntervalSince(started))
    report.drawingIndexProblemCount = run.drawingIndexProblemCount
    report.repairable = run.repairable
    report.damagedVersionCount = run.damagedVersionIDs.count
    if full { rememberDamage(run) }
    return report
  }

  /// Records the versions a full check found damaged (invariant 2's exception), when that
  /// differs from the archive's record: all of them when every blob was read, else those it
  /// found beside the ones recorded. The record is what lets an import repair them without
  /// reading every drawing it finds archived; a check that cannot write it (read-only media,
  /// an import holding the archive, a schema tampered with) still reports the damage.
  private func rememberDamage(_ run: ArchiveCheck) {
    guard let recorded = run.recordedDamage else { return }
    let found = run.damagedVersionIDs
    let replacing = run.everyBlobRead
    guard replacing ? found != recorded : !found.isSubset(of: recorded) else { return }
    do {
      let writer = try ArchiveDatabase.open(path: path, mode: .readWrite)
      defer { writer.close() }
      try writer.transaction {
        try DamageRecords.mark(found, at: Int64(Date().timeIntervalSince1970 * 1000), replacing: replacing, in: writer)
      }
    } catch {
      return
    }
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
  private(set) var drawingIndexProblemCount = 0
  var counts = CheckReport.Counts()
  /// The import runs without a finished time in the check's snapshot.
  var unfinishedImports: [Int64] = []
  /// The versions whose files do not rebuild (full check).
  private(set) var damagedVersionIDs = Set<Int64>()
  /// The versions the archive had recorded as damaged (migration 0018) when the full check
  /// began; nil when it could not be read.
  private(set) var recordedDamage: Set<Int64>?
  /// Whether the full check read every blob (its step did not stop on an error).
  private(set) var everyBlobRead = false
  /// The first damaged versions with the files that repair them.
  private(set) var repairable: [CheckReport.Repairable] = []
  private var lastProgress = Date.distantPast

  init(database: Database, limit: Int, onProgress: ((CheckProgress) -> Void)?) {
    self.database = database
    self.limit = limit
    self.onProgress = onProgress
  }

  /// Notes a problem; `inDrawingIndex` when `reindex(all: true)` mends it.
  func report(_ location: String, _ message: String, inDrawingIndex: Bool = false) {
    problemCount += 1
    if inDrawingIndex { drawingIndexProblemCount += 1 }
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
      for message in try CheckQueries.integrityProblems(limit: limit, in: database) {
        report("sqlite", message.replacing("\n", with: " "))
      }
    }
  }

  func checkReferences() {
    step("references") {
      for missing in try CheckQueries.missingReferences(in: database) {
        report(
          try location(table: missing.table, rowID: missing.rowID),
          "its \(missing.column) refers to a \(missing.parent) row that does not exist")
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
    step("invariants") { try checkReverts() }
    step("invariants") { try checkOrganising() }
  }

  /// Invariants 1, 2, 4, 5 and 6 of 0019: every tag is some draft's, a version's notes and
  /// labels are filed under that version's draft, and names are NFC with their current fold.
  private func checkOrganising() throws {
    let problems = try CheckQueries.organisingProblems(in: database)
    for tag in problems.unusedTags { report("tag \(Self.quotedName(tag))", "no draft has it, so it should be gone") }
    for versionID in problems.otherDraft {
      report(try versionLocation(versionID), "a note or label of it is filed under another draft")
    }
    // Invariants 1, 5 and 6: names in NFC, and folds that are this build's.
    for row in try CheckQueries.organisingNames(in: database) {
      let location = "\(row.kind) \(Self.quotedName(row.name))"
      if !row.name.unicodeScalars.elementsEqual(DraftFileName.canonicalName(row.name).unicodeScalars) {
        report(location, "its name is not in NFC, so it is not found as it is written")
      }
      if !row.foldIsCurrent { report(location, "its stored fold is not its name's fold, so searches miss it") }
    }
  }

  /// Invariant 2 of 0012: a revert repeats a version of its own draft, with the same file,
  /// and that version is an original (a revert of a revert names the original). A revert
  /// whose version is missing is the foreign key check's to report.
  private func checkReverts() throws {
    for problem in try CheckQueries.revertProblems(in: database) {
      let message =
        switch problem.kind {
        case .otherDraft: "it reverts to a version of another draft"
        case .otherFile: "it reverts to a version with another file, so it is not that version's copy"
        case .revertOfRevert: "it reverts to a version that is itself a revert (it should name the original)"
        }
      report(try versionLocation(problem.versionID), message)
    }
  }

  /// The denormalised counters of `draft` against its versions.
  private func checkDraftCounters() throws {
    for draft in try CheckQueries.draftCounterMismatches(in: database) {
      let name = "draft \(Self.quotedName(draft.name))"
      if draft.versionCount != draft.actualVersionCount {
        let count = draft.actualVersionCount
        report(name, "its version count says \(draft.versionCount) but it has \(count) version\(count == 1 ? "" : "s")")
      } else if !draft.newestIsItsOwn && draft.actualVersionCount > 0 {
        report(name, "its newest version is not one of its versions")
      } else {
        report(name, "its newest save time does not match its versions")
      }
    }
  }

  /// Invariants 1–3 of 0008 (2 as 0009 restates it: inks count once the drawing has its
  /// row): what `draft` keeps of its newest drawing and import times.
  private func checkNewestDrawingColumns() throws {
    for draft in try CheckQueries.newestDrawingMismatches(in: database) {
      let name = "draft \(Self.quotedName(draft.name))"
      if draft.strokes {
        report(name, "its newest drawing's stroke count (for strokes: searches) is out of date", inDrawingIndex: true)
      }
      if draft.inks {
        report(name, "its newest drawing's inks (for ink: searches) are out of date", inDrawingIndex: true)
      }
      if draft.importTimes { report(name, "its first and newest import times do not match its versions") }
    }
  }

  /// Invariant 3 of 0001: a delta's base is another blob, depth = base depth + 1.
  private func checkDeltaChains() throws {
    let delta = BlobEncoding.delta.rawValue
    for blob in try CheckQueries.deltaChainProblems(in: database) {
      let location = Self.blobLocation(blob.sha256, id: blob.id)
      guard let baseID = blob.baseID else {
        report(
          location,
          blob.encoding == delta ? "it is a delta without a base" : "it is a full blob of depth \(blob.depth), not 0")
        continue
      }
      if blob.encoding != delta {
        report(location, "it has a delta base but encoding \(blob.encoding), not \(delta)")
      } else if baseID == blob.id {
        report(location, "it is its own delta base")
      } else if let baseDepth = blob.baseDepth {
        if blob.depth > BlobStore.maxChainDepth {
          report(location, "its delta chain is \(blob.depth) deep, more than \(BlobStore.maxChainDepth)")
        } else {
          report(location, "its depth is \(blob.depth) over a base of depth \(baseDepth), not \(baseDepth + 1)")
        }
      }
      // A missing base: the foreign key check reports it.
    }
  }

  /// Envelopes whose drawing offset lies outside their text, or whose base64 style and
  /// verbatim text disagree.
  private func checkEnvelopes() throws {
    for envelope in try CheckQueries.envelopeProblems(in: database) {
      let location = "envelope \(envelope.id)"
      if envelope.drawingOffset < 0 || envelope.drawingOffset > envelope.textLength {
        report(
          location, "its drawing offset \(envelope.drawingOffset) lies outside its \(envelope.textLength) bytes of text"
        )
      } else {
        report(location, "its base64 style \(envelope.base64Style) does not match its verbatim base64 text")
      }
    }
  }

  /// Invariant 4 of 0001: one row per (draft, save time, file content).
  private func checkDuplicates() throws {
    for duplicate in try CheckQueries.duplicateVersions(in: database) {
      report(
        try versionLocation(duplicate.firstID), "it is stored \(duplicate.count) times (one row per file is expected)")
    }
  }

  /// File names that no file system folder can hold as one entry (a slash, NUL, `.`, `..`,
  /// empty, over 255 bytes): the import never stores such a name, so it was put there by
  /// hand. Restore writes a safe name instead. Control characters are not in this list:
  /// Linux allows them, and a name the disk had is a name the archive keeps.
  private func checkFileNames() throws {
    for version in try CheckQueries.unusableFileNames(in: database) {
      report(
        try versionLocation(version.versionID),
        "its file name \(Quoted.name(Self.shortened(version.fileName, to: 60))) is not a plain file name "
          + "(restore writes a safe name instead)")
    }
  }

  func count() {
    step("invariants") {
      let found = try CheckQueries.counts(in: database)
      counts.drafts = found.drafts
      counts.versions = found.versions
      counts.blobs = found.blobs
      counts.envelopes = found.envelopes
      counts.unusedBlobs = found.unusedBlobs
      counts.unusedEnvelopes = found.unusedEnvelopes
      unfinishedImports = try ImportRunRecords.unfinished(in: database)
    }
  }

  // MARK: 6: thumbnails

  /// Cached thumbnails: damaged rows are problems; rows nothing needs are counted (by
  /// ThumbnailRecords' one rule of what is needed, the one `gc` applies).
  func checkThumbnails() {
    step("thumbnails") {
      for row in try ThumbnailRecords.damaged(in: database) {
        let location = "thumbnail \(hexString(Array(row.key.prefix(6))))… (id \(row.id))"
        if !row.isPNG {
          report(location, "its data is not a PNG image")
        } else {
          report(location, "its size says \(row.byteSize) bytes, but it holds \(row.length)")
        }
      }
      (counts.thumbnails, counts.unneededThumbnails) = try ThumbnailRecords.neededCounts(
        rendererVersion: Renderer.version, in: database)
    }
  }

  // MARK: 5: every blob and every file (full)

  func checkFiles() {
    recordedDamage = try? DamageRecords.versionIDs(in: database)
    defer { listRepairs() }
    step("files") {
      let blobs = BlobStore(database)
      let indexer = DrawingIndexer()
      var templates: [Int64: EnvelopeTemplate] = [:]
      var done = 0
      let total = counts.blobs
      try CheckQueries.forEachBlob(in: database) { id, sha256, size in
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
        let versions = try CheckQueries.versionFiles(ofBlob: id, in: database)
        let blobName = Self.blobLocation(sha256, id: nil)
        if let blobProblem {
          if versions.isEmpty { report(Self.blobLocation(sha256, id: id), blobProblem) }
          for version in versions {
            damagedVersionIDs.insert(version.versionID)
            report(try versionLocation(version.versionID) + ": " + blobName, blobProblem)
          }
          return
        }
        guard let drawing else { return }
        let location =
          try versions.first.map { try versionLocation($0.versionID) + ": " + blobName }
          ?? Self.blobLocation(sha256, id: id)
        try checkDrawing(drawing, blobID: id, indexer: indexer, location: location)
        for version in versions {
          let (versionID, envelopeID, fileSHA256, fileSize) = (
            version.versionID, version.envelopeID, version.fileSHA256, version.fileSize
          )
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
          let rebuilds = SHA256.hash(file) == fileSHA256 && Int64(file.count) == fileSize
          if !rebuilds { damagedVersionIDs.insert(versionID) }
          if SHA256.hash(file) != fileSHA256 {
            report(
              try versionLocation(versionID),
              "its rebuilt file does not match its SHA-256 \(hexString(fileSHA256).prefix(12))… (envelope \(envelopeID), \(blobName))"
            )
          } else if Int64(file.count) != fileSize {
            report(
              try versionLocation(versionID), "its rebuilt file has \(file.count) bytes, but its size says \(fileSize)")
          } else if FileProof.envelope(of: file, holding: drawing, template: templates[envelopeID]!) == nil {
            report(
              try versionLocation(versionID),
              "its rebuilt file does not hold the drawing stored for it (envelope \(envelopeID), \(blobName))")
          } else {
            counts.filesVerified += 1
            counts.fileBytesVerified += fileSize
          }
        }
      }
      everyBlobRead = true
    }
  }

  /// The first `limit` damaged versions, each with the paths its sources recorded.
  private func listRepairs() {
    step("files") {
      for versionID in damagedVersionIDs.sorted().prefix(limit) {
        repairable.append(
          .init(
            location: try versionLocation(versionID),
            paths: try DamageRecords.sourcePaths(ofVersion: versionID, in: database)))
      }
    }
  }

  /// Decodes a drawing and compares it with its row in the drawing index. A drawing that
  /// does not decode is not a problem (the archive keeps such bytes as they are); an index
  /// that says something else about it is.
  private func checkDrawing(_ bytes: [UInt8], blobID: Int64, indexer: DrawingIndexer, location: String) throws {
    let facts = indexer.facts(of: bytes)
    if facts.status == .decoded { counts.drawingsDecoded += 1 } else { counts.drawingsOpaque += 1 }
    let row = try CheckQueries.indexRow(ofBlob: blobID, in: database)
    guard let row else {
      counts.drawingsNotIndexed += 1
      return
    }
    func name(_ status: DrawingFacts.Status) -> String {
      switch status {
      case .decoded: "decoded"
      case .unreadable: "not a format this build reads"
      case .damaged: "damaged"
      }
    }
    let said = DrawingFacts.Status(rawValue: row.status).map(name) ?? "status \(row.status)"
    if row.status != facts.status.rawValue {
      let now =
        facts.status == .decoded
        ? "it decodes" : "it is \(name(facts.status))" + (facts.problem.map { " (\($0))" } ?? "")
      report(location, "the drawing index says \(said), but \(now)", inDrawingIndex: true)
    } else if facts.status == .decoded
      && (row.strokes != facts.strokes.count || row.hidden != facts.hiddenCount || row.points != facts.pointCount
        || row.contentHash != facts.contentHash)
    {
      report(
        location,
        "the drawing index says \(row.strokes) strokes (\(row.hidden) hidden), \(row.points) points, but the drawing has "
          + "\(facts.strokes.count) (\(facts.hiddenCount) hidden), \(facts.pointCount), or another content hash",
        inDrawingIndex: true)
    } else if facts.status == .decoded {
      // The counts agree; the strokes `show` and `diff` read must be the drawing's too, stroke
      // for stroke (a stroke row lost, a stroke list emptied).
      do {
        let stored = try DrawingIndexRecords.read(blobID: blobID, in: database)
        if let stored, stored.facts.strokes != facts.strokes {
          report(
            location, "the drawing index lists other strokes than the drawing has", inDrawingIndex: true)
        }
      } catch let error as StoreError where error.kind == .damagedIndex {
        report(location, "the drawing index is damaged (\(error.message))", inDrawingIndex: true)
      }
    }
  }

  // MARK: - Locations

  /// "draft 'Cat' version 3", or "version row 12" when its draft is missing.
  func versionLocation(_ id: Int64) throws -> String {
    guard let place = try CheckQueries.versionPlace(id, in: database), let name = place.draftName else {
      return "version row \(id)"
    }
    return "draft \(Self.quotedName(name)) version \(place.number)"
  }

  func location(table: String, rowID: Int64) throws -> String {
    switch table {
    case "version": return try versionLocation(rowID)
    case "blob":
      return try CheckQueries.blobSHA256(rowID, in: database).map { Self.blobLocation($0, id: rowID) }
        ?? "blob \(rowID)"
    case "draft":
      return try CheckQueries.draftName(rowID, in: database).map { "draft \(Self.quotedName($0))" }
        ?? "draft row \(rowID)"
    default: return "\(table) row \(rowID)"
    }
  }

  /// "blob 4f2a9c1e07b3…", with its row id when given.
  static func blobLocation(_ sha256: [UInt8], id: Int64?) -> String {
    "blob \(hexString(Array(sha256.prefix(6))))…" + (id.map { " (id \($0))" } ?? "")
  }

  /// A draft's name in a problem's place, by the one rule for text that reaches a terminal:
  /// `'Cat'`, or quoted and escaped when printing it raw could mislead (`"Dog\u{202E}gnp"`,
  /// `"It's"`), shortened past `maximum` characters.
  static func quotedName(_ name: String, maximum: Int = 80) -> String {
    let short = shortened(name, to: maximum)
    return Quoted.needsQuoting(short) || short.contains("'") ? Quoted.escaped(short) : "'" + short + "'"
  }

  /// `text`, or its first `maximum - 1` characters and "…".
  static func shortened(_ text: String, to maximum: Int) -> String {
    text.count <= maximum ? text : String(text.prefix(maximum - 1)) + "…"
  }

  /// What a store error says is wrong (store messages name neither the archive nor advice).
  static func concise(_ error: StoreError) -> String {
    error.kind == .sqlite ? error.description : error.message
  }
}
