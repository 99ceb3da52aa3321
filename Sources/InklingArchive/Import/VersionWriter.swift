// The writing half of an import: one thread, one connection, many files per transaction.
//
// Each file goes in under its own savepoint, so a file that fails rolls back alone and the
// rest of the batch commits: nothing is ever half-imported. A batch commits after enough
// files, bytes or time; a kill between commits loses only the uncommitted batch, which
// the next import redoes (importing is idempotent).
//
// Drawing index rows are written at the end of the batch (before the commit, in the same
// transaction), not inside each file's savepoint: in a savepoint SQLite copies every page it
// first changes to the statement journal (kept in memory, see `init`), and the
// index's rows touch pages of six B-trees per file (stroke, drawing and its two indexes,
// drawing_ink and its index); written together they touch each page once per batch, in
// order. Invariants: 1. a drawing is queued only after its file's savepoint was released,
// so a rolled-back file leaves no index rows; 2. a blob is queued at most once per batch.
// The index is derived data: if its writes fail, they roll back alone (their own
// savepoint), each drawing's rows are written again alone, and a drawing whose rows still
// fail stays "not indexed" until `reindex` (the summary counts it); no file is lost for it.
//
// A draft's row (its count, newest version, first and last times) is updated once for the
// versions of that draft that come one after another, not once per version (migration 0015):
// every update rewrites the row and the draft indexes holding those columns. Invariant 3: the
// pending update counts only versions whose savepoint was released, all of one draft, and is
// written before the batch commits, so a committed draft row always follows its versions.

import FoundationEssentials
import InklingFormats
import InklingStore

final class VersionWriter {
  /// Commit after this many files, this many stored bytes, or this many seconds, whichever
  /// comes first: large enough to amortise the WAL commit, small enough that readers and
  /// other writers never wait long.
  static let batchFiles = 500
  static let batchBytes = 16 << 20
  static let batchSeconds = 0.5

  private let database: Database
  private let drawingIndex: DrawingIndexWriter
  private let runID: Int64
  /// Held while the run is under way, so that `check` can tell it from an interrupted one.
  private var runLock: ImportRunLock?
  private var inTransaction = false
  private var pendingFiles = 0
  private var pendingBytes = 0
  private var batchStarted = Date()
  /// Index rows waiting for the end of the batch (invariants 1 and 2), each with the origin
  /// of the version that queued it.
  private var pendingIndex: [(job: DrawingIndexJob, origin: Int)] = []
  private var pendingIndexBlobs = Set<Int64>()
  /// The versions stored since the draft row was last updated, all of one draft (invariant 3).
  private var pendingDraft: DraftTally?
  /// Queued index rows are written once this many wait, to keep memory flat.
  static let pendingIndexLimit = 256
  private(set) var summary = ImportSummary()
  /// `summary` by the origin of the files (`WorkResult`): the archives of a merge.
  private(set) var summaryByOrigin: [Int: ImportSummary] = [:]
  /// What the batches committed so far stored: `summary` less the open batch.
  private(set) var committed = ArchiveError.CommittedImport()
  private var problemsRecorded = 0
  /// Problems beyond this many per run are reported but not kept in the import log.
  static let problemsKept = 10_000
  /// Source ids by label, valid while the rows exist: forgotten after any rollback, which may
  /// have removed a source inserted since the batch began.
  private var sourceIDs: [String: Int64] = [:]
  /// The draft the last version went to, and the envelopes of this batch, by template: most
  /// versions follow one of the same draft and share an envelope, so each saves two or three
  /// statements. Kept only within a batch and forgotten after any failure, as `sourceIDs`:
  /// a rollback can remove a row inserted since, and between batches another process can
  /// rename, delete or collect them.
  /// The draft the last version went to; `trashedNewestSave` as `VersionRecords.draftID` gives it.
  private var lastDraft: (name: String, id: Int64, trashedNewestSave: Int64?)?
  private var envelopeIDs: [EnvelopeTemplate: Int64] = [:]
  /// Blobs this batch stored as another version's delta base (`PreparedVersion.baseBlobs`):
  /// new to the archive, so without index rows when their own version comes. The first
  /// version that holds one (its blob encoded, or found stored) takes it out and indexes it
  /// as new; a later one (the same drawing saved again) finds its rows queued or, after a
  /// flush of the queue, written, and must not insert them again. Forgotten as `sourceIDs` are.
  private var basesStored = Set<Int64>()
  /// Versions this import stored into each draft that stayed in the trash, by draft id, then
  /// by origin.
  private var keptInTrash: [Int64: [Int: Int]] = [:]
  /// The versions this batch stored, reported once it commits (nil: nobody asked).
  private var pendingReports: [ImportedVersion]?
  private let onCommitted: (([ImportedVersion]) -> Void)?

