// What people said about one draft, as `show` and `history` print it beside what the draft's
// files hold: its stars, tags and notes (migration 0019). The notes and labels of one version
// are in its history entry (VersionInfo).

import InklingFormats
import InklingStore

/// A draft's stars, tags and notes.
public struct DraftAnnotations: Sendable, Equatable {
  /// 1 to 5, or nil when not starred.
  public var stars: Int?
  /// As written, sorted as names are.
  public var tags: [String]
  /// The notes on the draft itself (not those on one of its versions), oldest written first.
  public var notes: [DraftNote] = []

  /// Nothing said.
  public var isEmpty: Bool { stars == nil && tags.isEmpty && notes.isEmpty }
}

extension Archive {
  /// The stars, tags and notes of the draft called `name` (live or in the trash).
  ///
  /// - Throws: `ArchiveError.noSuchDraft`; or when the archive cannot be read.
  public func annotations(ofDraft name: String) throws(ArchiveError) -> DraftAnnotations {
    try inSnapshot { () throws -> DraftAnnotations in
      let draftID = try draftID(named: name)
      let marks = try DraftMarks(database).marks(ofDraft: draftID)
      let notes = try NoteRecords.notes(ofDraft: draftID, in: database).filter { $0.versionID == nil }
      return DraftAnnotations(
        stars: marks.stars, tags: marks.tags, notes: notes.map { DraftNote($0, version: nil) })
    }
  }
}
