import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

@testable import InklingArchive

#if canImport(Glibc)
  import Glibc
#endif

/// A watch running on its own thread, over its own connection, with what it reported.
final class WatchRun: @unchecked Sendable {
  // @unchecked: `events`, `result` and `finished` are only touched under `lock`.
  private let lock = NSCondition()
  private var events: [WatchEvent] = []
  private var result: Result<WatchSummary, ArchiveError>?
  let stop: WatchStop

  init(
    archive path: String, folders: [String], settle: Double = 0.5, unfinishedGrace: Double = 30, source: String? = nil
  ) throws {
    stop = try WatchStop()
    let stop = self.stop
    let thread = Thread { [self] in
      var options = WatchOptions()
      options.settle = settle
      options.unfinishedGrace = unfinishedGrace
      options.source = source
      options.onEvent = { event in self.record(event) }
      let outcome: Result<WatchSummary, ArchiveError>
      do {
        outcome = .success(try Archive(path: path).watch(folders, options: options, stop: stop))
      } catch let error as ArchiveError {
        outcome = .failure(error)
      } catch {
        outcome = .failure(.cannotWatch(path: "", reason: .system(call: "\(error)", code: 0)))
      }
      lock.lock()
      result = outcome
      lock.broadcast()
      lock.unlock()
    }
    thread.start()
  }

  private func record(_ event: WatchEvent) {
    lock.lock()
    events.append(event)
    lock.broadcast()
    lock.unlock()
  }

  /// The versions reported so far.
  var imported: [ImportedVersion] {
    lock.lock()
    defer { lock.unlock() }
    return events.compactMap { if case .imported(let version) = $0 { version } else { nil } }
  }

  var all: [WatchEvent] {
    lock.lock()
    defer { lock.unlock() }
    return events
  }

  /// Waits until `condition` holds for the events (true), or `timeout` seconds pass (false).
  @discardableResult
  func wait(timeout: Double = 20, until condition: ([WatchEvent]) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    lock.lock()
    defer { lock.unlock() }
    while !condition(events) {
      guard result == nil, lock.wait(until: deadline) else { return condition(events) }
    }
    return true
  }

  func waitForVersions(_ count: Int, timeout: Double = 20) -> Bool {
    wait(timeout: timeout) { events in events.filter { if case .imported = $0 { true } else { false } }.count >= count }
  }

  /// Stops the watch and waits for it to end.
  func finish(timeout: Double = 30) -> Result<WatchSummary, ArchiveError>? {
    stop.request()
    let deadline = Date().addingTimeInterval(timeout)
    lock.lock()
    defer { lock.unlock() }
    while result == nil && lock.wait(until: deadline) {}
    return result
  }
}

@Suite(.serialized) struct WatchTests {
  static func file(_ seed: UInt64, size: Int = 3_000) -> [UInt8] {
    inklingFile(drawing: SeededRandom.bytes(size, seed: seed))
  }

  static func name(_ draft: String, _ minute: Int) -> String {
    "\(draft)-2025-10-01T10:\(String(format: "%02d", minute)):00Z.inkling"
  }

