// Merging other archives into this one (`import A.sqlite B.sqlite`): every version of them,
// through the import's threads and writer in one run (ImportPipeline.swift, MergePreparer.swift:
// the writer meets each draft once, however many of the archives hold it).
//
// Another archive is input, not trust: each version is proven as an import proves a file
// (MergePreparer.swift), within the import's limits, before it is kept. What is kept: draft
// names, save and import dates, file names and facts, the drawings as stored (not compressed
// again), the sources of the versions merged (migration 0013; a version the other archive has
// no source for gets `options.source`, else the other archive's path). What is derived is
// derived here, never copied: the drawing index is built from the verified drawings, and
// thumbnails are drawn on demand (another archive's cached pictures could be of anything).
// Merging is idempotent and changes nothing already here: a version already here (same draft,
// save time and file; or, as an import finds a file, another draft's with the same save time,
// content and file name: the draft was renamed here) is counted and left as it is, without
// the other archive's sources.
//
// A version that cannot be proven (a number out of range, a drawing over the size limit or
// that does not decode as it would be stored here, a file that does not rebuild or does not
// hold the drawing shown) is damage: `salvage` leaves it out with its reason, and without it
// the run stops there with `.mergeStoppedAtDamage` (the batches before it are kept), as for
// any damaged version. Never a trap.
//
// The other archive is never written: one of an older schema is copied (SQLite's backup API)
// beside this archive, the copy upgraded and read, and removed afterwards.
//
// What people said about the drafts merged (stars, tags, notes, version labels) comes after
// their versions, checked row by row as they are (MergedOrganising.swift).
//
// The other archive's trash stays its own: only its live drafts are merged (a trashed draft
// there was meant to go). A draft in this archive's trash stays there: versions merged into
// it join it in the trash, as an imported file of a trashed draft does.

import FoundationEssentials
import InklingRendering
import InklingStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What merging another archive did.
public struct MergeSummary: Sendable, Equatable {
  /// The archive merged in, as given.
  public var path: String
  /// Versions stored, drafts created, versions already here, versions left out (`rejected`,
  /// when salvaging), file bytes, seconds.
  public var versions: ImportSummary
  /// The drafts in the other archive's trash, and their versions, which stay its own (not
  /// merged): said, so that nobody throws that archive away thinking it was all merged.
  public var draftsInTrashNotMerged = 0
  public var versionsInTrashNotMerged = 0
  /// The stars, tags, notes and labels carried to the drafts merged, and where the two
  /// archives disagree (MergedOrganising.swift).
  public var organising = MergedOrganising()
}

