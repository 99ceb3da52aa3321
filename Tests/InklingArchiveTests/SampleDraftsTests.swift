// The device samples as drafts: the last save holds the device's bytes, earlier saves grow by
// strokes only where the writer is exact, files are what the app writes, the same folder
// comes out twice, and the archive imports them all.

import Foundation
import InklingFormats
import InklingTestSupport
import Testing

@testable import InklingArchive
@testable import InklingCorpus

@Suite struct SampleDraftsTests {
  let folder: TemporaryFolder
  let drafts: [CorpusDraft]
  static let samples = URL(fileURLWithPath: DeviceSamples.drawingsFolder)

  init() throws {
    folder = try TemporaryFolder("samples")
    drafts = try writeSampleDrafts(from: Self.samples, to: URL(fileURLWithPath: folder.path("Drafts")))
  }

  /// The drawing and colour in a written file.
  func envelope(_ file: CorpusDraft.File) throws -> DraftEnvelope {
    try DraftEnvelope.parse(try folder.read("Drafts/" + file.fileName))
  }

  @Test func eachSampleIsADraftWhoseLastSaveIsTheDevicesBytes() throws {
    #expect(drafts.map(\.name.draftName) == ["Łódź, pusta kartka 📄", "音符のメモ", "قلم وماركر", "Три штриха"])
    for (draft, sample) in zip(drafts, ["empty", "handwritten-half-notes", "pen-marker-hidden", "three-pen-strokes"]) {
      #expect(draft.files.count == 3)
      #expect(try envelope(draft.files.last!).drawing == deviceSample(sample), "\(sample)")
      for file in draft.files {
        let name = try #require(DraftFileName(file.fileName))
        #expect(name.draftName == draft.name.draftName && name.savedMilliseconds == file.savedMilliseconds)
      }
      // Saves are twenty minutes apart, oldest first.
      #expect(
        zip(draft.files, draft.files.dropFirst()).allSatisfy {
          $1.savedMilliseconds - $0.savedMilliseconds == 1_200_000
        })
    }
  }

  @Test func savesGrowByStrokesWhereTheWriterIsExact() throws {
    // three-pen-strokes: the writer rewrites it byte for byte, so saves hold 1, 2, 3 strokes,
    // each the first strokes of the device's drawing.
    let whole = try Drawing(bytes: deviceSample("three-pen-strokes"))
    let strokes = try drafts[3].files.map { try Drawing(bytes: envelope($0).drawing).strokes }
    #expect(strokes.map(\.count) == [1, 2, 3])
    #expect(strokes.allSatisfy { $0 == Array(whole.strokes.prefix($0.count)) })
    // The writer refuses the iOS 26 notes (their threshold bit) and pen-marker-hidden shows
    // one stroke: the same bytes three times, the last on another paper colour.
    for draft in drafts[0..<3] {
      let saves = try draft.files.map { try envelope($0) }
      #expect(Set(saves.map(\.drawing)).count == 1)
      #expect(saves[0].background == saves[1].background && saves[1].background != saves[2].background)
    }
  }

  @Test func theSameSamplesGiveTheSameFiles() throws {
    let again = try TemporaryFolder("samples-again")
    try writeSampleDrafts(from: Self.samples, to: URL(fileURLWithPath: again.path("Drafts")))
    for file in drafts.flatMap(\.files) {
      #expect(try again.read("Drafts/" + file.fileName) == folder.read("Drafts/" + file.fileName))
      let attributes = try FileManager.default.attributesOfItem(atPath: again.path("Drafts/" + file.fileName))
      let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
      #expect(Int64((modified * 1000).rounded()) == file.savedMilliseconds)
    }
    // Next to other drafts, but never over a file that is there.
    #expect(throws: CorpusError.self) {
      try writeSampleDrafts(from: Self.samples, to: URL(fileURLWithPath: again.path("Drafts")))
    }
    #expect(throws: CorpusError.self) {
      try writeSampleDrafts(
        from: URL(fileURLWithPath: again.path("nowhere")), to: URL(fileURLWithPath: again.path("x")))
    }
  }

  @Test func theArchiveImportsEveryVersion() throws {
    let archive = try Archive(path: folder.path("archive.sqlite"))
    let summary = try archive.importFiles(at: [folder.path("Drafts")])
    #expect(summary.versionsImported == 12 && summary.draftsCreated == 4 && summary.rejected == 0)
    #expect(try archive.drafts().map(\.name) == drafts.reversed().map(\.name.draftName))
  }
}
