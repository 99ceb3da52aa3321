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
      ["timelapse", "Sketch", "-o", folder.path("t.mp4")], ["timelapse", "Sketch", "-o", folder.path("t.webp")],
      ["check", "--full"],
    ] {
      let result = try ChildProcess.run(
        ["/usr/bin/python3", "-c", Self.refuseExecutableWrites, inklingArchiveBinary, "--archive", archive] + arguments,
        environment: BinaryRunner.environment)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }
  }
}
