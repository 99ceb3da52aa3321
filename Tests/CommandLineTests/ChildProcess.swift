import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A process started with posix_spawn, for the tests that need what `Process` hides: the
/// pid to SIGKILL at a chosen moment, a wait with a deadline (a hang is a failure, not a
/// stuck test run), and the child's own peak memory from wait4's rusage.
final class ChildProcess {
  let pid: pid_t
  let stdoutPath: String
  let stderrPath: String
  let started = Date()
  private(set) var outcome: Outcome?

  struct Outcome {
    /// The exit status, when the process exited.
    var status: Int32?
    /// The signal that ended it, when one did.
    var signal: Int32?
    /// Peak resident memory in bytes (ru_maxrss).
    var maxResidentBytes: Int
    var seconds: Double
    var timedOut: Bool
  }

  /// Starts `arguments[0]` with `arguments`, stdout and stderr to files in `folder`.
  init(_ arguments: [String], folder: String, label: String = UUID().uuidString) throws {
    stdoutPath = folder + "/.out-\(label)"
    stderrPath = folder + "/.err-\(label)"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var environment = ProcessInfo.processInfo.environment
    environment["INKLING_ARCHIVE"] = nil
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
    guard code == 0 else {
      throw NSError(
        domain: "posix_spawn", code: Int(code), userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(code))])
    }
    self.pid = pid
  }

  deinit {
    if outcome == nil {
      kill(pid, SIGKILL)
      _ = wait(timeout: 10)
    }
    try? FileManager.default.removeItem(atPath: stdoutPath)
    try? FileManager.default.removeItem(atPath: stderrPath)
  }

  /// Sends SIGKILL; returns whether the process was still running to receive it.
  func killNow() -> Bool {
    guard outcome == nil, poll() == nil else { return false }
    return kill(pid, SIGKILL) == 0
  }

  /// The outcome if the process has ended (reaping it), else nil.
  @discardableResult
  func poll() -> Outcome? {
    if let outcome { return outcome }
    var status: Int32 = 0
    var usage = rusage()
    let result = wait4(pid, &status, WNOHANG, &usage)
    guard result == pid else { return nil }
    let signal = status & 0x7F
    let ended = Outcome(
      status: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
      maxResidentBytes: Int(usage.ru_maxrss) * 1024, seconds: Date().timeIntervalSince(started), timedOut: false)
    outcome = ended
    return ended
  }

  /// Waits for the process to end; after `timeout` seconds it is killed and marked timed out.
  func wait(timeout: Double) -> Outcome {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let outcome = poll() { return outcome }
      if Date() > deadline {
        kill(pid, SIGKILL)
        while poll() == nil { usleep(1_000) }
        outcome?.timedOut = true
        return outcome!
      }
      usleep(2_000)
    }
  }

  var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
  var stderr: String {
    String(decoding: (FileManager.default.contents(atPath: stderrPath) ?? Data()), as: UTF8.self)
  }
}

/// Drafts folders for the integrity tests: each draft's versions grow the way saves do
/// (every save keeps the earlier bytes and adds some), so deltas are exercised; the drawing
/// bytes are pseudo-random, which the archive keeps as opaque drawings.
struct TestCorpus {
  let root: String
  /// Every file written: path relative to `root` → its bytes.
  private(set) var files: [String: [UInt8]] = [:]
  private var drawings: [String: [UInt8]] = [:]
  private var saves: [String: Int] = [:]
  private var state: UInt64

  init(root: String, seed: UInt64) {
    self.root = root
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func bytes(_ count: Int) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(count + 8)
    while result.count < count { withUnsafeBytes(of: next()) { result.append(contentsOf: $0) } }
    return Array(result.prefix(count))
  }

  /// Writes the next save of `draft` into `folder` (relative to root); returns its relative path.
  @discardableResult
  mutating func save(_ draft: String, in folder: String = "", growth: Int = 600) throws -> String {
    let number = saves[draft, default: 0] + 1
    saves[draft] = number
    var drawing = drawings[draft] ?? ([0x77, 0x72, 0x64, 0xF0, 1, 0, 8, 0] + bytes(2_000))
    drawing += bytes(Int(next() % UInt64(growth)) + 50)
    drawings[draft] = drawing
    // One save a minute from 2025-01-01, per draft.
    let date = Date(timeIntervalSince1970: 1_735_689_600 + Double(number) * 60)
    let formatter = ISO8601DateFormatter()
    let name = "\(draft)-\(formatter.string(from: date)).inkling"
    let relative = folder.isEmpty ? name : folder + "/" + name
    let base64 = Data(drawing).base64EncodedString().replacingOccurrences(of: "/", with: "\\/")
    let color = ["1", "0.5", "0.25", "1.0393", "-0.0123"][Int(next() % 5)]
    let text = #"{"drawingData":"\#(base64)","color":{"r":\#(color),"g":1,"b":1,"a":1}}"#
    try write(relative, Array(text.utf8))
    return relative
  }

  /// Writes a file as is.
  mutating func write(_ relative: String, _ bytes: [UInt8]) throws {
    let path = root + "/" + relative
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    files[relative] = bytes
  }

  /// The file names of `draft`'s versions written so far, each with its bytes.
  func versions(of draft: String) -> [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    for (relative, bytes) in files {
      let name = (relative as NSString).lastPathComponent
      if name.hasPrefix(draft + "-2") { result[name] = bytes }
    }
    return result
  }
}

/// The built binary's path.
var inklingArchiveBinary: String { BinaryRunner.binFolder + "/inkling-archive" }

/// Runs `sqlite3` on a file and returns its output.
func sqlite3(_ path: String, _ sql: String) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
  // A busy timeout: without one, sqlite3 fails at once while an archive's last connection
  // checkpoints its WAL on close.
  process.arguments = ["-cmd", ".timeout 10000", path, sql]
  let out = Pipe()
  process.standardOutput = out
  let err = Pipe()
  process.standardError = err
  try process.run()
  let data = out.fileHandleForReading.readDataToEndOfFile()
  let errors = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  guard process.terminationStatus == 0 else { return "sqlite3 failed: " + String(decoding: errors, as: UTF8.self) }
  return text
}

/// Every regular file under `folder`, relative paths.
func filesUnder(_ folder: String) -> [String] {
  guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
  var result: [String] = []
  while let path = enumerator.nextObject() as? String {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
      result.append(path)
    }
  }
  return result.sorted()
}