extension Archive {
  /// Whether the file at `path` is a SQLite database (its first 16 bytes). `import` merges
  /// such a file as an archive (`isNamedAsArchive`), and refuses it when it is not an inkling
  /// archive.
  public static func isSQLiteFile(atPath path: String) -> Bool {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
    var header = [UInt8](repeating: 0, count: 16)
    let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 16) }
    return count == 16 && header == Array("SQLite format 3\0".utf8)
  }

  /// Adds every version of the archive at `path` to this one: `merge(archivesAt:)` of one.
  ///
  /// - Throws: as `merge(archivesAt:salvage:options:)`.
  public func merge(archiveAt path: String, salvage: Bool = false, options: ImportOptions = ImportOptions())
    throws(ArchiveError) -> MergeSummary
  {
    try merge(archivesAt: [path], salvage: salvage, options: options)[0]
  }

  /// Adds every version of the archives at `paths` to this one, in one run: what merging them
  /// one after the other, in this order, would store, each counted apart.
  ///
  /// - Parameters:
  ///   - salvage: merge a damaged archive as far as it verifies: a version whose drawing or
  ///     file does not verify is left out and reported (`ImportEvent.rejected`), and the rest
  ///     is merged. Without it, the first such version ends the run.
  ///   - options: `source` (the label for versions an archive has no source for),
  ///     `workers`, `onEvent`.
  /// - Returns: what was merged from each archive, in the order of `paths`; each took the
  ///   whole run's seconds.
  /// - Throws: `ArchiveError.cannotMerge` when one of the archives cannot be read (not an
  ///   archive, a newer schema, changed outside this program, damaged: then nothing is
  ///   merged), `.mergeStoppedAtDamage` at the first version that does not verify (without
  ///   `salvage`; the batches written before it are merged) or when its stars, tags, notes
  ///   and labels cannot be read (its versions are merged), `.mergeIntoItself`, or
  ///   `ArchiveError` about this archive.
  public func merge(archivesAt paths: [String], salvage: Bool = false, options: ImportOptions = ImportOptions())
    throws(ArchiveError) -> [MergeSummary]
  {
    guard mode == .readWrite else { throw .openedReadOnly(path: self.path) }
    for path in paths where Self.sameFile(path, self.path) { throw .mergeIntoItself(path: path) }
    let started = Date()
    var readPaths: [String] = []
    defer {
      for (readPath, path) in zip(readPaths, paths) where readPath != path { Database.removeDatabaseFiles(readPath) }
    }
    for path in paths { readPaths.append(try readableCopy(of: path, salvage: salvage)) }
    let workingDirectory = FileManager.default.currentDirectoryPath
    let others = zip(paths, readPaths).map { path, readPath in
      let absolute = SourceLabel.absolute(path, in: workingDirectory)
      return ArchiveMerge.Other(
        readPath: readPath, displayPath: path,
        fallbackSource: SourceMark(label: options.source ?? absolute, path: absolute))
    }
    let merge = ArchiveMerge(
      others: others, archivePath: self.path, salvage: salvage, maximumFileSize: options.maximumFileSize)
    let run = try runImport(merge, options: options)
    var merged: [MergeSummary] = []
    for (index, (path, readPath)) in zip(paths, readPaths).enumerated() {
      var summary = MergeSummary(path: path, versions: run.byOrigin[index] ?? ImportSummary())
      let trashed = try Self.otherArchiveCall(path) {
        let other = try ArchiveDatabase.open(path: readPath, mode: .readOnly)
        defer { other.close() }
        return try DraftRecords.trashed(before: nil, in: other)
      }
      summary.draftsInTrashNotMerged = trashed.count
      summary.organising = try mergeOrganising(fromArchiveAt: readPath, path: path)
      // Counts as the other archive's rows say, which may be any number: summed saturating.
      summary.versionsInTrashNotMerged = trashed.reduce(0) { total, draft in
        let (sum, overflow) = total.addingReportingOverflow(max(0, draft.versionCount))
        return overflow ? .max : sum
      }
      merged.append(summary)
    }
    let seconds = Date().timeIntervalSince(started)
    for index in merged.indices { merged[index].versions.seconds = seconds }
    return merged
  }

  /// The file to read the other archive from: itself when this build reads its schema as it
  /// is, else an upgraded copy made beside this archive (the caller removes it). Unless
  /// salvaging, the other archive first passes SQLite's quick check, as SQLite advises for a
  /// database from elsewhere: damage in its pages is refused before any of it is read (merge
  /// then proves each version; `--salvage` takes what proves of a damaged one).
  private func readableCopy(of path: String, salvage: Bool) throws(ArchiveError) -> String {
    let (db, schema) = try Self.otherArchiveCall(path) { try ArchiveDatabase.openUnchanged(path: path) }
    defer { db.close() }
    if !salvage {
      let problems = try Self.otherArchiveCall(path) { try CheckQueries.quickCheckProblems(limit: 3, in: db) }
      if let first = problems.first {
        throw .cannotMerge(path: path, reason: .damaged(detail: "SQLite's quick check: \(first)"))
      }
    }
    guard schema < ArchiveDatabase.schemaVersion else { return path }
    let copy = self.path + ".merge-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sqlite"
    do {
      try db.backup(toNewFile: copy)
      try ArchiveDatabase.open(path: copy, mode: .readWrite).close()
    } catch {
      Database.removeDatabaseFiles(copy)
      throw ArchiveError(error, path: self.path)
    }
    return copy
  }

  /// Runs `body` on the other archive, turning its store errors into `.cannotMerge`.
  private static func otherArchiveCall<T>(_ path: String, _ body: () throws -> T) throws(ArchiveError) -> T {
    do {
      return try body()
    } catch let error as StoreError {
      throw .cannotMerge(path: path, reason: .init(error))
    } catch {
      throw .cannotMerge(path: path, reason: .failed(detail: "\(error)"))
    }
  }

  /// Whether two paths name one file (device and inode).
  static func sameFile(_ a: String, _ b: String) -> Bool {
    var first = stat()
    var second = stat()
    guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
    return first.st_dev == second.st_dev && first.st_ino == second.st_ino
  }
}
