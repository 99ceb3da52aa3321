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
// savepoint) and the drawings stay "not indexed" until `reindex`; no file is lost for it.

import Foundation
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
  /// Index rows waiting for the end of the batch (invariants 1 and 2).
  private var pendingIndex: [DrawingIndexJob] = []
  private var pendingIndexBlobs = Set<Int64>()
  /// Queued index rows are written once this many wait, to keep memory flat.
  static let pendingIndexLimit = 256
  private(set) var summary = ImportSummary()
  private var problemsRecorded = 0
  /// Problems beyond this many per run are reported but not kept in the import log.
  static let problemsKept = 10_000

  init(database: Database) throws {
    self.database = database
    drawingIndex = DrawingIndexWriter(database)
    // Statement journals in memory. Each file's savepoint, and the savepoint of a batch's
    // index rows, keep a copy of every page they first change; past 64 KiB SQLite spills
    // those copies to a temporary file, one write call per page, for every file imported
    // (https://www.sqlite.org/tempfiles.html, "Statement Journal Files"). A savepoint's
    // copies are a few hundred kilobytes, a batch's index rows' a few megabytes at most, all
    // freed at its release.
    try database.keepTemporaryDataInMemory(true)
    runID = try BusyRetry.run { try ImportRunRecords.start(at: Self.now(), in: database) }
    runLock = ImportRunLock(run: runID, archivePath: database.path)
  }

  /// The connection outlives the import: other work on it keeps SQLite's default
  /// (a large sort spills to a file, not to memory).
  deinit { try? database.keepTemporaryDataInMemory(false) }

  static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

  /// Stores one prepared file; returns what became of it.
  func write(_ file: PreparedFile) throws -> Result<ImportOutcome, ImportProblem> {
    try beginIfNeeded()
    var result = Result<ImportOutcome, ImportProblem>.success(.alreadyArchived)
    switch file {
    case .alreadyArchived(_, _, let bytes):
      summary.alreadyArchived += 1
      summary.bytesRead += bytes
    case .rejected(let path, let problem, let bytes):
      summary.bytesRead += bytes
      try reject(path, problem)
      return .failure(problem)
    case .version(let version):
      summary.bytesRead += version.entry.size
      do {
        let (outcome, index) = try database.savepoint { try insert(version) }
        if let index, pendingIndexBlobs.insert(index.blobID).inserted { pendingIndex.append(index) }
        switch outcome {
        case .inserted(let createdDraft):
          summary.versionsImported += 1
          if createdDraft { summary.draftsCreated += 1 }
          result = .success(.imported)
        case .alreadyArchived:
          summary.alreadyArchived += 1
        }
        pendingBytes += version.blob?.data.count ?? 0
      } catch let error as StoreError where error.kind == .sqlite || error.kind == .verification {
        // SQLite can roll the whole transaction back on an error (SQLITE_FULL, an I/O error):
        // the batch's earlier files are gone with it, and going on would store the rest one
        // statement at a time, beside index jobs and cached stroke ids of rows that are gone.
        // The import ends here; what earlier batches committed is complete.
        if inTransaction && database.isAutocommit {
          rollback()
          throw error
        }
        let problem = ImportProblem.notStored("\(error)")
        try reject(version.entry.path, problem)
        return .failure(problem)
      }
    }
    pendingFiles += 1
    if pendingIndex.count >= Self.pendingIndexLimit { try writeIndex() }
    try commitIfDue()
    return result
  }

  /// Writes the queued drawing index rows, under one savepoint: if they fail, they alone
  /// roll back and those drawings stay "not indexed" (`reindex` fills them in).
  private func writeIndex() throws {
    guard !pendingIndex.isEmpty else { return }
    defer {
      pendingIndex.removeAll(keepingCapacity: true)
      pendingIndexBlobs.removeAll(keepingCapacity: true)
    }
    do {
      try database.savepoint { try drawingIndex.write(pendingIndex) }
    } catch let error as StoreError where error.kind == .sqlite && !database.isAutocommit {
      // Stroke ids cached during the rolled-back savepoint may name rows that are gone.
      drawingIndex.forgetCache()
    }
  }

  /// Counts a path that is not a draft file.
  func ignore() { summary.ignored += 1 }

  /// Counts and logs a file that could not be imported.
  func reject(_ path: String, _ problem: ImportProblem) throws {
    let reason = problem.description
    summary.rejected += 1
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

  private enum Outcome {
    case inserted(createdDraft: Bool)
    case alreadyArchived
  }

  /// Stores one version; also returns the index rows its blob still needs, if any.
  private func insert(_ version: PreparedVersion) throws -> (Outcome, DrawingIndexJob?) {
    let now = Self.now()
    let draft = try VersionRecords.draftID(named: version.entry.name.draftName, createdMilliseconds: now, in: database)
    let blobs = BlobStore(database)
    let blobID: Int64
    var index: DrawingIndexJob?
    if let blob = version.blob {
      let stored = try blobs.insert(blob)
      blobID = stored.id
      if let facts = version.drawingFacts, !pendingIndexBlobs.contains(blobID),
        try stored.inserted || !drawingIndex.isIndexed(blobID)
      {
        index = DrawingIndexJob(facts: facts, blobID: blobID, isNew: stored.inserted, draftID: draft.id)
      }
    } else if let id = try blobs.id(ofSHA256: version.blobSHA256) {
      blobID = id
    } else {
      throw StoreError(
        kind: .verification,
        message: "its drawing was removed from the archive while it was being imported; import it again")
    }
    let envelopeID = try EnvelopeRecords.id(of: version.template, in: database)
    let inserted = try VersionRecords.insert(
      NewVersion(
        draftID: draft.id, savedMilliseconds: version.savedMilliseconds, savedSource: version.savedSource,
        importedMilliseconds: now, fileName: version.entry.fileName, fileSHA256: version.fileSHA256,
        fileSize: version.entry.size, fileModificationNanoseconds: version.entry.modificationNanoseconds,
        blobID: blobID, envelopeID: envelopeID, background: version.background),
      in: database)
    return (inserted == nil ? .alreadyArchived : .inserted(createdDraft: draft.created), index)
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

  private func commitIfDue() throws {
    if pendingFiles >= Self.batchFiles || pendingBytes >= Self.batchBytes
      || Date().timeIntervalSince(batchStarted) >= Self.batchSeconds
    {
      try commit()
    }
  }

  private func commit() throws {
    guard inTransaction else { return }
    try writeIndex()
    // A commit that fails with SQLITE_BUSY leaves the transaction open; retrying is safe.
    try BusyRetry.run { try database.commit() }
    inTransaction = false
    drawingIndex.transactionEnded()
    pendingFiles = 0
    pendingBytes = 0
  }

  /// Abandons the open batch (after an error that ends the import).
  func rollback() {
    guard inTransaction else { return }
    database.rollback()
    inTransaction = false
    pendingIndex.removeAll()
    pendingIndexBlobs.removeAll()
    drawingIndex.transactionEnded()
    drawingIndex.forgetCache()
  }
}
