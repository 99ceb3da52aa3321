import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Whether this machine lets a process make a user namespace and lower its inotify limits
/// there (`/proc/sys/user/max_inotify_watches`, user_namespaces(7)) without touching the
/// machine's own.
let userNamespacesWork: Bool = {
  let result = try? ChildProcess.run(
    ["/usr/bin/unshare", "--user", "--map-root-user", "sh", "-c", "echo 5 > /proc/sys/user/max_inotify_watches"])
  return result?.status == 0
}()

/// `watch` through the real binary: what it prints, how it stops, its errors.
@Suite(.serialized) struct WatchCommandTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }
  var drafts: String { folder + "/Drafts" }
  var archive: String { runner.archive }

  init() throws {
    runner = try BinaryRunner(fresh: "watch", making: ["Drafts"])
  }

  func start(_ arguments: [String]) throws -> ChildProcess {
    try BinaryRunner.start(["--archive", archive] + arguments, outputFolder: folder)
  }

  /// Waits until the child has printed at least `count` lines on standard output.
  static func waitForLines(_ child: ChildProcess, _ count: Int, timeout: Double = 30) -> [String] {
    let deadline = Date().addingTimeInterval(timeout)
    var lines: [String] = []
    while Date() < deadline {
      lines = child.stdout.split(separator: "\n").map(String.init)
      if lines.count >= count || child.poll() != nil { break }
      usleep(20_000)
    }
    return lines
  }

  /// Waits until standard error holds `text`.
  static func waitForError(_ child: ChildProcess, _ text: String, timeout: Double = 30) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if child.stderr.contains(text) { return true }
      if child.poll() != nil { return child.stderr.contains(text) }
      usleep(20_000)
    }
    return false
  }

  /// Writes a file beside the folder and renames it into place, as the app and sync tools do.
  static func drop(_ bytes: [UInt8], as name: String, into folder: String) throws {
    let temporary = folder + "/.incoming-\(UUID().uuidString)"
    try Data(bytes).write(to: URL(fileURLWithPath: temporary))
    guard rename(temporary, folder + "/" + name) == 0 else { throw POSIXError(.EIO) }
  }

  @Test func printsOneLinePerVersionAndStopsOnSigint() throws {
    var corpus = TestCorpus(root: drafts, seed: 1)
    try corpus.save("Plan-B")
    let child = try start(["watch", drafts])
    #expect(Self.waitForLines(child, 1).count == 1)
    #expect(Self.waitForError(child, "Watching 1 folder; Ctrl-C stops."))
    var other = TestCorpus(root: folder + "/elsewhere", seed: 2)
    for draft in ["Cat", "Dog"] {
      let relative = try other.save(draft)
      try Self.drop(other.files[relative]!, as: (relative as NSString).lastPathComponent, into: drafts)
    }
    let lines = Self.waitForLines(child, 3)
    #expect(lines.count == 3, "\(lines)")
    #expect(lines[0].hasPrefix("Plan-B  version 1 (new draft)  saved "), "\(lines)")
    #expect(lines[0].hasSuffix("← \(drafts)/Plan-B-2025-01-01T00:01:00Z.inkling"), "\(lines)")
    #expect(Set(lines.dropFirst().map { String($0.prefix(4)) }) == ["Cat ", "Dog "])

    kill(child.pid, SIGINT)
    let outcome = child.wait(timeout: 30)
    #expect(outcome.status == 130, "\(child.stderr)")
    #expect(child.stderr.contains("Stopped: 3 versions imported, 0 rejected, in "), "\(child.stderr)")
  }

  @Test func printsNDJSONAndStopsOnSigterm() throws {
    let child = try start(["--json", "watch", "--source", "Anna's iPad", drafts])
    #expect(Self.waitForError(child, "Watching"))
    var corpus = TestCorpus(root: folder + "/elsewhere", seed: 3)
    let relative = try corpus.save("Owl")
    try Self.drop(corpus.files[relative]!, as: "Owl-2025-01-01T00:01:00Z.inkling", into: drafts)
    let lines = Self.waitForLines(child, 1)
    #expect(lines.count == 1)
    let object = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
    #expect(object?["draft"] as? String == "Owl")
    #expect(object?["version"] as? Int == 1)
    #expect(object?["source"] as? String == "Anna's iPad")
    #expect(object?["path"] as? String == drafts + "/Owl-2025-01-01T00:01:00Z.inkling")
    #expect(object?["saved"] as? String == "2025-01-01T00:01:00Z")
    // A file it rejects does not make the stop a failure: SIGTERM is how a service stops.
    try Self.drop(Array("not a draft".utf8), as: "Bad-2025-01-01T00:02:00Z.inkling", into: drafts)
    #expect(Self.waitForError(child, "Bad-2025-01-01T00:02:00Z.inkling"), "\(child.stderr)")
    kill(child.pid, SIGTERM)
    #expect(child.wait(timeout: 30).status == 0, "\(child.stderr)")
    #expect(child.stderr.contains("1 rejected"), "\(child.stderr)")
    let history = try runner.run(["history", "Owl"])
    #expect(history.stdout.contains("Anna's iPad"), "\(history.stdout)")
  }

  /// A burst of 1,000 files, all renamed into place at once: every one archived, in a few
  /// imports rather than a thousand.
  @Test func aThousandFilesDroppedAtOnce() throws {
    let child = try start(["--quiet", "--json", "watch", drafts])
    let staging = folder + "/staging"
    var corpus = TestCorpus(root: staging, seed: 4)
    var names: [String] = []
    for index in 0..<1_000 { names.append(try corpus.save("Burst \(index % 250)", growth: 100)) }
    // The watch is up once an event of ours is seen: wait for a first file.
    try Self.drop(
      Array(try Data(contentsOf: URL(fileURLWithPath: staging + "/" + names[0]))), as: names[0], into: drafts)
    #expect(Self.waitForLines(child, 1).count == 1)
    for name in names.dropFirst() {
      guard rename(staging + "/" + name, drafts + "/" + name) == 0 else { throw POSIXError(.EIO) }
    }
    let lines = Self.waitForLines(child, 1_000, timeout: 120)
    #expect(lines.count == 1_000)
    kill(child.pid, SIGINT)
    #expect(child.wait(timeout: 60).status == 130)
    #expect(try sqlite3(archive, "SELECT count(*) FROM version") == "1000")
    let runs = Int(try sqlite3(archive, "SELECT count(*) FROM import_run")) ?? 0
    #expect(runs < 50, "\(runs) imports for one burst")
  }

  @Test func aFolderThatIsNotThereIsAnError() throws {
    let result = try runner.run(["watch", folder + "/nowhere"])
    #expect(result.status == 1)
    #expect(result.stderr == "Error: cannot watch \(folder)/nowhere: there is no such folder\n")
  }

  /// The watch limit (one watch per folder) reached: the sentence names the sysctl to raise.
  /// The limit is lowered inside a user namespace of the test's own.
  @Test(.enabled(if: userNamespacesWork)) func theWatchLimitNamesTheSysctl() throws {
    for index in 0..<6 {
      try FileManager.default.createDirectory(atPath: drafts + "/f\(index)", withIntermediateDirectories: true)
    }
    let script = "echo 3 > /proc/sys/user/max_inotify_watches && exec \"$@\""
    let child = try ChildProcess(
      [
        "/usr/bin/unshare", "--user", "--map-root-user", "sh", "-c", script, "sh", inklingArchiveBinary, "--archive",
        archive, "watch", drafts,
      ],
      environment: BinaryRunner.environment, outputFolder: folder)
    let outcome = child.wait(timeout: 30)
    #expect(outcome.status == 1)
    #expect(child.stderr.hasPrefix("Error: cannot watch \(drafts)/"), "\(child.stderr)")
    #expect(child.stderr.contains("the limit of inotify watches (3) is reached"), "\(child.stderr)")
    #expect(child.stderr.contains("sudo sysctl fs.inotify.max_user_watches="), "\(child.stderr)")
  }

  /// An idle watch sleeps in poll(2): over a quiet stretch it is never woken.
  @Test func anIdleWatchIsNeverWoken() throws {
    let child = try start(["watch", drafts])
    #expect(Self.waitForError(child, "Watching"))
    func switches() -> Int? {
      guard let status = try? String(contentsOfFile: "/proc/\(child.pid)/status", encoding: .utf8) else { return nil }
      return status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
        .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
    }
    usleep(200_000)
    let before = switches()
    sleep(3)
    #expect(before != nil)
    #expect(switches() == before)
    kill(child.pid, SIGINT)
    #expect(child.wait(timeout: 30).status == 130)
  }

  /// A large folder: the watch says "Watching" before its first import of the folder ends,
  /// and files saved while that import runs are archived too.
  @Test func watchesBeforeTheFirstImportEnds() throws {
    var corpus = TestCorpus(root: drafts, seed: 5)
    let count = 2_000
    for index in 0..<count { try corpus.save("Held \(index % 500)", growth: 100) }
    let child = try start(["--json", "watch", drafts])
    #expect(Self.waitForError(child, "Watching 1 folder"), "\(child.stderr)")
    let caughtUpEarly = child.stderr.contains("Caught up")
    var other = TestCorpus(root: folder + "/elsewhere", seed: 6)
    for draft in ["Early", "Late"] {
      let relative = try other.save(draft)
      try Self.drop(other.files[relative]!, as: (relative as NSString).lastPathComponent, into: drafts)
    }
    #expect(!caughtUpEarly, "the first import ended before the watch said it was watching")
    let lines = Self.waitForLines(child, count + 2, timeout: 300)
    #expect(lines.count == count + 2)
    let drafts = Set(
      lines.compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["draft"] as? String
      })
    #expect(drafts.isSuperset(of: ["Early", "Late"]) && drafts.count == 502, "\(drafts.count)")
    #expect(Self.waitForError(child, "Caught up: "), "\(child.stderr)")
    let stderr = child.stderr
    let watching = try #require(stderr.range(of: "Watching"))
    let caughtUp = try #require(stderr.range(of: "Caught up"))
    #expect(watching.lowerBound < caughtUp.lowerBound, "\(stderr)")
    kill(child.pid, SIGINT)
    #expect(child.wait(timeout: 60).status == 130)
    #expect(try sqlite3(archive, "SELECT count(*) FROM version") == "\(count + 2)")
  }
}
