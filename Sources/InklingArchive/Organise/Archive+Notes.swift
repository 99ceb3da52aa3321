// Notes: what a person writes about a draft or about one of its versions ("sent to Anna for
// review", "the colours are off here"), kept by the archive beside the drafts' files
// (migration 0019, invariant 4). A draft or a version may have several, each with its id, so
// that one can be removed without touching the rest, as `git notes` and calibre's comments
// are kept apart from what they describe. `show` and `history` print them; `note:TEXT` finds
// drafts by them.

import FoundationEssentials
import InklingFormats
import InklingStore

/// A note on a draft, or on one of its versions.
public struct DraftNote: Sendable, Equatable {
  /// The note's id in this archive (what `removeNote` takes).
  public var id: Int64
  /// The number of the version it is about, as `history` numbers them; nil for the draft.
  public var version: Int?
  /// As written, without spaces or blank lines around it; may hold line breaks and tabs.
  public var text: String
  public var written: Date
}

extension Archive {
  /// Adds a note with `text` to the draft called `name`, or with `version`, to that version.
  ///
  /// ```swift
  /// try archive.addNote(toDraft: "Plan-B", version: .number(2), text: "sent to the printer")
  /// ```
  /// - Throws: `ArchiveError.invalidArgument(.noteText)` for text that is empty, too long or
  ///   holds a control character other than a line break or a tab; `.noSuchDraft`,
  ///   `.draftInTrash`, `.noSuchVersion`, `.noVersionSavedBy`; `.openedReadOnly`.
  @discardableResult
  public func addNote(toDraft name: String, version selector: VersionSelector? = nil, text: String)
    throws(ArchiveError) -> DraftNote
  {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    let text = try Self.noteText(text)
    return try storeCall {
      try database.transaction { () throws -> DraftNote in
        let draft = try liveDraft(named: name)
        var version: (id: Int64, number: Int)?
        if let selector {
          guard let found = try VersionLookup(self).version(ofDraft: draft.id, selector) else {
            throw ArchiveError.noSuchVersion(draft: draft.name, number: 1, versionCount: 0)
          }
          version = (found.row.id, found.info.number)
        }
        let row = try NoteRecords.add(
          text, toDraft: draft.id, version: version?.id, writtenMilliseconds: Self.nowMilliseconds(), in: database)
        return DraftNote(row, version: version?.number)
      }
    }
  }

  /// The notes of the draft called `name` (live or in the trash), its own and its versions',
  /// oldest written first.
  ///
  /// - Throws: `ArchiveError.noSuchDraft`; or when the archive cannot be read.
  public func notes(ofDraft name: String) throws(ArchiveError) -> [DraftNote] {
    try inSnapshot { () throws -> [DraftNote] in
      let draftID = try draftID(named: name)
      return try notes(ofDraft: draftID)
    }
  }

  /// Removes the note with id `id` from the draft called `name`; returns it.
  ///
  /// - Throws: `ArchiveError.noSuchNote` when the draft has no note with that id;
  ///   `.noSuchDraft`, `.draftInTrash`; `.openedReadOnly`.
  @discardableResult
  public func removeNote(_ id: Int64, fromDraft name: String) throws(ArchiveError) -> DraftNote {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    return try storeCall {
      try database.transaction { () throws -> DraftNote in
        let draft = try liveDraft(named: name)
        guard let row = try NoteRecords.note(id: id, in: database), row.draftID == draft.id else {
          throw ArchiveError.noSuchNote(draft: draft.name, id: id)
        }
        let note = DraftNote(row, version: try versionNumber(of: row))
        _ = try NoteRecords.remove(id: id, in: database)
        return note
      }
    }
  }

  /// The notes of draft `draftID`, numbered, in the caller's snapshot.
  func notes(ofDraft draftID: Int64) throws -> [DraftNote] {
    try NoteRecords.notes(ofDraft: draftID, in: database).map { DraftNote($0, version: try versionNumber(of: $0)) }
  }

  private func versionNumber(of row: NoteRow) throws -> Int? {
    try row.versionID.flatMap { try VersionLookupRecords.number(ofVersion: $0, inDraft: row.draftID, in: database) }
  }

  static func nowMilliseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

  /// `text` as a note is stored (NFC, without white space around it), or why it cannot be one.
  static func noteText(_ text: String) throws(ArchiveError) -> String {
    let note = DraftFileName.canonicalName(text.trimmingWhitespace())
    if note.isEmpty { throw .invalidArgument(.noteText(.empty)) }
    if note.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" }) {
      throw .invalidArgument(.noteText(.controlCharacter))
    }
    let length = note.unicodeScalars.count
    if length > NoteRecords.maximumLength {
      throw .invalidArgument(.noteText(.tooLong(characters: length, limit: NoteRecords.maximumLength)))
    }
    return note
  }
}

extension DraftNote {
  init(_ row: NoteRow, version: Int?) {
    self.init(id: row.id, version: version, text: row.text, written: Archive.date(row.writtenMilliseconds))
  }
}
