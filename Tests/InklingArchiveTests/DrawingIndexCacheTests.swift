import Foundation
import InklingCorpus
import InklingFormats
import InklingTestSupport
import Testing

@testable import InklingArchive
@testable import InklingStore

/// The indexer's memories (previous save's bytes, facts per stroke) and the lean index of
/// migration 0005, including the conversion of an archive indexed under 0002.
@Suite struct DrawingIndexCacheTests {
  /// The drawings of a small generated corpus, draft by draft, oldest save first.
  private func drafts(_ count: Int, seed: UInt64) -> [[[UInt8]]] {
    var drafts: [[[UInt8]]] = []
    generateCorpus(CorpusSpec(drafts: count, versionsPerDraft: 3...8, seed: seed)) { file in
      if file.versionIndex == 0 { drafts.append([]) }
      drafts[drafts.count - 1].append(file.drawingBytes)
    }
    return drafts
  }

  /// The index keeps a stroke's stored rectangle when it has a usable one, and computes the
  /// bounds otherwise, which keeps indexing within its budget (docs/decisions.md, "The drawing
  /// index costs at most 15 % of an import"); the rendering path always computes.
  @Test func indexBoundsAreTheStoredRectangleWhenUsable() throws {
    let bytes = try #require(drafts(1, seed: 3).first?.last)
    var drawing = try #require(try DrawingReader.read(bytes).drawing)
    let index = try #require(
      drawing.strokes.indices.first { drawing.strokes[$0].path != nil && drawing.strokes[$0].substrokes.isEmpty })
    let stored = Rect(x: 1, y: 2, width: 3, height: 4)
    drawing.strokes[index].storedBounds = stored
    #expect(DrawingIndexer.indexBounds(ofStrokeAt: index, in: drawing) == stored)
    for unusable in [nil, Rect(x: .nan, y: 0, width: 1, height: 1), Rect(x: 0, y: 0, width: -1, height: 1)] {
      drawing.strokes[index].storedBounds = unusable
      #expect(
        DrawingIndexer.indexBounds(ofStrokeAt: index, in: drawing)
          == drawing.renderBounds(ofStrokeAt: index))
    }
  }

  @Test func rememberedFactsEqualFreshOnesAndMostStrokesAreRemembered() throws {
    let indexer = DrawingIndexer()
    for draft in drafts(12, seed: 5) {
      indexer.forget()
      for bytes in draft {
        let remembered = indexer.facts(of: bytes)
        let fresh = DrawingIndexer().facts(of: bytes)
        #expect(remembered == fresh)
        #expect(remembered.status == .decoded)
      }
    }
    let statistics = indexer.statistics
    // Saves repeat the strokes before them: with 3–8 saves, over half the strokes were seen.
    #expect(statistics.strokes > 500)
    #expect(Double(statistics.factsReused) > 0.5 * Double(statistics.strokes), "\(statistics)")
    #expect(Double(statistics.fingerprintsReused) > 0.5 * Double(statistics.strokes), "\(statistics)")
  }

  /// The facts of a drawing read with its points left encoded (the indexer's read) are those
  /// of the same drawing gzipped, which the indexer reads whole, decoding every point.
  @Test func factsFromEncodedPointsEqualThoseOfAWholeRead() throws {
    var strokes = 0
    for draft in drafts(12, seed: 6) {
      for bytes in draft {
        let encoded = DrawingIndexer().facts(of: bytes)
        #expect(encoded.status == .decoded)
        #expect(encoded == DrawingIndexer().facts(of: Gzip.compress(bytes)))
        strokes += encoded.strokes.count
      }
    }
    #expect(strokes > 500)
  }

  /// A save whose stroke bytes repeat the previous save's but whose ink table changed: the
  /// strokes the reader skipped are described under their new ink (the save is read again,
  /// skipping nothing), as a fresh indexer describes them.
  @Test func aSkippedStrokeWhoseInkChangedIsDescribedAfresh() throws {
    let first = try deviceSample("three-pen-strokes")
    var model = try #require(try DrawingReader.read(first).drawing)
    model.inks[0].color = RGBA(red: 0.5, green: 0.25, blue: 0.125, alpha: 1)  // exact in binary32
    let recoloured = try model.dataRepresentation()
    let indexer = DrawingIndexer()
    _ = indexer.facts(of: first)
    let second = indexer.facts(of: recoloured)
    #expect(second == DrawingIndexer().facts(of: recoloured))
    #expect(second.strokes.map(\.color) == model.strokes.map { model.inks[$0.inkIndex].color })
    // The save after it skips its strokes again.
    let reused = indexer.statistics.fingerprintsReused
    #expect(indexer.facts(of: recoloured) == second)
    #expect(indexer.statistics.fingerprintsReused == reused + model.strokes.count)
  }

  /// The same stroke twice in one drawing (a pasted copy: the same message) is one row.
  @Test func aStrokeTwiceInOneDrawingIsOneRow() throws {
    let folder = try TemporaryFolder("pasted")
    var model = try #require(try DrawingReader.read(try deviceSample("three-pen-strokes")).drawing)
    model.strokes.append(model.strokes[0])
    try folder.write("A-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: try model.dataRepresentation()))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("")])
    #expect(try archive.database.fetchOne("SELECT count(*) FROM stroke") { $0.int(0) } == 3)
    let blobID = try #require(try archive.database.fetchOne("SELECT blob_id FROM drawing") { $0.int64(0) })
    let row = try #require(try DrawingIndexRecords.read(blobID: blobID, in: archive.database))
    #expect(row.strokeIDs.count == 4)
    #expect(row.strokeIDs[3] == row.strokeIDs[0])
    #expect(Set(row.strokeIDs).count == 3)
  }

  @Test func aDraftsStrokesAreSharedAcrossImportsButNotWithOtherDrafts() throws {
    let folder = try TemporaryFolder("lean")
    // Three blobs holding the same stroke messages: the drawing's own UUID differs.
    guard case .drawing(var model) = try DrawingReader.read(try deviceSample("three-pen-strokes")) else {
      Issue.record("the sample does not decode")
      return
    }
    let variants = try (1...3).map { (n: UInt8) in
      model.uuid = UUIDBytes([UInt8](repeating: n, count: 16))
      return try model.dataRepresentation()
    }
    try folder.write("A-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: variants[0]))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("")])
    // A later import, a later save of A with the same strokes: the writer finds them
    // through A's archived versions.
    try folder.write("A-2025-10-02T00:00:00Z.inkling", inklingFile(drawing: variants[1]))
    _ = try archive.importFiles(at: [folder.path("")])
    let count = { (table: String) in try archive.database.fetchOne("SELECT count(*) FROM \(table)") { $0.int(0) } }
    #expect(try count("stroke") == 3)
    #expect(try count("ink") == archive.show(draft: "A").drawing.inks.count)
    #expect(
      try archive.database.fetchAll("SELECT ink, stroke_count FROM drawing_ink") { "\($0.string(0)) \($0.int(1))" } == [
        "pen 3", "pen 3",
      ])
    // Another draft holding the same strokes has rows of its own (no fingerprint index).
    try folder.write("B-2025-10-03T00:00:00Z.inkling", inklingFile(drawing: variants[2]))
    _ = try archive.importFiles(at: [folder.path("")])
    #expect(try count("stroke") == 6)
    #expect(try archive.search("ink:pen", limit: 10).count == 2)
    #expect(try archive.diff(draft: "A", from: 1, to: 2).added.isEmpty)
    // reindex --all builds the same index again from nothing.
    #expect(try archive.reindex(all: true) == 3)
    #expect(try count("stroke") == 3)
    #expect(try archive.show(draft: "B").drawing.visibleCount == 3)
  }

  /// An archive indexed by the writer of migration 0002 (rows written here with its SQL)
  /// converts to 0005 with every fact that `show` and `diff` read, and later imports share
  /// its stroke rows.
  @Test func anArchiveIndexedUnder0002ConvertsWithoutLoss() throws {
    let folder = try TemporaryFolder("convert")
    let path = folder.path("old.sqlite")
    let samples = try ["pen-marker-hidden", "three-pen-strokes", "handwritten-half-notes"].map(deviceSample)
    var expected: [(blobID: Int64, facts: DrawingFacts)] = []
    try withArchive(atSchema: 4, path: path) { db in
      let indexer = DrawingIndexer()
      var strokeIDs: [StrokeFingerprint: Int64] = [:]
      for (index, bytes) in samples.enumerated() {
        try db.execute(
          "INSERT INTO blob(sha256, size, encoding, data) VALUES (?, ?, 0, ?)",
          [SHA256.hash(bytes), bytes.count, bytes])
        let blobID = db.lastInsertRowID
        let facts = indexer.facts(of: bytes)
        var ids: [Int64] = []
        for (stroke, fingerprint) in zip(facts.strokes, facts.fingerprints) {
          if let id = strokeIDs[fingerprint] {
            ids.append(id)
            continue
          }
          let b = stroke.bounds
          try db.execute(
            """
            INSERT INTO stroke(fingerprint, uuid, hidden, ink, color_r, color_g, color_b, color_a, bounds_x, bounds_y,
              bounds_width, bounds_height, point_count, created_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
              fingerprint.bytes, stroke.uuid?.bytes, stroke.hidden, stroke.ink, stroke.color.red, stroke.color.green,
              stroke.color.blue, stroke.color.alpha, b?.x, b?.y, b?.width, b?.height, stroke.pointCount, stroke.created,
            ])
          strokeIDs[fingerprint] = db.lastInsertRowID
          ids.append(db.lastInsertRowID)
        }
        let b = facts.bounds
        try db.execute(
          """
          INSERT INTO drawing(blob_id, status, problem, format_version, stroke_count, hidden_count, point_count, bounds_x,
            bounds_y, bounds_width, bounds_height, first_point_s, last_point_s, max_ink_version, content_hash, strokes)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          [
            blobID, facts.status.rawValue, facts.problem, facts.formatVersion, facts.strokes.count, facts.hiddenCount,
            facts.pointCount, b?.x, b?.y, b?.width, b?.height, facts.firstPoint, facts.lastPoint, facts.maxInkVersion,
            facts.contentHash, StrokeRuns.encode(ids),
          ])
        // 0002 kept one row per (ink, colour); give one sample two colours of one ink.
        var inks: [String: Int] = [:]
        for stroke in facts.strokes where !stroke.hidden { inks[stroke.ink, default: 0] += 1 }
        for (ink, count) in inks {
          for (shade, share) in (index == 1 && count > 1) ? [(0.5, count - 1), (1.0, 1)] : [(0.0, count)] {
            try db.execute(
              "INSERT INTO drawing_ink(blob_id, ink, color_r, color_g, color_b, color_a, stroke_count) VALUES (?, ?, ?, 0, 0, 1, ?)",
              [blobID, ink, shade, share])
          }
        }
        var stored = facts
        stored.fingerprints = []
        expected.append((blobID, stored))
      }
    }

    let db = try ArchiveDatabase.open(path: path, mode: .readWrite)
    defer { db.close() }
    #expect(try db.fetchOne("PRAGMA user_version") { $0.int(0) } == Int(ArchiveDatabase.schemaVersion))
    #expect(try db.fetchAll("PRAGMA foreign_key_check") { $0.string(0) }.isEmpty)
    for (blobID, facts) in expected {
      #expect(try DrawingIndexRecords.read(blobID: blobID, in: db)?.facts == facts)
      var inks: [String: Int] = [:]
      for stroke in facts.strokes where !stroke.hidden { inks[stroke.ink, default: 0] += 1 }
      let rows = try db.fetchAll("SELECT ink, stroke_count FROM drawing_ink WHERE blob_id = ?", [blobID]) {
        ($0.string(0), $0.int(1))
      }
      #expect(Dictionary(uniqueKeysWithValues: rows) == inks)
    }
    // The fingerprints came along, so later imports of these drafts share the rows.
    let stored = try db.fetchAll("SELECT fingerprint FROM stroke") { StrokeFingerprint(prefixOf: $0.bytes(0)) }
    let indexer = DrawingIndexer()
    #expect(Set(stored) == Set(samples.flatMap { indexer.facts(of: $0).fingerprints }))
  }

  /// A batch whose strokes overflow the writer's cache (which is then dropped mid-batch)
  /// still numbers every new stroke once: rows are written after the whole batch is numbered.
  @Test func aBatchLargerThanTheStrokeCacheKeepsItsStrokeIDs() throws {
    let folder = try TemporaryFolder("overflow")
    let archive = try Archive(path: folder.path("archive.sqlite"))
    let db = archive.database
    let perDrawing = 1_000
    let drawings = DrawingIndexWriter.cacheLimit / perDrawing + 3
    let writer = DrawingIndexWriter(db)
    var jobs: [DrawingIndexJob] = []
    try db.transaction {
      for number in 0..<drawings {
        try db.execute(
          "INSERT INTO blob(sha256, size, encoding, depth, data) VALUES (?, 1, 0, 0, x'00')",
          [Array(SHA256.hash(Array("blob \(number)".utf8)))])
        // Each drawing repeats the strokes of the one before and adds `perDrawing` more, as saves do.
        let count = (number + 1) * perDrawing
        let facts = DrawingFacts(
          status: .decoded, formatVersion: 1,
          strokes: (0..<count).map { index in
            StrokeFacts(
              uuid: nil, hidden: false, ink: index % 2 == 0 ? "pen" : "marker",
              color: RGBA(red: 0, green: 0, blue: 0, alpha: 1),
              bounds: Rect(x: Double(index), y: 0, width: 1, height: 1), pointCount: index + 1, created: nil)
          },
          fingerprints: (0..<count).map { StrokeFingerprint(high: 7, low: UInt64($0)) })
        jobs.append(DrawingIndexJob(facts: facts, blobID: db.lastInsertRowID, isNew: true, draftID: nil))
      }
      try writer.write(jobs)
    }
    for job in jobs {
      let row = try #require(try DrawingIndexRecords.read(blobID: job.blobID, in: db))
      #expect(row.facts.strokes.map(\.pointCount) == job.facts.strokes.map(\.pointCount))
      #expect(Set(row.strokeIDs).count == job.facts.strokes.count)
    }
    #expect(try db.fetchOne("SELECT count(*) FROM drawing_ink") { $0.int(0) } == 2 * drawings)
  }
}
