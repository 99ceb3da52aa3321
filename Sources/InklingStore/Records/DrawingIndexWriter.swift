// Writes the drawing index (DrawingIndexRecords.swift): once per blob at import, and at
// `reindex`.
//
// Writing is on the import's critical path, where indexing may add at most 15 % to an import
// (docs/decisions.md, "The drawing index costs at most 15 % of an import"), so the writer
// keeps its ids in memory and its inserts sequential:
//   1. Stroke ids are cached by fingerprint. A save repeats every earlier stroke of its
//      draft, so the first time a run meets a draft that has versions already, the writer
//      loads the ids and fingerprints of those versions' strokes (one read of the draft's
//      stroke lists); a run never looks a fingerprint up in SQL, and there is no
//      fingerprint index to update at random places.
//   2. New strokes get ids the writer numbers itself (it is inside a write transaction,
//      so max(id) + 1 onwards is free; max(id) is read once per transaction, and
//      `transactionEnded()` forgets it) and go in up to 128 rows per INSERT, appended in id
//      order.
//   3. An import writes a batch's drawings together (`write(_:)`): their ink rows, then
//      their drawing rows, each table in INSERTs of up to 64–256 rows, which SQLite runs with
//      one set of cursors (a statement per drawing cost more than its rows). Ink rows go in
//      before drawing rows: under migration 0009 ink rows count on `draft` only once their
//      drawing has its row, so they update nothing and the drawing row's trigger sets the
//      newest drawing's strokes and inks in one go. A blob indexed again loses its old
//      rows first, drawing row first for the same reason.
// A cache miss only costs sharing (a second row for the same stroke), never correctness.

import InklingFormats

