import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

/// Archives someone else made, altered as an attacker would alter their rows, through the
/// real binary: a stored number no import could record traps no command, and a merge of such
/// an archive leaves the version out (or stops there) with a sentence, never a trap.
@Suite struct HostileArchiveTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "hostile-archive")
  }

  /// An archive at `name.sqlite` of two drafts of three saves each, imported by the binary,
  /// and the name of its first draft.
  func archive(_ name: String) throws -> (path: String, draft: String) {
    let files = folder + "/" + name + "-files"
    try writeCorpus(CorpusSpec(drafts: 2, versionsPerDraft: 3...3, seed: 5), to: URL(fileURLWithPath: files))
    let path = folder + "/" + name + ".sqlite"
    let imported = try BinaryRunner(in: runner.temporary, archive: path).run(["import", files])
    #expect(imported.status == 0, "\(imported.stderr)")
    return (path, try sqlite3(path, "SELECT name FROM draft ORDER BY name LIMIT 1"))
  }

  static let newestOfFirst = "(SELECT latest_version_id FROM draft ORDER BY name LIMIT 1)"
  static let newestOfLast = "(SELECT latest_version_id FROM draft ORDER BY name DESC LIMIT 1)"

  @Test func aSaveTimeOfInt64MaxTrapsNoCommand() throws {
    let (path, draft) = try archive("archive")
    _ = try sqlite3(
      path,
      """
      UPDATE draft SET latest_saved_ms = 9223372036854775807 WHERE latest_version_id = \(Self.newestOfFirst);
      UPDATE version SET saved_ms = 9223372036854775807 WHERE id = \(Self.newestOfFirst)
      """)
    #expect(try sqlite3(path, "SELECT count(*) FROM version WHERE saved_ms = 9223372036854775807") == "1")
    let commands = [
      ["list"], ["--json", "list"], ["history", draft], ["--json", "history", draft], ["show", draft],
      ["thumbnail", draft, "-o", "t.png"], ["render", draft, "-o", "r.png"], ["export", "--png", "--to", "out"],
      ["search", draft],
    ]
    for command in commands {
      let result = try runner.run(command)
      #expect(result.status == 0, "\(command): \(result.status) \(result.stderr)")
    }
  }

  @Test func aMergedSaveTimeOrFileSizeOfInt64MaxIsLeftOutNotATrap() throws {
    let other = try archive("other").path
    _ = try sqlite3(
      other,
      """
      UPDATE version SET saved_ms = 9223372036854775807 WHERE id = \(Self.newestOfFirst);
      UPDATE version SET file_size = 9223372036854775807 WHERE id = \(Self.newestOfLast)
      """)
    let stopped = try runner.run(["import", "other.sqlite"])
    #expect(stopped.status == 3, "\(stopped.status) \(stopped.stderr)")
    #expect(stopped.stderr.contains("is outside"), "\(stopped.stderr)")

    let salvaged = try runner.run(["import", "--salvage", "other.sqlite"])
    #expect(salvaged.status == 1, "\(salvaged.status) \(salvaged.stderr)")
    #expect(salvaged.stderr.contains("its save time 9223372036854775807 ms is outside"), "\(salvaged.stderr)")
    #expect(salvaged.stderr.contains("its file size 9223372036854775807 bytes is outside"), "\(salvaged.stderr)")
    #expect(try sqlite3(runner.archive, "SELECT count(*) FROM version") == "4")
    #expect(try runner.run(["check", "--full"]).status == 0)
  }

  /// A SQLite file named like a draft is imported as a draft (and refused as a bad one),
  /// never merged as an archive.
  @Test func aSQLiteFileNamedAsADraftIsRefusedAsADraft() throws {
    let other = try archive("other").path
    let disguised = "Sunset-2025-06-01T18:00:00Z.inkling"
    try FileManager.default.copyItem(atPath: other, toPath: folder + "/" + disguised)
    let result = try runner.run(["import", disguised])
    #expect(result.status == 1, "\(result.status) \(result.stdout) \(result.stderr)")
    #expect(!result.stdout.contains("Merged"), "\(result.stdout)")
    #expect(result.stderr.contains(disguised), "\(result.stderr)")
    #expect(try sqlite3(runner.archive, "SELECT count(*) FROM version") == "0")
  }
}
