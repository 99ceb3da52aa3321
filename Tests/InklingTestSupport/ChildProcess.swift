// The one way tests and benchmarks run another program: posix_spawn, stdout and stderr to
// files, a wait with a deadline, and the child's own peak memory (sampled from /proc).
//
// Not Foundation's `Process`: it reaps the child itself, gives no way to wait with
// a deadline (a hang must fail a test, not stop the run), and reading a pipe to its end while
// the other fills can block. Files cannot fill up; each is removed with the value.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A program started with posix_spawn.
///
/// ```swift
/// let result = try ChildProcess.run(["/usr/bin/sqlite3", path, "PRAGMA user_version"])
/// let child = try ChildProcess([binary, "import", folder])   // then child.killNow(), child.wait(timeout:)
/// ```
package final class ChildProcess {
  package let pid: pid_t
  package let stdoutPath: String
  package let stderrPath: String
  package let started = Date()
  package private(set) var outcome: Outcome?
  /// The highest VmHWM seen so far, in bytes.
  private var sampledPeak = 0

  /// How the process ended.
  package struct Outcome: Sendable {
    /// The exit status, when the process exited.
    package var status: Int32?
    /// The signal that ended it, when one did.
    package var signal: Int32?
    /// The program's own peak resident memory in bytes (VmHWM, sampled while it runs; see
    /// `sampleMemory`), 0 when it ended before a sample.
    package var maxResidentBytes: Int
    package var seconds: Double
    package var timedOut: Bool
  }

  /// Starts `arguments[0]` (a path, or a name looked up in PATH) with `arguments`.
  ///
  /// - Parameters:
  ///   - environment: changes to this process's environment; a nil value removes the variable.
  ///   - workingDirectory: where the child starts (this process's own when nil).
  ///   - outputFolder: where stdout and stderr are written (the temporary folder when nil).
  /// - Throws: `ChildProcessError` when the program cannot be started.
  package init(
    _ arguments: [String], environment: [String: String?] = [:], workingDirectory: String? = nil,
    outputFolder: String? = nil
  ) throws {
    let label = UUID().uuidString
    let folder = outputFolder ?? FileManager.default.temporaryDirectory.path
    stdoutPath = folder + "/.out-\(label)"
    stderrPath = folder + "/.err-\(label)"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if let workingDirectory {
      guard let addChdir = Self.addChdir, addChdir(&actions, workingDirectory) == 0 else {
        throw ChildProcessError(arguments[0], "cannot start it in \(workingDirectory)")
      }
    }
    var variables = ProcessInfo.processInfo.environment
    for (key, value) in environment { variables[key] = value }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let code = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
    guard code == 0 else { throw ChildProcessError(arguments[0], String(cString: strerror(code))) }
    self.pid = pid
  }

  /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), which its headers
  /// declare only for _GNU_SOURCE, so Swift's Glibc module does not show it.
  private typealias AddChdir =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
  private static let addChdir: AddChdir? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else { return nil }
    return unsafeBitCast(symbol, to: AddChdir.self)
  }()

  deinit {
    if outcome == nil {
      kill(pid, SIGKILL)
      _ = wait(timeout: 10)
    }
    try? FileManager.default.removeItem(atPath: stdoutPath)
    try? FileManager.default.removeItem(atPath: stderrPath)
  }

  /// Sends SIGKILL; returns whether the process was still running to receive it.
  package func killNow() -> Bool {
    guard outcome == nil, poll() == nil else { return false }
    return kill(pid, SIGKILL) == 0
  }

  /// The outcome if the process has ended (reaping it), else nil.
  @discardableResult
  package func poll() -> Outcome? {
    sampleMemory()
    return reap(options: WNOHANG)
  }

  /// Reads the program's peak resident memory from /proc while it runs. wait4's ru_maxrss
  /// cannot serve: the kernel records the parent's high-water mark into the child's at exec
  /// (the forked image is the test process, hundreds of MiB after the time-lapse tests), so
  /// every child of a large process would seem large. posix_spawn returns after the exec, so
  /// every sample is of the program's own image.
  private func sampleMemory() {
    guard outcome == nil else { return }
    // /proc files report a size of 0, so they are read to their end rather than by size.
    let descriptor = open("/proc/\(pid)/status", O_RDONLY)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      bytes += buffer[..<count]
    }
    let status = String(decoding: bytes, as: UTF8.self)
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      let kilobytes =
        line.dropFirst("VmHWM:".count).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 0
      sampledPeak = max(sampledPeak, kilobytes * 1024)
    }
  }

  /// Waits for the process to end, however long it takes (for timing a child exactly).
  package func wait() -> Outcome {
    while true {
      if let outcome = reap(options: 0) { return outcome }
    }
  }

  /// Waits for the process to end; after `timeout` seconds it is killed and marked timed out.
  package func wait(timeout: Double) -> Outcome {
    let deadline = Date().addingTimeInterval(timeout)
    var pause: useconds_t = 100
    while true {
      if let outcome = poll() { return outcome }
      if Date() > deadline {
        kill(pid, SIGKILL)
        var ended = wait()
        ended.timedOut = true
        outcome = ended
        return ended
      }
      usleep(pause)
      pause = min(pause * 2, 5_000)
    }
  }

  private func reap(options: Int32) -> Outcome? {
    if let outcome { return outcome }
    var status: Int32 = 0
    let result = wait4(pid, &status, options, nil)
    if result == -1 && errno == ECHILD {
      // Not our child any more: nothing to report but that it ended.
      outcome = Outcome(
        status: nil, signal: nil, maxResidentBytes: 0, seconds: Date().timeIntervalSince(started), timedOut: false)
      return outcome
    }
    guard result == pid else { return nil }
    let signal = status & 0x7F
    let ended = Outcome(
      status: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
      maxResidentBytes: sampledPeak, seconds: Date().timeIntervalSince(started), timedOut: false)
    outcome = ended
    return ended
  }

  package var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
  package var stderr: String {
    String(decoding: FileManager.default.contents(atPath: stderrPath) ?? Data(), as: UTF8.self)
  }
  package var stdoutBytes: Data { FileManager.default.contents(atPath: stdoutPath) ?? Data() }

  // MARK: - Run to the end

  /// What a program printed and how it exited.
  package struct Result: Sendable {
    /// The exit status; 128 + the signal's number when a signal ended it.
    package let status: Int32
    package let stdout: String
    package let stderr: String
    /// Standard output as bytes, for commands that write a file there (`-o -`).
    package let stdoutBytes: [UInt8]
    package let timedOut: Bool
  }

  /// Runs a program to its end (killed after `timeout` seconds, then `timedOut`).
  ///
  /// - Throws: `ChildProcessError` when the program cannot be started.
  package static func run(
    _ arguments: [String], environment: [String: String?] = [:], workingDirectory: String? = nil,
    timeout: Double = 600
  ) throws -> Result {
    let child = try ChildProcess(
      arguments, environment: environment, workingDirectory: workingDirectory)
    let outcome = child.wait(timeout: timeout)
    return Result(
      status: outcome.status ?? 128 + (outcome.signal ?? 0), stdout: child.stdout, stderr: child.stderr,
      stdoutBytes: Array(child.stdoutBytes), timedOut: outcome.timedOut)
  }
}

/// A program that could not be started, and why.
package struct ChildProcessError: Error, CustomStringConvertible {
  package let program: String
  package let reason: String
  init(_ program: String, _ reason: String) {
    self.program = program
    self.reason = reason
  }
  package var description: String { "\(program): \(reason)" }
}
