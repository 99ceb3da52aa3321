// `export`: drafts out of the archive into one folder, every file byte for byte what was
// imported, under its file name (after a rename, the new name) and modification time. It is
// also the salvage path of a damaged archive: what still verifies is written, what does not
// is named in the report, and the rest goes on.
//
// Steps, all in one read transaction (one snapshot, however long the export runs):
//   1. choose   the drafts the query matches (live ones, or the trash), and of each its newest
//               version or every version, into a temporary table (ExportSelection);
//   2. name     every chosen version in the order it was archived, by FolderNaming's rule, the
//               names given out kept in a temporary table: memory stays flat at any size;
//   3. write    draft by draft in save order (each delta's base was just read): a file already
//               there with the same bytes is left as it is (a re-export writes nothing); one
//               with other bytes is left alone and reported, unless `overwrite`; otherwise the
//               bytes are rebuilt, checked against their SHA-256, written to a temporary file
//               and linked into place (FileOutput). Pictures likewise, beside their files
//               (PNG, SVG, PDF: the same page, named by the same rule, each on its own).
//   4. manifest inkling-export.json, streamed as files are written (ExportManifest.swift),
//               then the files of earlier exports into the folder that are still there
//               (EarlierExport.swift): an earlier file's version keeps its name, and no other
//               version is given it.
//
// Stopping (`ExportOptions.shouldStop`, asked before each version): the versions not reached
// are not written, and steps 3 and 4 end as they do after the last version: the files staged
// (whole already) are committed, no temporary file stays, and the manifest lists what is in
// the folder. Without it the files written would be listed nowhere, and importing the folder
// would take a renamed draft's files, or names made safe, for drafts of those names.
// Exporting again finds this manifest's files as an earlier export's, so they keep their
// names, and writes the rest.
//
// Invariants: nothing is written outside `folder` (names are FolderNaming.safeName's: one
// path component, never `.` or `..`; existing names are never followed); every file named in
// the manifest is in the folder with the listed bytes; a version that fails its check is
// never written.

import FoundationEssentials
import InklingFormats
import InklingStore

/// How `export` works.
public struct ExportOptions: Sendable {
  /// Every version of each draft, not only the newest.
  public var allVersions = false
  /// Also the share image of each version in these formats beside its file: `NAME.png`,
  /// `NAME.svg`, `NAME.pdf` beside `NAME.inkling`.
  public var pictures: Set<PictureFormat> = []
  /// Pixels per point of the pictures.
  public var pictureScale = 2.0
  /// Replace files that are in the way with other bytes, instead of leaving them alone.
  public var overwrite = false
  /// Called now and then, from the calling thread.
  public var onProgress: (@Sendable (ExportProgress) -> Void)?
  /// Asked before each version is written, from the calling thread; true ends the export
  /// there (`ExportReport.stopped`): what it wrote is in the folder and in its manifest, and
  /// exporting again writes the rest.
  public var shouldStop: (@Sendable () -> Bool)?

  public init(
    allVersions: Bool = false, pictures: Set<PictureFormat> = [], pictureScale: Double = 2, overwrite: Bool = false,
    onProgress: (@Sendable (ExportProgress) -> Void)? = nil, shouldStop: (@Sendable () -> Bool)? = nil
  ) {
    self.allVersions = allVersions
    self.pictures = pictures
    self.pictureScale = pictureScale
    self.overwrite = overwrite
    self.onProgress = onProgress
    self.shouldStop = shouldStop
  }
}

/// How far an export has got.
public struct ExportProgress: Sendable, Equatable {
  public var versionsDone: Int
  public var versionsTotal: Int
  public var bytesDone: Int64
  public var bytesTotal: Int64
}

/// What `export` did.
public struct ExportReport: Sendable, Equatable {
  /// A version, or its picture, that is not in the folder as the export would have it.
  public struct Problem: Sendable, Equatable {
    public enum Kind: String, Sendable {
      /// The version does not rebuild the file it was imported from: nothing was written.
      case damaged
      /// A file with other bytes has the name: left alone (replaced with overwriting).
      case exists
      /// Something that is not a regular file has the name (a folder, a symbolic link, a FIFO,
      /// a device): left alone even with overwriting, which replaces regular files only.
      case notAFile
      /// The drawing cannot be read, so its picture is the placeholder thumbnails show (the
      /// background with a crossed-out frame); its file was written.
      case placeholderPicture
    }
    public var kind: Kind
    public var draft: String
    public var version: Int
    /// The file that was not written.
    public var path: String
    public var detail: String
  }

