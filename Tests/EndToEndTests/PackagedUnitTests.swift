import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// systemd's analyzer, when installed.
let systemdAnalyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// The systemd user units in packaging/systemd: sandboxed to what each service does, as
/// `systemd-analyze` rates them (under 4.0, "OK"), and valid units; and the binary runs under
/// the memory rule they set (MemoryDenyWriteExecute=yes).
@Suite(.enabled(if: systemdAnalyze != nil, "systemd-analyze is not installed"))
struct PackagedUnitTests {
  static let units = ["inkling-archive-watch.service", "inkling-archive-serve.service"]

  /// `systemd-analyze` on `arguments`, as for a user's own manager (`--user` needs a runtime
  /// folder even offline).
  static func analyze(_ arguments: [String], in folder: TemporaryFolder) throws -> ChildProcess.Result {
    let runtime = try folder.makeFolder("runtime")
    chmod(runtime, 0o700)
    return try ChildProcess.run([systemdAnalyze!] + arguments, environment: ["XDG_RUNTIME_DIR": runtime])
  }

  @Test(arguments: units) func scoresUnderFour(unit: String) throws {
    let folder = try TemporaryFolder("unit-security")
    let result = try Self.analyze(
      ["security", "--offline=true", "--user", PackageFolder.path("packaging/systemd/" + unit)], in: folder)
    let line = result.stdout.split(separator: "\n").first { $0.contains("Overall exposure level for \(unit):") }
    let score = line.flatMap { $0.split(separator: ":").last?.split(separator: " ").first }.flatMap { Double($0) }
    #expect(score.map { $0 < 4.0 } == true, "\(result.stdout.suffix(3_000))\(result.stderr)")
  }

  /// `systemd-analyze verify` on the units as installed, with the built binary where the
  /// package puts it (verify checks that ExecStart's program exists).
  @Test func theUnitsVerify() throws {
    let folder = try TemporaryFolder("unit-verify")
    var paths: [String] = []
    for unit in Self.units {
      let text = try String(contentsOfFile: PackageFolder.path("packaging/systemd/" + unit), encoding: .utf8)
      paths.append(
        try folder.write(unit, text.replacingOccurrences(of: "/usr/bin/inkling-archive", with: inklingArchiveBinary)))
    }
    let result = try Self.analyze(["verify", "--user", "--man=no"] + paths, in: folder)
    #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
  }

  /// Runs its first argument with the rest under the units' system-call filter
  /// (`@system-service` less `@privileged`, as `systemd-analyze syscall-filter` expands
  /// them), killed at the first call outside it rather than refused as the units do, so that
  /// none goes unnoticed.
  static let filterSystemCalls = """
    import ctypes, functools, os, subprocess, sys
    @functools.lru_cache(None)
    def expand(group):
        lines = subprocess.run([sys.argv[1], "syscall-filter", group], capture_output=True, text=True,
                               check=True).stdout.splitlines()[1:]
        names = set()
        for word in (line.strip() for line in lines):
            if word and not word.startswith("#"):
                names |= expand(word) if word.startswith("@") else {word}
        return frozenset(names)
    allowed = expand("@system-service") - expand("@privileged")
    seccomp = ctypes.CDLL("libseccomp.so.2")
    seccomp.seccomp_init.restype = ctypes.c_void_p
    seccomp.seccomp_rule_add.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint]
    seccomp.seccomp_load.argtypes = [ctypes.c_void_p]
    seccomp.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    filter = seccomp.seccomp_init(0x80000000)  # SCMP_ACT_KILL_PROCESS
    for name in allowed:
        number = seccomp.seccomp_syscall_resolve_name(name.encode())
        if number >= 0:
            seccomp.seccomp_rule_add(filter, 0x7FFF0000, number, 0)  # SCMP_ACT_ALLOW
    if seccomp.seccomp_load(filter) != 0:
        sys.exit(78)
    os.execv(sys.argv[2], sys.argv[2:])
    """

