import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// On a computer with other accounts, what the tool creates is the user's alone even with the
/// common umask 022: the archive and the files beside it, and the temporary copies `backup -`
/// and `timelapse -o -` stage in $TMPDIR while they are written. Another account (nobody,
/// through setpriv, when the tests run as root) cannot read them.
@Suite struct PrivateFilesTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }
  /// The $TMPDIR the commands stage in, open to every account as /tmp is.
  let staging: String

  init() throws {
    runner = try BinaryRunner(fresh: "private")
    let folder = runner.workingDirectory
    // Folders anyone may enter, so that only a file's own mode keeps another account out.
    chmod(folder, 0o755)
    staging = try runner.temporary.makeFolder("tmp")
    chmod(staging, 0o1777)
    var corpus = TestCorpus(root: folder + "/Drafts", seed: 7)
    for draft in 0..<12 {
      for _ in 0..<4 { try corpus.save("Draft \(draft)", growth: 20_000) }
    }
    // A drawing growing save by save, for a time-lapse to replay.
    for save in 1...16 {
      let bytes = try HandwritingPage.lineBytes(length: Double(save) * 100)
      let text = #"{"drawingData":"\#(Data(bytes).base64EncodedString())","color":{"r":1,"g":1,"b":1,"a":1}}"#
      let name = String(format: "Sketch-2025-10-05T14:%02d:00Z.inkling", save)
      try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/Drafts/" + name))
    }
    let imported = try shell("import \"$1\"", [folder + "/Drafts"])
    #expect(imported.status == 0, "\(imported.stderr)")
  }

  /// Runs the binary on the archive through `sh` with umask 022, `$1`… being `arguments`.
  func shell(_ command: String, _ arguments: [String]) throws -> ChildProcess.Result {
    try ChildProcess.run(
      ["/bin/sh", "-c", "umask 022; exec \"$0\" --archive \"$ARCHIVE\" " + command, inklingArchiveBinary] + arguments,
      environment: BinaryRunner.environment.merging(["ARCHIVE": runner.archive, "TMPDIR": staging]) { $1 },
      workingDirectory: folder)
  }

  static func mode(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
  }

  /// Whether the account nobody can read the file at `path`; nil when the tests cannot change
  /// account (not root, or no setpriv).
  static func nobodyCanRead(_ path: String) throws -> Bool? {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return nil }
    let read = try ChildProcess.run(
      ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/cat", path])
    return read.status == 0
  }

  /// The files in the staging folder and their modes.
  func staged() -> [String: mode_t] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []
    return Dictionary(
      uniqueKeysWithValues: names.compactMap { name in Self.mode(staging + "/" + name).map { (name, $0) } })
  }

  @Test func theArchiveAndItsFilesArePrivate() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("archive.sqlite") }
    #expect(files.contains("archive.sqlite"))
    for file in files {
      #expect(
        Self.mode(folder + "/" + file).map { $0 & 0o077 == 0 } == true,
        "\(file): \(Self.mode(folder + "/" + file) ?? 0)")
    }
    if let readable = try Self.nobodyCanRead(runner.archive) { #expect(!readable) }
  }

  /// `backup -` copies the archive into $TMPDIR, checks it, then pours it into standard
  /// output: with nobody reading the pipe, it waits there with the copy (and the archive
  /// open) for anyone to look at.
  @Test func backupToStandardOutputStagesAPrivateCopy() throws {
    let fifo = folder + "/backup.fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = open(fifo, O_RDONLY | O_NONBLOCK)
    #expect(reader >= 0)
    defer { close(reader) }
    let child = try ChildProcess(
      [
        "/bin/sh", "-c", "umask 022; exec \"$0\" --archive \"$1\" backup - > \"$2\"", inklingArchiveBinary,
        runner.archive, fifo,
      ],
      environment: BinaryRunner.environment.merging(["TMPDIR": staging]) { $1 }, workingDirectory: folder)
    var seen: [String: mode_t] = [:]
    let deadline = Date().addingTimeInterval(60)
    while seen.isEmpty && child.poll() == nil && Date() < deadline {
      seen = staged()
      if seen.isEmpty { usleep(2_000) }
    }
    #expect(!seen.isEmpty, "backup - staged nothing in $TMPDIR")
    for (name, mode) in seen { #expect(mode & 0o077 == 0, "\(name): \(String(mode, radix: 8))") }
    // Stopped on the full pipe: the copy is there, whole, and so are the archive's files.
    usleep(300_000)
    for (name, _) in staged() {
      if let readable = try Self.nobodyCanRead(staging + "/" + name) { #expect(!readable, "\(name)") }
    }
    for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasPrefix("archive.sqlite") {
      #expect(Self.mode(folder + "/" + file).map { $0 & 0o077 == 0 } == true, "\(file)")
    }
    // Read the copy to its end: the backup then finishes as usual.
    _ = fcntl(reader, F_SETFL, 0)
    var copied: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      copied += buffer[0..<count]
    }
    let outcome = child.wait(timeout: 60)
    #expect(outcome.status == 0, "\(child.stderr)")
    #expect(copied.starts(with: Array("SQLite format 3\0".utf8)))
    #expect(staged().isEmpty)
  }

  /// `timelapse -o -` makes the video in a file in $TMPDIR (the encoder writes files), then
  /// sends it: the file is private from the moment it exists.
  @Test func timelapseToStandardOutputStagesAPrivateVideo() throws {
    let child = try ChildProcess(
      [
        "/bin/sh", "-c", "umask 022; exec \"$0\" --archive \"$1\" timelapse Sketch --format mp4 -o - > /dev/null",
        inklingArchiveBinary, runner.archive,
      ],
      environment: BinaryRunner.environment.merging(["TMPDIR": staging]) { $1 }, workingDirectory: folder)
    var seen: [String: mode_t] = [:]
    while child.poll() == nil {
      seen.merge(staged()) { old, new in old | new }
      usleep(1_000)
    }
    #expect(child.outcome?.status == 0, "\(child.stderr)")
    #expect(!seen.isEmpty, "timelapse -o - staged nothing in $TMPDIR")
    for (name, mode) in seen { #expect(mode & 0o077 == 0, "\(name): \(String(mode, radix: 8))") }
  }
}
