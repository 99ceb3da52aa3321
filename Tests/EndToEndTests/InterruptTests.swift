import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Ctrl-C during an import: it stops after the batch being written, prints what was committed,
/// and exits 130; the same import run again finishes the work. An export likewise stops before
/// its next file with its folder whole.
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
    let atSignal = Int((try? sqlite3(runner.archive, "SELECT count(*) FROM version")) ?? "") ?? 0
    let outcome = importing.wait(timeout: 60)
    let committed = try sqlite3(runner.archive, "SELECT count(*) FROM version")
    if outcome.status == 0 {
      // The import finished before the signal came: nothing to see on this machine. Only if
      // the signal came within the last batch (at most 500 files, VersionWriter.batchFiles):
      // one not heeded at all (the test processes start with it blocked) also ends with 0.
      #expect(committed == "1200")
      #expect(atSignal >= 1200 - 500, "the import ran to its end after the signal (\(atSignal) committed then)")
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

  /// Ctrl-C or SIGTERM during an export (it died of the signal, leaving its temporary files
  /// and no manifest): the files written are whole and listed, nothing hidden is left, it
  /// says so and exits 130 or 143; the same export again finishes it.
  @Test func ctrlCStopsAnExportThatLeavesItsFolderWhole() throws {
    let runner = try BinaryRunner(fresh: "interrupt-export", making: ["Drafts"])
    let folder = runner.workingDirectory
    var corpus = TestCorpus(root: folder + "/Drafts", seed: 16)
    // Four batches (FileBatch.files is 512): the first names appear when the first commits,
    // while the second is being written.
    for draft in 0..<400 {
      for _ in 0..<5 { try corpus.save("Draft \(draft)") }
    }
    let imported = try runner.run(["--quiet", "import", folder + "/Drafts"])
    #expect(imported.status == 0, "\(imported.stderr)")
    let sources = Dictionary(
      uniqueKeysWithValues: corpus.files.map { (($0.key as NSString).lastPathComponent, $0.value) })
    let hashes = try Dictionary(
      uniqueKeysWithValues: sqlite3(runner.archive, "SELECT file_name, lower(hex(file_sha256)) FROM version")
        .split(separator: "\n").map { line in
          let fields = line.split(separator: "|")
          return (String(fields[0]), String(fields[1]))
        })
    #expect(hashes.count == 2000)

    // The files are what was imported (what restore gives), and the manifest lists exactly
    // them, with their sizes and hashes.
    func expectWholeAndListed(_ out: String) throws -> Int {
      let names = try FileManager.default.contentsOfDirectory(atPath: out)
      #expect(!names.contains { $0.hasPrefix(".") }, "temporary files left: \(names.filter { $0.hasPrefix(".") })")
      let files = Set(names.filter { !$0.hasPrefix(".") && $0 != "inkling-export.json" })
      for name in files {
        #expect(FileManager.default.contents(atPath: out + "/" + name).map { [UInt8]($0) } == sources[name], "\(name)")
      }
      let manifest =
        try JSONSerialization.jsonObject(
          with: Data(contentsOf: URL(fileURLWithPath: out + "/inkling-export.json"))) as? [String: Any]
      let entries = manifest?["files"] as? [[String: Any]] ?? []
      #expect(Set(entries.compactMap { $0["file"] as? String }) == files && entries.count == files.count)
      for entry in entries {
        let name = entry["file"] as? String ?? ""
        #expect(entry["size"] as? Int == sources[name]?.count && entry["sha256"] as? String == hashes[name], "\(name)")
      }
      return files.count
    }

    for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, 143)] {
      let out = folder + "/Out \(signal)"
      let exporting = try BinaryRunner.start(
        ["--archive", runner.archive, "export", "--all-versions", "--to", out], outputFolder: folder)
      // Interrupted once its first files have their names: then it has more to write.
      let started = Date()
      while Self.draftFiles(in: out) == 0 {
        if Date().timeIntervalSince(started) > 120 || exporting.poll() != nil { break }
        usleep(5_000)
      }
      kill(exporting.pid, signal)
      let namedAfterSignal = Self.draftFiles(in: out)
      let outcome = exporting.wait(timeout: 60)
      let written = try expectWholeAndListed(out)
      if outcome.status == 0 {
        // The export had asked whether to stop for the last time when the signal came: it
        // had 2 batches named then (FileBatch.files, 512, each; at most 2 are staged), so
        // fewer names mean the signal was missed.
        #expect(namedAfterSignal >= 1024, "went on after the signal, with \(namedAfterSignal) files named")
        #expect(written == 2000)
        continue
      }
      #expect(outcome.status == status, "\(exporting.stderr)")
      #expect(written > 0 && written < 2000)
      #expect(
        exporting.stdout.hasPrefix(
          "Stopped exporting 2,000 versions of 400 drafts to \(out): \(Self.grouped(written)) files written "),
        "\(exporting.stdout)")
      #expect(
        exporting.stderr
          == "Stopped: the files counted above are in \(out), complete, and its manifest lists them; the other "
          + "versions were not written. Run the same export again to finish it.\n", "\(exporting.stderr)")

      let rerun = try runner.run(["export", "--all-versions", "--to", out])
      #expect(rerun.status == 0, "\(rerun.stderr)")
      #expect(
        rerun.stdout.hasPrefix(
          "Exported 2,000 versions of 400 drafts to \(out): \(Self.grouped(2000 - written)) files written "),
        "\(rerun.stdout)")
      #expect(try expectWholeAndListed(out) == 2000)
    }
  }

  /// The files an export gave their names in `folder` so far, not its temporary files
  /// (`.NAME.inkling.PID.N.tmp`).
  static func draftFiles(in folder: String) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".inkling") && !$0.hasPrefix(".") }.count
  }

  /// 1234 as the summaries write it, "1,234".
  static func grouped(_ count: Int) -> String {
    count < 1000 ? "\(count)" : "\(count / 1000)," + String(String(count % 1000 + 1000).dropFirst())
  }
}
