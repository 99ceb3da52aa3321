// A draft's history as a timeline: each version with its permanent id (for image and download
// URLs) and how many strokes it added, removed, erased and brought back against the version
// before, counted as `diff` counts them (a stroke is the same stroke when its UUID is, else when
// it is the same row of the drawing index).
//
// `diff` reads every stroke's full row for each of two versions; a timeline compares every
// consecutive pair, and only the strokes after the part the two lists share at their start
// (the same rows: they change nothing), so a draft saved thousands of times, a stroke a save,
// compares one stroke a save, not every stroke of every save. It reads those strokes' rows a
// run of consecutive ids at a time, and only what the counts need: hidden or not, and the UUID. A stroke the pixel eraser cut keeps its UUID and gets a new
// row; only the drawings say it was cut, so the two drawings of a pair are read (each once)
// only when some stroke visible in both changed its row.

import FoundationEssentials
import InklingFormats
import InklingStore

/// How a version's strokes differ from the version before it.
public struct StrokeChanges: Sendable, Equatable {
  /// Visible now, absent before (for the first version: every visible stroke).
  public var added: Int
  /// Visible before, absent now.
  public var removed: Int
  /// Visible before, kept hidden (erased) now.
  public var hidden: Int
  /// Hidden before, visible again now.
  public var unhidden: Int
  /// Visible before and now, cut (further) by the pixel eraser now.
  public var partlyErased: Int

  public init(added: Int, removed: Int, hidden: Int, unhidden: Int, partlyErased: Int = 0) {
    self.added = added
    self.removed = removed
    self.hidden = hidden
    self.unhidden = unhidden
    self.partlyErased = partlyErased
  }
}

/// One version of a draft on its timeline.
public struct TimelineEntry: Sendable, Equatable {
  public var version: VersionInfo
  public var id: VersionID
  /// Against the version before; nil when this drawing or the one before is not indexed or
  /// does not decode.
  public var changes: StrokeChanges?
}

/// How a draft is named in a request: by its name as people type it, or by its id (which any
/// listed draft has, even one whose name no URL can carry).
public enum DraftReference: Sendable, Hashable {
  case name(String)
  case id(DraftID)
}

/// A draft and every version of it on a timeline.
public struct DraftTimeline: Sendable, Equatable {
  public var id: DraftID
  public var name: String
  /// When it went to the trash; nil for a live draft.
  public var deleted: Date?
  /// Oldest first, numbered as in `history`.
  public var versions: [TimelineEntry]
  /// The notes on the draft itself, oldest written first (its versions' are in their entries).
  public var notes: [DraftNote] = []
  /// How many strokes the counts compared: those each version does not share at its start
  /// with the version before, a number tests hold to the saves' changes.
  package var strokesCompared = 0

  /// The size of every version's file together, at most `Int64.max`: the sizes are rows of
  /// the archive, which one from elsewhere may fill with any number.
  public var filesSize: Int64 {
    versions.reduce(0) { total, entry in
      let (sum, overflow) = total.addingReportingOverflow(max(0, entry.version.fileSize))
      return overflow ? .max : sum
    }
  }
}

extension Archive {
  /// Every version of the draft called `name`, oldest first (numbers as in `history`), with
  /// its stroke changes against the version before.
  ///
  /// - Throws: `ArchiveError` when there is no such draft or the archive cannot be read.
  public func timeline(of name: String) throws(ArchiveError) -> [TimelineEntry] {
    try timeline(of: .name(name)).versions
  }

