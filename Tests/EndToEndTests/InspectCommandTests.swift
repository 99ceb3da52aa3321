import Foundation
import InklingTestSupport
import Testing

/// show, diff, search, stats and gc through the real binary.
@Suite struct InspectCommandTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "inspect", making: ["Drafts"])
    let corpus = try runner.run(
      ["--drafts", "6", "--versions", "3-3", "--seed", "11", folder + "/Drafts"], binary: "inkling-corpus")
    #expect(corpus.status == 0)
    let imported = try runner.run(["import", "--quiet", folder + "/Drafts"])
    #expect(imported.status == 0)
  }

  func firstDraft() throws -> String {
    let list = try runner.run(["list", "--paths", "--sort", "name"])
    return try #require(list.stdout.split(separator: "\n").first.map(String.init))
  }

  @Test func showAndDiffDescribeTheDrawings() throws {
    let draft = try firstDraft()
    let show = try runner.run(["show", draft, "--version", "2", "--strokes", "--json"])
    #expect(show.status == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
    let drawing = try #require(object["drawing"] as? [String: Any])
    #expect(drawing["status"] as? String == "decoded")
    let strokes = try #require(drawing["strokeList"] as? [[String: Any]])
    #expect(strokes.count == drawing["strokes"] as? Int)
    #expect((drawing["visibleStrokes"] as? Int ?? 0) > 0)

    // Saves add strokes (some only erase or change the colour): across the drafts, some do.
    var added = 0
    for name in try runner.run(["list", "--paths"]).stdout.split(separator: "\n") {
      let diff = try runner.run(["diff", String(name), "1", "3", "--json"])
      #expect(diff.status == 0)
      let changes = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
      added += try #require(changes["added"] as? [Any]).count
    }
    #expect(added > 0)

    // A word names a version by its label (`label`); 0 names none, a usage error.
    let unlabelled = try runner.run(["diff", draft, "one", "3"])
    #expect(unlabelled.status == 1 && unlabelled.stderr.contains("is labelled \"one\"; it has no labels"))
    let badDiff = try runner.run(["diff", draft, "0", "3"])
    #expect(badDiff.status == 2)
  }

  @Test func searchReportsSyntaxErrorsWithACaret() throws {
    let result = try runner.run(["search", "name:a and (saved:>="])
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("Error: "))
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    let query = try #require(lines.firstIndex { $0.contains("name:a and (saved:>=") })
    #expect(lines[query + 1].trimmingCharacters(in: .whitespaces) == "^")
  }

  @Test func searchAndListAgree() throws {
    let draft = try firstDraft()
    let viaList = try runner.run(["list", "--exact", draft, "--paths"])
    let viaSearch = try runner.run(["search", "name:=\"\(draft)\"", "--paths"])
    #expect(viaList.stdout == draft + "\n")
    #expect(viaSearch.stdout == viaList.stdout)
    let all = try runner.run(["search", "versions:>=3", "--ndjson"])
    #expect(all.stdout.split(separator: "\n").count == 6)
  }

  /// The size a backup reports is the file's, not 0 (FoundationEssentials gives file sizes
  /// as another type than Foundation did).
  @Test func backupReportsTheSizeOfTheCopy() throws {
    let backup = try runner.run(["--json", "backup", folder + "/copy.sqlite"])
    #expect(backup.status == 0, "\(backup.stderr)")
    let size = try #require(try FileManager.default.attributesOfItem(atPath: folder + "/copy.sqlite")[.size] as? Int)
    #expect(size > 0)
    #expect(backup.stdout.contains("\"bytes\":\(size),"), "\(backup.stdout)")
  }

  @Test func statsAndGC() throws {
    let stats = try runner.run(["stats", "--json"])
    #expect(stats.status == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
    #expect(object["drafts"] as? Int == 6)
    #expect(object["versions"] as? Int == 18)
    let gc = try runner.run(["gc", "--repack", "--json"])
    #expect(gc.status == 0)
    let check = try runner.run(["check", "--full"])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
  }

  /// Problems only in the drawing index point to `reindex --all`, not to a backup: the
  /// drawings are whole, and the index is built again from them.
  @Test func checkPointsDrawingIndexProblemsToReindex() throws {
    _ = try sqlite3(runner.archive, "UPDATE draft SET latest_strokes = 999 WHERE id = (SELECT min(id) FROM draft)")
    let check = try runner.run(["check"])
    #expect(check.status != 0)
    #expect(
      check.stdout.hasSuffix(
        "Found 1 problem, all in the drawing index, which `inkling-archive reindex --all` builds again from the "
          + "drawings; the drawings themselves are not affected.\n"), "\(check.stdout)")
    #expect(try runner.run(["check", "--json"]).stdout.contains(#""problemCount":1,"drawingIndexProblemCount":1"#))
    #expect(try runner.run(["reindex", "--all"]).status == 0)
    #expect(try runner.run(["check"]).status == 0)
    // Anything else still says to restore a backup.
    _ = try sqlite3(runner.archive, "UPDATE draft SET version_count = 99 WHERE id = (SELECT min(id) FROM draft)")
    #expect(try runner.run(["check"]).stdout.contains("Restore the archive from a backup"))
  }
}
