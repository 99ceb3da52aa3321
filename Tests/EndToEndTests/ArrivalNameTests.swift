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
    for (character, code) in [("_", "005F"), ("-", "002D"), ("\u{A789}", "A789"), ("\u{FF1A}", "FF1A")] {
      #expect(
        verbose.stderr.contains("the date's colons arrived as \"\(character)\" (U+\(code))"), "\(verbose.stderr)")
    }
    // A private-use character is invisible in a terminal: printed as its escape.
    #expect(verbose.stderr.contains(#"arrived as \"\u{F03A}\" (U+F03A)"#), "\(verbose.stderr)")
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

  @Test func savesNotDownloadedFromICloudAreNamedAndTheImportExitsOne() throws {
    let runner = try BinaryRunner(fresh: "icloud")
    var corpus = TestCorpus(root: runner.workingDirectory + "/Drafts", seed: 6)
    try corpus.save("Cat")
    // As iCloud Drive leaves a folder copied before every save came down.
    for placeholder in [
      ".Cat-2025-10-02T10:00:00Z.inkling.icloud", ".Cat-2025-10-03T10:00:00Z.inkling.icloud",
      ".Dog-2025-10-02T10:00:00Z.inkling.icloud",
    ] {
      try corpus.write(placeholder, Array("bplist00".utf8))
    }
    // A download in progress: the file at its size, still zeros; another cut off.
    try corpus.write("Owl-2025-10-02T10:00:00Z.inkling", [UInt8](repeating: 0, count: 4096))
    try corpus.write("Elk-2025-10-02T10:00:00Z.inkling", Array(#"{"drawingData":"d3Jk8AEACAA"#.utf8))

    let result = try runner.run(["import", "Drafts"])
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stderr.contains(
        "Not downloaded from iCloud Drive, so not archived: 3 saves of 2 drafts (\"Cat\" 2, \"Dog\" 1). "
          + "Open the folder in Files or Finder, download them (Download Now), then import again."),
      "\(result.stderr)")
    #expect(result.stdout.contains("0 ignored"), "placeholders are not ignored files: \(result.stdout)")
    #expect(
      result.stderr.contains(
        "Owl-2025-10-02T10:00:00Z.inkling: the file is incomplete (all zero bytes), as a download or copy still "
          + "in progress leaves it"), "\(result.stderr)")
    #expect(result.stderr.contains("Elk-2025-10-02T10:00:00Z.inkling: the file is incomplete (its JSON stops"))
    #expect(!result.stderr.contains("not a JSON object"))

    let ndjson = try runner.run(["import", "--ndjson", "Drafts"])
    #expect(ndjson.stdout.contains(#""status":"notDownloaded","draft":"Dog""#), "\(ndjson.stdout)")
    #expect(ndjson.stdout.contains(#""notDownloaded":[{"draft":"Cat","saves":2},{"draft":"Dog","saves":1}]"#))
    #expect(ndjson.status == 1)
  }
}