  /// The draft `reference` names, live or in the trash, with every version of it oldest first
  /// and its stroke changes against the version before.
  ///
  /// ```swift
  /// let draft = try archive.timeline(of: .id(page.drafts[0].draft.id))
  /// print(draft.name, draft.versions.count, draft.deleted == nil ? "" : "(in the trash)")
  /// ```
  /// `changesFor` limits the stroke changes counted to those version numbers (the others'
  /// `changes` are nil): a page of one version needs its own count, not every stroke of a long
  /// history read.
  ///
  /// - Throws: `ArchiveError.noSuchDraft`, `.noDraftWithID`, or when the archive cannot be read.
  public func timeline(of reference: DraftReference, changesFor numbers: Set<Int>? = nil) throws(ArchiveError)
    -> DraftTimeline
  {
    // One read transaction: the draft, its versions and their stroke rows are of one state of
    // the archive.
    typealias Read = (
      draft: DraftRow, versions: [(row: VersionRow, info: VersionInfo)], strokes: ComparedStrokes, notes: [NoteRow]
    )
    let counted: (Int) -> Bool = { number in numbers?.contains(number) ?? true }
    let read: Read = try storeCall {
      try database.readTransaction { () throws -> Read in
        let draft = try self.draftRow(reference)
        let versions = try HistoryRead(ofDraft: draft.id, in: database).entries()
        let strokes = try Self.comparedStrokes(versions, counted: counted, in: database)
        let notes = try NoteRecords.notes(onDraft: draft.id, in: database)
        return (draft, versions, strokes, notes)
      }
    }
    let (draft, versions, strokes, notes) = read
    let (entries, compared) = timelineEntries(versions, strokes, counted: counted)
    return DraftTimeline(
      id: DraftID(rawValue: draft.id), name: draft.name, deleted: draft.deletedMilliseconds.map(Self.date),
      versions: entries, notes: notes.map { DraftNote($0, version: nil) }, strokesCompared: compared)
  }

  /// The draft `reference` names, live or in the trash, read in the caller's transaction.
  ///
  /// - Throws: `ArchiveError.noSuchDraft`, `.noDraftWithID`; `StoreError`.
  func draftRow(_ reference: DraftReference) throws -> DraftRow {
    switch reference {
    case .name(let name):
      guard let row = try DraftRecords.draft(named: DraftFileName.canonicalName(name), in: database) else {
        throw self.noSuchDraft(name)
      }
      return row
    case .id(let id):
      guard let row = try DraftRecords.draft(id: id.rawValue, in: database) else {
        throw ArchiveError.noDraftWithID(id)
      }
      return row
    }
  }

  /// The stroke lists and rows that counting the changes of the versions `counted` says
  /// needs: each such version's list and the one before it, and only the strokes after the
  /// part the two share at their start. `versions` are consecutive versions, oldest first; the
  /// first is compared with no strokes (version 1), or is not counted (the one before a page).
  ///
  /// - Throws: `StoreError`.
  static func comparedStrokes(
    _ versions: [(row: VersionRow, info: VersionInfo)], counted: (Int) -> Bool, in database: Database
  ) throws -> ComparedStrokes {
    // Each count compares a version with the one before it: both lists are needed.
    let needed = versions.filter { counted($0.info.number) || counted($0.info.number + 1) }
    let lists = try TimelineRecords.strokeLists(blobIDs: needed.map(\.row.blobID), in: database)
    var ids = Set<Int64>()
    var before: StrokeRunList? = .empty
    for (row, info) in versions {
      let after = lists[row.blobID]
      if let after, counted(info.number) {
        let shared = before.map { after.commonPrefixCount(with: $0) } ?? 0
        ids.formUnion(after.ids(from: shared))
        if let before { ids.formUnion(before.ids(from: shared)) }
      }
      before = after
    }
    return ComparedStrokes(lists: lists, keys: try TimelineRecords.strokeKeys(ids: ids, in: database))
  }

