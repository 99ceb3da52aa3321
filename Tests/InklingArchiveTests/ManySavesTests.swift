import Foundation
import InklingFormats
import InklingRendering
import InklingTestSupport
import Testing

@testable import InklingArchive

/// A draft saved many times, one stroke a save: its timeline and its time-lapse cost work in
/// proportion to its saves and strokes, not their product.
@Suite struct ManySavesTests {
  /// An archive of one draft saved `saves` times (`ManySavesDraft`), and the draft's saves.
  private func archive(_ folder: TemporaryFolder, saves: Int) throws -> (Archive, ManySavesDraft) {
    let draft = try ManySavesDraft(strokes: saves)
    try FileManager.default.createDirectory(atPath: folder.path("drafts"), withIntermediateDirectories: true)
    try draft.write(saves: saves, to: folder.path("drafts"))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("drafts")])
    return (archive, draft)
  }

  /// Each version's changes against the one before are one stroke added, and the strokes
  /// compared to find them are those the two lists do not share at their start: one per save,
  /// not every stroke of every save.
  @Test(arguments: [30, 60]) func aTimelineComparesOnlyWhatEachSaveChanged(saves: Int) throws {
    let folder = try TemporaryFolder("many-saves-timeline")
    let (archive, _) = try archive(folder, saves: saves)
    let timeline = try archive.timeline(of: .name(ManySavesDraft.name))
    #expect(timeline.versions.count == saves)
    #expect(timeline.versions.allSatisfy { $0.changes == StrokeChanges(added: 1, removed: 0, hidden: 0, unhidden: 0) })
    #expect(timeline.strokesCompared == saves)
  }

  /// The time-lapse reads one drawing, the newest (which holds every stroke), and plans what
  /// a plan made from every save's drawing plans: the same marks and the same frames.
  @Test func aTimelapseReadsTheDrawingsThatHoldEveryStrokeOnce() throws {
    let saves = 40
    let folder = try TemporaryFolder("many-saves-timelapse")
    let (archive, draft) = try archive(folder, saves: saves)
    let summary = try expectPlanOfEveryDrawing(archive, draft, (1...saves).map { Array(0..<$0) })
    #expect(summary.drawingsRead == 1)
    #expect(summary.strokes == saves)
  }

  /// The planner looks at the strokes each save adds and at every stroke of the newest save:
  /// twice the saves, where giving it every save whole looked at the product of saves and
  /// strokes.
  @Test(arguments: [30, 60]) func aTimelapsePlansOnlyWhatEachSaveAdded(saves: Int) throws {
    let folder = try TemporaryFolder("many-saves-planned")
    let (archive, _) = try archive(folder, saves: saves)
    var options = TimelapseOptions()
    options.size = .fit(width: 64, height: 64)
    let summary = try archive.timelapsePlan(of: ManySavesDraft.name, options: options).1
    #expect(summary.marks.map(\.version) == Array(1...saves))
    #expect(summary.strokes == saves)
    #expect(summary.strokesPlanned == 2 * saves - 1)
  }

  /// Saves that remove a stroke in the middle, add after it, and revert to an early save plan
  /// what every save's drawing read whole plans: the same marks and the same frames.
  @Test func savesThatEraseAndRevertPlanAsTheirDrawings() throws {
    let folder = try TemporaryFolder("many-saves-erase")
    let (archive, draft, saves) = try erasingArchive(folder)
    try expectPlanOfEveryDrawing(archive, draft, saves)
  }

  /// Saves the index does not list (here none: an archive whose index was dropped) are read
  /// whole as the planner takes them, each once: the same plan as every drawing's.
  @Test func savesTheIndexDoesNotListPlanAsTheirDrawings() throws {
    let folder = try TemporaryFolder("many-saves-unlisted")
    let (archive, draft, saves) = try erasingArchive(folder)
    try archive.database.execute("DELETE FROM drawing_ink; DELETE FROM drawing")
    let summary = try expectPlanOfEveryDrawing(archive, draft, saves)
    #expect(summary.drawingsRead == saves.count)
  }

  /// An archive of a draft whose saves add a stroke each, then erase one in the middle, add
  /// after it, bring it back and revert to an early save; the strokes of each save.
  private func erasingArchive(_ folder: TemporaryFolder) throws -> (
    Archive, ManySavesDraft, [[Int]]
  ) {
    let draft = try ManySavesDraft(strokes: 24)
    let erased: [Int] = Array(0..<12).filter { $0 != 5 }  // a stroke in the middle erased
    var saves: [[Int]] = (1...12).map { Array(0..<$0) }
    saves.append(erased)
    saves.append(erased + [12])
    saves.append(Array(0..<13))  // brought back
    saves.append(Array(0..<6))  // a revert to an early save
    saves.append(Array(0..<6) + [20, 21])
    try draft.write(holding: saves, to: folder.path("drafts"))
    let archive = try Archive(path: folder.path("archive.sqlite"))
    _ = try archive.importFiles(at: [folder.path("drafts")])
    return (archive, draft, saves)
  }

  /// The archive's plan of the draft has the marks and frames of a plan made from every save's
  /// drawing read whole; returns the archive's summary.
  @discardableResult
  private func expectPlanOfEveryDrawing(_ archive: Archive, _ draft: ManySavesDraft, _ saves: [[Int]]) throws
    -> TimelapseSummary
  {
    var options = TimelapseOptions()
    options.pace = .duration(8)
    options.hold = 1
    options.fps = 6
    options.size = .fit(width: 96, height: 96)
    let (plan, summary) = try archive.timelapsePlan(of: ManySavesDraft.name, options: options)
    #expect(summary.marks.map(\.version) == Array(1...saves.count))
    var planner = TimelapsePlanner()
    for (place, strokes) in saves.enumerated() {
      let file = try DraftEnvelope.parse(try draft.file(holding: strokes))
      let saved = try #require(DraftFileName(ManySavesDraft.fileName(save: place + 1))?.savedMilliseconds)
      planner.add(
        try Drawing(bytes: file.drawing), background: file.background, saved: Double(saved) / 1000 - 978_307_200)
    }
    let whole = planner.plan(pace: options.pace, fps: options.fps, hold: options.hold, size: options.size)
    #expect(whole.saveFrames == plan.saveFrames)
    #expect(whole.frameCount == plan.frameCount)
    var a = TimelapseFrames(plan)
    var b = TimelapseFrames(whole)
    var frames = 0
    while let frame = a.next() {
      #expect(frame == b.next())
      frames += 1
    }
    #expect(frames == plan.frameCount)
    return summary
  }

  /// A replay from a later save starts from the save before it, read from the index too.
  @Test func aReplayFromALaterSaveStartsFromTheOneBefore() throws {
    let folder = try TemporaryFolder("many-saves-from")
    let (archive, _) = try archive(folder, saves: 20)
    var options = TimelapseOptions()
    options.size = .fit(width: 64, height: 64)
    options.from = .number(11)
    let summary = try archive.timelapsePlan(of: ManySavesDraft.name, options: options).1
    #expect(summary.marks.map(\.version) == Array(11...20))
    #expect(summary.strokes == 10)
    #expect(summary.drawingsRead == 1)
  }
}
