import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Kills real watches with SIGKILL at random moments while files keep landing, again and
/// again on one archive, then proves that the next start completes the work and that nothing
/// was lost, doubled or half-written (as CrashTests does for import).
@Suite(.serialized) struct WatchCrashTests {
  static let kills = 25

  @Test func killedWatchesLoseNothing() throws {
    let temporary = try TemporaryFolder("watch-crash")
    let folder = temporary.path
    let archive = folder + "/archive.sqlite"
    let drafts = folder + "/Drafts"
    let staging = folder + "/staging"
    var corpus = TestCorpus(root: staging, seed: 0xC0FFEE)
    let names = (0..<16).map { "Draft \($0)" }
    try FileManager.default.createDirectory(atPath: drafts, withIntermediateDirectories: true)
    var generator = TestSeed.generator(for: "WatchCrashTests")
    var killed = 0
    var killedWithWork = 0
    var landed: [String] = []
    let started = Date()
    while killed < Self.kills {
      let child = try BinaryRunner.start(["--archive", archive, "--quiet", "watch", drafts], outputFolder: folder)
      // Files land while it runs: renamed into place, some into a new subfolder.
      let subfolder = killed % 4 == 0 ? "/new\(killed)" : ""
      if !subfolder.isEmpty {
        try FileManager.default.createDirectory(atPath: drafts + subfolder, withIntermediateDirectories: true)
      }
      for _ in 0..<12 {
        let name = names[Int(generator.next() % UInt64(names.count))]
        let relative = try corpus.save(name)
        let target = drafts + subfolder + "/" + relative
        guard rename(staging + "/" + relative, target) == 0 else { throw POSIXError(.EIO) }
        landed.append(subfolder + "/" + relative)
        usleep(UInt32.random(in: 0...40_000, using: &generator))
      }
      // Every third kill comes right after the last file lands, before the watch can have
      // archived it: on an idle machine the watch imports a burst within the random pause,
      // and a run of kills that all find nothing waiting tests no recovery.
      if killed % 3 != 0 { usleep(UInt32.random(in: 0...300_000, using: &generator)) }
      let before = Int(try sqlite3(archive, "SELECT count(*) FROM version")) ?? 0
      #expect(child.killNow(), "the watch ended by itself: \(child.stderr)")
      #expect(child.wait(timeout: 30).signal == SIGKILL)
      killed += 1
      if before < landed.count { killedWithWork += 1 }
    }

    // The archive is consistent as the last kill left it.
    let runner = BinaryRunner(in: temporary)
    let check = try runner.run(["check", "--full"])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

    // One more start completes the work; nothing is imported twice.
    let last = try BinaryRunner.start(["--archive", archive, "watch", drafts], outputFolder: folder)
    let deadline = Date().addingTimeInterval(120)
    while Date() < deadline, (Int(try sqlite3(archive, "SELECT count(*) FROM version")) ?? 0) < landed.count {
      usleep(50_000)
    }
    kill(last.pid, SIGINT)
    #expect(last.wait(timeout: 60).status == 130, "\(last.stderr)")
    #expect(try sqlite3(archive, "SELECT count(*) FROM version") == "\(landed.count)")
    #expect(try sqlite3(archive, "SELECT sum(version_count) FROM draft") == "\(landed.count)")
    let again = try runner.run(["check", "--full", "--json"])
    #expect(again.status == 0)
    #expect(again.stdout.contains(#""filesVerified":\#(landed.count),"#))

    // Every version restores byte for byte.
    let verified = try corpus.restoredByteForByte(names, runner: runner, into: folder)
    #expect(verified == landed.count)
    #expect(killedWithWork > 0, "no kill landed while files were waiting to be imported")
    print(
      "watch crash test: \(killed) watches killed (\(killedWithWork) with files not yet archived); "
        + "\(verified) of \(landed.count) files restored byte for byte; "
        + String(format: "%.1f s", Date().timeIntervalSince(started)))
  }
}
