// The archive as the app and the command line see it: one SQLite file holding every
// version of every draft. Each operation lives in its own file as an extension
// (Archive+Import.swift, Archive+Restore.swift, …).

import InklingStore

/// An open archive.
///
/// ```swift
/// let archive = try Archive(path: ArchiveLocation.defaultPath())
/// let summary = try archive.importFiles(at: ["/Users/me/Drafts"])
/// for draft in try archive.drafts() { print(draft.name, draft.versionCount) }
/// ```
/// An `Archive` holds one SQLite connection and is not shared between threads; open one
/// per thread (SQLite's WAL mode lets readers run beside one writer).
public final class Archive {
  /// How the archive is opened. Read-only commands never write and never create a file.
  public enum Mode: Sendable { case readWrite, readOnly }

  public let path: String
  public let mode: Mode
  let database: Database
  /// Searches' walk bound, kept between searches (SearchCompiler.walkBound).
  let walkBounds = WalkBounds()
  /// What draws every picture of a version; tests give it another version.
  var pictureRenderer = PictureRenderer()

  /// Opens (and, read-write, creates or migrates) the archive at `path`.
  ///
  /// - Throws: `ArchiveError.unusableArchive` when the file is not an inkling archive, was
  ///   written by a newer build, is damaged, or is locked for too long.
  public convenience init(path: String, mode: Mode = .readWrite) throws(ArchiveError) {
    try self.init(path: path, mode: mode, verifiesSchema: true)
  }

  /// Opens the archive; `verifiesSchema: false` accepts a schema that differs from the
  /// migrations' (only for `check`, which reports the differences: Archive+Check.swift).
  init(path: String, mode: Mode, verifiesSchema: Bool) throws(ArchiveError) {
    self.path = path
    self.mode = mode
    database = try InklingArchive.storeCall(path: path) {
      try ArchiveDatabase.open(
        path: path, mode: mode == .readOnly ? .readOnly : .readWrite, verifySchema: verifiesSchema)
    }
  }

  deinit { database.close() }
}
