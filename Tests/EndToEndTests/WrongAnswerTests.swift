import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Answers that are easy to get wrong, through the built binary: relative dates, unknown inks
/// and colours, a diff of a drawing that does not decode, what a quick check does not look at,
/// and a check beside a running import.
@Suite struct WrongAnswerTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "answers", making: ["Drafts"])
  }

  /// A small file whose drawing is empty.
  static let empty = #"{"drawingData":"d3Jk8AEACAA=","color":{"r":1,"g":1,"b":1,"a":1}}"#

  /// A file of draft `name` saved `daysAgo` days before now, with `json` as its content.
  func save(_ name: String, daysAgo: Double, _ json: String = Self.empty) throws {
    let stamp = ISO8601DateFormatter().string(from: Date(timeIntervalSinceNow: -daysAgo * 86_400))
    try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/Drafts/\(name)-\(stamp).inkling"))
  }

  /// A file holding the shared sample drawing `sample`, or its first `prefix` bytes (a
  /// PencilKit drawing cut short, which does not decode).
  func sampleJSON(_ sample: String, prefix: Int? = nil) throws -> String {
    var drawing = try Data(contentsOf: URL(fileURLWithPath: DeviceSamples.drawingsFolder + "/\(sample).pkdrawing"))
    if let prefix { drawing = drawing.prefix(prefix) }
    return #"{"drawingData":"\#(drawing.base64EncodedString())","color":{"r":1,"g":1,"b":1,"a":1}}"#
  }

  func names(_ query: String) throws -> [String] {
    let result = try runner.run(["search", "--paths", query])
    let names = result.stdout.split(separator: "\n").map(String.init).sorted()
    // 0 with drafts, 1 without, as grep.
    #expect(result.status == (names.isEmpty ? 1 : 0), "\(query): \(result.stderr)")
    return names
  }

  /// An age compares as an age, as people read it ("less than an hour ago"), in every operator,
  /// for saved: and imported:.
  @Test func agesCompareAsAges() throws {
    try save("Recent", daysAgo: 3)
    try save("Old", daysAgo: 10)
    #expect(try runner.run(["--quiet", "import", folder + "/Drafts"]).status == 0)
    // The lock file of running imports goes with the last of them.
    #expect(!FileManager.default.fileExists(atPath: runner.archive + "-imports"))
    #expect(try names("saved:<7d") == ["Recent"])
    #expect(try names("saved:<=7d") == ["Recent"])
    #expect(try names("saved:7d") == ["Recent"])
    #expect(try names("saved:>7d") == ["Old"])
    #expect(try names("saved:>=7d") == ["Old"])
    // Both were imported just now: less than an hour ago.
    #expect(try names("imported:<1h") == ["Old", "Recent"])
    #expect(try names("imported:>1h") == [])
    // `list --until 7d` is the same moment.
    let until = try runner.run(["list", "--paths", "--until", "7d"])
    #expect(until.stdout == "Old\n")
  }

  /// Item 5: an ink or colour nobody has is a usage error naming the known ones.
  @Test func unknownInksAndColoursAreUsageErrors() throws {
    try save("Pen", daysAgo: 1, try sampleJSON("three-pen-strokes"))
    #expect(try runner.run(["--quiet", "import", folder + "/Drafts"]).status == 0)
    #expect(try names("ink:pen") == ["Pen"])
    #expect(try names("ink:crayon") == [])  // known, and unused: no match, no error

    let ink = try runner.run(["search", "name:pen ink:brush"])
    #expect(ink.status == 2)
    #expect(ink.stdout == "")
    #expect(
      ink.stderr.hasPrefix(
        "Error: unknown ink 'brush'; the inks are pen, pencil, marker, monoline, fountainpen, watercolor, crayon, "
          + "eraser\n  name:pen ink:brush\n               ^\n"), "\(ink.stderr)")

    let colour = try runner.run(["search", "background:mauve"])
    #expect(colour.status == 2)
    #expect(colour.stderr.hasPrefix("Error: 'mauve' is not a colour; use #rrggbb, #rgb or a name: beige, black, "))
    #expect(colour.stderr.contains("white, yellow\n  background:mauve\n             ^\n"), "\(colour.stderr)")
  }

  /// Item 7: a version whose drawing does not decode is not an empty drawing.
  @Test func diffOfAnUndecodableVersionSaysSo() throws {
    try save("Mixed", daysAgo: 2, try sampleJSON("three-pen-strokes"))
    try save("Mixed", daysAgo: 1, try sampleJSON("three-pen-strokes", prefix: 120))
    #expect(try runner.run(["--quiet", "import", folder + "/Drafts"]).status == 0)
    for (a, b) in [("1", "2"), ("2", "1")] {
      let diff = try runner.run(["diff", "Mixed", a, b])
      #expect(diff.status == 1)
      #expect(diff.stdout == "")
      #expect(diff.stderr.hasPrefix("Error: version 2 of \"Mixed\" could not be read: "), "\(diff.stderr)")
    }
  }

  /// Item 8: a quick check says what it did not read; damage errors point to `check --full`.
  @Test func aQuickCheckSaysWhatItDidNotRead() throws {
    try save("Cat", daysAgo: 2, try sampleJSON("three-pen-strokes"))
    try save("Cat", daysAgo: 1, try sampleJSON("handwritten-half-notes"))
    #expect(try runner.run(["--quiet", "import", folder + "/Drafts"]).status == 0)
    _ = try sqlite3(runner.archive, "UPDATE blob SET data = zeroblob(length(data))")

    let quick = try runner.run(["check"])
    #expect(quick.status == 0)
    let lines = quick.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "Not checked: the stored drawings (2 drawings, not decoded or re-hashed) and the files they rebuild "
          + "(2 files, not rebuilt); `check --full` reads them."), "\(quick.stdout)")
    #expect(lines.last == "No problems found in what was checked.")

    let full = try runner.run(["check", "--full"])
    #expect(full.status == 3)
    #expect(!full.stdout.contains("Not checked"))
    #expect(full.stdout.contains("Found 2 problems."))

    let restore = try runner.run(["restore", "Cat", "-o", folder + "/cat.inkling"])
    #expect(restore.status == 3)
    #expect(restore.stderr.contains("Run `inkling-archive check --full` to see what is affected"), "\(restore.stderr)")
  }

  /// Item 9: an import still running is not an interrupted one; counts are worded right.
  @Test func aRunningImportIsNotInterrupted() throws {
    var corpus = TestCorpus(root: folder + "/Drafts", seed: 9)
    for draft in 0..<60 {
      for _ in 0..<6 { try corpus.save("Draft \(draft)", growth: 20_000) }
    }
    let archive = runner.archive
    let importing = try BinaryRunner.start(
      ["--archive", archive, "--quiet", "import", folder + "/Drafts"], outputFolder: folder)
    // Stopped once its run is logged and locked: it holds its lock while it does not run.
    let started = Date()
    while !FileManager.default.fileExists(atPath: archive + "-imports")
      || (try? sqlite3(archive, "SELECT count(*) FROM import_run WHERE finished_ms IS NULL")) != "1"
    {
      #expect(Date().timeIntervalSince(started) < 60 && importing.poll() == nil, "the import did not start")
      if Date().timeIntervalSince(started) > 60 || importing.poll() != nil { return }
      usleep(2_000)
    }
    // The run's row is committed once its lock is held (VersionWriter.init): whenever the
    // stop lands, check sees the lock of the row it reads.
    kill(importing.pid, SIGSTOP)
    let running = try runner.run(["check", "--json"])
    let text = try runner.run(["check"])
    kill(importing.pid, SIGCONT)
    #expect(running.stdout.contains(#""interruptedImports":0,"runningImports":1"#), "\(running.stdout)")
    #expect(text.stdout.contains("Note: 1 import running"), "\(text.stdout)")
    #expect(!text.stdout.contains("interrupted"))

    #expect(importing.killNow())
    _ = importing.wait(timeout: 30)
    let killed = try runner.run(["check"])
    #expect(killed.stdout.contains("1 interrupted import (what it committed is complete)"), "\(killed.stdout)")
    #expect(!killed.stdout.contains("running"))
    // The rerun that finishes the work clears the note.
    #expect(try runner.run(["--quiet", "import", folder + "/Drafts"]).status == 0)
    #expect(!(try runner.run(["check"]).stdout.contains("interrupted")))
  }
}
