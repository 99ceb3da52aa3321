import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Ctrl-C during an import (issue 31, item 15): it stops after the batch being written,
/// prints what was committed, and exits 130; the same import run again finishes the work.
@Suite struct InterruptTests {
  @Test func ctrlCStopsAnImportThatSaysWhatItCommitted() throws {
    let runner = try BinaryRunner(fresh: "interrupt", making: ["Drafts"])
    let folder = runner.workingDirectory
    var corpus = TestCorpus(root: folder + "/Drafts", seed: 15)
    // Enough files for several batches after the first: a signal that comes as the last
    // batch commits finds nothing left to stop.
    for draft in 0..<240 {
      for _ in 0..<5 { try corpus.save("Draft \(draft)", growth: 20_000) }
    }
    let importing = try BinaryRunner.start(
      ["--archive", runner.archive, "import", folder + "/Drafts"], outputFolder: folder)
    // Interrupted once its first batch is in: the archive then holds some versions, not all.
    let started = Date()
    while (Int((try? sqlite3(runner.archive, "SELECT count(*) FROM version")) ?? "") ?? 0) == 0 {
      if Date().timeIntervalSince(started) > 120 || importing.poll() != nil { break }
      usleep(5_000)
    }
    kill(importing.pid, SIGINT)
    let outcome = importing.wait(timeout: 60)
    let committed = try sqlite3(runner.archive, "SELECT count(*) FROM version")
    if outcome.status == 0 {
      // The import finished before the signal came: nothing to see on this machine.
      #expect(committed == "1200")
      return
    }
    #expect(outcome.status == 130, "\(importing.stderr)")
    #expect(importing.stdout.hasPrefix("Imported \(committed) versions "), "\(importing.stdout)")
    #expect(
      importing.stderr.hasSuffix(
        "Stopped: what is counted above is committed; the rest was not imported. Run the same import again "
          + "to finish it.\n"), "\(importing.stderr)")
    #expect(Int(committed) ?? 0 < 1200)

    let rerun = try runner.run(["import", folder + "/Drafts"])
    #expect(rerun.status == 0, "\(rerun.stderr)")
    #expect(try sqlite3(runner.archive, "SELECT count(*) FROM version") == "1200")
    let check = try runner.run(["check"])
    #expect(check.status == 0 && !check.stdout.contains("interrupted"), "\(check.stdout)")
  }
}
