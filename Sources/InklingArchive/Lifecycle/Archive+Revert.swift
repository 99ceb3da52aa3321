// `revert`: a new version of a draft whose file is byte for byte an earlier version's, saved
// now. Nothing after that version is lost: the history grows by one, as it would if the
// person had opened the old file in the app and saved it again. The new version shares the
// old one's drawing blob and envelope, so it costs a row; its file name is the app's
// `<name>-<now>.inkling` and its save time that stamp's second, so that restoring the file
// and importing it again finds it archived (invariant 4 of migration 0001).
//
// The new version is the draft's newest, as the person asked for: its second is now's, or the
// second after the newest version's when that is now or later (two reverts in one second, a
// clock behind a device's), so no two versions share a save time and file name. When the newest
// version already holds the file asked for, nothing is added.
//
// `version.reverts_version_id` names the version whose content it repeats; a revert of a
// revert names the original (invariant 2 of migration 0012), which `history` shows.

import FoundationEssentials
import InklingFormats
import InklingStore

/// What `revert` did.
public struct RevertResult: Sendable, Equatable {
  /// The new version, now the draft's newest (unless a version was saved later still).
  public var version: VersionInfo
  /// The version asked for, whose file the new one repeats.
  public var revertedTo: Int
  /// False when the draft's newest version already holds that file (a revert made just
  /// before, or version N the newest): `version` is that newest version, and nothing was added.
  public var added: Bool
}

extension Archive {
  /// Adds a version to `name` whose file is identical to version `number`'s, saved at `now`
  /// (or a second after the newest version, when that is later), the draft's newest.
  ///
  /// ```swift
  /// let result = try archive.revert(draft: "Plan-B", toVersion: 2)
  /// print(result.version.number, result.version.revertsTo ?? 0)  // 5 2
  /// ```
  /// - Throws: `ArchiveError.noSuchDraft`, `.noSuchVersion`, `.draftInTrash`,
  ///   `.damagedVersion` when version `number` no longer rebuilds its file, `.openedReadOnly`.
  public func revert(draft name: String, toVersion number: Int, now: Date = Date()) throws(ArchiveError)
    -> RevertResult
  {
    try revert(draft: name, to: .number(number), now: now)
  }

  /// `revert(draft:toVersion:now:)` to the version `selector` names (a number, a label…).
  ///
  /// - Throws: as `revert(draft:toVersion:now:)`; `.noSuchLabel`.
  public func revert(draft name: String, to selector: VersionSelector, now: Date = Date()) throws(ArchiveError)
    -> RevertResult
  {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    // The versions are found in the writing transaction, and the new version's entry read
    // before it commits, as a read after the commit would give it.
    let (entry, added, number) = try storeCall {
      try database.transaction { () throws -> ((row: VersionRow, info: VersionInfo), Bool, Int) in
        let draft = try liveDraft(named: name)
        let lookup = VersionLookup(self)
        guard let (target, targetInfo) = try lookup.version(ofDraft: draft.id, selector),
          let newest = try lookup.version(ofDraft: draft.id, .latest)
        else { throw noSuchDraft(name) }  // a draft without versions is as good as none
        let number = targetInfo.number
        // A version that no longer rebuilds its file would pass its damage on.
        _ = try verifiedFile(of: target, number: number)
        if newest.row.fileSHA256 == target.fileSHA256 {
          // The newest version is that file already: it is what was asked for.
          return (newest, false, number)
        }
        let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let second = { (milliseconds: Int64) in milliseconds - ((milliseconds % 1000) + 1000) % 1000 }
        let saved = max(second(milliseconds), second(newest.row.savedMilliseconds) + 1000)
        let fileName = DraftFileName.safeName(draft.name) + "-" + Self.iso8601(milliseconds: saved) + ".inkling"
        // A save stamped later than now is modified then too, so the file's time agrees with its name.
        let modified =
          saved > milliseconds
          ? FileTime.nanoseconds(milliseconds: saved) : Int64((now.timeIntervalSince1970 * 1e9).rounded(.down))
        let version = NewVersion(
          draftID: draft.id, savedMilliseconds: saved, savedSource: .fileName, importedMilliseconds: milliseconds,
          fileName: fileName, fileSHA256: target.fileSHA256, fileSize: target.fileSize,
          fileModificationNanoseconds: modified, blobID: target.blobID, envelopeID: target.envelopeID,
          background: target.background, revertsVersionID: target.revertsVersionID ?? target.id)
        guard let inserted = try VersionRecords.insert(version, in: database) else {
          // Every other version of the draft is saved in an earlier second.
          throw StoreError(kind: .corrupt, message: "a version saved after the newest one already exists")
        }
        let row = VersionRow(version, id: inserted, draftName: draft.name)
        return ((row, try lookup.entry(row)), true, number)
      }
    }
    return RevertResult(version: entry.info, revertedTo: number, added: added)
  }

  /// The draft called `name` (NFC), which must not be in the trash.
  ///
  /// - Throws: `.noSuchDraft` with suggestions, `.draftInTrash`.
  func liveDraft(named name: String) throws -> DraftRow {
    guard let draft = try DraftRecords.draft(named: DraftFileName.canonicalName(name), in: database) else {
      throw noSuchDraft(name)
    }
    guard draft.deletedMilliseconds == nil else { throw ArchiveError.draftInTrash(name: draft.name) }
    return draft
  }
}
