// `diff`: the strokes added, removed, hidden, shown again and partly erased between two
// versions of a draft, from the drawing index. A stroke the pixel eraser cut keeps its UUID
// and gets a new row; only the drawings say it was cut (PartialErase.swift), so they are read
// when some stroke visible in both changed its row.

import FoundationEssentials
import InklingFormats
import InklingStore

extension Archive {
  /// The strokes added, removed, hidden, unhidden and partly erased between two versions
  /// (numbers as in `history`), and the background change.
  ///
  /// - Throws: `ArchiveError.noSuchDraft`, `.noSuchVersion`; `.notIndexed` when a drawing is not in
  ///   the drawing index; `.unreadableDrawing` when one does not decode (which one, and why).
  public func diff(draft name: String, from a: Int, to b: Int) throws(ArchiveError) -> DrawingDiff {
    try diff(draft: name, from: .number(a), to: .number(b))
  }

  /// `diff(draft:from:to:)` between the versions two selectors name (numbers, labels…).
  ///
  /// - Throws: as `diff(draft:from:to:)`; `.noSuchLabel`.
  public func diff(draft name: String, from a: VersionSelector, to b: VersionSelector) throws(ArchiveError)
    -> DrawingDiff
  {
    let lookup = VersionLookup(self)
    let (infoA, infoB, factsA, factsB, cuts) = try inSnapshot {
      () throws -> (VersionInfo, VersionInfo, DrawingIndexRow?, DrawingIndexRow?, CutPair?) in
      let (rowA, infoA) = try lookup.version(draft: name, a)
      let (rowB, infoB) = try lookup.version(draft: name, b)
      let factsA = try DrawingIndexRecords.read(blobID: rowA.blobID, in: database)
      let factsB = try DrawingIndexRecords.read(blobID: rowB.blobID, in: database)
      var cuts: CutPair?
      if let factsA, let factsB, Self.someStrokeChangedRow(factsA, factsB) {
        // A drawing that cannot be read back tells no cut: the index's answer stands.
        if let before = try? strokeCuts(blobID: rowA.blobID), let after = try? strokeCuts(blobID: rowB.blobID) {
          cuts = (before, after)
        }
      }
      return (infoA, infoB, factsA, factsB, cuts)
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
    var beforeIndex: [Key: Int] = [:]
    for (index, stroke) in before.enumerated() {
      beforeByKey[key(factsA, index)] = stroke
      beforeIndex[key(factsA, index)] = index
    }
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
      case (.some, false):
        // Cut (further) by the pixel eraser: the same stroke, cut otherwise than before.
        guard let cuts, cuts.after.count == after.count, cuts.before.count == before.count,
          let cut = cuts.after[index], let was = beforeIndex[k], cuts.before[was] != cut
        else { break }
        var erased = stroke
        erased.partlyErased = true
        diff.partlyErased.append(erased)
      default: break
      }
    }
    for (index, stroke) in before.enumerated() where !stroke.hidden && !afterKeys.contains(key(factsA, index)) {
      diff.removed.append(stroke)
    }
    return diff
  }

  private typealias CutPair = (before: [StrokeCut?], after: [StrokeCut?])

  /// Whether a stroke visible in both drawings (by its UUID) is another row in `b`: the only
  /// way a partial erase shows in the index.
  private static func someStrokeChangedRow(_ a: DrawingIndexRow, _ b: DrawingIndexRow) -> Bool {
    var rows: [StrokeUUID: Int64] = [:]
    for (index, stroke) in a.facts.strokes.enumerated() where !stroke.hidden {
      if let uuid = stroke.uuid { rows[uuid] = a.strokeIDs[index] }
    }
    for (index, stroke) in b.facts.strokes.enumerated() where !stroke.hidden {
      if let uuid = stroke.uuid, let row = rows[uuid], row != b.strokeIDs[index] { return true }
    }
    return false
  }
}
