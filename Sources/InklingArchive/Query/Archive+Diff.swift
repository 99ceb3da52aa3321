// `diff`: the strokes added, removed, hidden and shown again between two versions of a draft,
// from the drawing index.

import FoundationEssentials
import InklingFormats
import InklingStore

extension Archive {
  /// The strokes added, removed, hidden and unhidden between two versions (numbers as in
  /// `history`), and the background change.
  ///
  /// - Throws: `ArchiveError.noSuchDraft`, `.noSuchVersion`; `.notIndexed` when a drawing is not in
  ///   the drawing index; `.unreadableDrawing` when one does not decode (which one, and why).
  public func diff(draft name: String, from a: Int, to b: Int) throws(ArchiveError) -> DrawingDiff {
    let lookup = VersionLookup(self)
    let (infoA, infoB, factsA, factsB) = try inSnapshot {
      () throws -> (VersionInfo, VersionInfo, DrawingIndexRow?, DrawingIndexRow?) in
      let (rowA, infoA) = try lookup.version(draft: name, .number(a))
      let (rowB, infoB) = try lookup.version(draft: name, .number(b))
      return (
        infoA, infoB, try DrawingIndexRecords.read(blobID: rowA.blobID, in: database),
        try DrawingIndexRecords.read(blobID: rowB.blobID, in: database)
      )
    }
    guard let factsA, let factsB else {
      throw .notIndexed(draft: infoA.draftName)
    }
    // A drawing that does not decode has no strokes to compare: an empty drawing would read
    // as "every stroke added" (or removed).
    for (facts, info) in [(factsA.facts, infoA), (factsB.facts, infoB)] where facts.status != .decoded {
      let reason =
        facts.problem
        ?? (facts.status == .unreadable ? "it is not a PencilKit drawing this build reads" : "it does not decode")
      throw .unreadableDrawing(draft: info.draftName, version: info.number, reason: reason)
    }
    let before = DrawingSummary(factsA.facts).strokes
    let after = DrawingSummary(factsB.facts).strokes
    // A stroke is the same stroke in both when its UUID is (hiding a stroke re-encodes it);
    // without a UUID, when it is the same row of the index (the same bytes).
    enum Key: Hashable {
      case uuid(StrokeUUID)
      case row(Int64)
    }
    func key(_ row: DrawingIndexRow, _ index: Int) -> Key {
      row.facts.strokes[index].uuid.map(Key.uuid) ?? .row(row.strokeIDs[index])
    }
    var beforeByKey: [Key: StrokeSummary] = [:]
    for (index, stroke) in before.enumerated() { beforeByKey[key(factsA, index)] = stroke }
    var afterKeys = Set<Key>()
    var diff = DrawingDiff(from: infoA, to: infoB, added: [], removed: [], hidden: [], unhidden: [])
    for (index, stroke) in after.enumerated() {
      let k = key(factsB, index)
      afterKeys.insert(k)
      switch (beforeByKey[k], stroke.hidden) {
      case (nil, false): diff.added.append(stroke)
      // Hiding drops a stroke's path: describe it as it was when visible.
      case (let old?, true) where !old.hidden: diff.hidden.append(old)
      case (let old?, false) where old.hidden: diff.unhidden.append(stroke)
      default: break
      }
    }
    for (index, stroke) in before.enumerated() where !stroke.hidden && !afterKeys.contains(key(factsA, index)) {
      diff.removed.append(stroke)
    }
    return diff
  }
}