  /// - Parameter onCommitted: called after each commit with the versions it stored, in order;
  ///   with it, the writer also numbers each version as `history` would.
  init(database: Database, onCommitted: (([ImportedVersion]) -> Void)? = nil) throws {
    self.database = database
    self.onCommitted = onCommitted
    pendingReports = onCommitted == nil ? nil : []
    drawingIndex = DrawingIndexWriter(database)
    // Statement journals in memory. Each file's savepoint, and the savepoint of a batch's
    // index rows, keep a copy of every page they first change; past 64 KiB SQLite spills
    // those copies to a temporary file, one write call per page, for every file imported
    // (SQLite's "Temporary Files Used By SQLite", "Statement Journal Files"). A savepoint's
    // copies are a few hundred kilobytes, a batch's index rows' a few megabytes at most, all
    // freed at its release.
    try database.keepTemporaryDataInMemory(true)
    // The run's row is committed only once its lock is held: `check` never sees a running
    // import without its lock, and never counts it as interrupted.
    (runID, runLock) = try BusyRetry.run {
      try database.transaction {
        let id = try ImportRunRecords.start(at: Self.now(), in: database)
        return (id, ImportRunLock(run: id, archivePath: database.path))
      }
    }
  }

  /// The connection outlives the import: other work on it keeps SQLite's default
  /// (a large sort spills to a file, not to memory).
  deinit { try? database.keepTemporaryDataInMemory(false) }

  static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

  /// Counts a change in `summary` and in the summary of `origin`.
  private func tally(_ origin: Int, _ change: (inout ImportSummary) -> Void) {
    change(&summary)
    change(&summaryByOrigin[origin, default: ImportSummary()])
  }

