// Finder and Files duplicates, and sync tools' copies, of one save: the version keeps the
// name the app wrote whenever one of its files has it, in history, restore and export,
// whichever file came first.

import Foundation
import InklingTestSupport
import Testing

@Suite struct DuplicateFileNameTests {
  static let own = "X-2025-01-01T00:01:00Z.inkling"
  static let copies = ["X-2025-01-01T00:01:00Z (1).inkling", "X-2025-01-01T00:01:00Z 2.inkling"]

  /// The file name `history --json` gives the one version of X.
  private func storedName(_ runner: BinaryRunner) throws -> String? {
    let history = try runner.run(["history", "X", "--json"])
    let object = try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any]
    let versions = object?["versions"] as? [[String: Any]] ?? []
    #expect(versions.count == 1, "\(history.stdout)")
    return versions.first?["fileName"] as? String
  }

  @Test func theAppsNameWinsWhenImportedTogether() throws {
    let runner = try BinaryRunner(fresh: "duplicates")
    var corpus = TestCorpus(root: runner.workingDirectory + "/Drafts", seed: 21)
    let saved = try corpus.save("X")
    let bytes = corpus.files[saved] ?? []
    // Every name of it in one folder: ` (1)` and ` 2` sort before `.inkling`.
    for name in Self.copies { try corpus.write(name, bytes) }
    let imported = try runner.run(["import", "Drafts"])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(try storedName(runner) == Self.own)

    let restored = try runner.run(["restore", "X", "--to", "out"])
    #expect(restored.status == 0, "\(restored.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: runner.workingDirectory + "/out") == [Self.own])
    let exported = try runner.run(["export", "--all-versions", "--to", "exported"])
    #expect(exported.status == 0, "\(exported.stderr)")
    let written = filesUnder(runner.workingDirectory + "/exported").filter { $0.hasSuffix(".inkling") }
    #expect(written.map { ($0 as NSString).lastPathComponent } == [Self.own], "\(written)")
  }

  @Test func theAppsNameArrivingLaterIsTaken() throws {
    let runner = try BinaryRunner(fresh: "duplicates-later")
    var corpus = TestCorpus(root: runner.workingDirectory + "/Copies", seed: 22)
    let saved = try corpus.save("X")
    let bytes = corpus.files[saved] ?? []
    try FileManager.default.removeItem(atPath: corpus.root + "/" + saved)
    for name in Self.copies { try corpus.write(name, bytes) }
    #expect(try runner.run(["import", "Copies"]).status == 0)
    #expect(try storedName(runner) == Self.copies[0])

    var originals = TestCorpus(root: runner.workingDirectory + "/Drafts", seed: 22)
    try originals.write(Self.own, bytes)
    let again = try runner.run(["import", "Drafts"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("1 already archived"), "\(again.stdout)")
    #expect(try storedName(runner) == Self.own)

    // A copy imported after it does not take the name back.
    #expect(try runner.run(["import", "Copies"]).status == 0)
    #expect(try storedName(runner) == Self.own)
    let restored = try runner.run(["restore", "X", "-o", "-"])
    #expect(Array(restored.stdout.utf8) == bytes)
  }
}
