// What people said about one draft, as `show` and `history` print it beside what the draft's
// files hold: its stars and tags (migration 0019).

import InklingFormats
import InklingStore

/// A draft's stars and tags.
public struct DraftAnnotations: Sendable, Equatable {
  /// 1 to 5, or nil when not starred.
  public var stars: Int?
  /// As written, sorted as names are.
  public var tags: [String]

  /// Nothing said.
  public var isEmpty: Bool { stars == nil && tags.isEmpty }
}

extension Archive {
  /// The stars and tags of the draft called `name` (live or in the trash).
  ///
  /// - Throws: `ArchiveError.noSuchDraft`; or when the archive cannot be read.
  public func annotations(ofDraft name: String) throws(ArchiveError) -> DraftAnnotations {
    let draftID = try draftID(named: name)
    return try storeCall {
      let marks = try DraftMarks(database).marks(ofDraft: draftID)
      return DraftAnnotations(stars: marks.stars, tags: marks.tags)
    }
  }
}
