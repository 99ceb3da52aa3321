// The trash: `delete` moves a draft there, `undelete` brings it back whole, `purge` removes
// trashed drafts for good. A draft in the trash keeps its name, its versions and all they
// use: it leaves `list`, `search`, the contact sheet and `export` (migration 0012 keeps it out
// of the indexes their walks read) unless they are asked for the trash, and `history`,
// `show` and `restore` still find it by name. Purging removes the draft and version rows;
// what they used becomes garbage that `gc` reclaims, blob by blob, keeping any blob that is
// still another's delta base. Each operation is one transaction, also over many drafts: a
// kill during `undelete A B C` leaves all three back or all three in the trash, never some of
// each.

import FoundationEssentials
import InklingFormats
import InklingStore

/// A draft in (or just out of) the trash.
public struct TrashedDraft: Sendable, Equatable {
  public var name: String
  public var versionCount: Int
  /// The save time of its newest version.
  public var lastSaved: Date?
  /// When it went to the trash.
  public var deleted: Date
  /// For `delete`: it was in the trash already (since `deleted`), and nothing changed.
  public var wasInTrash = false
  /// For `undelete`: it was not in the trash, and nothing changed.
  public var wasOutOfTrash = false
}

/// What `delete` or `undelete` of several drafts did, name by name, in one transaction.
public struct TrashChange: Sendable, Equatable {
  /// The drafts found, in the order named (each once).
  public var drafts: [TrashedDraft]
  /// The names that are no draft's (`ArchiveError.noSuchDraft`, with suggestions): the
  /// others were still done.
  public var problems: [ArchiveError]
}

/// What `purge` removed, or with `dryRun`, would remove.
public struct PurgeReport: Sendable, Equatable {
  /// The drafts, in the order they were deleted.
  public var drafts: [TrashedDraft]
  public var versionsRemoved: Int
  /// Nothing was removed: this is what would be.
  public var dryRun: Bool
}

extension Archive {
  /// Moves the draft called `name` to the trash.
  ///
  /// - Throws: `ArchiveError.noSuchDraft`, `.openedReadOnly`.
  @discardableResult
  public func delete(draft name: String, now: Date = Date()) throws(ArchiveError) -> TrashedDraft {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    return try storeCall {
      try database.transaction { () throws -> TrashedDraft in
        guard let draft = try DraftRecords.draft(named: DraftFileName.canonicalName(name), in: database) else {
          throw noSuchDraft(name)
        }
        if let deleted = draft.deletedMilliseconds {
          var trashed = Self.trashed(draft, deleted: deleted)
          trashed.wasInTrash = true
          return trashed
        }
        let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        try DraftRecords.moveToTrash(draft.id, at: milliseconds, in: database)
        return Self.trashed(draft, deleted: milliseconds)
      }
    }
  }

  /// Takes the draft called `name` out of the trash, as it was.
  ///
  /// - Throws: `ArchiveError.noSuchDraft`, `.draftNotInTrash`, `.openedReadOnly`.
  @discardableResult
  public func undelete(draft name: String) throws(ArchiveError) -> TrashedDraft {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    return try storeCall {
      try database.transaction { () throws -> TrashedDraft in
        let draft = try trashedDraft(named: name)
        try DraftRecords.takeOutOfTrash(draft.id, in: database)
        return Self.trashed(draft, deleted: draft.deletedMilliseconds ?? 0)
      }
    }
  }

  /// Moves the drafts called `names` to the trash, all in one transaction; a draft there
  /// already is said so (`wasInTrash`), a name that is no draft's is a problem.
  ///
  /// - Throws: `ArchiveError.openedReadOnly`, `.unusableArchive` (and then nothing changed).
  public func delete(drafts names: [String], now: Date = Date()) throws(ArchiveError) -> TrashChange {
    let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
    return try changeTrash(names) { draft throws in
      if let deleted = draft.deletedMilliseconds {
        var trashed = Self.trashed(draft, deleted: deleted)
        trashed.wasInTrash = true
        return trashed
      }
      try DraftRecords.moveToTrash(draft.id, at: milliseconds, in: database)
      return Self.trashed(draft, deleted: milliseconds)
    }
  }

