import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Kills real imports with SIGKILL at random moments, again and again on one archive, then
/// proves nothing was lost, doubled or half-written.
@Suite(.serialized) struct CrashTests {
  static let kills = 50

  /// Waits until the archive holds more than `count` versions (this run committed a
  /// batch), or the child ended, or `timeout` seconds passed.
  static func waitForVersions(_ archive: String, above count: Int, child: ChildProcess, timeout: Double) {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline && child.poll() == nil {
      if let now = Int((try? sqlite3(archive, "SELECT count(*) FROM version")) ?? ""), now > count { return }
      usleep(30_000)
    }
  }

  /// Drafts spread over four folders, each draft always in the same one.
  static func folder(of draft: String) -> String { "d\(draft.utf8.reduce(0) { $0 + Int($1) } % 4)" }

  @Test func killedImportsLoseNothing() throws {
    let temporary = try TemporaryFolder("crash")
    let folder = temporary.path
    let archive = folder + "/archive.sqlite"
    let drafts = folder + "/Drafts"
    var corpus = TestCorpus(root: drafts, seed: 0xC0FFEE)
    let names = (0..<24).map { "Draft \($0)" }
    // A start, then more saves before every run, so that each run has new work to be killed in.
    for name in names {
      for _ in 0..<4 { try corpus.save(name, in: Self.folder(of: name)) }
    }
    var generator = TestSeed.generator(for: "CrashTests")
    var runs = 0
    var killed = 0
    var finished = 0
    var archived = 0
    var killedMidImport = 0
    let started = Date()
    while killed < Self.kills {
      for _ in 0..<10 {
        let name = names[Int(generator.next() % UInt64(names.count))]
        try corpus.save(name, in: Self.folder(of: name))
      }
      let child = try BinaryRunner.start(["--archive", archive, "--quiet", "import", drafts], outputFolder: folder)
      // A random moment: a third of the runs die starting up, walking or preparing; the
      // rest once this run has committed a batch, at a random point of the batches after
      // it. Waiting for a commit rather than for a fixed time keeps the kills meaningful on
      // a loaded machine.
      if runs % 3 == 0 {
        usleep(UInt32.random(in: 0...400_000, using: &generator))
      } else {
        Self.waitForVersions(archive, above: archived, child: child, timeout: 10)
        usleep(UInt32.random(in: 0...400_000, using: &generator))
      }
      let wasKilled = child.killNow()
      if wasKilled { killed += 1 }
      let outcome = child.wait(timeout: 60)
      #expect(!outcome.timedOut)
      if outcome.signal == nil {
        finished += 1
        #expect(outcome.status == 0, "run \(runs): \(child.stderr)")
      }
      runs += 1
      // How far the run got: kills that landed after some commits and before the end.
      let count = Int(try sqlite3(archive, "SELECT count(*) FROM version")) ?? 0
      if wasKilled && count > archived { killedMidImport += 1 }
      archived = count
    }

    // The archive is consistent as the last kill left it.
    let runner = BinaryRunner(in: temporary, archive: archive)
    let check = try runner.run(["check", "--full"])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

    // One more import completes the work; nothing is imported twice.
    let final = try runner.run(["import", "--json", drafts])
    #expect(final.status == 0, "\(final.stderr)")
    let versions = Int(try sqlite3(archive, "SELECT count(*) FROM version")) ?? -1
    #expect(versions == corpus.files.count)
    #expect(
      try sqlite3(
        archive, "SELECT count(*) FROM (SELECT 1 FROM version GROUP BY draft_id, file_name HAVING count(*) > 1)") == "0"
    )
    #expect(try sqlite3(archive, "SELECT sum(version_count) FROM draft") == "\(corpus.files.count)")
    let again = try runner.run(["check", "--full", "--json"])
    #expect(again.status == 0)
    #expect(again.stdout.contains(#""filesVerified":\#(corpus.files.count),"#))

    // Every version restores byte for byte, and nothing else is left in the folders.
    let verified = try corpus.restoredByteForByte(names, runner: runner, into: folder)
    #expect(verified == corpus.files.count)
    #expect(killedMidImport > 0, "no kill landed while an import was writing")
    print(
      "crash test: \(runs) runs, \(killed) killed (\(killedMidImport) after some of the run's batches had committed), \(finished) finished "
        + "before the kill; \(verified) of \(corpus.files.count) files restored byte for byte; "
        + String(format: "%.1f s", Date().timeIntervalSince(started)))
  }
}
