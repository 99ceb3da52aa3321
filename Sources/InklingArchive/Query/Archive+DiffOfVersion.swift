// `diff DRAFT [N]`: what one save changed, against the save before it, as `git show` shows a
// commit against its parent; without N, the newest save's change.

import InklingStore

extension Archive {
  /// The strokes version `number` (the newest when nil) added, removed, hid and showed again,
  /// against the version before it.
  ///
  /// - Throws: what `diff(draft:from:to:)` throws; `ArchiveError.noSuchDraft`,
  ///   `.noSuchVersion` for a number past the newest; `.noEarlierVersion` for version 1,
  ///   which has nothing before it.
  public func diff(draft name: String, changesOf number: Int?) throws(ArchiveError) -> DrawingDiff {
    try diff(draft: name, changesOf: number.map { .number($0) } ?? .latest)
  }

  /// `diff(draft:changesOf:)` of the version `selector` names (a number, a label…).
  ///
  /// - Throws: as `diff(draft:changesOf:)`; `.noSuchLabel`.
  public func diff(draft name: String, changesOf selector: VersionSelector) throws(ArchiveError) -> DrawingDiff {
    let (_, info) = try VersionLookup(self).version(draft: name, selector)
    guard info.number > 1 else { throw .noEarlierVersion(draft: info.draftName) }
    return try diff(draft: name, from: info.number - 1, to: info.number)
  }
}
