// `rename`: a draft gets another name and keeps every version. The files' contents do not
// hold the name, so nothing stored changes but the draft row: files restored or exported
// afterwards are named from the draft's current name (`Archive.currentFileName`). With
// `merge`, a rename onto an existing draft joins the two histories in save-time order; the
// same file in both (same save time and content) becomes one version (DraftRecords.merge).
// Either is one transaction.

import FoundationEssentials
import InklingFormats
import InklingStore

/// What `rename` did.
public struct RenameResult: Sendable, Equatable {
  /// The draft's name before.
  public var from: String
  /// Its name now: the new name made safe as the app makes names (`/` → `-`, NFC).
  public var to: String
  /// Whether a draft called `to` existed, and the two histories were joined.
  public var merged: Bool
  /// Versions that took the new name (for a merge, those that came from `from`).
  public var versionsMoved: Int
  /// Versions of `from` that were already in `to` (same save time and file), kept once.
  public var duplicatesDropped: Int
  /// The versions of the draft now.
  public var versionCount: Int
}

extension Archive {
  /// Renames the draft called `old` to `new`, or with `merge`, joins it into the draft `new`.
  ///
  /// ```swift
  /// try archive.rename(draft: "Plan-B", to: "Plan C")
  /// try archive.rename(draft: "cat", to: "Cat", merge: true)
  /// ```
  /// - Throws: `ArchiveError.noSuchDraft`; `.draftExists` when `new` exists and `merge` is
  ///   false; `.draftInTrash` when either draft is in the trash; `.invalidArgument` for a
  ///   name no file could carry (`draftName`: `NAME.inkling` over 255 bytes); `.openedReadOnly`.
  @discardableResult
  public func rename(draft old: String, to new: String, merge: Bool = false) throws(ArchiveError) -> RenameResult {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    let name = DraftFileName.canonicalName(DraftFileName.safeName(new))
    if let problem = Self.problem(withNewName: name) { throw .invalidArgument(.draftName(name, problem)) }
    return try storeCall {
      try database.transaction { () throws -> RenameResult in
        let source = try liveDraft(named: old)
        var result = RenameResult(
          from: source.name, to: name, merged: false, versionsMoved: source.versionCount, duplicatesDropped: 0,
          versionCount: source.versionCount)
        guard name != source.name else {
          result.versionsMoved = 0
          return result
        }
        guard let target = try DraftRecords.draft(named: name, in: database) else {
          try DraftRecords.rename(source.id, to: name, in: database)
          return result
        }
        guard target.deletedMilliseconds == nil else { throw ArchiveError.draftInTrash(name: target.name) }
        guard merge else { throw ArchiveError.draftExists(name: target.name) }
        let (moved, duplicates) = try DraftRecords.merge(source.id, into: target.id, in: database)
        result.merged = true
        result.versionsMoved = moved
        result.duplicatesDropped = duplicates
        result.versionCount = try DraftRecords.draft(named: name, in: database)?.versionCount ?? 0
        return result
      }
    }
  }

  /// What keeps `name` from being a draft's name: only its length, when no file, not even
  /// `NAME.inkling`, could carry it. Any name import takes from a file is one rename gives:
  /// a draft imported as ` Cat` or `.` can be merged into and renamed back to. (An empty name
  /// is `Untitled` before it comes here, as the app names a draft without one.)
  static func problem(withNewName name: String) -> ArchiveError.DraftNameProblem? {
    let bytes = name.utf8.count + ".inkling".utf8.count
    if bytes > FolderNaming.maximumNameBytes { return .fileNameTooLong(bytes: bytes) }
    return nil
  }
}
