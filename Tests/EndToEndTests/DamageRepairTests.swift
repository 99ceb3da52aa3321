// Damage that heals from the originals: `check --full` names the damaged versions and the
// files that repair them, an import of those files repairs them (verified before commit),
// and merging a damaged archive leaves out only what cannot be rebuilt.

import Foundation
import InklingTestSupport
import Testing

@Suite struct DamageRepairTests {
  /// Zeroes the data of the blob of `draft`'s version `number` (1 the oldest).
  private func damage(_ archive: String, _ draft: String, version number: Int) throws {
    let changed = try sqlite3(
      archive,
      """
      UPDATE blob SET data = zeroblob(length(data)) WHERE id = (SELECT v.blob_id FROM version v JOIN draft d
        ON d.id = v.draft_id WHERE d.name = '\(draft)' ORDER BY v.saved_ms LIMIT 1 OFFSET \(number - 1));
      SELECT changes()
      """)
    #expect(changed == "1")
  }

  @Test func importingTheOriginalsRepairsWhatCheckFoundDamaged() throws {
    let runner = try BinaryRunner(fresh: "repair")
    var corpus = TestCorpus(root: runner.workingDirectory + "/Drafts", seed: 41)
    for _ in 0..<4 { try corpus.save("Cat") }
    for _ in 0..<3 { try corpus.save("Dog") }
    #expect(try runner.run(["import", "Drafts"]).status == 0)
    // Cat's second save: its first is stored as a delta over it, so both are damaged.
    try damage(runner.archive, "Cat", version: 2)

    let check = try runner.run(["check", "--full"])
    #expect(check.status == 3)
    for number in 1...2 {
      let line = check.stdout.split(separator: "\n").first {
        $0.hasPrefix("draft 'Cat' version \(number) is repaired by importing again: ")
      }
      #expect(
        line?.hasSuffix("/Drafts/Cat-2025-01-01T00:0\(number):00Z.inkling") == true, "\(number): \(check.stdout)")
    }
    #expect(
      check.stdout.hasSuffix(
        "Importing the files named above again (`inkling-archive import FILE…`) repairs every damaged version.\n"),
      "\(check.stdout)")

    let repaired = try runner.run(["import", "Drafts"])
    #expect(repaired.status == 0, "\(repaired.stderr)")
    #expect(repaired.stdout.contains("0 versions (0 new drafts); 7 already archived"), "\(repaired.stdout)")
    #expect(
      repaired.stdout.contains(
        "Repaired 2 damaged versions from their files: each rebuilds its file byte for byte again."),
      "\(repaired.stdout)")
    #expect(try runner.run(["check", "--full"]).status == 0)
    for (name, bytes) in corpus.versions(of: "Cat") {
      let number = Int(String(name.dropFirst("Cat-2025-01-01T00:0".count).prefix(1))) ?? 0
      let restored = try runner.run(["restore", "Cat", "--version", "\(number)", "-o", "-"])
      #expect(restored.status == 0 && Array(restored.stdout.utf8) == bytes, "\(name)")
    }
    // Healthy again: importing once more repairs nothing and says nothing of it.
    let again = try runner.run(["--json", "import", "Drafts"])
    #expect(again.stdout.contains(#""alreadyArchived":7,"repaired":0,"notRepaired":0"#), "\(again.stdout)")
  }

  @Test func aFileRepairsOnlyItsOwnVersion() throws {
    let runner = try BinaryRunner(fresh: "repair-other")
    var corpus = TestCorpus(root: runner.workingDirectory + "/Drafts", seed: 42)
    for _ in 0..<3 { try corpus.save("Cat") }
    #expect(try runner.run(["import", "Drafts"]).status == 0)
    try damage(runner.archive, "Cat", version: 3)  // the whole drawing every other is a delta of
    #expect(try runner.run(["check", "--full"]).status == 3)
    // Only the newest save's file holds the damaged drawing.
    try FileManager.default.removeItem(atPath: corpus.root + "/Cat-2025-01-01T00:03:00Z.inkling")
    let partial = try runner.run(["import", "Drafts"])
    #expect(partial.status == 0)
    // Versions 1 and 2, damaged through their base, are repaired by their own files; version 3
    // by none of them.
    #expect(partial.stdout.contains("Repaired 2 damaged versions from their files"), "\(partial.stdout)")
    let check = try runner.run(["check", "--full"])
    #expect(check.status == 3)
    #expect(check.stdout.contains("draft 'Cat' version 3 is repaired by importing again: "), "\(check.stdout)")
    #expect(!check.stdout.contains("draft 'Cat' version 2"), "\(check.stdout)")
    #expect(try runner.run(["restore", "Cat", "--version", "2", "-o", "-"]).status == 0)
  }

  /// Every version of the damaged archive that `restore` rebuilds is merged by `--salvage`,
  /// and only the others are left out: damaged rows of the draft's other versions, and a page
  /// of blobs that holds some of a draft's drawings and not others.
  @Test func salvageLeavesOutOnlyWhatRestoreCannotRebuild() throws {
    let runner = try BinaryRunner(fresh: "salvage")
    let clean = runner.workingDirectory + "/clean.sqlite"
    var corpus = TestCorpus(root: runner.workingDirectory + "/Drafts", seed: 43)
    // Saves that add more than a page holds: a draft's drawings span pages.
    for index in 0..<12 {
      for _ in 0..<6 { try corpus.save("D\(index)", growth: 3000) }
    }
    #expect(try BinaryRunner(in: runner.temporary, archive: clean).run(["import", "Drafts"]).status == 0)
    let pageSize = Int(try sqlite3(clean, "PRAGMA page_size")) ?? 4096
    let pages = try sqlite3(
      clean, "SELECT pageno FROM dbstat WHERE name = 'blob' AND pagetype = 'leaf' ORDER BY pageno"
    )
    .split(separator: "\n").compactMap { Int($0) }
    // A page of blobs holding some of a draft's drawings and not others: what `restore`
    // rebuilds there is found by `export`, which writes every version that verifies.
    var found: (archive: String, rebuilt: Set<String>)?
    for (index, page) in pages.enumerated() where found == nil {
      let damaged = runner.workingDirectory + "/damaged\(index).sqlite"
      try FileManager.default.copyItem(atPath: clean, toPath: damaged)
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: damaged))
      try handle.seek(toOffset: UInt64((page - 1) * pageSize))
      handle.write(Data([UInt8](repeating: 0xEE, count: pageSize)))
      try handle.close()
      _ = try BinaryRunner(in: runner.temporary, archive: damaged).run(
        ["export", "--all-versions", "--to", "rebuilt\(index)"])
      let rebuilt = Set(filesUnder(runner.workingDirectory + "/rebuilt\(index)").filter { $0.hasSuffix(".inkling") })
      let lostDrafts = Set(Set(corpus.files.keys).subtracting(rebuilt).map { $0.prefix { $0 != "-" } })
      if lostDrafts.contains(where: { draft in rebuilt.contains { $0.hasPrefix(draft + "-") } }) {
        found = (damaged, rebuilt)
      }
    }
    let (damaged, rebuilt) = try #require(found, "no page held some of a draft's drawings and not others")
    let salvaged = try runner.run(["import", "--salvage", damaged])
    #expect(salvaged.status == 1, "\(salvaged.stderr)")
    _ = try runner.run(["export", "--all-versions", "--to", "kept"])
    let kept = Set(filesUnder(runner.workingDirectory + "/kept").filter { $0.hasSuffix(".inkling") })
    #expect(
      kept == rebuilt,
      "left out: \(rebuilt.subtracting(kept).sorted()), not rebuilt: \(kept.subtracting(rebuilt).sorted())")
    let leftOut = salvaged.stderr.split(separator: "\n").filter { $0.contains(": left out: ") }
    #expect(leftOut.count == corpus.files.count - rebuilt.count, "\(salvaged.stderr)")
    #expect(try runner.run(["check", "--full"]).status == 0)
  }
}
