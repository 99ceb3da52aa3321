// `revert`: a new version of a draft whose file is byte for byte an earlier version's, saved
// now. Nothing after that version is lost: the history grows by one, as it would if the
// person had opened the old file in the app and saved it again. The new version shares the
// old one's drawing blob and envelope, so it costs a row; its file name is the app's
// `<name>-<now>.inkling` and its save time that stamp's second, so that restoring the file
// and importing it again finds it archived (invariant 4 of migration 0001).
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
  /// False when the same revert was already made within the same second: that version is
  /// the file, and nothing was added.
  public var added: Bool
}

extension Archive {
  /// Adds a version to `name` whose file is identical to version `number`'s, saved at `now`.
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
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    // The history is read once, in the writing transaction: the new version's entry is made
    // from it and the row inserted, as a read after the commit would give it.
    let (entry, added) = try storeCall {
      try database.transaction { () throws -> ((row: VersionRow, info: VersionInfo), Bool) in
        let draft = try liveDraft(named: name)
        var history = try HistoryRead(ofDraft: draft.id, in: database)
        guard (1...history.rows.count).contains(number) else {
          throw ArchiveError.noSuchVersion(draft: draft.name, number: number, versionCount: history.rows.count)
        }
        let target = history.rows[number - 1]
        // A version that no longer rebuilds its file would pass its damage on.
        _ = try fileBytes(of: target, number: number)
        let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let saved = milliseconds - ((milliseconds % 1000) + 1000) % 1000
        let fileName = DraftFileName.safeName(draft.name) + "-" + Self.iso8601(milliseconds: saved) + ".inkling"
        let version = NewVersion(
          draftID: draft.id, savedMilliseconds: saved, savedSource: .fileName, importedMilliseconds: milliseconds,
          fileName: fileName, fileSHA256: target.fileSHA256, fileSize: target.fileSize,
          fileModificationNanoseconds: Int64((now.timeIntervalSince1970 * 1e9).rounded(.down)),
          blobID: target.blobID, envelopeID: target.envelopeID, background: target.background,
          revertsVersionID: target.revertsVersionID ?? target.id)
        let id: Int64
        let added: Bool
        if let inserted = try VersionRecords.insert(version, in: database) {
          history.insert(VersionRow(version, id: inserted, draftName: draft.name))
          (id, added) = (inserted, true)
        } else {
          // The same file saved in the same second: it is that version.
          let existing = history.rows.first { $0.savedMilliseconds == saved && $0.fileSHA256 == target.fileSHA256 }
          guard let existing else {
            throw StoreError(kind: .corrupt, message: "a version of the same second and content was not found")
          }
          (id, added) = (existing.id, false)
        }
        guard let entry = history.entries().first(where: { $0.row.id == id }) else {
          preconditionFailure("the version added or found is one of the draft's")
        }
        return (entry, added)
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
