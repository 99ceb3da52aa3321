// A file the archive knows by its path, size and modification time is not read again: a
// re-import that finds nothing new costs a stat per file. `import --verify` reads every file.
//
// The proof that a file is not read: its bytes are replaced by same-sized bytes that are no
// draft, with its modification time put back. A read would reject it; the import that trusts
// the stat counts it archived, and only `--verify` (or a new modification time) finds it.

import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct KnownFileTests {
  /// The file's modification time, to the nanosecond.
  private func modificationTime(_ path: String) throws -> timespec {
    var info = stat()
    #expect(stat(path, &info) == 0, "stat \(path)")
    return info.st_mtim
  }

  /// Sets the file's modification time (and access time) to `time`.
  private func setModificationTime(_ path: String, _ time: timespec) {
    var times = [time, time]
    #expect(utimensat(AT_FDCWD, path, &times, 0) == 0, "utimensat \(path)")
  }

  /// Replaces the file's bytes with as many bytes that are not a draft.
  private func spoil(_ path: String) throws {
    let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    try Data(repeating: 0x78, count: size).write(to: URL(fileURLWithPath: path))
  }

  @Test func aFileWithTheStatRecordedIsKnownUnreadAndVerifyReadsIt() throws {
    let runner = try BinaryRunner(fresh: "known")
    var corpus = TestCorpus(root: runner.workingDirectory + "/Drafts", seed: 50)
    for _ in 0..<3 { try corpus.save("Cat") }
    let dog = try corpus.save("Dog")
    let first = try runner.run(["import", "Drafts"])
    #expect(first.status == 0 && first.stdout.contains("Imported 4 versions (2 new drafts)"), "\(first.stdout)")

    // Dog's file spoiled behind the archive's back, its size and modification time kept.
    let path = corpus.root + "/" + dog
    let recorded = try modificationTime(path)
    try spoil(path)
    setModificationTime(path, recorded)

    let again = try runner.run(["import", "Drafts"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(
      again.stdout.contains("0 versions (0 new drafts); 4 already archived, 0 ignored, 0 rejected"), "\(again.stdout)")
    #expect(again.stderr.isEmpty, "\(again.stderr)")

    // --verify reads and hashes every file: the spoiled one is refused, the others known.
    let verified = try runner.run(["import", "--verify", "Drafts"])
    #expect(verified.status == 1, "\(verified.stdout)")
    #expect(verified.stdout.contains("3 already archived, 0 ignored, 1 rejected"), "\(verified.stdout)")
    #expect(verified.stderr.contains(dog), "\(verified.stderr)")

    // A new modification time: the file is read as any changed file is.
    setModificationTime(path, timespec(tv_sec: recorded.tv_sec + 60, tv_nsec: recorded.tv_nsec))
    let changed = try runner.run(["import", "Drafts"])
    #expect(changed.status == 1, "\(changed.stdout)")
    #expect(changed.stdout.contains("3 already archived, 0 ignored, 1 rejected"), "\(changed.stdout)")
    #expect(changed.stderr.contains(dog), "\(changed.stderr)")

    // The archive is whole: the version is the file as it was imported.
    #expect(try runner.run(["check", "--full"]).status == 0)
    let restored = try runner.run(["restore", "Dog", "-o", "-"])
    #expect(restored.status == 0 && Array(restored.stdout.utf8) == corpus.files[dog], "\(restored.stderr)")
  }

  /// A file rewritten at a path the archive knows is read and stored as a new version; a file
  /// with a known file's stat at another path is read.
  @Test func aChangedOrMovedFileIsRead() throws {
    let runner = try BinaryRunner(fresh: "known-changed")
    var corpus = TestCorpus(root: runner.workingDirectory + "/Drafts", seed: 51)
    let cat = try corpus.save("Cat")
    #expect(try runner.run(["import", "Drafts"]).status == 0)

    // The same name written again with other bytes (the app saving over a file it keeps).
    var other = TestCorpus(root: corpus.root, seed: 52)
    #expect(try other.save("Cat") == cat)
    let rewritten = try runner.run(["import", "Drafts"])
    #expect(rewritten.stdout.contains("Imported 1 version (0 new drafts); 0 already archived"), "\(rewritten.stdout)")

    // The same bytes and modification time at a path the archive has no version from: read
    // (spoiled, it is refused), however alike its stat.
    let elsewhere = runner.workingDirectory + "/Elsewhere"
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
    let moved = elsewhere + "/" + cat
    try FileManager.default.copyItem(atPath: corpus.root + "/" + cat, toPath: moved)
    try spoil(moved)
    setModificationTime(moved, try modificationTime(corpus.root + "/" + cat))
    let found = try runner.run(["import", "Elsewhere"])
    #expect(found.status == 1 && found.stdout.contains("0 already archived, 0 ignored, 1 rejected"), "\(found.stdout)")
  }
}
