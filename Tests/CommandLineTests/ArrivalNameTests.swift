// Drafts as they arrive through a USB stick, a share or a sync tool, named exactly as each one
// names them: every file is a save of the draft in its name, dated by its stamp, and the
// import says what bent the name.

import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

@Suite struct ArrivalNameTests {
  @Test func stampsWithoutColonsAndConflictCopiesAreSavesOfTheirDraft() throws {
    let runner = try BinaryRunner(fresh: "arrivals")
    var corpus = TestCorpus(root: runner.workingDirectory + "/Drafts", seed: 5)
    // Each file a save of its own (different bytes), named as it arrives.
    let arrivals = [
      "Cat-2025-10-01T14_03_12Z.inkling",  // exFAT/FAT stick through Windows tools
      "Cat-2025-10-01T14-04-12Z.inkling",
      "Cat-2025-10-01T14\u{F03A}05\u{F03A}12Z.inkling",  // SMB / macOS private-use mapping
      "Cat-2025-10-01T14\u{A789}06\u{A789}12Z.inkling",
      "Cat-2025-10-01T14\u{FF1A}07\u{FF1A}12Z.inkling",
      "Cat-2025-10-01T14:08:12Z.sync-conflict-20251001-140312-ABCDEF7.inkling",
      "Cat-2025-10-01T14:09:12Z (Anna's conflicted copy 2025-10-01).inkling",
      "Cat-2025-10-01T14:10:12Z (conflicted copy 2025-10-01 140312).inkling",
      "Cat-2025-10-01T14:11:12Z-LAPTOP.inkling",
      "Cat-2025-10-01T14:12:12Z(1).inkling",
    ]
    for (index, name) in arrivals.enumerated() {
      let save = try corpus.save("Source\(index)")
      try corpus.write(name, corpus.files[save] ?? [])
      try FileManager.default.removeItem(atPath: corpus.root + "/" + save)
    }
    let verbose = try runner.run(["import", "-v", "Drafts"])
    #expect(verbose.status == 0, "\(verbose.stderr)")
    #expect(verbose.stdout.contains("10 versions"), "\(verbose.stdout)")
    for (character, code) in [("_", "005F"), ("-", "002D"), ("\u{F03A}", "F03A"), ("\u{A789}", "A789")] {
      #expect(
        verbose.stderr.contains("the date's colons arrived as \"\(character)\" (U+\(code))"), "\(verbose.stderr)")
    }
    for tool in ["Syncthing", "Dropbox", "Nextcloud", "OneDrive", "Google Drive"] {
      #expect(verbose.stderr.contains("a \(tool) conflict copy"), "\(tool): \(verbose.stderr)")
    }
    #expect(!verbose.stderr.contains("no date in the file name"))

    let list = try runner.run(["list", "--json"])
    let listing = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
    let drafts = listing?["drafts"] as? [[String: Any]] ?? []
    #expect(drafts.map { $0["name"] as? String } == ["Cat"], "\(list.stdout)")
    let history = try runner.run(["history", "Cat", "--json"])
    let entries = try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any]
    let versions = entries?["versions"] as? [[String: Any]] ?? []
    let saved = versions.compactMap { $0["saved"] as? String }.sorted()
    #expect(saved == (3...12).map { String(format: "2025-10-01T14:%02d:12Z", $0) }, "\(history.stdout)")
  }
}