  /// A file written under another name than the one it was imported with, because its name
  /// was not safe or another file of the export has it (`FileNameChange`). Files of renamed
  /// drafts, which carry the new name as expected, are not listed (the manifest has them).
  public struct RenamedFile: Sendable, Equatable {
    public var path: String
    public var renamedFrom: String
    public var change: FileNameChange
  }

  public var folder: String
  /// The manifest's path.
  public var manifest: String
  /// False when the folder held the same manifest already.
  public var manifestWritten = false
  /// Drafts that matched.
  public var drafts = 0
  /// Versions chosen.
  public var versions = 0
  public var filesWritten = 0
  /// Files that were in the folder with the right bytes already.
  public var filesUnchanged = 0
  /// Files written over another file (with `overwrite`).
  public var filesReplaced = 0
  public var picturesWritten = 0
  public var picturesUnchanged = 0
  /// Files of earlier exports into the folder that this one did not choose, still there with
  /// their bytes: the manifest lists them too.
  public var earlierFilesListed = 0
  /// Bytes of the files and pictures written.
  public var bytesWritten: Int64 = 0
  public var renamed: [RenamedFile] = []
  public var problems: [Problem] = []
  /// `ExportOptions.shouldStop` ended the export before the last version: the counts are of
  /// the versions it reached.
  public var stopped = false
  public var seconds = 0.0

  /// Nothing was written: the folder held every file already, and the same manifest.
  public var wroteNothing: Bool { filesWritten == 0 && picturesWritten == 0 && !manifestWritten }
  /// Every chosen version is in the folder (pictures aside): not stopped, nothing damaged,
  /// nothing left alone.
  public var isComplete: Bool { !stopped && !problems.contains { $0.kind != .placeholderPicture } }
}

extension Archive {
  /// Writes the drafts `query` matches into `folder` (created when missing), with a manifest.
  ///
  /// ```swift
  /// let report = try archive.export(matching: DraftQuery(since: "2025-10"), to: "/tmp/out",
  ///                                 options: ExportOptions(allVersions: true))
  /// for problem in report.problems { print(problem.path, problem.detail) }
  /// ```
  /// - Throws: `ArchiveError.noMatchingDrafts` (and nothing is written),
  ///   `.fileSystem` when the folder or a file cannot be written (the
  ///   export stops there; what it wrote stays), `.invalidArgument` for a picture scale out
  ///   of range, `.unusableArchive` when the archive cannot be read at all. Damaged versions
  ///   and names in the way are problems in the report, not errors; a stop asked through
  ///   `options.shouldStop` is `ExportReport.stopped`.
  public func export(matching query: DraftQuery = .all, to folder: String, options: ExportOptions = ExportOptions())
    throws(ArchiveError) -> ExportReport
  {
    guard options.pictureScale.isFinite, options.pictureScale > 0, options.pictureScale <= 16 else {
      throw .invalidArgument(.renderScale(options.pictureScale))
    }
    let started = Date()
    var report = ExportReport(folder: folder, manifest: OutputPath.joining(folder, ExportManifest.fileName))
    try storeCall {
      // A snapshot, rolled back at the end: on a damaged file the COMMIT of a read transaction
      // can itself fail with SQLITE_CORRUPT after the damage was met and reported version by
      // version, which would turn a salvage that wrote everything it could into an error.
      try database.snapshot { () throws -> Void in
        let selection = try ExportSelection(database)
        try choose(query, allVersions: options.allVersions, into: selection, &report)
        guard report.drafts > 0 else { throw ArchiveError.noMatchingDrafts }
        // The search maps the file; reading every blob through the map would bound memory by
        // the archive's size, not the export's batch.
        try selection.readThroughPageCache()
        try FileOutput.makeFolder(folder)
        Leftovers.remove(.file, in: folder)
        // A table of the names given out, dropped when the export ends.
        let keys = try TemporaryKeySet(database, label: "export")
        let earlier = EarlierFilesInFolder(folder: folder)
        try name(
          selection, naming: FolderNaming(taken: TakenNamesInStore(keys, archivePath: path)), earlier: earlier,
          options, &report)
        try write(selection, to: folder, earlier: earlier, options, &report)
      }
    }
    report.seconds = Date().timeIntervalSince(started)
    return report
  }

