// Finding one version: of a draft by its number, by its label, by a date (the version current
// then) or the newest, or by its permanent id; with its history entry, as `history` would number and
// describe it. Every operation on one version finds it here (restore, show, diff, thumbnail,
// render, revert, the pictures and files `serve` asks for by id).
//
// A look-up reads that version alone through a few indexed queries (VersionLookupRecords),
// never the draft's whole history, and reads in one snapshot: the caller's transaction when
// it is in one, else a read transaction of its own, so that a version removed meanwhile
// (purge, then gc) is missing, never half-read.

import InklingStore

/// Which version of a draft.
public enum VersionSelector: Sendable, Equatable {
  /// The newest version.
  case latest
  /// Version N, 1 being the oldest (as `history` numbers them).
  case number(Int)
  /// The version current at the end of a date range: the newest saved before `range.end`.
  case at(DateRange)
  /// The version labelled so (`Archive.label`), compared as names are searched.
  case label(String)

  /// The version an argument names, as every `--version` option reads it: a whole number
  /// from 1 is that version's number, and any other text but a number a label (a label is
  /// never a whole number); nil for 0, a negative number or nothing.
  public init?(argument text: String) {
    if let number = Int(text) {
      guard number >= 1 else { return nil }
      self = .number(number)
      return
    }
    guard !text.isEmpty, !text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
    self = .label(text)
  }
}

/// Finds single versions on one archive's connection.
///
/// ```swift
/// let (row, info) = try VersionLookup(archive).version(draft: "Plan-B", .number(2))
/// ```
struct VersionLookup {
  private let archive: Archive

  init(_ archive: Archive) { self.archive = archive }

  private var database: Database { archive.database }

  /// Version `selector` of the draft called `name` (NFC), with its history entry.
  ///
  /// - Throws: `ArchiveError.noSuchDraft` (with suggestions), `.noSuchVersion`,
  ///   `.noVersionSavedBy`.
  func version(draft name: String, _ selector: VersionSelector) throws(ArchiveError) -> (
    row: VersionRow, info: VersionInfo
  ) {
    try archive.inSnapshot { () throws -> (row: VersionRow, info: VersionInfo) in
      let draftID = try archive.draftID(named: name)
      guard let found = try version(ofDraft: draftID, selector) else { throw archive.noSuchDraft(name) }
      return found
    }
  }

  /// Version `selector` of draft `draftID`, with its history entry; nil when the draft has
  /// no versions.
  ///
  /// - Throws: `ArchiveError.noSuchVersion`, `.noVersionSavedBy`; `StoreError`.
  func version(ofDraft draftID: Int64, _ selector: VersionSelector) throws -> (row: VersionRow, info: VersionInfo)? {
    try archive.inSnapshot { () throws -> (row: VersionRow, info: VersionInfo)? in
      let pick: VersionPick
      switch selector {
      case .latest: pick = .newest
      case .number(let number): pick = .number(number)
      case .at(let range): pick = .savedBefore(range.end)
      case .label(let name): return try labelled(name, ofDraft: draftID)
      }
      if let row = try VersionLookupRecords.version(ofDraft: draftID, pick, in: database) {
        return (row, try entry(row))
      }
      guard let extent = try VersionLookupRecords.extent(ofDraft: draftID, in: database),
        let firstSaved = extent.firstSavedMilliseconds
      else { return nil }
      switch selector {
      case .latest, .label:
        preconditionFailure("a draft with versions has a newest, and a label is looked up apart")
      case .number(let number):
        throw ArchiveError.noSuchVersion(draft: extent.name, number: number, versionCount: extent.versionCount)
      case .at(let range):
        throw ArchiveError.noVersionSavedBy(
          draft: extent.name, date: Archive.date(range.end), firstSaved: Archive.date(firstSaved))
      }
    }
  }

  /// The version of draft `draftID` labelled `name`; nil when the draft has no versions.
  ///
  /// - Throws: `ArchiveError.noSuchLabel`, with the labels the draft has; `StoreError`.
  private func labelled(_ name: String, ofDraft draftID: Int64) throws -> (row: VersionRow, info: VersionInfo)? {
    if let label = try VersionLabelRecords.label(name, ofDraft: draftID, in: database),
      let row = try VersionRecords.version(id: label.versionID, in: database)
    {
      return (row, try entry(row))
    }
    guard let extent = try VersionLookupRecords.extent(ofDraft: draftID, in: database) else { return nil }
    throw try archive.noSuchLabel(name, ofDraft: draftID, named: extent.name)
  }

  /// The version with id `id`, with its history entry.
  ///
  /// - Throws: `ArchiveError.noVersionWithID`.
  func version(id: VersionID) throws(ArchiveError) -> (row: VersionRow, info: VersionInfo) {
    try archive.inSnapshot { () throws -> (row: VersionRow, info: VersionInfo) in
      let row = try self.row(id: id)
      return (row, try entry(row))
    }
  }

  /// The version with id `id`, without its history entry.
  ///
  /// - Throws: `ArchiveError.noVersionWithID`.
  func row(id: VersionID) throws(ArchiveError) -> VersionRow {
    let row = try archive.storeCall { try VersionRecords.version(id: id.rawValue, in: database) }
    guard let row else { throw .noVersionWithID(id) }
    return row
  }

  /// The number `history` gives the version of `row`.
  ///
  /// - Throws: `ArchiveError` when the archive cannot be read.
  func number(of row: VersionRow) throws(ArchiveError) -> Int {
    try archive.storeCall {
      try VersionRecords.number(
        ofVersion: row.id, draftID: row.draftID, savedMilliseconds: row.savedMilliseconds, in: database)
    }
  }

  /// The history entry of the version of `row`, read in the caller's snapshot.
  ///
  /// - Throws: `StoreError`.
  func entry(_ row: VersionRow) throws -> VersionInfo {
    let blob = try VersionLookupRecords.blobSummary(row.blobID, in: database)
    return try entry(
      row, number: try number(of: row), blob: blob,
      sameDrawingAs: try blob?.contentHash.flatMap {
        try VersionLookupRecords.firstNumber(withContent: $0, before: row, in: database)
      })
  }

  /// The history entry of the version of `row`, given what a page of versions read together
  /// knows of it: its number, its blob's summary and the earlier version with its drawing.
  ///
  /// - Throws: `StoreError`.
  func entry(_ row: VersionRow, number: Int, blob: BlobSummary?, sameDrawingAs: Int?) throws -> VersionInfo {
    var info = VersionInfo(
      row, number: number, blob: blob, sameDrawingAs: sameDrawingAs,
      revertsTo: try row.revertsVersionID.flatMap {
        try VersionLookupRecords.number(ofVersion: $0, inDraft: row.draftID, in: database)
      },
      sources: try VersionLookupRecords.sources(ofVersion: row.id, in: database))
    info.labels = try VersionLabelRecords.labels(ofVersion: row.id, in: database)
    info.notes = try NoteRecords.notes(ofVersion: row.id, in: database).map { DraftNote($0, version: number) }
    return info
  }
}

extension Archive {
  /// Runs `body` in one snapshot of the archive: inside the transaction this connection is
  /// in, else in a read transaction of its own (SQLite's transactions do not nest).
  ///
  /// - Throws: what `body` throws, a store error as `ArchiveError`.
  func inSnapshot<T>(_ body: () throws -> T) throws(ArchiveError) -> T {
    try storeCall { database.isAutocommit ? try database.readTransaction(body) : try body() }
  }
}