  /// Stores one prepared file, of `origin` (`WorkResult`); returns what became of it, and
  /// whether the batch committed after it.
  func write(_ file: PreparedFile, origin: Int = 0) throws -> (
    result: Result<ImportOutcome, ImportProblem>, committed: Bool
  ) {
    try beginIfNeeded()
    var result = Result<ImportOutcome, ImportProblem>.success(.alreadyArchived)
    switch file {
    case .alreadyArchived(let archived):
      tally(origin) {
        $0.alreadyArchived += 1
        $0.bytesRead += archived.bytes
      }
      // Another source delivering a file already archived: recorded beside the version the
      // preparer found, by its id (the draft's name may not be the file's any more). A version
      // removed since by another process gets nothing (SourceRecords.record).
      try record(
        archived.sources, versionID: archived.versionID, savedMilliseconds: archived.savedMilliseconds,
        fileSHA256: archived.fileSHA256)
      if let name = archived.renamedTo {
        try VersionRecords.setFileName(name, ofVersion: archived.versionID, in: database)
      }
      if let repair = archived.repair {
        do {
          let repaired = try database.savepoint { try self.repair(archived.versionID, with: repair) }
          tally(origin) { $0.versionsRepaired += repaired }
        } catch let error as StoreError where error.kind == .verification || error.kind == .corrupt {
          // The file does not rebuild the version (its envelope is what is damaged, or the
          // bytes stored differ): it stays damaged, and marked.
          tally(origin) { $0.versionsNotRepaired += 1 }
        }
      }
    case .rejected(let path, let problem, let bytes):
      tally(origin) { $0.bytesRead += bytes }
      try reject(path, problem, origin: origin)
      return (.failure(problem), false)
    case .version(let version):
      tally(origin) { $0.bytesRead += version.fileSize }
      var stored: StoredVersion?
      do {
        // The drawings a reverse chain's oldest version carries are the newer versions' as
        // much as its own: stored apart from it, so that a version refused here does not
        // take the newer ones' drawings with it.
        if !version.baseBlobs.isEmpty { try database.savepoint { try store(bases: version.baseBlobs) } }
        let (outcome, index) = try database.savepoint { try insert(version) }
        if let index, pendingIndexBlobs.insert(index.blobID).inserted {
          pendingIndex.append((index, origin))
        }
        switch outcome {
        case .inserted(let inserted, let createdDraft, let trash, let report):
          stored = inserted
          tally(origin) {
            $0.versionsImported += 1
            if createdDraft { $0.draftsCreated += 1 }
          }
          switch trash {
          case .broughtBack:
            tally(origin) { $0.draftsBroughtBack.append(version.draftName) }
            // Its older versions stored earlier in this import came back with it.
            for (kept, count) in keptInTrash.removeValue(forKey: inserted.draftID) ?? [:] {
              tally(kept) { $0.versionsInTrash -= count }
            }
          case .keptInTrash:
            tally(origin) { $0.versionsInTrash += 1 }
            keptInTrash[inserted.draftID, default: [:]][origin, default: 0] += 1
          case nil: break
          }
          if let report { pendingReports?.append(report) }
          result = .success(.imported)
        case .alreadyArchived:
          tally(origin) { $0.alreadyArchived += 1 }
        }
        pendingBytes += (version.blob?.data.count ?? 0) + version.baseBlobs.reduce(0) { $0 + $1.data.count }
      } catch let error as StoreError where error.kind == .full {
        // No file after this one would fit either: the import ends, and says what it committed.
        forgetRowIDs()
        rollback()
        throw error
      } catch let error as StoreError where error.kind == .sqlite || error.kind == .verification {
        forgetRowIDs()
        // SQLite can roll the whole transaction back on an error (SQLITE_FULL, an I/O error):
        // the batch's earlier files are gone with it, and going on would store the rest one
        // statement at a time, beside index jobs and cached stroke ids of rows that are gone.
        // The import ends here; what earlier batches committed is complete.
        if inTransaction && database.isAutocommit {
          rollback()
          throw error
        }
        let problem = ImportProblem.notStored("\(error)")
        try reject(version.path, problem, origin: origin)
        return (.failure(problem), false)
      }
      // Outside the catch above: a draft update that fails is not this file's problem but the
      // batch's, which then rolls back whole (the pending update is gone with it).
      if let stored { try count(stored) }
    }
    pendingFiles += 1
    if pendingIndex.count >= Self.pendingIndexLimit { try writeIndex() }
    return (result, try commitIfDue())
  }

  /// Records `sources` for version `versionID`, the file saved at `savedMilliseconds` with
  /// content `fileSHA256` (each source once: migration 0013).
  private func record(_ sources: [SourceMark], versionID: Int64, savedMilliseconds: Int64, fileSHA256: [UInt8])
    throws
  {
    for source in sources {
      let sourceID = try Self.id(source.label, in: &sourceIDs) {
        try SourceRecords.id(label: source.label, in: database)
      }
      try SourceRecords.record(
        versionID: versionID, savedMilliseconds: savedMilliseconds, fileSHA256: fileSHA256, sourceID: sourceID,
        path: source.path, runID: runID, in: database)
    }
  }

  /// Writes the queued drawing index rows, under one savepoint. If SQLite refuses them, each
  /// drawing's rows go again under a savepoint of their own: a drawing whose rows cannot be
  /// written stays "not indexed" alone (`reindex` fills it in), counted in the summary, and
  /// the others of the queue are indexed. No file is lost for it.
  private func writeIndex() throws {
    guard !pendingIndex.isEmpty else { return }
    defer {
      pendingIndex.removeAll(keepingCapacity: true)
      pendingIndexBlobs.removeAll(keepingCapacity: true)
    }
    guard try !writeIndexRows(pendingIndex.map(\.job)) else { return }
    for (job, origin) in pendingIndex where try !writeIndexRows([job]) {
      tally(origin) { $0.drawingsNotIndexed += 1 }
    }
  }

