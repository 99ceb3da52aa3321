import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Whether the tests can run the binary under a limit of processes that applies: root is
/// exempt from RLIMIT_NPROC, so the binary runs as `nobody` (setpriv(1)) under prlimit(1).
private let limitsCanBeLowered =
  getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
  && FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")

/// A system that refuses import's threads: an error a person can act on, not a crash, and an
/// archive left as it was.
@Suite struct ThreadLimitTests {
  /// Runs the binary as `nobody`, allowed `processes` processes and threads of its own: the
  /// limit counts every thread of the user, so those `nobody` runs already (a web server's
  /// workers) are added to it.
  static func runAsNobody(processes: Int, _ arguments: [String]) throws -> ChildProcess.Result {
    try ChildProcess.run(
      [
        "/usr/bin/prlimit", "--nproc=\(processes + threadsOfNobody())", "/usr/bin/setpriv", "--reuid=65534",
        "--regid=65534",
        "--clear-groups", inklingArchiveBinary,
      ] + arguments, environment: BinaryRunner.environment)
  }

  /// The threads running as user 65534 now (/proc/PID/status: `Uid:` real id, `Threads:`).
  static func threadsOfNobody() -> Int {
    let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return processes.filter { $0.allSatisfy(\.isNumber) }.reduce(0) { total, pid in
      guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return total }
      let fields = status.split(separator: "\n").map { $0.split(whereSeparator: \.isWhitespace) }
      guard fields.contains(where: { $0.first == "Uid:" && $0.dropFirst().first == "65534" }),
        let threads = fields.first(where: { $0.first == "Threads:" })?.last.flatMap({ Int($0) })
      else { return total }
      return total + threads
    }
  }

  @Test(.enabled(if: limitsCanBeLowered)) func importRefusedItsThreadsSaysWhyAndImportsNothing() throws {
    let runner = try BinaryRunner(fresh: "threads", making: ["Drafts"])
    let folder = runner.workingDirectory
    // `nobody` creates the archive.
    #expect(chmod(folder, 0o777) == 0)
    var corpus = TestCorpus(root: folder + "/Drafts", seed: 7)
    for name in ["A", "B", "C"] { try corpus.save(name) }
    // 1: the first thread is refused; 2: the lister starts and the first worker is refused.
    for limit in [1, 2] {
      let result = try Self.runAsNobody(processes: limit, ["--archive", runner.archive, "import", folder + "/Drafts"])
      #expect(result.status == 1, "limit \(limit): \(result.stderr)")
      #expect(
        result.stderr
          == "Error: the system would not start another thread (Resource temporarily unavailable): the limit of "
          + "processes and threads for this user (`ulimit -u`) is reached, or memory is short. Nothing was "
          + "imported; close other programs or raise the limit, then try again.\n", "limit \(limit)")
      #expect(try sqlite3(runner.archive, "SELECT count(*) FROM import_run") == "0", "limit \(limit)")
      #expect(try sqlite3(runner.archive, "SELECT count(*) FROM version") == "0", "limit \(limit)")
    }
    // Without the limit the same import goes through.
    let result = try runner.run(["--quiet", "import", folder + "/Drafts"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try sqlite3(runner.archive, "SELECT count(*) FROM version") == "3")

    // Rendering thumbnails on fewer threads than asked is only slower: this one renders them all.
    #expect(chmod(runner.archive, 0o666) == 0)
    let sheet = try Self.runAsNobody(
      processes: 1, ["--archive", runner.archive, "contact-sheet", "-o", folder + "/sheet.png"])
    // Its drafts' drawings are opaque bytes: placeholders, said with exit 1 (PicturePlaceholder).
    #expect(sheet.status == 1 && sheet.stderr.contains("placeholder"), "\(sheet.stderr)")
    #expect(
      FileManager.default.contents(atPath: folder + "/sheet.png")?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
  }
}
