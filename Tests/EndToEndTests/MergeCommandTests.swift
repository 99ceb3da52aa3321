import Foundation
import InklingTestSupport
import Testing

/// `import OTHER.sqlite` and sources through the real binary: what it prints, its exit
/// statuses and sentences.
@Suite struct MergeCommandTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "merge")
  }

  func other(_ name: String, source: String? = nil, seed: UInt64 = 1) throws -> (path: String, files: Int) {
    var corpus = TestCorpus(root: folder + "/" + name + "-files", seed: seed)
    for draft in ["Cat", "Dog"] {
      for _ in 0..<3 { try corpus.save(draft) }
    }
    let path = folder + "/" + name + ".sqlite"
    let imported = try BinaryRunner(in: runner.temporary, archive: path).run(
      ["import"] + (source.map { ["--source", $0] } ?? []) + [corpus.root])
    #expect(imported.status == 0, "\(imported.stderr)")
    return (path, corpus.files.count)
  }

  @Test func mergesAnArchiveOnceAndShowsItsSources() throws {
    let anna = try other("anna", source: "Anna's iPad")
    let merged = try runner.run(["import", "anna.sqlite"])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stdout.hasPrefix("Merged anna.sqlite: 6 versions (2 new drafts); 0 already archived, 0 left out."))
    let again = try runner.run(["--json", "import", "anna.sqlite"])
    #expect(again.status == 0)
    #expect(again.stdout.contains(#""merged":[{"archive":"anna.sqlite","versionsImported":0,"#), "\(again.stdout)")
    #expect(again.stdout.contains(#""alreadyArchived":6"#))
    #expect(anna.files == 6)

    let history = try runner.run(["history", "Cat"])
    #expect(history.stdout.split(separator: "\n")[0].hasSuffix("SOURCE"), "\(history.stdout)")
    #expect(history.stdout.contains("Anna's iPad"))
    let show = try runner.run(["show", "Cat"])
    #expect(show.stdout.contains("Source:      Anna's iPad (\(folder)/anna-files/Cat-2025-01-01T00:03:00Z.inkling"))
    let found = try runner.run(["search", "--paths", "source:anna"])
    // Both drafts were last saved at the same time, so their order is the merge's.
    #expect(found.stdout.split(separator: "\n").sorted() == ["Cat", "Dog"], "\(found.stdout)\(found.stderr)")
    #expect(try runner.run(["list", "--paths", "--source", "ben"]).stdout == "")
  }

  /// The other archive's trash is not merged, and the summary says what stayed there.
  @Test func whatStaysInTheOtherArchivesTrashIsSaid() throws {
    _ = try other("anna")
    let anna = BinaryRunner(in: runner.temporary, archive: folder + "/anna.sqlite")
    #expect(try anna.run(["delete", "Dog"]).status == 0)
    let merged = try runner.run(["import", "anna.sqlite"])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(
      merged.stdout.contains(
        "Not merged: 3 versions of 1 draft in its trash (`undelete` them there to merge them)."), "\(merged.stdout)")
    let json = try runner.run(["--json", "import", "anna.sqlite"])
    #expect(json.stdout.contains(#""draftsInTrashNotMerged":1,"versionsInTrashNotMerged":3"#), "\(json.stdout)")
    #expect(try runner.run(["list", "--paths"]).stdout == "Cat\n")
  }

  /// A draft renamed after its files were imported: a file that still carries the old name,
  /// imported again from another source, is the renamed draft's version with both sources.
  @Test func aRenamedDraftsFileImportedFromAnotherSourceShowsBothSources() throws {
    var corpus = TestCorpus(root: folder + "/Drafts", seed: 3)
    let file = try corpus.save("Plan-B")
    #expect(try runner.run(["import", "--source", "Anna's iPad", "Drafts"]).status == 0)
    #expect(try runner.run(["rename", "Plan-B", "Plan C"]).status == 0)

    let again = try runner.run(["import", "--source", "Other iPad", "Drafts/" + file])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("1 already archived"), "\(again.stdout)")
    #expect(try runner.run(["list", "--paths"]).stdout == "Plan C\n")
    let history = try runner.run(["history", "Plan C"])
    #expect(history.stdout.contains("Anna's iPad +1"), "\(history.stdout)")
    let show = try runner.run(["show", "Plan C"])
    let sources = show.stdout.split(separator: "\n").filter { $0.contains(", import run ") }
    #expect(sources.count == 2, "\(show.stdout)")
    #expect(sources.first?.hasPrefix("Source:      Anna's iPad (\(folder)/Drafts/\(file), import run 1 of ") == true)
    #expect(sources.last?.hasPrefix("             Other iPad (\(folder)/Drafts/\(file), import run 2 of ") == true)
  }

  @Test func refusesWhatItCannotMergeWithExitThree() throws {
    let plain = folder + "/plain.sqlite"
    #expect(try sqlite3(plain, "CREATE TABLE t(x); SELECT 1") == "1")
    let notOurs = try runner.run(["import", "plain.sqlite"])
    #expect(notOurs.status == 3)
    #expect(
      notOurs.stderr
        == "Error: plain.sqlite is not an inkling archive (it is a SQLite file with application_id 0 and 1 table of "
        + "its own); nothing was merged.\n")

    let newer = try other("newer")
    #expect(try sqlite3(newer.path, "PRAGMA user_version = 99; PRAGMA user_version") == "99")
    let refused = try runner.run(["import", "newer.sqlite"])
    #expect(refused.status == 3)
    #expect(refused.stderr.hasPrefix("Error: newer.sqlite was written by a newer inkling-archive (schema 99;"))
    #expect(refused.stderr.hasSuffix("upgrade inkling-archive to merge it.\n"))
  }

  @Test func aDamagedArchiveIsMergedAsFarAsItVerifiesWithSalvage() throws {
    let damaged = try other("damaged")
    // The first save of Dog: the base of its later saves' deltas.
    #expect(
      try sqlite3(
        damaged.path,
        """
        UPDATE blob SET data = zeroblob(length(data)) WHERE id = (SELECT v.blob_id FROM version v JOIN draft d
          ON d.id = v.draft_id WHERE d.name = 'Dog' ORDER BY v.saved_ms LIMIT 1); SELECT changes()
        """) == "1")
    let stopped = try runner.run(["import", "damaged.sqlite"])
    #expect(stopped.status == 3)
    #expect(stopped.stderr.hasPrefix(#"Error: damaged.sqlite is damaged: damaged.sqlite: "Dog" version 1"#))
    #expect(stopped.stderr.hasSuffix("`import --salvage` merges every version that verifies and names the rest.\n"))

    let salvaged = try runner.run(["import", "--salvage", "damaged.sqlite"])
    #expect(salvaged.status == 1)
    let leftOut = salvaged.stderr.split(separator: "\n").filter { $0.contains(": left out: ") }
    #expect(leftOut.count >= 1, "\(salvaged.stderr)")
    #expect(leftOut.allSatisfy { $0.hasPrefix(#"damaged.sqlite: "Dog" version"#) }, "\(salvaged.stderr)")
    #expect(salvaged.stdout.contains("\(leftOut.count) left out."), "\(salvaged.stdout)")
    #expect(try runner.run(["check", "--full"]).status == 0)
    #expect(try runner.run(["history", "Cat"]).stdout.split(separator: "\n").count == 4)
  }

  @Test func sourceMustNotBeEmpty() throws {
    let result = try runner.run(["import", "--source", " ", folder])
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("Error: --source needs a label that is not empty"))
  }
}
