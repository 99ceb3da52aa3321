import Foundation
import InklingCorpus
import InklingFormats
import InklingStore
import InklingTestSupport
import Testing

@testable import InklingArchive

/// What migration 0008 keeps on `draft` for `strokes:`, `ink:` and `imported:` (the newest
/// drawing's visible strokes and inks, the first and newest import; inks counted once the
/// drawing has its row, since 0009), through every writer: imports, reindexing, and rows
/// changed behind the importer's back. Each step checks the searches and that `check` finds
/// the columns right.
@Suite struct SearchNewestDrawingTests {
  static let now = Date(timeIntervalSince1970: Double(SearchTests.now) / 1000)

  static func names(_ archive: Archive, _ query: String, limit: Int? = nil) throws -> Set<String> {
    Set(try archive.search(query, limit: limit, now: now, timeZone: SearchTests.timeZone).map(\.name))
  }

  /// `check` (without re-hashing) reports nothing about the columns of 0008.
  static func expectColumnsRight(_ path: String, _ comment: Comment) throws {
    let report = try Archive(checking: path).check(full: false, limit: 100)
    #expect(report.problems.isEmpty, "\(comment): \(report.problems)")
  }

  @Test func theNewestDrawingFollowsImportsAndReindexing() throws {
    let folder = try TemporaryFolder("newest")
    let three = try deviceSample("three-pen-strokes")  // 3 visible pen strokes
    let hidden = try deviceSample("pen-marker-hidden")  // 1 visible (pen), 2 hidden
    let opaque = Array("not a drawing".utf8)  // archived, indexed as unreadable: 0 strokes, no ink
    try folder.write("one/A-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: three))
    try folder.write("one/B-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: hidden))
    try folder.write("one/C-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: opaque))
    let path = folder.path("archive.sqlite")
    let archive = try Archive(path: path)
    _ = try archive.importFiles(at: [folder.path("one")])
    try Self.expectColumnsRight(path, "first import")
    #expect(try Self.names(archive, "strokes:3") == ["A"])
    #expect(try Self.names(archive, "strokes:1") == ["B"])
    #expect(try Self.names(archive, "strokes:0") == ["C"])
    #expect(try Self.names(archive, "ink:pen") == ["A", "B"])
    #expect(try Self.names(archive, "ink:marker") == [])  // B's marker strokes are hidden
    #expect(try Self.names(archive, "not ink:pen") == ["C"])

    // A newer save of A that does not decode; an older one of B that changes nothing.
    try folder.write("two/A-2025-10-02T00:00:00Z.inkling", inklingFile(drawing: opaque))
    try folder.write("two/B-2025-09-01T00:00:00Z.inkling", inklingFile(drawing: three))
    _ = try archive.importFiles(at: [folder.path("two")])
    try Self.expectColumnsRight(path, "second import")
    #expect(try Self.names(archive, "strokes:>2") == [])
    #expect(try Self.names(archive, "strokes:0") == ["A", "C"])
    #expect(try Self.names(archive, "ink:pen") == ["B"])
    #expect(try Self.names(archive, "strokes:<5 and ink:pen", limit: 1) == ["B"])

    // Back to a drawing with strokes, saved at the same time as the newest: the later import wins.
    try folder.write("three/A-2025-10-02T00:00:00Z.inkling", inklingFile(drawing: hidden, color: (0, 0, 0, 1)))
    _ = try archive.importFiles(at: [folder.path("three")])
    try Self.expectColumnsRight(path, "third import")
    #expect(try Self.names(archive, "strokes:1") == ["A", "B"])
    #expect(try Self.names(archive, "ink:pen") == ["A", "B"])

    // Not indexed: no stroke count and no inks, so only negations match.
    try archive.database.execute("DELETE FROM drawing_ink; DELETE FROM drawing; DELETE FROM stroke; DELETE FROM ink")
    try Self.expectColumnsRight(path, "index dropped")
    #expect(try Self.names(archive, "strokes:<100") == [])
    #expect(try Self.names(archive, "not strokes:>100") == ["A", "B", "C"])
    #expect(try Self.names(archive, "ink:pen") == [])
    #expect(try archive.database.fetchOne("SELECT count(*) FROM draft WHERE latest_strokes IS NULL") { $0.int(0) } == 3)

    #expect(try archive.reindex() > 0)
    try Self.expectColumnsRight(path, "reindex")
    #expect(try Self.names(archive, "strokes:1") == ["A", "B"])
    #expect(try Self.names(archive, "strokes:0") == ["C"])
    #expect(try Self.names(archive, "ink:pen") == ["A", "B"])

    _ = try archive.reindex(all: true)
    try Self.expectColumnsRight(path, "reindex --all")
    #expect(try Self.names(archive, "strokes:1 ink:pen") == ["A", "B"])
    #expect(try Self.names(archive, "not ink:pen") == ["C"])
  }

  /// Every ink of the bit table, names outside it (bit 256, then drawing_ink), and rows
  /// written with SQL: the triggers keep the columns whoever writes.
  @Test func everyInkAndEveryWriter() throws {
    let folder = try TemporaryFolder("inks")
    let path = folder.path("archive.sqlite")
    let archive = try Archive(path: path)
    let db = archive.database
    let inks = InkBits.names.sorted() + ["com.example.brush", "Pen"]
    try db.transaction {
      try db.execute("INSERT INTO envelope(sha256, text, drawing_offset, base64_style) VALUES (x'01', x'7b7d', 1, 0)")
      let envelope = db.lastInsertRowID
      // Blob k holds ink k alone; its drawing has k + 1 visible strokes.
      for (index, ink) in inks.enumerated() {
        try db.execute(
          "INSERT INTO blob(sha256, size, encoding, depth, data) VALUES (?, 1, 0, 0, x'00')",
          [Array(SHA256.hash(Array(ink.utf8)))])
        let blob = db.lastInsertRowID
        try db.execute(
          "INSERT INTO drawing(blob_id, status, stroke_count, hidden_count) VALUES (?, 0, ?, 1)", [blob, index + 2])
        try db.execute("INSERT INTO drawing_ink(blob_id, ink, stroke_count) VALUES (?, ?, 1)", [blob, ink])
        let draft = try VersionRecords.draftID(named: "draft \(ink)", createdMilliseconds: 0, in: db).id
        try Self.insertVersion(
          draft: draft, saved: 1_000 * Int64(index), imported: 5_000_000, blob: blob, envelope: envelope,
          file: "file \(ink)", in: db)
      }
    }
    try Self.expectColumnsRight(path, "written with SQL")
    for (index, ink) in inks.enumerated() {
      let query = ink.contains(".") ? "ink:\"\(ink)\"" : "ink:\(ink)"
      // The parser lowers the ink's name: no query finds the ink "Pen", `ink:Pen` is `ink:pen`.
      #expect(try Self.names(archive, query) == ["draft \(ink == "Pen" ? "pen" : ink)"], "\(ink)")
      #expect(try Self.names(archive, "strokes:\(index + 1)") == ["draft \(ink)"], "\(ink)")
    }
    // An ink that neither PencilKit names nor any drawing uses is a usage error.
    #expect(throws: ArchiveError.self) { try Self.names(archive, "ink:com.example.other") }

    // A second ink, renamed, dropped; strokes hidden; a version pointed at another blob.
    try db.execute(
      "INSERT INTO drawing_ink(blob_id, ink, stroke_count) SELECT blob_id, 'marker', 1 FROM drawing_ink WHERE ink = 'pen'"
    )
    try Self.expectColumnsRight(path, "an ink added")
    #expect(try Self.names(archive, "ink:marker") == ["draft marker", "draft pen"])
    try db.execute("UPDATE drawing_ink SET ink = 'com.example.brush' WHERE ink = 'crayon'")
    try Self.expectColumnsRight(path, "an ink renamed")
    #expect(try Self.names(archive, "ink:crayon") == [])
    #expect(try Self.names(archive, "ink:com.example.brush") == ["draft com.example.brush", "draft crayon"])
    try db.execute("DELETE FROM drawing_ink WHERE ink = 'pen'")
    try Self.expectColumnsRight(path, "an ink dropped")
    #expect(try Self.names(archive, "ink:pen or ink:marker") == ["draft marker", "draft pen"])
    #expect(try Self.names(archive, "ink:pen") == [])
    try db.execute(
      "UPDATE drawing SET hidden_count = stroke_count WHERE blob_id = (SELECT blob_id FROM drawing_ink WHERE ink = 'eraser')"
    )
    try Self.expectColumnsRight(path, "strokes hidden")
    #expect(try Self.names(archive, "strokes:0") == ["draft eraser"])
    try db.execute(
      """
      UPDATE version SET blob_id = (SELECT blob_id FROM drawing_ink WHERE ink = 'pencil')
      WHERE draft_id = (SELECT id FROM draft WHERE name = 'draft watercolor')
      """)
    try Self.expectColumnsRight(path, "a version's blob changed")
    #expect(try Self.names(archive, "ink:pencil") == ["draft pencil", "draft watercolor"])
    #expect(try Self.names(archive, "ink:watercolor") == [])

    // check sees columns out of step.
    try db.execute(
      "UPDATE draft SET latest_strokes = 99, latest_inks = 3, first_imported_ms = 0 WHERE name = 'draft pen'")
    let report = try Archive(checking: path).check(full: false, limit: 100)
    #expect(
      report.problems.map(\.description) == [
        "draft 'draft pen': its newest drawing's stroke count (for strokes: searches) is out of date",
        "draft 'draft pen': its newest drawing's inks (for ink: searches) are out of date",
        "draft 'draft pen': its first and newest import times do not match its versions",
      ])
  }

  /// What `draft` holds of its newest drawing: visible strokes (nil: not indexed) and inks.
  struct Newest: Equatable {
    var strokes: Int?
    var inks: Int64
  }

  static func newest(_ db: Database, _ name: String) throws -> Newest? {
    try db.fetchOne("SELECT latest_strokes, latest_inks FROM draft WHERE name = ?", [name]) {
      Newest(strokes: $0.isNull(0) ? nil : $0.int(0), inks: $0.int64(1))
    }
  }

  /// A new blob (with no index rows) and a draft `name` whose only version holds it.
  /// Inserts a version of `draft` whose other fields are the same for every test here: the
  /// file's hash is that of the text `file`, so each call names a file of its own.
  static func insertVersion(
    draft: Int64, saved: Int64, imported: Int64, blob: Int64, envelope: Int64 = 1, file: String, in db: Database
  ) throws {
    _ = try VersionRecords.insert(
      NewVersion(
        draftID: draft, savedMilliseconds: saved, savedSource: .fileName, importedMilliseconds: imported, fileName: "f",
        fileSHA256: Array(SHA256.hash(Array(file.utf8))), fileSize: 1, fileModificationNanoseconds: 0, blobID: blob,
        envelopeID: envelope, background: RGBA(red: 1, green: 1, blue: 1, alpha: 1)),
      in: db)
  }

  static func versionOfANewBlob(_ name: String, in db: Database) throws -> Int64 {
    try db.transaction {
      try db.execute(
        "INSERT OR IGNORE INTO envelope(id, sha256, text, drawing_offset, base64_style) VALUES (1, x'01', x'7b7d', 1, 0)"
      )
      try db.execute(
        "INSERT INTO blob(sha256, size, encoding, depth, data) VALUES (?, 1, 0, 0, x'00')",
        [Array(SHA256.hash(Array(name.utf8)))])
      let blob = db.lastInsertRowID
      // By hand: this also runs at older schemas, before draft had the columns the store reads.
      try db.execute("INSERT INTO draft(name, created_ms) VALUES (?, 0)", [name])
      let draft = db.lastInsertRowID
      try insertVersion(draft: draft, saved: 1_000, imported: 5_000_000, blob: blob, file: "file \(name)", in: db)
      return blob
    }
  }

  /// Invariant 2 as 0009 restates it: a blob's ink rows count only while it has its drawing
  /// row (the importer writes them just before it), which brings and takes them.
  @Test func inksCountOnlyWhileTheDrawingHasItsRow() throws {
    let folder = try TemporaryFolder("ink-rows-first")
    let path = folder.path("archive.sqlite")
    let archive = try Archive(path: path)
    let db = archive.database
    let blob = try Self.versionOfANewBlob("A", in: db)
    try db.execute(
      "INSERT INTO drawing_ink(blob_id, ink, stroke_count) VALUES (?, 'pen', 2), (?, 'com.example.brush', 1)",
      [blob, blob])
    #expect(try Self.newest(db, "A") == Newest(strokes: nil, inks: 0))
    try Self.expectColumnsRight(path, "ink rows without a drawing row")
    #expect(try Self.names(archive, "ink:pen") == [])
    #expect(try Self.names(archive, "ink:\"com.example.brush\"") == [])

    try db.execute("INSERT INTO drawing(blob_id, status, stroke_count, hidden_count) VALUES (?, 0, 4, 1)", [blob])
    #expect(try Self.newest(db, "A") == Newest(strokes: 3, inks: 1 | 256))
    try Self.expectColumnsRight(path, "the drawing row after its ink rows")
    #expect(try Self.names(archive, "ink:pen strokes:3") == ["A"])
    #expect(try Self.names(archive, "ink:\"com.example.brush\"") == ["A"])

    // With the drawing row there, ink rows count as they come and go.
    try db.execute("INSERT INTO drawing_ink(blob_id, ink, stroke_count) VALUES (?, 'marker', 1)", [blob])
    try db.execute("DELETE FROM drawing_ink WHERE blob_id = ? AND ink = 'pen'", [blob])
    #expect(try Self.newest(db, "A") == Newest(strokes: 3, inks: 4 | 256))
    try Self.expectColumnsRight(path, "ink rows added and dropped")

    try db.execute("DELETE FROM drawing WHERE blob_id = ?", [blob])
    #expect(try Self.newest(db, "A") == Newest(strokes: nil, inks: 0))
    try Self.expectColumnsRight(path, "the drawing row dropped")
    #expect(try Self.names(archive, "ink:marker") == [])
    try db.execute("UPDATE drawing_ink SET ink = 'pen' WHERE blob_id = ? AND ink = 'marker'", [blob])
    try db.execute("DELETE FROM drawing_ink WHERE blob_id = ? AND ink = 'com.example.brush'", [blob])
    #expect(try Self.newest(db, "A") == Newest(strokes: nil, inks: 0))
    try Self.expectColumnsRight(path, "ink rows changed without a drawing row")
  }

  /// A drawing written again (`reindex`'s path, isNew false) replaces its drawing row and
  /// all of its ink rows, and the columns follow.
  @Test func aDrawingWrittenAgainReplacesItsRows() throws {
    let folder = try TemporaryFolder("write-again")
    let three = try deviceSample("three-pen-strokes")  // 3 visible pen strokes
    let hidden = try deviceSample("pen-marker-hidden")  // 1 visible (pen), 2 hidden
    try folder.write("in/A-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: three))
    let path = folder.path("archive.sqlite")
    let archive = try Archive(path: path)
    _ = try archive.importFiles(at: [folder.path("in")])
    let db = archive.database
    let blob = try #require(
      try db.fetchOne("SELECT v.blob_id FROM draft AS d JOIN version AS v ON v.id = d.latest_version_id") {
        $0.int64(0)
      })
    func inkRows() throws -> [String: Int] {
      Dictionary(
        uniqueKeysWithValues: try db.fetchAll("SELECT ink, stroke_count FROM drawing_ink WHERE blob_id = ?", [blob]) {
          ($0.string(0), $0.int(1))
        })
    }
    #expect(try inkRows() == ["pen": 3])
    // Rows out of step with the drawing, as an older build might have left them.
    try db.execute("INSERT INTO drawing_ink(blob_id, ink, stroke_count) VALUES (?, 'crayon', 7)", [blob])
    try db.execute("UPDATE drawing SET stroke_count = 9 WHERE blob_id = ?", [blob])
    #expect(try Self.newest(db, "A") == Newest(strokes: 9, inks: 1 | 64))

    let writer = DrawingIndexWriter(db)
    let indexer = DrawingIndexer()
    try db.transaction { try writer.write(indexer.facts(of: three), blobID: blob) }
    #expect(try inkRows() == ["pen": 3])
    #expect(try db.fetchOne("SELECT stroke_count FROM drawing WHERE blob_id = ?", [blob]) { $0.int(0) } == 3)
    #expect(try Self.newest(db, "A") == Newest(strokes: 3, inks: 1))
    try Self.expectColumnsRight(path, "written again")

    // Other facts for the same blob: every row follows them.
    try db.transaction { try writer.write(indexer.facts(of: hidden), blobID: blob) }
    #expect(try inkRows() == ["pen": 1])
    #expect(try db.fetchOne("SELECT hidden_count FROM drawing WHERE blob_id = ?", [blob]) { $0.int(0) } == 2)
    #expect(try Self.newest(db, "A") == Newest(strokes: 1, inks: 1))
    try Self.expectColumnsRight(path, "written with other facts")
  }

  /// The bits the triggers compute (inkling_ink_bit, migration 0011) are InkBits', which
  /// searches bind: a power of two for each ink PencilKit names, 256 for any other name.
  @Test func triggersComputeTheSearchesInkBits() throws {
    let folder = try TemporaryFolder("ink-bit")
    let archive = try Archive(path: folder.path("archive.sqlite"))
    for name in InkBits.names + ["com.example.brush", "Pen", ""] {
      let bit = try archive.database.fetchOne("SELECT inkling_ink_bit(?)", [name]) { $0.int64(0) }
      #expect(bit == InkBits.bit(ofInkNamed: name), "\(name)")
    }
    let bits = InkBits.known.map(\.bit)
    #expect(Set(bits).count == bits.count && bits.allSatisfy { $0.nonzeroBitCount == 1 })
    #expect(InkBits.other == 256 && !bits.contains(InkBits.other))
    #expect(InkBits.names == ["pen", "pencil", "marker", "monoline", "fountainpen", "watercolor", "crayon", "eraser"])
  }

  /// Migration 0009 on an archive at schema 8 whose ink rows counted without their drawing
  /// row: those drafts lose their inks, the others keep their columns, and `check` is clean.
  @Test func migrationFrom8ClearsInksWithoutADrawingRow() throws {
    let folder = try TemporaryFolder("schema-8")
    let path = folder.path("old.sqlite")
    let b: Int64 = try withArchive(atSchema: 8, path: path) { db in
      // A: indexed (pen, marker, 3 visible strokes); B: ink rows only; C: nothing indexed.
      let a = try Self.versionOfANewBlob("A", in: db)
      try db.execute("INSERT INTO drawing(blob_id, status, stroke_count, hidden_count) VALUES (?, 0, 3, 0)", [a])
      try db.execute(
        "INSERT INTO drawing_ink(blob_id, ink, stroke_count) VALUES (?, 'pen', 2), (?, 'marker', 1)", [a, a])
      let b = try Self.versionOfANewBlob("B", in: db)
      try db.execute("INSERT INTO drawing_ink(blob_id, ink, stroke_count) VALUES (?, 'pencil', 2)", [b])
      _ = try Self.versionOfANewBlob("C", in: db)
      #expect(try Self.newest(db, "B") == Newest(strokes: nil, inks: 2))  // 0008's rule
      return b
    }
    let archive = try Archive(path: path)
    let db = archive.database
    #expect(try db.fetchOne("PRAGMA user_version") { $0.int(0) } == Int(ArchiveDatabase.schemaVersion))
    #expect(try Self.newest(db, "A") == Newest(strokes: 3, inks: 1 | 4))
    #expect(try Self.newest(db, "B") == Newest(strokes: nil, inks: 0))
    #expect(try Self.newest(db, "C") == Newest(strokes: nil, inks: 0))
    try Self.expectColumnsRight(path, "upgraded from schema 8")
    #expect(try Self.names(archive, "ink:pencil") == [])
    // B's drawing indexed now: its ink rows count.
    try db.execute("INSERT INTO drawing(blob_id, status, stroke_count, hidden_count) VALUES (?, 0, 2, 0)", [b])
    #expect(try Self.newest(db, "B") == Newest(strokes: 2, inks: 2))
  }

  /// `imported:` periods that end in the past, newest first, read class by class plus the
  /// drafts imported before their first save (a future stamp, a wrong clock): against the
  /// reference, at thresholds that make the period plan run.
  @Test func importedPeriodsMatchTheReference() throws {
    let folder = try TemporaryFolder("imported")
    let archive = try Archive(path: folder.path("archive.sqlite"))
    let db = archive.database
    var models = try SearchFixture.build(
      in: db, drafts: 600, versions: 1...5, blobs: 50, now: SearchTests.now, seed: 5
    ).models
    // Drafts whose versions were imported before they were saved, some long before.
    var random = SeededRandom(seed: 9)
    try db.transaction {
      for index in 0..<40 {
        let name = "early \(index)"
        let draft = try VersionRecords.draftID(named: name, createdMilliseconds: 0, in: db).id
        var versions: [(saved: Int64, imported: Int64)] = []
        for version in 0..<Int.random(in: 1...3, using: &random) {
          let saved = Int64.random(in: SearchFixture.start...(SearchTests.now - 60_000), using: &random)
          let imported = saved - Int64.random(in: 0...(800 * 86_400_000), using: &random)
          try Self.insertVersion(
            draft: draft, saved: saved, imported: imported, blob: 1, file: "early \(index) \(version)", in: db)
          versions.append((saved, imported))
        }
        let strokes =
          try db.fetchOne("SELECT latest_strokes FROM draft WHERE id = ?", [draft]) { $0.isNull(0) ? nil : $0.int(0) }
          ?? nil
        let inks = Set(try db.fetchAll("SELECT ink FROM drawing_ink WHERE blob_id = 1") { $0.string(0) })
        models.append(
          DraftModel(
            id: Int(draft), name: name, folded: NameFolding.fold(name), versions: versions,
            latestSaved: versions.map(\.saved).max()!, strokes: strokes, inks: inks, background: (1, 1, 1)))
      }
    }
    #expect(
      try db.fetchOne("SELECT count(*) FROM draft WHERE first_imported_ms < first_saved_ms") { $0.int(0) } ?? 0 >= 40)
    let compiler = SearchCompiler(database: db, estimateCap: 5, walkLength: 40, fallbackEstimateCap: 50)
    var maker = SearchTests.QueryMaker(random: SeededRandom(seed: 13), models: models)
    let reference = SearchTests.Reference(models)
    var periods = 0
    for index in 0..<200 {
      var expression = SearchExpression.term(.imported(maker.period()))
      if index % 3 == 0 { expression = expression && .term(maker.term()) }
      let limit = [1, 5, 30][index % 3]
      let found = try SearchTests.drafts(archive, compiler, expression, sort: .newest, limit: limit)
      #expect(
        found == reference.expected(expression, sort: .newest, limit: limit), "\(expression) limit \(limit)")
      let compiled = try compiler.compile(expression, sort: .newest, limit: limit)
      // A `saved` period ending in the past has the plan of its own (SearchTests).
      if compiled.plan == .period, SearchCompiler.savedPeriod(SearchCompiler.mergingPeriods(expression))?.upper == nil {
        periods += 1
        let plan = try db.fetchAll("EXPLAIN QUERY PLAN " + compiled.sql, compiled.arguments) { $0.string(3) }
        #expect(plan.contains { $0.contains("USING INDEX draft_by_early_import") }, "\(plan)")
      }
    }
    #expect(periods > 30)
  }