  /// Whether this machine can run a program under that filter (python3 and libseccomp).
  static var filtersSystemCalls: Bool {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), let analyzer = systemdAnalyze else {
      return false
    }
    return (try? ChildProcess.run(["/usr/bin/python3", "-c", filterSystemCalls, analyzer, "/bin/true"]).status) == 0
  }

  /// The binary runs every command the units start, and those around them, under their
  /// system-call filter: as the account nobody when the tests run as root, since a user's
  /// service is not root (SQLite, for one, changes a new file's owner only as root).
  @Test(.enabled(if: filtersSystemCalls, "no python3 or libseccomp"))
  func theBinaryRunsUnderTheUnitsSystemCallFilter() throws {
    let folder = try TemporaryFolder("unit-seccomp")
    chmod(folder.path, 0o777)
    let drafts = try folder.makeFolder("Drafts")
    for save in 1...3 {
      let bytes = try HandwritingPage.lineBytes(length: Double(save) * 100)
      let text = #"{"drawingData":"\#(Data(bytes).base64EncodedString())","color":{"r":1,"g":1,"b":1,"a":1}}"#
      try Data(text.utf8).write(to: URL(fileURLWithPath: drafts + "/Sketch-2025-10-05T14:0\(save):00Z.inkling"))
    }
    // The built binary may sit in a folder nobody cannot enter. Copied by cp, in a process of
    // its own: a copy written here leaves its descriptor open in any child another test spawns
    // meanwhile, and executing a file open for writing fails (ETXTBSY).
    let binary = folder.path("inkling-archive")
    #expect(try ChildProcess.run(["/bin/cp", inklingArchiveBinary, binary]).status == 0)
    let asNobody = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
    let filtered = asNobody + ["/usr/bin/python3", "-c", Self.filterSystemCalls, systemdAnalyze!, binary]
    let archive = folder.path("archive.sqlite")
    for arguments in [
      ["import", drafts], ["list"], ["thumbnail", "Sketch", "-o", folder.path("t.png")],
      ["timelapse", "Sketch", "--duration", "3s", "--fps", "10", "-o", folder.path("t.mp4")], ["check", "--full"],
    ] {
      let result = try ChildProcess.run(
        filtered + ["--archive", archive] + arguments, environment: BinaryRunner.environment)
      #expect(
        result.status == 0, "\(arguments): status \(result.status) (159: a call outside the filter) \(result.stderr)")
    }
    // watch and serve, the units' own commands, until SIGTERM: watch imports a file that lands.
    let watched = try folder.makeFolder("Watched")
    chmod(watched, 0o777)
    let watch = try ChildProcess(
      filtered + ["--archive", archive, "watch", watched], environment: BinaryRunner.environment)
    let serve = try ChildProcess(
      filtered + ["--archive", archive, "serve", "--port", "0", "--token", "unit-filter-token"],
      environment: BinaryRunner.environment)
    // Waits for what each says rather than a fixed time: under a loaded machine a filtered
    // start can take seconds.
    func waitFor(_ condition: () -> Bool) {
      let deadline = Date().addingTimeInterval(60)
      while !condition() && Date() < deadline { usleep(100_000) }
    }
    waitFor { (watch.stderr + watch.stdout).contains("Watching") }
    try FileManager.default.copyItem(
      atPath: drafts + "/Sketch-2025-10-05T14:01:00Z.inkling", toPath: watched + "/Kite-2025-10-05T14:01:00Z.inkling")
    waitFor { serve.stdout.contains("\n") }
    waitFor { (watch.stderr + watch.stdout).contains("1 version imported") }
    let address = serve.stdout.split(separator: "\n").first.map(String.init) ?? ""
    // The address carries the token; the page it redirects to is the one the browser shows.
    let page = try ChildProcess.run(["/usr/bin/curl", "-s", "-L", "-o", "/dev/null", "-w", "%{http_code}", address])
    #expect(page.stdout == "200", "\(serve.stdout) \(serve.stderr)")
    for child in [watch, serve] {
      kill(child.pid, SIGTERM)
      let outcome = child.wait(timeout: 30)
      #expect(outcome.status == 0, "status \(outcome.status ?? -1), signal \(outcome.signal ?? 0): \(child.stderr)")
    }
    #expect(
      watch.stderr.contains("1 version imported") || watch.stdout.contains("1 version imported"), "\(watch.stderr)")
  }

  /// Runs its first argument with the rest, in a process that may never map memory both
  /// writable and executable, nor make writable memory executable.
  static let refuseExecutableWrites = """
    import ctypes, os, sys
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(65, 1, 0, 0, 0) != 0:  # PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN
        sys.exit(77)
    os.execv(sys.argv[1], sys.argv[1:])
    """

  /// Whether this machine can run a program under that rule.
  static var refusesExecutableWrites: Bool {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return false }
    return (try? ChildProcess.run(["/usr/bin/python3", "-c", refuseExecutableWrites, "/bin/true"]).status) == 0
  }

  /// The units forbid memory both writable and executable: the binary, with the Swift runtime
  /// and every library it links, works under the kernel's own form of that rule (PR_SET_MDWE,
  /// which systemd uses where the kernel has it), from import to a video and the web server.
  @Test(.enabled(if: refusesExecutableWrites, "no python3, or a kernel without PR_SET_MDWE (before Linux 6.3)"))
  func theBinaryRunsWithoutWritableExecutableMemory() throws {
    let folder = try TemporaryFolder("unit-mdwe")
    let drafts = try folder.makeFolder("Drafts")
    for save in 1...4 {
      let bytes = try HandwritingPage.lineBytes(length: Double(save) * 100)
      let text = #"{"drawingData":"\#(Data(bytes).base64EncodedString())","color":{"r":1,"g":1,"b":1,"a":1}}"#
      try Data(text.utf8).write(to: URL(fileURLWithPath: drafts + "/Sketch-2025-10-05T14:0\(save):00Z.inkling"))
    }
    let archive = folder.path("archive.sqlite")
    for arguments in [
      ["import", drafts], ["thumbnail", "Sketch", "-o", folder.path("t.png")],
      ["timelapse", "Sketch", "--duration", "3s", "--fps", "10", "-o", folder.path("t.mp4")],
      ["timelapse", "Sketch", "--duration", "3s", "--fps", "10", "-o", folder.path("t.webp")],
      ["check", "--full"],
    ] {
      let result = try ChildProcess.run(
        ["/usr/bin/python3", "-c", Self.refuseExecutableWrites, inklingArchiveBinary, "--archive", archive] + arguments,
        environment: BinaryRunner.environment)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }
  }
}