  @Test func importsWhatIsThereThenEachFileAsItLands() throws {
    let folder = try TemporaryFolder("watch")
    try folder.write("Drafts/" + Self.name("Cat", 0), Self.file(1))
    let archivePath = folder.path("archive.sqlite")
    let run = try WatchRun(archive: archivePath, folders: [folder.path("Drafts")])
    #expect(run.waitForVersions(1))

    // Renamed into place, as the app and sync tools write.
    try folder.write("Drafts/.Cat.tmp", Self.file(2))
    #expect(rename(folder.path("Drafts/.Cat.tmp"), folder.path("Drafts/" + Self.name("Cat", 1))) == 0)
    #expect(run.waitForVersions(2))
    // Written and closed.
    try folder.write("Drafts/" + Self.name("Dog", 0), Self.file(3))
    #expect(run.waitForVersions(3))
    // A new folder, and a folder in it, with files written before their watches exist.
    try folder.write("Drafts/new/deeper/" + Self.name("Owl", 0), Self.file(4))
    try folder.write("Drafts/new/" + Self.name("Owl", 1), Self.file(5))
    #expect(run.waitForVersions(5))
    // A file deleted: nothing leaves the archive.
    unlink(folder.path("Drafts/" + Self.name("Dog", 0)))
    // A burst: one import.
    let importsBefore = run.imported.count
    for minute in 0..<40 {
      try folder.write("Drafts/burst/.tmp\(minute)", Self.file(100 + UInt64(minute), size: 500))
      rename(folder.path("Drafts/burst/.tmp\(minute)"), folder.path("Drafts/burst/" + Self.name("Bee", minute)))
    }
    #expect(run.waitForVersions(importsBefore + 40))

    let summary = try #require(try run.finish()?.get())
    #expect(summary.versionsImported == 45)
    #expect(summary.rejected == 0)
    // The first import, then a handful: the burst was not forty.
    #expect(summary.imports < 15, "\(summary.imports) imports")
    let archive = try Archive(path: archivePath, mode: .readOnly)
    #expect(try archive.history(of: "Dog").count == 1)
    #expect(try archive.history(of: "Bee").count == 40)
    let numbers = run.imported.filter { $0.draft == "Cat" }.map(\.number)
    #expect(numbers == [1, 2])
    #expect(try archive.history(of: "Owl")[0].sources.map(\.label) == [folder.path("Drafts")])
  }

