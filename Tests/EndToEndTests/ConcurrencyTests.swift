import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Several processes on one archive at once, as when a scheduled import overlaps a person's
/// own: no "database is locked" may reach anyone, nothing may be stored twice, and readers
/// must not wait for a long import.
@Suite(.serialized) struct ConcurrencyTests {
  let temporary: TemporaryFolder
  var folder: String { temporary.path }

  init() throws {
    temporary = try TemporaryFolder("concurrency")
  }

  /// Two overlapping folders: drafts 0–19 in A, 10–39 in B, the shared drafts' files
  /// byte-identical in both (the same files copied twice). B is larger, so that A finishes
  /// and closes its connections while B is still writing: the moment when a lost lock
  /// once let A's close delete the WAL that B was committing to.
  func overlappingFolders(versions: Int) throws -> (corpus: TestCorpus, distinct: Int) {
    var corpus = TestCorpus(root: folder, seed: 7)
    var distinct = 0
    for draft in 0..<40 {
      for _ in 0..<versions {
        let name = "Draft \(draft)"
        if draft < 20 {
          let relative = try corpus.save(name, in: "A")
          if draft >= 10 { try corpus.write("B/" + (relative as NSString).lastPathComponent, corpus.files[relative]!) }
        } else {
          try corpus.save(name, in: "B")
        }
        distinct += 1
      }
    }
    return (corpus, distinct)
  }

  @Test func twoImportsAndAReaderOnOneArchive() throws {
    let archive = folder + "/archive.sqlite"
    let (corpus, distinct) = try overlappingFolders(versions: 12)
    // A draft for the reader to read from the start.
    var seed = TestCorpus(root: folder + "/Seed", seed: 1)
    try seed.save("Seed")
    let runner = BinaryRunner(in: temporary, archive: archive)
    #expect(try runner.run(["import", folder + "/Seed"]).status == 0)

    let importA = try BinaryRunner.start(
      ["--archive", archive, "--json", "import", folder + "/A"], outputFolder: folder)
    let importB = try BinaryRunner.start(
      ["--archive", archive, "--json", "import", folder + "/B"], outputFolder: folder)
    var readerRuns = 0
    var slowest = 0.0
    var readerErrors: [String] = []
    let started = Date()
    while importA.poll() == nil || importB.poll() == nil {
      let commands: [[String]] = [
        ["list"], ["history", "Seed"], ["restore", "Seed", "--force", "--to", folder + "/Restored"],
        ["list", "--json"],
        ["--quiet", "backup", "--force", folder + "/backup.sqlite"],
      ]
      for arguments in commands {
        let before = Date()
        let result = try runner.run(arguments)
        slowest = max(slowest, Date().timeIntervalSince(before))
        readerRuns += 1
        if result.status != 0 || result.stderr.lowercased().contains("locked") {
          readerErrors.append("\(arguments.joined(separator: " ")) → \(result.status): \(result.stderr)")
        }
      }
      #expect(Date().timeIntervalSince(started) < 300, "the imports take too long")
      if Date().timeIntervalSince(started) > 300 { break }
    }
    let a = importA.wait(timeout: 60)
    let b = importB.wait(timeout: 60)
    #expect(a.status == 0, "\(importA.stderr)")
    #expect(b.status == 0, "\(importB.stderr)")
    for stderr in [importA.stderr, importB.stderr] { #expect(!stderr.lowercased().contains("locked"), "\(stderr)") }
    #expect(readerErrors.isEmpty, "\(readerErrors)")

    // Every file archived once: the two imports' counts add up, and the archive has each once.
    func count(_ key: String, _ json: String) -> Int {
      guard let range = json.range(of: "\"\(key)\":") else { return -1 }
      return Int(json[range.upperBound...].prefix { $0.isNumber }) ?? -1
    }
    let imported = count("versionsImported", importA.stdout) + count("versionsImported", importB.stdout)
    #expect(imported == distinct, "\(importA.stdout) \(importB.stdout)")
    let versions = try sqlite3(archive, "SELECT count(*) FROM version")
    #expect(versions == "\(distinct + 1)")
    #expect(try sqlite3(archive, "SELECT count(*) FROM draft") == "41")
    let check = try runner.run(["check", "--full"])
    #expect(check.status == 0, "\(check.stdout)")
    // The last backup, taken while both imports ran, is a consistent archive of its own.
    let backup = try BinaryRunner(in: temporary, archive: folder + "/backup.sqlite").run(["check", "--full"])
    #expect(backup.status == 0, "\(backup.stdout)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/backup.sqlite-wal"))
    _ = corpus
    print(
      "concurrency test: 2 imports (\(distinct) distinct files, \(imported) imported between them, "
        + String(format: "%.1f s and %.1f s", a.seconds, b.seconds) + "), \(readerRuns) reader commands meanwhile, "
        + String(format: "the slowest %.2f s", slowest))
    // A reader waits for no import: the slowest reader command is far below the busy timeout.
    #expect(slowest < 5)
  }

  /// `gc --repack` while an import commits new versions of the drafts it is re-encoding waits
  /// for the import's batches and deals with its new deltas; neither command calls the archive
  /// damaged, and it checks clean.
  @Test func aRepackBesideACommittingImport() throws {
    let archive = folder + "/archive.sqlite"
    // B holds the earlier saves of A's drafts, found later (another device's copy): each is
    // stored as a delta of a version A brought, which the repack reaches first.
    var corpus = TestCorpus(root: folder, seed: 11)
    for draft in 0..<80 {
      for _ in 0..<8 { try corpus.save("Draft \(draft)", in: "B") }
      for _ in 0..<2 { try corpus.save("Draft \(draft)", in: "A") }
    }
    let runner = BinaryRunner(in: temporary, archive: archive)
    #expect(try runner.run(["import", folder + "/A"]).status == 0)
    let importB = try BinaryRunner.start(["--archive", archive, "import", folder + "/B"], outputFolder: folder)
    var repacks: [ChildProcess.Result] = []
    repeat {
      repacks.append(try runner.run(["gc", "--repack"]))
    } while importB.poll() == nil
    let imported = importB.wait(timeout: 120)
    #expect(imported.status == 0, "\(importB.stderr)")
    for repack in repacks {
      #expect(repack.status == 0, "\(repack.stderr)")
      #expect(!repack.stderr.contains("damaged"), "\(repack.stderr)")
    }
    #expect(try sqlite3(archive, "SELECT count(*) FROM version") == "\(80 * 10)")
    let check = try runner.run(["check", "--full"])
    #expect(check.status == 0, "\(check.stdout)")
    print("repack beside an import: \(repacks.count) repacks during \(String(format: "%.1f s", imported.seconds))")
  }

  @Test func importsRacingToCreateTheSameArchive() throws {
    let archive = folder + "/new/archive.sqlite"
    let (_, distinct) = try overlappingFolders(versions: 2)
    let children = try (0..<4).map { index in
      try BinaryRunner.start(
        ["--archive", archive, "--quiet", "import", folder + (index % 2 == 0 ? "/A" : "/B")], outputFolder: folder)
    }
    for child in children {
      let outcome = child.wait(timeout: 120)
      #expect(outcome.status == 0, "\(child.stderr)")
      #expect(!child.stderr.lowercased().contains("locked"))
    }
    #expect(Int(try sqlite3(archive, "SELECT count(*) FROM version")) == distinct)
    #expect(try sqlite3(archive, "PRAGMA user_version") != "0")
  }
}