  // MARK: - Steps

  /// Step 1: the versions to export.
  private func choose(
    _ query: DraftQuery, allVersions: Bool, into selection: ExportSelection, _ report: inout ExportReport
  )
    throws
  {
    var failure: (any Error)?
    var drafts = 0
    try forEachDraft(matching: query) { draft in
      guard failure == nil else { return }
      drafts += 1
      do {
        try selection.add(draftNamed: draft.name, allVersions: allVersions)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    report.drafts = drafts
    report.versions = try selection.size().versions
  }

  /// Step 2: every version's name (and its pictures'), in the order versions were archived.
  /// A version an earlier export wrote into the folder keeps the name it was given then, and
  /// so do its pictures.
  private func name(
    _ selection: ExportSelection, naming: FolderNaming, earlier: EarlierFilesInFolder, _ options: ExportOptions,
    _ report: inout ExportReport
  ) throws {
    // Taken first, so that no file can have the manifest's name, nor one of an earlier
    // export's files unless it is the version that file holds.
    _ = try naming.name(for: ExportManifest.fileName, fallback: ExportManifest.fileName)
    for file in earlier.files { _ = try naming.distinct(file.name) }
    var renamed: [ExportReport.RenamedFile] = []
    try selection.forEachInArchiveOrder { row in
      var (name, change): (String, FileNameChange?)
      let earlierName = earlier.claim(
        draft: row.draftName, savedMilliseconds: row.savedMilliseconds, sha256: row.fileSHA256)
      if let earlierName {
        let natural = try Self.fileName(of: row, in: nil)
        name = earlierName
        change = earlierName == row.fileName ? nil : earlierName == natural.name ? natural.change : .sharedName
      } else {
        (name, change) = try Self.fileName(of: row, in: naming)
      }
      var pictures: [String: String] = [:]
      for format in PictureFormat.allCases where options.pictures.contains(format) {
        let wanted = Self.pictureName(for: name, format)
        pictures[format.rawValue] =
          earlierName != nil && earlier.hasPicture(named: wanted)
          ? wanted
          : try naming.name(for: wanted, fallback: Self.pictureName(for: Self.fallbackFileName(row), format))
      }
      try selection.setFileName(name, pictures: pictures, forVersion: row.id)
      if let change, change != .draftRenamed {
        renamed.append(.init(path: OutputPath.joining(report.folder, name), renamedFrom: row.fileName, change: change))
      }
    }
    report.renamed = renamed
  }

  /// Step 3 and 4: the files, the pictures and the manifest.
  private func write(
    _ selection: ExportSelection, to folder: String, earlier: EarlierFilesInFolder, _ options: ExportOptions,
    _ report: inout ExportReport
  ) throws {
    let writer = try ExportWriter(folder: folder, overwrite: options.overwrite, earlier: earlier, report: report)
    let total = try selection.size()
    var progress = ExportProgress(versionsDone: 0, versionsTotal: total.versions, bytesDone: 0, bytesTotal: total.bytes)
    var lastProgress = Date.distantPast
    var stopped = false
    // What was said about each draft written (ExportedMarks), made when the selection, which
    // goes draft by draft, moves past it: only the drafts with something said are kept, never
    // a row per version exported.
    var marks: [JSONValue] = []
    var current: (id: Int64, name: String, versions: [Int64: ExportedMarks.Version])?
    func finishDraft() throws {
      guard let draft = current else { return }
      current = nil
      if let entry = try ExportedMarks.entry(
        draftID: draft.id, name: draft.name, versions: draft.versions, in: database)
      {
        marks.append(entry)
      }
    }
    try selection.forEachToWrite { item in
      if options.shouldStop?() == true {
        stopped = true
        return false
      }
      let file = try exportFile(item, writer)
      if file.verified {
        let row = item.version
        if current?.id != row.draftID {
          try finishDraft()
          current = (row.draftID, row.draftName, [:])
        }
        current?.versions[row.id] = ExportedMarks.Version(
          number: item.number, savedMilliseconds: row.savedMilliseconds, fileSHA256: row.fileSHA256)
        for format in PictureFormat.allCases {
          guard let pictureName = item.pictureNames[format.rawValue] else { continue }
          try exportPicture(item, named: pictureName, format, drawing: file.drawing, options, writer)
        }
      }
      try writer.commitIfDue()
      progress.versionsDone += 1
      progress.bytesDone += item.version.fileSize
      if let onProgress = options.onProgress, Date().timeIntervalSince(lastProgress) >= 0.1 {
        lastProgress = Date()
        onProgress(progress)
      }
      return true
    }
    try finishDraft()
    report = try writer.finish(drafts: marks)
    report.stopped = stopped
    options.onProgress?(progress)
  }

  /// One version's file; returns whether the version verified (or was there already), so
  /// that its picture may follow, and its drawing's bytes when they were read, so that the
  /// picture does not decode them again.
  private func exportFile(_ item: ExportItem, _ writer: ExportWriter) throws -> (verified: Bool, drawing: [UInt8]?) {
    let row = item.version
    let file = ExportWriter.File(
      draft: row.draftName, version: item.number, savedMilliseconds: row.savedMilliseconds, name: item.fileName,
      kind: .inkling, size: row.fileSize, sha256: row.fileSHA256,
      renamedFrom: item.fileName == row.fileName ? nil : row.fileName)
    let existing = ExistingFile.at(writer.path(of: file), expectedSize: row.fileSize)
    guard writer.mayWrite(file, over: existing) else { return (true, nil) }
    let bytes: (file: [UInt8], drawing: [UInt8])
    do {
      bytes = try verifiedFile(of: row, number: item.number)
    } catch {
      guard let detail = Self.damage(error) else { throw error }
      writer.problem(.damaged, file, detail)
      return (false, nil)
    }
    try writer.write(bytes.file, file, modificationNanoseconds: row.fileModificationNanoseconds, over: existing)
    return (true, bytes.drawing)
  }

  /// One version's share image in `format`, beside its file; `drawing` is its drawing's
  /// bytes when the file's export read them.
  private func exportPicture(
    _ item: ExportItem, named name: String, _ format: PictureFormat, drawing: [UInt8]?, _ options: ExportOptions,
    _ writer: ExportWriter
  ) throws {
    let row = item.version
    let info = VersionInfo(
      draftName: row.draftName, number: item.number, saved: Self.date(row.savedMilliseconds),
      savedFromFileName: row.savedSource == .fileName, imported: Self.date(row.importedMilliseconds),
      fileName: item.fileName, fileSize: row.fileSize, fileSHA256: hexString(row.fileSHA256),
      background: row.background, drawingSHA256: "", drawingSize: 0, strokeCount: nil, sameDrawingAs: nil)
    var file = ExportWriter.File(
      draft: row.draftName, version: item.number, savedMilliseconds: row.savedMilliseconds, name: name,
      kind: ExportWriter.File.Kind(format), size: 0, sha256: [], renamedFrom: nil)
    let bytes: [UInt8]
    do {
      let picture = try renderPicture(row, info: info, scale: options.pictureScale, drawing: drawing, format: format)
      bytes = picture.bytes
      // The placeholder, as a thumbnail or a contact sheet shows it: the folder keeps one
      // picture per file.
      if let reason = picture.unreadable { writer.problem(.placeholderPicture, file, reason) }
    } catch {
      guard let detail = Self.damage(error) else { throw error }
      writer.problem(.damaged, file, detail)
      return
    }
    file.size = Int64(bytes.count)
    file.sha256 = SHA256.hash(bytes)
    let existing = ExistingFile.at(writer.path(of: file), expectedSize: file.size)
    guard writer.mayWrite(file, over: existing) else { return }
    try writer.write(bytes, file, modificationNanoseconds: row.fileModificationNanoseconds, over: existing)
  }

  // MARK: - Helpers

  /// `NAME.png` (`.svg`, `.pdf`) for `NAME.inkling`.
  static func pictureName(for fileName: String, _ format: PictureFormat) -> String {
    let stem = fileName.lowercased().hasSuffix(".inkling") ? String(fileName.dropLast(".inkling".count)) : fileName
    return stem + "." + format.rawValue
  }

  /// What a damaged version's error says, or nil for an error that is not damage.
  static func damage(_ error: any Error) -> String? {
    switch error {
    case ArchiveError.damagedVersion(_, _, _, let detail): detail
    case ArchiveError.unusableArchive(_, .damaged(let detail, _)): detail
    case let error as StoreError where error.kind == .corrupt || error.kind == .verification: error.message
    default: nil
    }
  }
}
