// Stars: how good a person finds a draft, 1 to 5, as photo libraries rate pictures. `star`
// and `unstar` change one draft, or every draft a query finds, in one transaction; `list
// --starred`, `--sort stars` and `stars:>=4` read them back (migration 0019's draft_by_stars).

import InklingStore

/// What `star` or `unstar` did.
public struct StarChange: Sendable, Equatable {
  /// The drafts chosen.
  public var drafts: Int
  /// The stars they have now; nil after `unstar`.
  public var stars: Int?
  /// How many of them had other stars before.
  public var changed: Int
}

extension Archive {
  /// Gives the drafts of `choices` `stars` (1 to 5), or takes their stars away (nil).
  ///
  /// ```swift
  /// try archive.star([.named("Plan-B")], stars: 5)
  /// try archive.star([.matching(DraftQuery(search: "tag:rejected"))], stars: nil)
  /// ```
  /// - Throws: `ArchiveError.invalidArgument(.stars)` outside 1…5; `.noSuchDraft`,
  ///   `.draftInTrash`; `.openedReadOnly`.
  @discardableResult
  public func star(_ choices: [DraftChoice], stars: Int?) throws(ArchiveError) -> StarChange {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    if let stars, !StarRecords.range.contains(stars) { throw .invalidArgument(.stars(stars)) }
    return try storeCall {
      try database.transaction { () throws -> StarChange in
        var draftIDs: [Int64] = []
        var seen = Set<Int64>()
        for choice in choices {
          for id in try chosenDrafts(choice) where seen.insert(id).inserted { draftIDs.append(id) }
        }
        return StarChange(
          drafts: draftIDs.count, stars: stars, changed: try StarRecords.set(stars, on: draftIDs, in: database))
      }
    }
  }
}
