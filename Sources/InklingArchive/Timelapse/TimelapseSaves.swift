// The saves a time-lapse replays, read through the drawing index: each save's strokes as the
// index lists them (runs of stroke rows), and the drawings of only as many saves as hold every
// stroke once, read newest first.
//
// A save repeats the strokes of the saves before it, so reading every save's drawing reads each
// stroke once per save that holds it: a draft saved thousands of times, a stroke a save, cost
// the product of its saves and strokes. Here a save's drawing is read only when its list has a
// stroke that no drawing read so far holds; the strokes a save shares at its start with the
// save after it are held by then (invariant 1), so only the rest of its list is looked at.
//
// Invariants:
// 1. After a save is taken, every stroke row of its list has its pieces (`pieces`), from
//    the drawing of that save or of a later one.
// 2. The newest save that reads (the replay's last frame) always has its own drawing read, so
//    that its strokes are drawn in the boxes its render uses.
// 3. A save the index does not list (not indexed, or its drawing did not decode when indexed),
//    or whose drawing disagrees with the index (another number of strokes), is given to the
//    planner as its drawing, read whole, as before the index existed; it is read when the
//    planner takes it (`unlisted`), so that at most one such drawing is held at a time, not
//    every one of a long history that was never indexed.

import InklingFormats
import InklingRendering
import InklingStore

/// The saves a time-lapse replays, oldest first, and what the planner needs of their strokes.
struct TimelapseSaves {
  enum Save {
    /// Listed by the index: its strokes' rows, in drawing order.
    case strokes(StrokeRunList)
    /// Read whole already (invariant 3): the newest save that reads, when the index does
    /// not list it.
    case drawing(Drawing)
    /// To be read whole when planned (invariant 3).
    case unlisted(VersionRow)
    case unreadable(String)
  }

  /// Parallel to the versions asked for.
  var saves: [Save] = []
  /// Every listed stroke row: a number shared by the rows of the same stroke, and its UUID.
  var keys: [Int64: SavedStroke] = [:]
  /// Each listed stroke row's visible pieces; nil when it draws nothing.
  var pieces: [Int64: [(piece: StrokePiece, box: Rect)]?] = [:]
  /// The place in `saves` of the newest save that reads, and its drawing's pieces when listed.
  var newest: (place: Int, measured: MeasuredStrokes?)?
  /// How many drawings were read: a number tests hold to the few saves that need it.
  var drawingsRead = 0

  /// The saves of `rows`, oldest first.
  init(_ rows: [VersionRow], archive: Archive) throws(ArchiveError) {
    saves = Array(repeating: .unreadable(""), count: rows.count)
    try archive.inSnapshot {
      var listedIDs = Set<Int64>()
      // The save after the one being read, when it is listed: all its rows have pieces.
      var after: StrokeRunList?
      for place in rows.indices.reversed() {
        let row = rows[place]
        let list = try archive.storeCall { try TimelineRecords.strokeList(blobID: row.blobID, in: archive.database) }
        guard let list else {
          // Only the newest is read now: whether it decodes says which save ends the replay.
          saves[place] = newest == nil ? try read(row, archive: archive) : .unlisted(row)
          if case .drawing = saves[place] { newest = (place, nil) }
          after = nil
          continue
        }
        let rest = list.ids(from: after.map { list.commonPrefixCount(with: $0) } ?? 0)
        listedIDs.formUnion(rest)
        guard newest == nil || rest.contains(where: { pieces[$0] == nil }) else {
          saves[place] = .strokes(list)
          after = list
          continue
        }
        let whole = try read(row, archive: archive)
        guard case .drawing(let drawing) = whole, drawing.strokes.count == list.count else {
          if case .drawing = whole, newest != nil {
            saves[place] = .unlisted(row)
          } else {
            saves[place] = whole
            if case .drawing = whole { newest = (place, nil) }
          }
          after = nil
          continue
        }
        let measured = MeasuredStrokes(drawing)
        for (index, id) in list.ids(from: 0).enumerated() where pieces[id] == nil {
          pieces.updateValue(measured.pieces(ofStroke: index), forKey: id)
        }
        if newest == nil { newest = (place, measured) }
        saves[place] = .strokes(list)
        after = list
      }
      let identities = try archive.storeCall {
        try TimelineRecords.strokeIdentities(ids: listedIDs, in: archive.database)
      }
      // Rows of the same content are the same stroke: they share the first row's number.
      var numbers: [StrokeContent: Int64] = [:]
      for (id, row) in identities.sorted(by: { $0.key < $1.key }) {
        let number = numbers[row.content] ?? id
        numbers[row.content] = number
        keys[id] = SavedStroke(key: .number(number), uuid: row.uuid.map { UUIDBytes($0) })
      }
    }
  }

  /// The drawing of `row`, read and decoded whole.
  mutating func read(_ row: VersionRow, archive: Archive) throws(ArchiveError) -> Save {
    drawingsRead += 1
    let bytes = try archive.storeCall {
      try BlobStore(archive.database).bytes(ofBlob: row.blobID, limit: DrawingLimits.default.maxBytes)
    }
    switch PictureRenderer.decode(bytes) {
    case .success(let drawing): return .drawing(drawing)
    case .failure(let undecodable): return .unreadable(undecodable.described)
    }
  }
}