  /// Writes `jobs`' index rows under a savepoint; false when SQLite refused them, and they
  /// rolled back alone.
  private func writeIndexRows(_ jobs: [DrawingIndexJob]) throws -> Bool {
    do {
      try database.savepoint { try drawingIndex.write(jobs) }
      return true
    } catch let error as StoreError where error.kind == .sqlite && !database.isAutocommit {
      // Stroke ids cached during the rolled-back savepoint may name rows that are gone.
      drawingIndex.forgetCache()
      return false
    }
  }

  /// Counts a path that is not a draft file, or a save not downloaded yet.
  func ignore(_ reason: IgnoredReason) {
    if case .notDownloaded(let draft) = reason {
      tally(0) { $0.savesNotDownloaded[draft, default: 0] += 1 }
    } else {
      tally(0) { $0.ignored += 1 }
    }
  }

  /// Counts and logs a file, of `origin`, that could not be imported.
  func reject(_ path: String, _ problem: ImportProblem, origin: Int = 0) throws {
    let reason = problem.description
    tally(origin) { $0.rejected += 1 }
    guard problemsRecorded < Self.problemsKept else { return }
    problemsRecorded += 1
    try beginIfNeeded()
    try ImportRunRecords.recordProblem(run: runID, path: path, reason: reason, in: database)
  }

  /// Commits what is pending and closes the run's log entry.
  func finish(seconds: Double) throws -> ImportSummary {
    summary.seconds = seconds
    try beginIfNeeded()
    let counts = ImportRunCounts(
      versionsImported: summary.versionsImported, draftsCreated: summary.draftsCreated,
      alreadyArchived: summary.alreadyArchived, ignored: summary.ignored, rejected: summary.rejected,
      bytesRead: summary.bytesRead)
    try ImportRunRecords.finish(run: runID, at: Self.now(), counts: counts, in: database)
    try commit()
    runLock = nil  // after the finish is committed (ImportRunLock, invariant 1)
    return summary
  }

  // MARK: - One version

  /// What storing a version did to a draft in the trash.
  private enum TrashEffect { case broughtBack, keptInTrash }

  private enum Outcome {
    case inserted(StoredVersion, createdDraft: Bool, trash: TrashEffect?, report: ImportedVersion?)
    case alreadyArchived
  }

  /// What a version inserted changes in its draft's row.
  private struct StoredVersion {
    let id: Int64
    let draftID: Int64
    let savedMilliseconds: Int64
    let importedMilliseconds: Int64
  }

  /// Adds a version whose savepoint was released to the pending draft update, writing the
  /// pending one first when it is another draft's (invariant 3).
  private func count(_ version: StoredVersion) throws {
    if let pending = pendingDraft, pending.draftID != version.draftID { try updateDraft() }
    var tally = pendingDraft ?? DraftTally(draftID: version.draftID)
    tally.add(
      versionID: version.id, savedMilliseconds: version.savedMilliseconds,
      importedMilliseconds: version.importedMilliseconds)
    pendingDraft = tally
  }

  /// Writes the pending draft update, if any.
  private func updateDraft() throws {
    guard let pending = pendingDraft else { return }
    pendingDraft = nil
    try VersionRecords.add(pending, in: database)
  }

  /// Repairs damaged version `versionID` from its file's drawing: the version's blob row is
  /// stored again whole (BlobStore.repair, read back and re-hashed), then the version's file
  /// is rebuilt and compared with its SHA-256 before the savepoint is released. Marked
  /// versions whose drawings are deltas over the repaired one are verified too: they may have
  /// been damaged only through it. Returns how many versions rebuild now and lost their mark.
  ///
  /// - Throws: `StoreError(.verification)` when the drawing is not the version's or the
  ///   version still does not rebuild (the caller's savepoint rolls it all back).
  private func repair(_ versionID: Int64, with repair: VersionRepair) throws -> Int {
    guard let target = try DamageRecords.target(ofVersion: versionID, in: database),
      target.blobSHA256 == repair.blob.sha256
    else {
      throw StoreError(
        kind: .verification, message: "the file's drawing is not the damaged version's", path: database.path)
    }
    let blobs = BlobStore(database)
    try blobs.repair(target.blobID, with: repair.blob)
    var repaired = 0
    var repairedThis = false
    let affected = [target.blobID] + (try blobs.descendants(ofBlob: target.blobID))
    for id in try DamageRecords.versionIDs(usingBlobs: affected, in: database) where try rebuilds(id, blobs) {
      try DamageRecords.clear(versionID: id, in: database)
      repaired += 1
      if id == versionID { repairedThis = true }
    }
    guard repairedThis else {
      throw StoreError(
        kind: .verification, message: "the version does not rebuild its file after its drawing was stored again",
        path: database.path)
    }
    return repaired
  }