  /// A file written in place and never closed is imported once it has been still for the
  /// settle time; while it grows it is not.
  @Test func aFileWrittenInPlaceIsImportedOnceStill() throws {
    let folder = try TemporaryFolder("watch-settle")
    try FileManager.default.createDirectory(atPath: folder.path("Drafts"), withIntermediateDirectories: true)
    let run = try WatchRun(archive: folder.path("archive.sqlite"), folders: [folder.path("Drafts")], settle: 2)
    #expect(run.wait { events in events.contains { if case .watching = $0 { true } else { false } } })
    let bytes = Self.file(9, size: 20_000)
    let path = folder.path("Drafts/" + Self.name("Slow", 0))
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + 4_000)
      _ = bytes[offset..<end].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      offset = end
      usleep(200_000)  // well within the settle time: never imported half-written
    }
    #expect(run.waitForVersions(1, timeout: 10))
    let summary = try #require(try run.finish()?.get())
    #expect(summary.rejected == 0, "\(run.all)")
    #expect(summary.versionsImported == 1)
  }

  /// A writer that pauses longer than the settle time leaves a file that is not a draft yet; it
  /// is retried when it changes, not reported rejected. One that stays unfinished is rejected
  /// once the grace has passed.
  @Test func aFileWhoseWriterPausesIsRetriedNotRejected() throws {
    let folder = try TemporaryFolder("watch-pause")
    try FileManager.default.createDirectory(atPath: folder.path("Drafts"), withIntermediateDirectories: true)
    let run = try WatchRun(
      archive: folder.path("archive.sqlite"), folders: [folder.path("Drafts")], settle: 0.3, unfinishedGrace: 1.5)
    #expect(run.wait { events in events.contains { if case .watching = $0 { true } else { false } } })
    func rejections(_ events: [WatchEvent]) -> [String] {
      events.compactMap { if case .rejected(let path, _) = $0 { (path as NSString).lastPathComponent } else { nil } }
    }
    let bytes = Self.file(9, size: 20_000)
    let paused = open(folder.path("Drafts/" + Self.name("Paused", 0)), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let left = open(folder.path("Drafts/" + Self.name("Left", 0)), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    #expect(paused >= 0 && left >= 0)
    defer {
      close(paused)
      close(left)
    }
    for descriptor in [paused, left] {
      _ = bytes[..<8_000].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
    usleep(1_000_000)  // past the settle time, within the grace: the half files were tried
    #expect(rejections(run.all).isEmpty, "\(run.all)")
    _ = bytes[8_000...].withUnsafeBytes { write(paused, $0.baseAddress, $0.count) }
    #expect(run.waitForVersions(1, timeout: 10))
    #expect(run.imported.map(\.draft) == ["Paused"])
    // The file left half written is rejected once it has been still for the grace.
    #expect(run.wait(timeout: 10) { rejections($0) == [Self.name("Left", 0)] }, "\(run.all)")
    let summary = try #require(try run.finish()?.get())
    #expect(summary.rejected == 1 && summary.versionsImported == 1, "\(summary)")
  }

  @Test func aFolderThatDisappearsIsWatchedAgainWhenItComesBack() throws {
    let folder = try TemporaryFolder("watch-gone")
    try folder.write("Sync/Drafts/" + Self.name("Cat", 0), Self.file(1))
    let root = folder.path("Sync/Drafts")
    let run = try WatchRun(archive: folder.path("archive.sqlite"), folders: [root])
    #expect(run.waitForVersions(1))
    // Moved away (a sync tool replacing the folder), written to there, and moved back.
    #expect(rename(root, folder.path("Sync/Away")) == 0)
    #expect(run.wait { $0.contains { if case .folderGone(root) = $0 { true } else { false } } })
    try folder.write("Sync/Away/" + Self.name("Cat", 1), Self.file(2))
    #expect(rename(folder.path("Sync/Away"), root) == 0)
    #expect(run.wait { $0.contains { if case .folderBack(root) = $0 { true } else { false } } })
    #expect(run.waitForVersions(2))
    // And followed again.
    try folder.write("Sync/Drafts/" + Self.name("Cat", 2), Self.file(3))
    #expect(run.waitForVersions(3))
    // Deleted with its parent, and made again.
    try FileManager.default.removeItem(atPath: folder.path("Sync"))
    #expect(run.wait { $0.filter { if case .folderGone = $0 { true } else { false } }.count == 2 })
    try folder.write("Sync/Drafts/" + Self.name("Cat", 3), Self.file(4))
    #expect(run.waitForVersions(4))
    let summary = try #require(try run.finish()?.get())
    #expect(summary.versionsImported == 4)
  }

  @Test func aMissingFolderIsAnError() throws {
    let folder = try TemporaryFolder("watch-missing")
    let run = try WatchRun(archive: folder.path("archive.sqlite"), folders: [folder.path("nowhere")])
    guard case .failure(.cannotWatch(let path, .missing)) = run.finish() else {
      Issue.record("a missing folder was watched")
      return
    }
    #expect(path == folder.path("nowhere"))
  }

  /// A stop asked for during a long first import ends it after a commit, and what was
  /// committed is complete; the next watch imports the rest.
  @Test func stoppingDuringTheFirstImportLosesNothing() throws {
    let folder = try TemporaryFolder("watch-stop")
    for index in 0..<600 {
      try folder.write("Drafts/" + Self.name("Draft \(index)", 0), Self.file(UInt64(index), size: 400))
    }
    let archivePath = folder.path("archive.sqlite")
    let run = try WatchRun(archive: archivePath, folders: [folder.path("Drafts")])
    #expect(run.waitForVersions(1, timeout: 60))
    let first = try #require(try run.finish()?.get())
    #expect(first.versionsImported >= 1)
    let second = try WatchRun(archive: archivePath, folders: [folder.path("Drafts")])
    #expect(second.waitForVersions(600 - first.versionsImported, timeout: 120))
    #expect(try second.finish()?.get().versionsImported == 600 - first.versionsImported)
    #expect(try Archive(path: archivePath, mode: .readOnly).drafts().count == 600)
  }
}
