import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What `-o FILE` and `backup DEST` do to what is already there: a FIFO or a device is written
/// into and stays what it was, a symbolic link is followed and stays a link, and --force
/// replaces regular files only. The tests run as root, where replacing /dev/null would succeed:
/// it is checked to be the same character device afterwards.
@Suite(.serialized) struct SpecialFileOutputTests {
  let runner: BinaryRunner
  let original: [UInt8]
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "special", making: ["Drafts"])
    let file = runner.workingDirectory + "/Drafts/Cat-2025-10-05T14:03:12Z.inkling"
    try Data(OutputPathTests.draft(red: 1).utf8).write(to: URL(fileURLWithPath: file))
    original = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
    let imported = try runner.run(["import", runner.workingDirectory + "/Drafts"])
    #expect(imported.status == 0, "\(imported.stderr)")
  }

  /// Every command that takes `-o FILE`, with the arguments it needs.
  static let writers: [[String]] = [
    ["restore", "Cat"], ["thumbnail", "Cat"], ["render", "Cat", "--scale", "1"], ["contact-sheet"],
  ]

  static func info(_ path: String, following: Bool = false) -> stat? {
    var info = stat()
    return (following ? stat(path, &info) : lstat(path, &info)) == 0 ? info : nil
  }

  static func isCharacterDevice(_ path: String) -> Bool {
    guard let info = info(path) else { return false }
    return (info.st_mode & S_IFMT) == S_IFCHR
  }

  @Test func devNullIsWrittenIntoAndStaysADevice() throws {
    let before = try #require(Self.info("/dev/null"))
    for command in Self.writers {
      for force in [[String](), ["--force"]] {
        let result = try runner.run(command + ["-o", "/dev/null"] + force)
        #expect(result.status == 0, "\(command) \(force): \(result.stderr)")
        let after = try #require(Self.info("/dev/null"))
        #expect((after.st_mode & S_IFMT) == S_IFCHR, "\(command) \(force) replaced /dev/null")
        #expect(after.st_rdev == before.st_rdev && after.st_ino == before.st_ino, "\(command) \(force)")
      }
    }
    let backup = try runner.run(["backup", "/dev/null", "--force"])
    #expect(backup.status == 0, "\(backup.stderr)")
    #expect(Self.isCharacterDevice("/dev/null"))
    #expect(try #require(Self.info("/dev/null")).st_rdev == before.st_rdev)
    #expect(try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.hasPrefix(".null") } == [])
  }

  @Test func aFIFOGetsTheBytesAndStaysAFIFO() throws {
    let fifo = folder + "/pipe"
    #expect(mkfifo(fifo, 0o600) == 0)
    for (command, force) in [(["restore", "Cat"], false), (["restore", "Cat"], true), (["thumbnail", "Cat"], true)] {
      let (result, bytes) = try readingFIFO(fifo) {
        try runner.run(command + ["-o", fifo] + (force ? ["--force"] : []))
      }
      #expect(result.status == 0, "\(command): \(result.stderr)")
      if command[0] == "restore" {
        #expect(bytes == original, "\(command) force \(force)")
      } else {
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(command)")
      }
      #expect(Self.info(fifo).map { ($0.st_mode & S_IFMT) == S_IFIFO } == true, "\(command) replaced the FIFO")
    }
    let (backup, copy) = try readingFIFO(fifo) { try runner.run(["backup", fifo]) }
    #expect(backup.status == 0, "\(backup.stderr)")
    #expect(copy.starts(with: Array("SQLite format 3\0".utf8)))
    try Data(copy).write(to: URL(fileURLWithPath: folder + "/poured.sqlite"))
    #expect(try sqlite3(folder + "/poured.sqlite", "SELECT count(*) FROM draft") == "1")
    #expect(Self.info(fifo).map { ($0.st_mode & S_IFMT) == S_IFIFO } == true)
  }

  @Test func aLinkToAFileIsFollowedAndStaysALink() throws {
    let target = folder + "/real.inkling"
    try Data("mine".utf8).write(to: URL(fileURLWithPath: target))
    let link = folder + "/link.inkling"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.inkling")

    let refused = try runner.run(["restore", "Cat", "-o", link])
    #expect(refused.status == 1)
    #expect(refused.stderr == "Error: \(link) already exists; use --force to replace it\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("mine".utf8))

    let forced = try runner.run(["restore", "Cat", "-o", link, "--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.inkling")
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: target))) == original)
    #expect(filesUnder(folder).filter { $0.hasSuffix(".tmp") } == [])

    // A link to nothing yet: the file is made where it points.
    let dangling = folder + "/dangling.png"
    try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: folder + "/made.png")
    let made = try runner.run(["thumbnail", "Cat", "-o", dangling])
    #expect(made.status == 0, "\(made.stderr)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling) == folder + "/made.png")
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/made.png"))).starts(with: [0x89, 0x50]))

    // backup follows a link too, and replaces only with --force.
    let backupLink = folder + "/copy.sqlite"
    try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/old.sqlite"))
    try FileManager.default.createSymbolicLink(atPath: backupLink, withDestinationPath: "old.sqlite")
    #expect(try runner.run(["backup", backupLink]).status == 1)
    let backedUp = try runner.run(["backup", backupLink, "--force"])
    #expect(backedUp.status == 0, "\(backedUp.stderr)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: backupLink) == "old.sqlite")
    #expect(try sqlite3(folder + "/old.sqlite", "SELECT count(*) FROM draft") == "1")
  }

  @Test func aLinkToDevNullIsFollowedAndBothStay() throws {
    let link = folder + "/null"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
    for command in Self.writers {
      let result = try runner.run(command + ["-o", link, "--force"])
      #expect(result.status == 0, "\(command): \(result.stderr)")
      #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/null", "\(command)")
      #expect(Self.isCharacterDevice("/dev/null"), "\(command) replaced /dev/null")
    }
  }

  /// Runs the tool with its standard output a pipe (`… | cat`), as a shell pipeline does.
  func throughAPipe(_ arguments: [String]) throws -> ChildProcess.Result {
    try ChildProcess.run(
      ["/bin/bash", "-c", "set -o pipefail; \"$@\" | cat", "bash", inklingArchiveBinary, "--archive", runner.archive]
        + arguments, environment: BinaryRunner.environment, workingDirectory: folder)
  }

  /// A path that names standard output gets the data and nothing else, as `-` does: what was
  /// written is said on standard error. `backup -` writes a checked copy there.
  @Test func standardOutputByAnyNameHoldsOnlyTheData() throws {
    let restored = try throughAPipe(["restore", "Cat", "-o", "/dev/stdout"])
    #expect(restored.status == 0, "\(restored.stderr)")
    #expect(restored.stdoutBytes == original)
    #expect(restored.stderr.hasPrefix("/dev/stdout  (version 1, saved "), "\(restored.stderr)")

    let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
    for command in [["thumbnail", "Cat"], ["contact-sheet"]] {
      let result = try throughAPipe(command + ["-o", "/dev/stdout"])
      #expect(result.status == 0, "\(command): \(result.stderr)")
      #expect(result.stdoutBytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(command)")
      #expect(Array(result.stdoutBytes.suffix(12)) == iend, "\(command): the PNG ends the output")
      #expect(result.stderr.hasPrefix("/dev/stdout  ("), "\(command): \(result.stderr)")
    }

    for destination in ["-", "/dev/stdout"] {
      let backup = try throughAPipe(["backup", destination])
      #expect(backup.status == 0, "\(destination): \(backup.stderr)")
      #expect(backup.stdoutBytes.starts(with: Array("SQLite format 3\0".utf8)), "\(destination)")
      #expect(backup.stderr.hasPrefix("Backed up 1 version of 1 draft to "), "\(destination): \(backup.stderr)")
      let copy = folder + "/from-stdout.sqlite"
      try Data(backup.stdoutBytes).write(to: URL(fileURLWithPath: copy))
      #expect(try sqlite3(copy, "SELECT count(*) FROM draft") == "1", "\(destination)")
      #expect(try runner.run(["--archive", copy, "check", "--full"]).status == 0, "\(destination)")
      try FileManager.default.removeItem(atPath: copy)
    }
    // `-` needs no pipe: a file the shell opened for standard output gets the copy too.
    #expect(try runner.run(["backup", "-"]).stderr.contains("to standard output ("))
    let json = try runner.run(["--json", "backup", "-"])
    #expect(json.stdoutBytes.starts(with: Array("SQLite format 3\0".utf8)))
    #expect(json.stderr.hasPrefix("{"), "\(json.stderr)")
    #expect(filesUnder(folder).filter { $0.hasSuffix(".tmp") } == [])
  }

  /// In a folder given with `--to` (or `--frames`) the program chooses the names, from the
  /// archive: a link planted there under such a name is never written through, with or
  /// without --force, and the file it points to is neither made nor changed.
  @Test func namesChosenInAFolderAreNeverWrittenThroughALink() throws {
    let into = folder + "/into"
    let outside = folder + "/outside"
    for path in [into, outside] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    let victim = outside + "/victim"
    try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
    let name = into + "/Cat-2025-10-05T14:03:12Z.inkling"
    try FileManager.default.createSymbolicLink(atPath: name, withDestinationPath: "../outside/victim")
    let frame = into + "/frames/00001.png"
    try FileManager.default.createDirectory(atPath: into + "/frames", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: frame, withDestinationPath: "../../outside/planted.png")

    for command in [["restore", "Cat", "--to", into], ["restore", "Cat", "--all-versions", "--to", into]] {
      for force in [[String](), ["--force"]] {
        let result = try runner.run(command + force)
        #expect(result.status == 1, "\(command) \(force): \(result.stdout)")
        #expect(
          result.stderr == "Error: \(name) is a symbolic link, a folder or a device, and is left as it is; "
            + "remove it, or write into another folder\n", "\(command) \(force)")
      }
    }
    let frames = try runner.run([
      "timelapse", "Cat", "--frames", into + "/frames", "--duration", "3", "--fps", "5", "--force",
    ])
    #expect(frames.status == 1, "\(frames.stdout)")
    #expect(frames.stderr.contains("\(frame) is a symbolic link"), "\(frames.stderr)")

    #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == Data("precious".utf8))
    #expect(Self.info(outside + "/planted.png") == nil)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: name) == "../outside/victim")
    #expect(filesUnder(folder).filter { $0.hasSuffix(".tmp") } == [])

    // A regular file there is replaced with --force, as before.
    try FileManager.default.removeItem(atPath: name)
    try Data("old".utf8).write(to: URL(fileURLWithPath: name))
    let forced = try runner.run(["restore", "Cat", "--to", into, "--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: name))) == original)
  }

  /// Runs `body` while a thread reads `fifo` to its end; returns what it read.
  func readingFIFO(_ fifo: String, _ body: () throws -> ChildProcess.Result) throws -> (
    ChildProcess.Result, [UInt8]
  ) {
    let box = ReadBox()
    let done = DispatchSemaphore(value: 0)
    let reader = Thread {
      let descriptor = open(fifo, O_RDONLY)
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while descriptor >= 0 {
        let count = read(descriptor, &buffer, buffer.count)
        if count <= 0 { break }
        box.bytes += buffer.prefix(count)
      }
      if descriptor >= 0 { close(descriptor) }
      done.signal()
    }
    reader.start()
    let result = try body()
    // A command that failed before opening the FIFO leaves the reader waiting in open():
    // a writer that comes and goes lets it see the end.
    while done.wait(timeout: .now() + 0.2) == .timedOut {
      let unblock = open(fifo, O_WRONLY | O_NONBLOCK)
      if unblock >= 0 { close(unblock) }
    }
    return (result, box.bytes)
  }
}

/// The bytes a reader thread collected, read after it signalled.
private final class ReadBox: @unchecked Sendable {
  var bytes: [UInt8] = []
}
