import Foundation
import InklingCorpus
import InklingTestSupport
import Synchronization
import Testing

@testable import InklingArchive

/// `Archive.importPaths`: the files and folders among the paths imported, then each archive
/// among them merged, in one report whose total is what the stages did together.
@Suite struct ImportPathsTests {
  @Test func filesFirstThenEachArchiveMergedInOneReport() throws {
    let folder = try TemporaryFolder()
    let spec = CorpusSpec(drafts: 6, versionsPerDraft: 1...3, seed: 31)
    // Drafts 0–2 as files; drafts 3–5 in another archive, and one of them as a file too.
    let written = try MergeTests.writeFiles(spec, into: folder) { file in
      switch file.draftIndex {
      case 0..<3: ["files"]
      case 3: ["other", "files"]
      default: ["other"]
      }
    }
    let other = try Archive(path: folder.path("other.sqlite"))
    let intoOther = try other.importFiles(at: [folder.path("other")])
    let filesCount = written.keys.filter { $0.hasPrefix("files/") }.count

    let archive = try Archive(path: folder.path("archive.sqlite"))
    let stages = Mutex<[String]>([])
    var options = ImportOptions()
    options.onEvent = { event in
      switch event {
      case .filesImported(let summary): stages.withLock { $0.append("files \(summary.versionsImported)") }
      case .merged(let merged): stages.withLock { $0.append("merged \(merged.path)") }
      default: break
      }
    }
    let report = try archive.importPaths([folder.path("other.sqlite"), folder.path("files")], options: options)

    #expect(report.files?.versionsImported == filesCount)
    #expect(report.merges.map(\.path) == [folder.path("other.sqlite")])
    // The draft that came both ways is already here when its archive is merged.
    let merged = try #require(report.merges.first).versions
    #expect(merged.versionsImported + merged.alreadyArchived == intoOther.versionsImported)
    #expect(merged.alreadyArchived > 0)
    #expect(report.total.versionsImported == filesCount + merged.versionsImported)
    #expect(report.total.versionsImported == written.count - merged.alreadyArchived)
    #expect(stages.withLock { $0 } == ["files \(filesCount)", "merged \(folder.path("other.sqlite"))"])
  }

  @Test func onlyArchivesMeansNoFilesStage() throws {
    let folder = try TemporaryFolder()
    try MergeTests.writeFiles(CorpusSpec(drafts: 2, versionsPerDraft: 1...2, seed: 32), into: folder) { _ in ["d"] }
    _ = try Archive(path: folder.path("a.sqlite")).importFiles(at: [folder.path("d")])
    let report = try Archive(path: folder.path("b.sqlite")).importPaths([folder.path("a.sqlite")])
    #expect(report.files == nil)
    #expect(report.merges.count == 1)
    #expect(report.total == report.merges[0].versions)
  }

  @Test func aStopBeforeAMergeLeavesItOut() throws {
    let folder = try TemporaryFolder()
    try MergeTests.writeFiles(CorpusSpec(drafts: 2, versionsPerDraft: 1...2, seed: 33), into: folder) { _ in ["d"] }
    _ = try Archive(path: folder.path("a.sqlite")).importFiles(at: [folder.path("d")])
    var options = ImportOptions()
    options.shouldStop = { true }
    let report = try Archive(path: folder.path("b.sqlite")).importPaths(
      [folder.path("d"), folder.path("a.sqlite")], options: options)
    #expect(report.merges.isEmpty)
    #expect(report.files != nil)
  }
}