/// Writes drawing facts; one per writer connection, caching stroke and ink ids between
/// versions (a save repeats every earlier stroke, so most strokes are found in memory).
package final class DrawingIndexWriter {
  private let db: Database
  private var strokeIDs = FingerprintTable()
  /// Drafts whose archived strokes are in `strokeIDs` (invariant 1 of the file comment).
  private var loadedDrafts = Set<Int64>()
  private var inkIDs: [InkKey: Int64] = [:]
  /// The ink looked up last: a save's new strokes mostly share one ink, and a look-up in
  /// `inkIDs` hashes the name and four doubles.
  private var lastInk: (key: InkKey, id: Int64)?
  /// The next free stroke id, valid until the write transaction ends (invariant 2).
  private var nextStrokeID: Int64?
  /// The strokes of the last drawing written with a draft, and their ids: a draft's next
  /// save repeats most of them at the same places, found by comparing fingerprints there
  /// rather than hashing each into `strokeIDs` (they name the same rows).
  private var lastWritten: (draftID: Int64, fingerprints: [StrokeFingerprint], ids: [Int64])?
  /// The stroke cache is dropped when it grows past this; it only saves rows.
  static let cacheLimit = 20_000
  // Rows per multi-row INSERT, at most: strokes 128 (11 parameters each), ink rows 256 (3)
  // and drawing rows 64 (16), well under SQLite's limit of 32,766 parameters. A statement
  // costs a fixed part besides its rows, and an INSERT into a table with triggers (drawing,
  // drawing_ink) first copies its rows into a temporary table, so fewer, larger statements
  // cost the writer less (BENCHMARKS.md, "Indexing at import").
  private static let strokeInsert = MultiRowInsert(
    slot: 0,
    "INSERT INTO stroke(id, ink_id, hidden, point_count, bounds_x, bounds_y, bounds_width, bounds_height, created_s, "
      + "uuid, fingerprint)", columns: 11, maxRows: 128)
  private static let inkInsert = MultiRowInsert(
    slot: 1, "INSERT INTO drawing_ink(blob_id, ink, stroke_count)", columns: 3, maxRows: 256)
  private static let drawingColumns = """
    drawing(blob_id, status, problem, format_version, stroke_count, hidden_count, point_count, bounds_x, bounds_y,
      bounds_width, bounds_height, first_point_s, last_point_s, max_ink_version, content_hash, strokes)
    """
  private static let drawingInsert = MultiRowInsert(slot: 2, "INSERT INTO " + drawingColumns, columns: 16, maxRows: 64)

  /// `INSERT … VALUES (?, …), …`: its SQL is made when a row count is first prepared.
  private struct MultiRowInsert {
    /// Its statements' place in `held`, one per row count.
    let slot: Int
    let columns: Int32
    /// The most rows one statement inserts: a power of two, at most `2^(rowCounts − 1)`.
    let maxRows: Int
    let head: String
    let row: String
    init(slot: Int, _ head: String, columns: Int32, maxRows: Int) {
      precondition(maxRows.nonzeroBitCount == 1 && maxRows < 1 << DrawingIndexWriter.rowCounts)
      self.slot = slot
      self.columns = columns
      self.maxRows = maxRows
      self.head = head
      row = "(" + repeatElement("?", count: Int(columns)).joined(separator: ", ") + ")"
    }
    func sql(rows: Int) -> String { head + " VALUES " + repeatElement(row, count: rows).joined(separator: ", ") }
  }

  /// Prepared statements the writer holds itself, by slot (one per table and row count, a
  /// power of two): looking one up in the connection's cache hashes its SQL text, and a
  /// 128-row INSERT is 6 KB of it.
  private var held: [Statement?] = Array(repeating: nil, count: 3 * rowCounts)
  /// Row counts per table: 1, 2, 4, … 256.
  private static let rowCounts = 9

  /// The held statement inserting `rows` rows (a power of two) with `insert`, prepared on
  /// first use.
  private func statement(_ insert: MultiRowInsert, rows: Int) throws -> Statement {
    let slot = insert.slot * Self.rowCounts + rows.trailingZeroBitCount
    if let statement = held[slot] { return statement }
    let statement = try db.makeStatement(insert.sql(rows: rows), persistent: true)
    held[slot] = statement
    return statement
  }

  /// Runs `insert` over `rows` in statements of up to `insert.maxRows` rows; `bind` binds one
  /// row from parameter `at`.
  private func insertRows<Row>(
    _ rows: some Collection<Row>, _ insert: MultiRowInsert, bind: (Statement, Row, Int32) throws -> Void
  ) throws {
    var rest = rows[...]
    while !rest.isEmpty {
      // Parts of a power of two rows (…, 4, 2, 1): a few statements to prepare per table,
      // where preparing every count up to the most cost more than the rows of a small import.
      let available = min(rest.count, insert.maxRows)
      let part = rest.prefix(1 << (Int.bitWidth - 1 - available.leadingZeroBitCount))
      rest = rest.dropFirst(part.count)
      let statement = try statement(insert, rows: part.count)
      statement.reset()
      var parameter: Int32 = 1
      do {
        for row in part {
          try bind(statement, row, parameter)
          parameter += insert.columns
        }
      } catch {
        statement.finish()  // no bound copies left behind
        throw error
      }
      // `run` resets and clears the bindings after the rows, also when it throws (clearing
      // hundreds of parameters is not free: it is done there once, not here again).
      try statement.run()
    }
  }

  private struct InkKey: Hashable {
    let name: String
    let color: RGBA
  }

  package init(_ db: Database) { self.db = db }

  /// Whether `blobID` already has its row.
  package func isIndexed(_ blobID: Int64) throws -> Bool {
    try db.fetchOne("SELECT 1 FROM drawing WHERE blob_id = ?", [blobID]) { _ in true } ?? false
  }

  /// Stores the facts of blob `blobID`, replacing any row it had.
  ///
  /// - Parameters:
  ///   - isNew: the blob was inserted in this transaction, so it has no rows yet (saves
  ///     the deletion of its old rows).
  ///   - draftID: the draft whose version holds the blob, when known: its earlier strokes
  ///     are shared with this drawing's (invariant 1).
  package func write(_ facts: DrawingFacts, blobID: Int64, isNew: Bool = false, draftID: Int64? = nil) throws {
    try write([DrawingIndexJob(facts: facts, blobID: blobID, isNew: isNew, draftID: draftID)])
  }

  /// Stores the facts of several blobs (each at most once), like `write(_:blobID:isNew:draftID:)`
  /// for each, with their rows of each table in a few multi-row INSERTs (invariant 3): an
  /// import writes a batch's drawings together.
  package func write(_ jobs: [DrawingIndexJob]) throws {
    var inkRows: [(blobID: Int64, name: String, count: Int)] = []
    var drawingRows: [(job: DrawingIndexJob, strokes: [UInt8], hidden: Int)] = []
    drawingRows.reserveCapacity(jobs.count)
    var strokeRows: [NewStroke] = []
    // The cache is moved into a local for the batch and back after it: each use of a class's
    // stored property is an exclusivity check at run time, and this is a few per stroke.
    var cache = FingerprintTable()
    swap(&cache, &strokeIDs)
    defer { swap(&cache, &strokeIDs) }
    for (number, job) in jobs.enumerated() {
      let facts = job.facts
      precondition(
        facts.fingerprints.count == facts.strokes.count,
        "facts to write come from DrawingIndexer, one fingerprint per stroke")
      if cache.count >= Self.cacheLimit {
        // Not forgetCache(): `nextStrokeID` must stay, the rows numbered so far are not written yet.
        cache.removeAll()
        loadedDrafts.removeAll(keepingCapacity: true)
      }
      if let draftID = job.draftID, !loadedDrafts.contains(draftID) { try loadStrokes(ofDraft: draftID, into: &cache) }
      let ids = try strokeIDs(for: facts, job: number, draftID: job.draftID, cache: &cache, adding: &strokeRows)
      if let draftID = job.draftID { lastWritten = (draftID, facts.fingerprints, ids) }
      if !job.isNew {
        try db.execute("DELETE FROM drawing WHERE blob_id = ?", [job.blobID])
        try db.execute("DELETE FROM drawing_ink WHERE blob_id = ?", [job.blobID])
      }
      // Ink names in order of first use (a handful per drawing, so a linear search is
      // cheapest) and the hidden strokes, in one pass over the strokes read in place.
      let first = inkRows.count
      var hidden = 0
      for index in facts.strokes.indices {
        if facts.strokes[index].hidden {
          hidden += 1
        } else if let row = inkRows[first...].firstIndex(where: { $0.name == facts.strokes[index].ink }) {
          inkRows[row].count += 1
        } else {
          inkRows.append((job.blobID, facts.strokes[index].ink, 1))
        }
      }
      drawingRows.append((job, StrokeRuns.encode(ids), hidden))
    }
    // On a throw the caller rolls back and calls forgetCache(): the stroke ids cached by
    // strokeIDs(for:job:draftID:cache:adding:) name rows that are gone.
    try insertRows(strokeRows, Self.strokeInsert) { insert, row, at in
      // Read in place: copying a job's facts (or a stroke's) retains each of their arrays.
      let bounds = jobs[row.job].facts.strokes[row.index].bounds
      try insert.bind(row.id, at: at)
      try insert.bind(row.ink, at: at + 1)
      try insert.bind(Int64(jobs[row.job].facts.strokes[row.index].hidden ? 1 : 0), at: at + 2)
      try insert.bind(Int64(jobs[row.job].facts.strokes[row.index].pointCount), at: at + 3)
      try insert.bind(bounds?.x, at: at + 4)
      try insert.bind(bounds?.y, at: at + 5)
      try insert.bind(bounds?.width, at: at + 6)
      try insert.bind(bounds?.height, at: at + 7)
      try insert.bind(jobs[row.job].facts.strokes[row.index].created, at: at + 8)
      let uuid = jobs[row.job].facts.strokes[row.index].uuid
      try Self.bind(words: uuid.map { ($0.high, $0.low) }, to: insert, at: at + 9)
      let fingerprint = jobs[row.job].facts.fingerprints[row.index]
      try Self.bind(words: (fingerprint.high, fingerprint.low), to: insert, at: at + 10)
    }
    // A drawing's ink rows go in before its drawing row: see migration 0009.
    try insertRows(inkRows, Self.inkInsert) { insert, row, at in
      try insert.bind(row.blobID, at: at)
      try insert.bind(text: row.name, at: at + 1)
      try insert.bind(Int64(row.count), at: at + 2)
    }
    try insertRows(drawingRows, Self.drawingInsert, bind: Self.bindDrawing)
  }

  /// Binds two words as the 16 bytes `StrokeUUID.bytes` and `StrokeFingerprint.bytes` give
  /// (big-endian), without making an array; NULL for nil.
  private static func bind(words: (high: UInt64, low: UInt64)?, to insert: Statement, at index: Int32) throws {
    try withUnsafeBytes(of: (words?.high.bigEndian ?? 0, words?.low.bigEndian ?? 0)) {
      try insert.bind(blob: words == nil ? nil : $0, at: index)
    }
  }

  private static func bindDrawing(
    _ insert: Statement, _ row: (job: DrawingIndexJob, strokes: [UInt8], hidden: Int), at: Int32
  ) throws {
    let facts = row.job.facts
    let bounds = facts.bounds
    try insert.bind(row.job.blobID, at: at)
    try insert.bind(Int64(facts.status.rawValue), at: at + 1)
    try insert.bind(text: facts.problem, at: at + 2)
    try insert.bind(facts.formatVersion.map(Int64.init), at: at + 3)
    try insert.bind(Int64(facts.strokes.count), at: at + 4)
    try insert.bind(Int64(row.hidden), at: at + 5)
    try insert.bind(Int64(facts.pointCount), at: at + 6)
    try insert.bind(bounds?.x, at: at + 7)
    try insert.bind(bounds?.y, at: at + 8)
    try insert.bind(bounds?.width, at: at + 9)
    try insert.bind(bounds?.height, at: at + 10)
    try insert.bind(facts.firstPoint, at: at + 11)
    try insert.bind(facts.lastPoint, at: at + 12)
    try insert.bind(facts.maxInkVersion.map(Int64.init), at: at + 13)
    try insert.bind(blob: facts.contentHash, at: at + 14)
    try insert.bind(blob: row.strokes, at: at + 15)
  }

  /// Call when the write transaction commits or rolls back: another connection may insert
  /// strokes before the next one (invariant 2).
  package func transactionEnded() { nextStrokeID = nil }

  /// Puts the strokes of every indexed version of draft `draftID` in `cache`.
  private func loadStrokes(ofDraft draftID: Int64, into cache: inout FingerprintTable) throws {
    loadedDrafts.insert(draftID)
    var ids = Set<Int64>()
    try db.statement(
      "SELECT DISTINCT drawing.strokes FROM version JOIN drawing ON drawing.blob_id = version.blob_id WHERE version.draft_id = ?"
    ).forEach([draftID]) { row in
      // A malformed list only loses sharing here; `show` reports it.
      ids.formUnion(StrokeRuns.decode(row.bytes(0)) ?? [])
    }
    // One query per run of consecutive ids, not one per id: a draft's strokes are numbered
    // in runs (a save's new strokes take consecutive ids).
    let fingerprints = try db.statement("SELECT id, fingerprint FROM stroke WHERE id BETWEEN ? AND ?")
    let sorted = ids.sorted()
    var start = 0
    while start < sorted.count {
      var end = start
      while end + 1 < sorted.count, sorted[end + 1] == sorted[end] &+ 1 { end += 1 }
      try fingerprints.forEach([sorted[start], sorted[end]]) { row in
        let bytes = row.bytes(1)
        if bytes.count == 16 { cache[StrokeFingerprint(prefixOf: bytes)] = row.int64(0) }
      }
      start = end + 1
    }
  }

  /// A stroke row to insert: its id, and where its facts are (stroke `index` of job `job`).
  private struct NewStroke {
    let id: Int64
    let job: Int
    let index: Int
    let ink: Int64
  }

  /// The row id of each stroke of `facts` (job `job` of the batch): from `strokeIDs` (the
  /// cache), or a new id whose row is added to `rows`.
  private func strokeIDs(
    for facts: DrawingFacts, job: Int, draftID: Int64?, cache strokeIDs: inout FingerprintTable,
    adding rows: inout [NewStroke]
  ) throws -> [Int64] {
    var ids = [Int64](repeating: 0, count: facts.strokes.count)
    var missing: [Int] = []
    let last = lastWritten.flatMap { $0.draftID == draftID ? $0 : nil }
    for index in facts.strokes.indices {
      if let last, index < last.ids.count, last.fingerprints[index] == facts.fingerprints[index] {
        ids[index] = last.ids[index]
      } else if let id = strokeIDs[facts.fingerprints[index]] {
        ids[index] = id
      } else {
        missing.append(index)
      }
    }
    guard !missing.isEmpty else { return ids }
    // The writer is inside a write transaction, so no other connection inserts strokes
    // before it ends (WAL: a stale snapshot could not write at all), and max(id) + 1
    // onwards is free.
    var next: Int64
    if let known = nextStrokeID {
      next = known
    } else {
      next = (try db.fetchOne("SELECT max(id) FROM stroke", [], { $0.isNull(0) ? 0 : $0.int64(0) }) ?? 0) + 1
    }
    for index in missing {
      // One look-up: the new id goes in, unless the stroke is there already (the same stroke
      // twice in one drawing, a pasted copy, gets one row). On a throw the caller calls
      // forgetCache().
      if let id = strokeIDs.insertIfAbsent(next, forKey: facts.fingerprints[index]) {
        ids[index] = id
        continue
      }
      let ink = try inkID(facts.strokes[index].ink, facts.strokes[index].color)
      rows.append(NewStroke(id: next, job: job, index: index, ink: ink))
      ids[index] = next
      next += 1
    }
    nextStrokeID = next
    return ids
  }

  /// The id of the (ink, colour) row, inserted when new.
  private func inkID(_ name: String, _ color: RGBA) throws -> Int64 {
    let key = InkKey(name: name, color: color)
    if let lastInk, lastInk.key == key { return lastInk.id }
    if let id = inkIDs[key] {
      lastInk = (key, id)
      return id
    }
    let arguments: [(any DatabaseValueConvertible)?] = [name, color.red, color.green, color.blue, color.alpha]
    let id: Int64
    if let existing = try db.fetchOne(
      "SELECT id FROM ink WHERE name = ? AND color_r = ? AND color_g = ? AND color_b = ? AND color_a = ?", arguments,
      { $0.int64(0) })
    {
      id = existing
    } else {
      try db.execute("INSERT INTO ink(name, color_r, color_g, color_b, color_a) VALUES (?, ?, ?, ?, ?)", arguments)
      id = db.lastInsertRowID
    }
    inkIDs[key] = id
    lastInk = (key, id)
    return id
  }

  /// Forgets cached ids (after a rollback, the rows they name may be gone).
  package func forgetCache() {
    strokeIDs.removeAll()
    loadedDrafts.removeAll(keepingCapacity: true)
    inkIDs.removeAll()
    lastInk = nil
    nextStrokeID = nil
    lastWritten = nil
  }
}
