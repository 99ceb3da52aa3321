// One page of a draft's timeline: the versions numbered in a range, each as the whole
// timeline gives it (its history entry and its stroke changes against the version before),
// with what a page says of the whole draft (its number of versions, first and last save, the
// size of all its files, whether any drawing can be replayed). A draft saved thousands of
// times is shown a page at a time, and the page reads its own versions, the one before the
// first of them (its changes are counted against it), and the draft's row; never a row per
// version of the rest of the history (TimelinePageRecords says how).

import FoundationEssentials
import InklingFormats
import InklingStore

/// A page of a draft's timeline: some of its versions, and what is said of all of them.
public struct DraftTimelinePage: Sendable, Equatable {
  public var id: DraftID
  public var name: String
  /// When it went to the trash; nil for a live draft.
  public var deleted: Date?
  /// The notes on the draft itself, oldest written first (its versions' are in their entries).
  public var notes: [DraftNote]
  /// How many versions the draft has.
  public var versionCount: Int
  /// When its first and its newest version were saved; nil when it has none.
  public var firstSaved: Date?
  public var lastSaved: Date?
  /// The size of every version's file together, at most `Int64.max`, as
  /// `DraftTimeline.filesSize` adds them.
  public var filesSize: Int64
  /// Whether the drawing of some version is indexed and decodes: a time-lapse can be made.
  public var anyDrawingDecodes: Bool
  /// The versions of the page, oldest first, numbered as in `history`, each with its changes
  /// against the version before (as `DraftTimeline.versions` gives them).
  public var versions: [TimelineEntry]
  /// How many rows of `version` the page read: its own versions and the one before them.
  package var versionsRead = 0
  /// How many strokes the counts compared (as `DraftTimeline.strokesCompared`).
  package var strokesCompared = 0
}

extension Archive {
  /// A page of the timeline of the draft `reference` names, live or in the trash: at most
  /// `count` versions, the newest of them version `newest` (the draft's newest when nil, or
  /// when it has fewer versions), and older ones below it.
  ///
  /// ```swift
  /// let page = try archive.timelinePage(of: .id(id), newest: nil, count: 200)
  /// print(page.versionCount, page.versions.first?.version.number ?? 0)
  /// ```
  ///
  /// - Throws: `ArchiveError.noSuchDraft`, `.noDraftWithID`, or when the archive cannot be read.
  public func timelinePage(of reference: DraftReference, newest: Int?, count: Int) throws(ArchiveError)
    -> DraftTimelinePage
  {
    typealias Read = (
      draft: DraftRow, totals: DraftTotals, versions: [(row: VersionRow, info: VersionInfo)],
      strokes: ComparedStrokes, notes: [NoteRow], shown: ClosedRange<Int>?
    )
    // One read transaction: the draft, its totals, its versions and their stroke rows are of
    // one state of the archive.
    let read: Read = try storeCall {
      try database.readTransaction { () throws -> Read in
        let draft = try self.draftRow(reference)
        let notes = try NoteRecords.notes(onDraft: draft.id, in: database)
        guard let totals = try TimelinePageRecords.totals(ofDraft: draft.id, in: database) else {
          throw ArchiveError.noDraftWithID(DraftID(rawValue: draft.id))
        }
        guard totals.versionCount > 0 else {
          return (draft, totals, [], ComparedStrokes(lists: [:], keys: [:]), notes, nil)
        }
        let upper = min(max(1, newest ?? totals.versionCount), totals.versionCount)
        let shown = max(1, upper - max(1, count) + 1)...upper
        // The version before the page too: the first version shown is compared with it.
        let rows = try TimelinePageRecords.versions(
          ofDraft: draft.id, numbers: max(1, shown.lowerBound - 1)...upper, versionCount: totals.versionCount,
          in: database)
        let versions = try self.pageEntries(rows, firstNumber: max(1, shown.lowerBound - 1), ofDraft: draft.id)
        let strokes = try Self.comparedStrokes(versions, counted: shown.contains, in: database)
        return (draft, totals, versions, strokes, notes, shown)
      }
    }
    var page = DraftTimelinePage(
      id: DraftID(rawValue: read.draft.id), name: read.draft.name,
      deleted: read.draft.deletedMilliseconds.map(Self.date),
      notes: read.notes.map { DraftNote($0, version: nil) }, versionCount: read.totals.versionCount,
      firstSaved: read.totals.firstSavedMilliseconds.map(Self.date),
      lastSaved: read.totals.latestSavedMilliseconds.map(Self.date), filesSize: read.totals.filesSize,
      anyDrawingDecodes: read.totals.anyDrawingDecodes, versions: [], versionsRead: read.versions.count)
    guard let shown = read.shown else { return page }
    let (entries, compared) = timelineEntries(read.versions, read.strokes, counted: shown.contains)
    page.versions = entries.filter { shown.contains($0.version.number) }
    page.strokesCompared = compared
    return page
  }

  /// The history entries of `rows`, consecutive versions of draft `draftID` from number
  /// `firstNumber` on: "same drawing as" from the first version with each of their drawings,
  /// found together (TimelinePageRecords.firstVersions), the rest as VersionLookup reads one
  /// version's.
  ///
  /// - Throws: `StoreError`.
  private func pageEntries(
    _ rows: [(version: VersionRow, blob: BlobSummary?)], firstNumber: Int, ofDraft draftID: Int64
  ) throws -> [(row: VersionRow, info: VersionInfo)] {
    guard let last = rows.last?.version else { return [] }
    let hashes = Set(rows.compactMap { $0.blob?.contentHash })
    let first = try TimelinePageRecords.firstVersions(
      withContent: hashes, ofDraft: draftID, upTo: (last.savedMilliseconds, last.id), in: database)
    var numbers: [Int64: Int] = [:]
    for (offset, row) in rows.enumerated() { numbers[row.version.id] = firstNumber + offset }
    let lookup = VersionLookup(self)
    return try rows.enumerated().map { offset, row in
      let number = firstNumber + offset
      var same: Int?
      if let hash = row.blob?.contentHash, let found = first[hash], found.id != row.version.id {
        same =
          try numbers[found.id]
          ?? VersionRecords.number(ofVersion: found.id, draftID: draftID, savedMilliseconds: found.saved, in: database)
      }
      // Only an earlier version is "the same drawing as" this one.
      if let earlier = same, earlier >= number { same = nil }
      return (row.version, try lookup.entry(row.version, number: number, blob: row.blob, sameDrawingAs: same))
    }
  }
}
