import Foundation
import InklingTestSupport
import Testing

@testable import InklingArchive
@testable import InklingStore

/// A real device drawing (`Tests/Fixtures/pkdrawing`).
func deviceSample(_ name: String) throws -> [UInt8] { try DeviceSamples.drawing(name) }

@Suite struct DrawingIndexTests {
  @Test func indexesTheRealSamplesAtImport() throws {
    let folder = try TemporaryFolder("index")
    for sample in ["empty", "pen-marker-hidden", "three-pen-strokes", "handwritten-half-notes"] {
      try folder.write("\(sample)-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: try deviceSample(sample)))
    }
    try folder.write("opaque-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: Array("not a drawing".utf8)))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    let summary = try archive.importFiles(at: [folder.path("")])
    #expect(summary.versionsImported == 5)
    #expect(summary.rejected == 0)

    let empty = try archive.show(draft: "empty").drawing
    #expect(empty.status == .decoded)
    #expect(empty.strokeCount == 0)
    #expect(empty.bounds == nil)

    let hidden = try archive.show(draft: "pen-marker-hidden").drawing
    #expect(hidden.strokeCount == 3)
    #expect(hidden.hiddenCount == 2)
    #expect(hidden.pointCount == 40)
    #expect(hidden.inks.map(\.ink) == ["pen"])
    #expect(hidden.bounds != nil)

    let three = try archive.show(draft: "three-pen-strokes").drawing
    #expect(three.visibleCount == 3)
    #expect(three.strokes.allSatisfy { $0.ink == "pen" && $0.bounds != nil && $0.created != nil })

    let notes = try archive.show(draft: "handwritten-half-notes").drawing
    #expect(notes.status == .decoded)
    #expect(notes.visibleCount > 0)

    let opaque = try archive.show(draft: "opaque").drawing
    #expect(opaque.status == .unreadable)
    #expect(opaque.problem != nil)
  }

  @Test func sharesStrokeRowsAndSpotsTheSameDrawingSavedAgain() throws {
    let folder = try TemporaryFolder("share")
    let drawing = try deviceSample("three-pen-strokes")
    try folder.write("A-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: drawing))
    try folder.write("A-2025-10-02T00:00:00Z.inkling", inklingFile(drawing: drawing, color: (0, 0, 0, 1)))
    try folder.write("B-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: drawing))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("")])
    #expect(try archive.database.fetchOne("SELECT count(*) FROM stroke") { $0.int(0) } == 3)
    let history = try archive.history(of: "A")
    #expect(history.map(\.strokeCount) == [3, 3])
    #expect(history.map(\.sameDrawingAs) == [nil, 1])

    let diff = try archive.diff(draft: "A", from: 1, to: 2)
    #expect(diff.added.isEmpty && diff.removed.isEmpty && diff.hidden.isEmpty)
    #expect(diff.backgroundChange != nil)
  }

  /// Index rows that SQLite refuses for one drawing (here a row of blob 1 that is there
  /// before its blob) leave that drawing alone unindexed, counted in the summary; the others
  /// written with it are indexed, and `reindex` fills it in once the obstacle is gone.
  @Test func indexRowsRefusedForOneDrawingLeaveOnlyItUnindexed() throws {
    let folder = try TemporaryFolder("index-refused")
    for sample in ["pen-marker-hidden", "three-pen-strokes"] {
      try folder.write("\(sample)-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: try deviceSample(sample)))
    }
    let archive = try Archive(path: folder.path("archive.sqlite"))
    try archive.database.execute("PRAGMA foreign_keys = OFF")
    try archive.database.execute("INSERT INTO drawing_ink(blob_id, ink, stroke_count) VALUES (1, 'pen', 1)")
    try archive.database.execute("PRAGMA foreign_keys = ON")
    let summary = try archive.importFiles(at: [folder.path("")])
    #expect(summary.versionsImported == 2 && summary.rejected == 0)
    #expect(summary.drawingsNotIndexed == 1)
    #expect(try DrawingIndexRecords.unindexedBlobIDs(in: archive.database) == [1])

    try archive.database.execute("DELETE FROM drawing_ink WHERE blob_id = 1")
    #expect(try archive.reindex() == 1)
    #expect(try DrawingIndexRecords.unindexedBlobIDs(in: archive.database).isEmpty)
    #expect(try archive.show(draft: "pen-marker-hidden").drawing.strokeCount == 3)
  }

  /// `check --full` compares each decoded drawing's strokes with those the index lists, as
  /// `show` and `diff` read them: a stroke row lost, or a stroke list emptied, is damage that
  /// `reindex --all` mends.
  @Test func checkFullFindsStrokesTheIndexLost() throws {
    let folder = try TemporaryFolder("check-strokes")
    try folder.write("A-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: try deviceSample("three-pen-strokes")))
    try folder.write("B-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: try deviceSample("pen-marker-hidden")))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("")])
    #expect(try archive.check(full: true).isHealthy)

    let stroke = try #require(try archive.database.fetchOne("SELECT min(id) FROM stroke") { $0.int64(0) })
    try archive.database.execute("PRAGMA foreign_keys = OFF; DELETE FROM stroke WHERE id = \(stroke)")
    let lost = try archive.check(full: true)
    #expect(!lost.isHealthy)
    #expect(lost.onlyDrawingIndexProblems, "\(lost.problems)")
    _ = try archive.reindex(all: true)
    #expect(try archive.check(full: true).isHealthy)

    try archive.database.execute("UPDATE drawing SET strokes = x'' WHERE blob_id = (SELECT max(blob_id) FROM drawing)")
    let emptied = try archive.check(full: true)
    #expect(emptied.problems.contains { $0.message.contains("lists other strokes than the drawing has") })
    #expect(emptied.onlyDrawingIndexProblems)
    _ = try archive.reindex(all: true)
    #expect(try archive.check(full: true).isHealthy)
  }

  @Test func reindexFillsArchivesMadeBeforeTheIndex() throws {
    let folder = try TemporaryFolder("reindex")
    try folder.write("A-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: try deviceSample("pen-marker-hidden")))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("")])
    try archive.database.execute("DELETE FROM drawing_ink; DELETE FROM drawing; DELETE FROM stroke; DELETE FROM ink")
    #expect(try archive.show(draft: "A").drawing.status == .notIndexed)
    #expect(try archive.reindex() == 1)
    #expect(try archive.show(draft: "A").drawing.hiddenCount == 2)
    #expect(try archive.reindex() == 0)
  }

  /// A stroke the index lists but does not hold is the index's damage alone, which the error
  /// says, so that the command line can advise `reindex --all`; built again, the index holds it.
  @Test func aTimelineOverAMissingStrokeSaysTheIndexIsDamaged() throws {
    let folder = try TemporaryFolder("damaged-index")
    try folder.write("A-2025-10-01T00:00:00Z.inkling", inklingFile(drawing: try deviceSample("three-pen-strokes")))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("")])
    let stroke = try #require(try archive.database.fetchOne("SELECT min(id) FROM stroke") { $0.int64(0) })
    try archive.database.execute("PRAGMA foreign_keys = OFF; DELETE FROM stroke WHERE id = \(stroke)")
    #expect(
      throws: ArchiveError.unusableArchive(
        path: archive.path,
        reason: .damaged(detail: "stroke \(stroke) of the drawing index is missing", onlyDrawingIndex: true))
    ) { try archive.timeline(of: "A") }
    try archive.database.execute("PRAGMA foreign_keys = ON")
    #expect(try archive.reindex(all: true) == 1)
    #expect(try archive.timeline(of: "A").count == 1)
  }

  @Test func strokeRunsRoundTrip() {
    for ids: [Int64] in [[], [1], [1, 2, 3, 4], [5, 6, 7, 1, 2, 100, 101, 99], [Int64.max - 1, Int64.max, 1]] {
      #expect(StrokeRuns.decode(StrokeRuns.encode(ids)) == ids)
    }
    #expect(StrokeRuns.encode(Array(1...300)).count <= 4)
    #expect(StrokeRuns.decode([0x80]) == nil)
  }
}