  /// Whether version `versionID` rebuilds the file it was imported from now.
  private func rebuilds(_ versionID: Int64, _ blobs: BlobStore) throws -> Bool {
    guard let target = try DamageRecords.target(ofVersion: versionID, in: database) else { return false }
    do {
      let drawing = try blobs.bytes(ofBlob: target.blobID)
      let template = try EnvelopeRecords.template(target.envelopeID, in: database)
      return SHA256.hash(template.rebuild(drawing: drawing)) == target.fileSHA256
    } catch let error as StoreError where error.kind == .corrupt || error.kind == .notFound {
      return false
    }
  }

  /// Stores the delta bases a version brings along (`PreparedVersion.baseBlobs`), bases first.
  private func store(bases: [EncodedBlob]) throws {
    let blobs = BlobStore(database)
    for base in bases {
      let (id, stored) = try blobs.insert(base)
      if stored { basesStored.insert(id) }
    }
  }

  /// Stores one version and its sources; also returns the index rows its blob still needs.
  private func insert(_ version: PreparedVersion) throws -> (Outcome, DrawingIndexJob?) {
    let now = Self.now()
    let draft: (id: Int64, created: Bool, trashedNewestSave: Int64?)
    if let last = lastDraft, last.name == version.draftName {
      draft = (last.id, false, last.trashedNewestSave)
    } else {
      draft = try VersionRecords.draftID(named: version.draftName, createdMilliseconds: now, in: database)
      lastDraft = (version.draftName, draft.id, draft.trashedNewestSave)
    }
    let blobs = BlobStore(database)
    let blobID: Int64
    var inserted = false
    if let blob = version.blob {
      (blobID, inserted) = try blobs.insert(blob)
    } else if let id = try blobs.id(ofSHA256: version.blobSHA256) {
      blobID = id
    } else {
      throw StoreError(
        kind: .verification,
        message: "its drawing was removed from the archive while it was being imported; import it again")
    }
    if basesStored.remove(blobID) != nil { inserted = true }
    var index: DrawingIndexJob?
    if let facts = version.drawingFacts, !pendingIndexBlobs.contains(blobID),
      try inserted || !drawingIndex.isIndexed(blobID)
    {
      index = DrawingIndexJob(facts: facts, blobID: blobID, isNew: inserted, draftID: draft.id)
    }
    let envelopeID = try Self.id(version.template, in: &envelopeIDs) {
      try EnvelopeRecords.id(of: version.template, in: database)
    }
    let importedMilliseconds = version.importedMilliseconds ?? now
    let versionID = try VersionRecords.insertLeavingDraft(
      NewVersion(
        draftID: draft.id, savedMilliseconds: version.savedMilliseconds, savedSource: version.savedSource,
        importedMilliseconds: importedMilliseconds, fileName: version.fileName,
        fileSHA256: version.fileSHA256, fileSize: version.fileSize,
        fileModificationNanoseconds: version.fileModificationNanoseconds, blobID: blobID, envelopeID: envelopeID,
        background: version.background),
      in: database)
    guard let versionID else {
      // The same file from this run, found twice (two folders, two merged archives).
      if let existing = try VersionRecords.id(
        draftID: draft.id, savedMilliseconds: version.savedMilliseconds, fileSHA256: version.fileSHA256,
        in: database)
      {
        try record(
          version.sources, versionID: existing, savedMilliseconds: version.savedMilliseconds,
          fileSHA256: version.fileSHA256)
        if let stored = try VersionRecords.fileName(ofVersion: existing, in: database),
          let name = VersionFileName.replacement(for: stored, by: version.fileName)
        {
          try VersionRecords.setFileName(name, ofVersion: existing, in: database)
        }
      }
      return (.alreadyArchived, index)
    }
    try record(
      version.sources, versionID: versionID, savedMilliseconds: version.savedMilliseconds,
      fileSHA256: version.fileSHA256)
    // The newest work is never hidden: a save newer than anything the draft held when it went
    // to the trash brings it back; an older version found late stays with it there.
    var trash: TrashEffect?
    if let newest = draft.trashedNewestSave {
      if version.savedMilliseconds > newest {
        try DraftRecords.takeOutOfTrash(draft.id, in: database)
        lastDraft = (version.draftName, draft.id, nil)
        trash = .broughtBack
      } else {
        trash = .keptInTrash
      }
    }
    var report: ImportedVersion?
    if pendingReports != nil {
      report = ImportedVersion(
        draft: version.draftName,
        number: try VersionRecords.number(
          ofVersion: versionID, draftID: draft.id, savedMilliseconds: version.savedMilliseconds, in: database),
        saved: Archive.date(version.savedMilliseconds), savedFromFileName: version.savedSource == .fileName,
        path: version.path, fileSize: version.fileSize, source: version.sources.first?.label, newDraft: draft.created,
        broughtBackFromTrash: trash == .broughtBack)
    }
    let stored = StoredVersion(
      id: versionID, draftID: draft.id, savedMilliseconds: version.savedMilliseconds,
      importedMilliseconds: importedMilliseconds)
    return (.inserted(stored, createdDraft: draft.created, trash: trash, report: report), index)
  }

