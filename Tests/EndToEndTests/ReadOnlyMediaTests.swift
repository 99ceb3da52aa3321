import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Whether the tests can make a folder this process cannot write: for root no permission
/// bit applies, so the binary then runs as `nobody` (setpriv(1)).
private let foldersCanBeReadOnly =
  getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

/// An archive on read-only media, or in a folder the user cannot write: every command that only
/// reads works, with nothing written beside the archive, and a command that writes says it is
/// the folder.
@Suite(.enabled(if: foldersCanBeReadOnly)) struct ReadOnlyMediaTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }
  var media: String { folder + "/media" }
  var archive: String { media + "/drafts.sqlite" }

  init() throws {
    runner = try BinaryRunner(fresh: "readonly", making: ["Drafts", "media", "out"])
    var corpus = TestCorpus(root: folder + "/Drafts", seed: 31)
    for name in ["Harbour", "Harbour", "Kite"] { try corpus.save(name) }
    let imported = try ChildProcess.run(
      [inklingArchiveBinary, "--archive", archive, "import", folder + "/Drafts"], environment: BinaryRunner.environment)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(chmod(folder, 0o755) == 0 && chmod(folder + "/out", 0o777) == 0)
    // The archive is made readable by its owner alone; the account the tests read it as is
    // given it, as a copy on read-only media would be.
    #expect(chmod(archive, 0o644) == 0)
  }

  /// Runs the binary on `path` with the media folder read-only, as someone who cannot write it.
  func read(_ arguments: [String], archive path: String? = nil) throws -> ChildProcess.Result {
    #expect(chmod(media, 0o555) == 0)
    defer { chmod(media, 0o755) }
    let asNobody = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
    return try ChildProcess.run(
      asNobody + [inklingArchiveBinary, "--archive", path ?? archive] + arguments,
      environment: BinaryRunner.environment, workingDirectory: folder + "/out")
  }

  @Test func readingCommandsWorkAndWriteNothingBesideTheArchive() throws {
    let before = try Data(contentsOf: URL(fileURLWithPath: archive))
    let list = try read(["list"])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("Harbour") && list.stdout.contains("Kite"))
    #expect(try read(["check", "--full"]).status == 0)
    #expect(try read(["history", "Harbour"]).stdout.contains("Harbour-"))
    #expect(try read(["search", "name:kite"]).stdout.contains("Kite"))
    #expect(try read(["show", "Harbour", "--version", "1"]).status == 0)

    let restored = try read(["restore", "Harbour", "--version", "1", "-o", "h.inkling"])
    #expect(restored.status == 0, "\(restored.stderr)")
    let original = try FileManager.default.contentsOfDirectory(atPath: folder + "/Drafts").sorted().first {
      $0.hasPrefix("Harbour-")
    }
    #expect(
      FileManager.default.contents(atPath: folder + "/out/h.inkling")
        == FileManager.default.contents(atPath: folder + "/Drafts/" + (original ?? "")))

    // TestCorpus's drawings are opaque bytes: the picture is the placeholder, said with exit 1.
    let thumbnail = try read(["thumbnail", "Kite", "-o", "k.png"])
    #expect(thumbnail.status == 1 && thumbnail.stderr.contains("placeholder"), "\(thumbnail.stderr)")
    let png = FileManager.default.contents(atPath: folder + "/out/k.png")
    #expect(png?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
    #expect(try read(["export", "--to", "exported"]).status == 0)

    #expect(try FileManager.default.contentsOfDirectory(atPath: media) == ["drafts.sqlite"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: archive)) == before)
  }

  @Test func aWriteSaysTheFolderCannotBeWritten() throws {
    let imported = try read(["import", folder + "/Drafts"])
    #expect(imported.status == 3)
    #expect(
      imported.stderr
        == "Error: the archive \(archive) cannot be written: its folder cannot be written, so SQLite cannot "
        + "create the -wal and -shm files beside it. Check the permissions of the file and its folder.\n")
  }

  /// A copy taken while a writer had the archive open carries a `-wal` of commits that SQLite
  /// reads only through an index it would create: refused, never read as the older archive.
  @Test func aWriteAheadLogThatNeedsItsIndexIsNamed() throws {
    let copy = media + "/copy.sqlite"
    let script = """
      import shutil, sqlite3, sys
      db = sqlite3.connect(sys.argv[1], isolation_level=None)
      db.execute('PRAGMA wal_autocheckpoint = 0')
      version = db.execute('PRAGMA user_version').fetchone()[0]
      db.execute('PRAGMA user_version = %d' % version)
      shutil.copy(sys.argv[1], sys.argv[2])
      shutil.copy(sys.argv[1] + '-wal', sys.argv[2] + '-wal')
      """
    let copied = try ChildProcess.run(["/usr/bin/python3", "-c", script, archive, copy])
    #expect(copied.status == 0, "\(copied.stderr)")
    let list = try read(["list"], archive: copy)
    #expect(list.status == 3)
    #expect(list.stderr.contains("cannot be read here: its folder cannot be written, and its write-ahead log"))
    #expect(list.stderr.contains("copy.sqlite-wal"))
  }
}