  /// Takes the drafts called `names` out of the trash, all in one transaction: run again
  /// after an interruption, it brings back what is still there and says which ones were
  /// back already (`wasOutOfTrash`); a name that is no draft's is a problem.
  ///
  /// - Throws: `ArchiveError.openedReadOnly`, `.unusableArchive` (and then nothing changed).
  public func undelete(drafts names: [String]) throws(ArchiveError) -> TrashChange {
    try changeTrash(names) { draft throws in
      guard let deleted = draft.deletedMilliseconds else {
        var back = Self.trashed(draft, deleted: 0)
        back.wasOutOfTrash = true
        return back
      }
      try DraftRecords.takeOutOfTrash(draft.id, in: database)
      return Self.trashed(draft, deleted: deleted)
    }
  }

  /// Runs `change` on each draft named, once per draft, in one transaction.
  private func changeTrash(_ names: [String], _ change: (DraftRow) throws -> TrashedDraft) throws(ArchiveError)
    -> TrashChange
  {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    return try storeCall {
      try database.transaction { () throws -> TrashChange in
        var result = TrashChange(drafts: [], problems: [])
        var seen: Set<Int64> = []
        for name in names {
          guard let draft = try DraftRecords.draft(named: DraftFileName.canonicalName(name), in: database) else {
            result.problems.append(noSuchDraft(name))
            continue
          }
          if seen.insert(draft.id).inserted { result.drafts.append(try change(draft)) }
        }
        return result
      }
    }
  }

  /// Removes drafts in the trash for good: those called `names` (each must be in the trash),
  /// or every draft in it when nil; with `deletedBefore`, only those that went there before
  /// that date. With `dryRun`, only says what would go.
  ///
  /// - Throws: `ArchiveError.noSuchDraft`, `.draftNotInTrash` (and nothing is removed),
  ///   `.openedReadOnly`.
  public func purge(drafts names: [String]? = nil, deletedBefore: Date? = nil, dryRun: Bool = false)
    throws(ArchiveError) -> PurgeReport
  {
    guard mode == .readWrite || dryRun else { throw .openedReadOnly(path: path) }
    let before = deletedBefore.map { Int64(($0.timeIntervalSince1970 * 1000).rounded(.down)) }
    let body = { () throws -> PurgeReport in
      var drafts: [DraftRow]
      if let names {
        drafts = []
        for name in names {
          let draft = try self.trashedDraft(named: name)
          if !drafts.contains(draft) { drafts.append(draft) }
        }
        if let before { drafts.removeAll { ($0.deletedMilliseconds ?? 0) >= before } }
        drafts.sort { ($0.deletedMilliseconds ?? 0, $0.id) < ($1.deletedMilliseconds ?? 0, $1.id) }
      } else {
        drafts = try DraftRecords.trashed(before: before, in: self.database)
      }
      var report = PurgeReport(
        drafts: drafts.map { Self.trashed($0, deleted: $0.deletedMilliseconds ?? 0) }, versionsRemoved: 0,
        dryRun: dryRun)
      if dryRun {
        report.versionsRemoved = drafts.reduce(0) { $0 + $1.versionCount }
        return report
      }
      for draft in drafts { report.versionsRemoved += try DraftRecords.purge(draft.id, in: self.database) }
      return report
    }
    return try storeCall { try dryRun ? database.readTransaction(body) : database.transaction(body) }
  }

  /// The draft called `name`, which must be in the trash.
  private func trashedDraft(named name: String) throws -> DraftRow {
    guard let draft = try DraftRecords.draft(named: DraftFileName.canonicalName(name), in: database) else {
      throw noSuchDraft(name)
    }
    guard draft.deletedMilliseconds != nil else { throw ArchiveError.draftNotInTrash(name: draft.name) }
    return draft
  }

  private static func trashed(_ draft: DraftRow, deleted: Int64) -> TrashedDraft {
    TrashedDraft(
      name: draft.name, versionCount: draft.versionCount, lastSaved: draft.latestSavedMilliseconds.map(date),
      deleted: date(deleted))
  }
}