  // MARK: - Batches

  private func beginIfNeeded() throws {
    guard !inTransaction else { return }
    // An immediate transaction takes the write lock now, so a busy archive fails here,
    // before any work of the batch is done, rather than at the first write.
    // BusyRetry: another import's batch can hold the lock past the busy timeout.
    try BusyRetry.run { try database.beginImmediate() }
    inTransaction = true
    batchStarted = Date()
  }

  /// Commits when the batch is due; returns whether it did.
  private func commitIfDue() throws -> Bool {
    guard
      pendingFiles >= Self.batchFiles || pendingBytes >= Self.batchBytes
        || Date().timeIntervalSince(batchStarted) >= Self.batchSeconds
    else { return false }
    try commit()
    return true
  }

  /// Commits the open batch, if any (an import being stopped ends its batch here).
  private func commit() throws {
    guard inTransaction else { return }
    try writeIndex()
    // After the index rows: the draft's newest drawing is then read once, with its row there.
    try updateDraft()
    // A commit that fails with SQLITE_BUSY leaves the transaction open; retrying is safe.
    try BusyRetry.run { try database.commit() }
    inTransaction = false
    committed = .init(versions: summary.versionsImported, draftsCreated: summary.draftsCreated)
    forgetRowIDs()
    drawingIndex.transactionEnded()
    pendingFiles = 0
    pendingBytes = 0
    if let reports = pendingReports, !reports.isEmpty {
      pendingReports = []
      onCommitted?(reports)
    }
  }

  /// The id `cache` holds for `key`, else the one `find` gives, remembered.
  private static func id<Key: Hashable>(_ key: Key, in cache: inout [Key: Int64], find: () throws -> Int64) rethrows
    -> Int64
  {
    if let known = cache[key] { return known }
    let id = try find()
    cache[key] = id
    return id
  }

  /// Forgets the ids cached for the batch (`sourceIDs`, `lastDraft`, `envelopeIDs`,
  /// `basesStored`).
  private func forgetRowIDs() {
    sourceIDs.removeAll()
    lastDraft = nil
    envelopeIDs.removeAll()
    basesStored.removeAll()
  }

  /// Abandons the open batch (after an error that ends the import).
  func rollback() {
    guard inTransaction else { return }
    database.rollback()
    inTransaction = false
    pendingIndex.removeAll()
    pendingIndexBlobs.removeAll()
    pendingDraft = nil
    forgetRowIDs()
    if pendingReports != nil { pendingReports = [] }
    drawingIndex.transactionEnded()
    drawingIndex.forgetCache()
  }
}