  /// A kept walk bound is read again after any write, on this connection or another.
  @Test func keptWalkBoundsFollowWrites() throws {
    let folder = try TemporaryFolder("bounds")
    let path = folder.path("archive.sqlite")
    let archive = try Archive(path: path)
    let db = archive.database
    _ = try SearchFixture.build(in: db, drafts: 200, versions: 1...3, blobs: 20, now: SearchTests.now, seed: 3)
    let fresh = SearchCompiler(database: db, walkLength: 40)
    var kept = fresh
    kept.bounds = WalkBounds()
    func same(_ sort: DraftSort) throws -> Bool {
      let (a, b) = (try kept.walkBound(sort), try fresh.walkBound(sort))
      return a?.0 == b?.0 && a?.1 == b?.1 && a?.2 == b?.2 && a != nil
    }
    #expect(try same(.newest))
    #expect(try same(.oldest))
    #expect(try same(.newest))
    // Forty drafts saved anew move the bound: through this connection, then another.
    func saveAgain(_ db: Database, _ ids: ClosedRange<Int64>, at saved: Int64) throws {
      try db.transaction {
        for id in ids {
          try Self.insertVersion(
            draft: id, saved: saved, imported: saved, blob: 1, file: "again \(id) \(saved)", in: db)
        }
      }
    }
    let before = try kept.walkBound(.newest)
    try saveAgain(db, 1...40, at: SearchTests.now)
    #expect(try same(.newest))
    #expect(try kept.walkBound(.newest)?.2 != before?.2)
    let other = try Database(path: path, mode: .readWrite)
    defer { other.close() }
    try other.registerArchiveFunctions()
    try saveAgain(other, 101...140, at: SearchTests.now + 1)
    #expect(try same(.newest))
  }
}