  /// The timeline entries of `versions` (as `comparedStrokes` takes them), with the changes of
  /// those `counted` says against the version before; and how many strokes were compared.
  func timelineEntries(
    _ versions: [(row: VersionRow, info: VersionInfo)], _ strokes: ComparedStrokes, counted: (Int) -> Bool
  ) -> (entries: [TimelineEntry], compared: Int) {
    let (lists, keys) = (strokes.lists, strokes.keys)
    var entries: [TimelineEntry] = []
    var compared = 0
    var before: StrokeRunList? = .empty
    var beforeBlob: Int64?
    // The pairs whose drawings must be read for their cuts: entry, blobs, the lists' lengths,
    // and the places (before, after) of the strokes that changed their row.
    var cutPairs: [(entry: Int, blobs: (Int64, Int64), counts: (Int, Int), moved: [(Int, Int)])] = []
    for (row, info) in versions {
      let after = lists[row.blobID]
      var changes: StrokeChanges?
      if let before, let after, counted(info.number) {
        // The strokes both share at their start are the same rows: they change nothing.
        let shared = after.commonPrefixCount(with: before)
        let was = before.ids(from: shared).map { StrokeKey(id: $0, row: keys[$0]) }
        let now = after.ids(from: shared).map { StrokeKey(id: $0, row: keys[$0]) }
        changes = Self.changes(from: was, to: now)
        compared += was.count + now.count
        let moved = Self.rowChanges(from: was, to: now)
        if let beforeBlob, !moved.isEmpty {
          cutPairs.append(
            (
              entries.count, (beforeBlob, row.blobID), (before.count, after.count),
              moved.map { ($0.0 + shared, $0.1 + shared) }
            ))
        }
      }
      entries.append(TimelineEntry(version: info, id: VersionID(rawValue: row.id), changes: changes))
      before = after
      beforeBlob = row.blobID
    }
    if !cutPairs.isEmpty {
      // A drawing that cannot be read back tells no cut: the counts from the index stand.
      var cuts: [Int64: [StrokeCut?]] = [:]
      _ = try? inSnapshot {
        for blob in Set(cutPairs.flatMap { [$0.blobs.0, $0.blobs.1] }) {
          if let found = try? strokeCuts(blobID: blob) { cuts[blob] = found }
        }
      }
      for pair in cutPairs {
        guard let a = cuts[pair.blobs.0], let b = cuts[pair.blobs.1], a.count == pair.counts.0,
          b.count == pair.counts.1
        else { continue }
        entries[pair.entry].changes?.partlyErased = pair.moved.count { was, now in b[now] != nil && a[was] != b[now] }
      }
    }
    return (entries, compared)
  }

  /// `diff`'s rules (Archive+Diff.swift), counted.
  static func changes(from before: [StrokeKey], to after: [StrokeKey]) -> StrokeChanges {
    var changes = StrokeChanges(added: 0, removed: 0, hidden: 0, unhidden: 0)
    var hiddenBefore: [StrokeKey.Identity: Bool] = [:]
    for stroke in before { hiddenBefore[stroke.identity] = stroke.hidden }
    var afterIdentities = Set<StrokeKey.Identity>()
    for stroke in after {
      afterIdentities.insert(stroke.identity)
      switch (hiddenBefore[stroke.identity], stroke.hidden) {
      case (nil, false): changes.added += 1
      case (false?, true): changes.hidden += 1
      case (true?, false): changes.unhidden += 1
      default: break
      }
    }
    for stroke in before where !stroke.hidden && !afterIdentities.contains(stroke.identity) {
      changes.removed += 1
    }
    return changes
  }

  /// The strokes visible in both lists, by their UUID, that are another row in `after`: the
  /// places (before, after) of each.
  static func rowChanges(from before: [StrokeKey], to after: [StrokeKey]) -> [(Int, Int)] {
    var visibleBefore: [StrokeUUID: Int] = [:]
    for (index, stroke) in before.enumerated() where !stroke.hidden {
      if case .uuid(let uuid) = stroke.identity { visibleBefore[uuid] = index }
    }
    var found: [(Int, Int)] = []
    for (index, stroke) in after.enumerated() where !stroke.hidden {
      guard case .uuid(let uuid) = stroke.identity, let was = visibleBefore[uuid], before[was].id != stroke.id
      else { continue }
      found.append((was, index))
    }
    return found
  }
}

/// What counting a timeline's changes reads of the drawing index: stroke lists by blob, and
/// the rows of the strokes the lists do not share.
struct ComparedStrokes {
  var lists: [Int64: StrokeRunList]
  var keys: [Int64: StrokeKeyRow]
}

/// A stroke as a timeline compares them.
struct StrokeKey {
  enum Identity: Hashable {
    case uuid(StrokeUUID)
    case row(Int64)
  }
  var identity: Identity
  var hidden: Bool
  /// The stroke's row: a stroke whose row changed while it stayed visible may have been cut.
  var id: Int64

  /// `row` is always there for an id of a stroke list (TimelineRecords.strokeKeys checks).
  init(id: Int64, row: StrokeKeyRow?) {
    self.id = id
    identity = row?.uuid.map(Identity.uuid) ?? .row(id)
    hidden = row?.hidden ?? false
  }
}
