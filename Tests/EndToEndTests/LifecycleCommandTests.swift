import Foundation
import InklingTestSupport
import Testing

/// export, revert, rename, delete, undelete, purge and `list --trash` through the built
/// binary: what each prints, its JSON, its exit status.
@Suite struct LifecycleCommandTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "life", making: ["Drafts"])
  }

  func write(_ path: String, red: Double) throws {
    let url = URL(fileURLWithPath: folder + "/Drafts/" + path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(#"{"drawingData":"d3Jk8AEACAA=","color":{"r":\#(red),"g":1,"b":1,"a":1}}"#.utf8).write(to: url)
  }

  func bytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path)))
  }

  func importSample() throws {
    try write("Plan-B-2025-10-01T10:00:00Z.inkling", red: 1)
    try write("Plan-B-2025-10-02T10:00:00Z.inkling", red: 0.5)
    try write("Plan-B-2025-10-03T10:00:00Z.inkling", red: 0.25)
    try write("Scratch-2025-09-01T10:00:00Z.inkling", red: 0.75)
    let imported = try runner.run(["import", folder + "/Drafts"])
    #expect(imported.status == 0, "\(imported.stderr)")
  }

  /// A new save of a trashed draft brings it back, and import says so.
  @Test func aNewSaveOfATrashedDraftBringsItBackAndSaysSo() throws {
    try importSample()
    #expect(try runner.run(["delete", "Plan-B", "Scratch"]).status == 0)
    try write("Plan-B-2025-10-04T10:00:00Z.inkling", red: 0.1)
    try write("Scratch-2025-08-01T10:00:00Z.inkling", red: 0.2)
    let imported = try runner.run(["import", folder + "/Drafts"])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stdout.contains("Brought back from the trash, with a save newer than any it held: \"Plan-B\"."))
    #expect(
      imported.stdout.contains(
        "1 older version joined a draft in the trash, beside newer versions; `list --trash` shows it."))
    #expect(try runner.run(["list", "--paths"]).stdout == "Plan-B\n")
    #expect(try runner.run(["list", "--trash", "--paths"]).stdout == "Scratch\n")
  }

  @Test func theCommandsAreInTheHelp() throws {
    let help = try runner.run(["--help"])
    for command in ["export", "revert", "rename", "delete", "undelete", "purge"] {
      #expect(help.stdout.contains("\n  \(command) "), "\(command)")
    }
    #expect(try runner.run(["export", "--help"]).stdout.contains("--all-versions"))
  }

  @Test func exportThenExportAgain() throws {
    try importSample()
    let first = try runner.run(["export", "--all-versions", "--to", "out"])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.hasPrefix("Exported 4 versions of 2 drafts to out: 4 files written ("), "\(first.stdout)")
    #expect(first.stdout.contains("Manifest out/inkling-export.json written"))
    #expect(try bytes("out/Plan-B-2025-10-02T10:00:00Z.inkling") == bytes("Drafts/Plan-B-2025-10-02T10:00:00Z.inkling"))

    let again = try runner.run(["export", "--all-versions", "--to", "out"])
    #expect(again.status == 0)
    #expect(
      again.stdout
        == "Nothing to write: the 4 versions of 2 drafts are in out already, and its manifest is up to date.\n")

    try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/out/Scratch-2025-09-01T10:00:00Z.inkling"))
    let blocked = try runner.run(["--json", "export", "--all-versions", "--to", "out"])
    #expect(blocked.status == 1)
    #expect(
      blocked.stderr
        == "out/Scratch-2025-09-01T10:00:00Z.inkling: left as it is: a file with other contents has this name "
        + "(\"Scratch\" version 1); --force replaces it\n")
    let json = try JSONSerialization.jsonObject(with: Data(blocked.stdout.utf8)) as? [String: Any]
    #expect(json?["complete"] as? Bool == false)
    #expect(json?["filesUnchanged"] as? Int == 3)
    #expect((json?["problems"] as? [[String: Any]])?.first?["kind"] as? String == "exists")
    #expect(try bytes("out/Scratch-2025-09-01T10:00:00Z.inkling") == Array("mine".utf8))

    let forced = try runner.run(["export", "--all-versions", "--to", "out", "--force"])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(forced.stdout.contains("1 file written") && forced.stdout.contains("1 replaced"), "\(forced.stdout)")
    #expect(
      try bytes("out/Scratch-2025-09-01T10:00:00Z.inkling") == bytes("Drafts/Scratch-2025-09-01T10:00:00Z.inkling"))

    // Filters, a query, and the share images beside the files.
    let query = try runner.run(["export", "--query", "name:plan versions:>2", "--png", "--to", "png"])
    #expect(query.status == 0, "\(query.stderr)")
    let written = try FileManager.default.contentsOfDirectory(atPath: folder + "/png").sorted()
    #expect(
      written == ["Plan-B-2025-10-03T10:00:00Z.inkling", "Plan-B-2025-10-03T10:00:00Z.png", "inkling-export.json"])
    #expect(try bytes("png/Plan-B-2025-10-03T10:00:00Z.png").starts(with: [0x89, 0x50, 0x4E, 0x47]))

    let none = try runner.run(["export", "--name", "zzz", "--to", "none"])
    #expect(none.status == 1)
    #expect(none.stderr == "Error: no drafts match; nothing written\n")
    let syntax = try runner.run(["export", "--query", "strokes:>", "--to", "x"])
    #expect(syntax.status == 2)
    let missing = try runner.run(["export"])
    #expect(missing.status == 2)
  }

  @Test func exportFromADamagedArchive() throws {
    try importSample()
    _ = try sqlite3(
      folder + "/archive.sqlite",
      "UPDATE version SET file_sha256 = zeroblob(32) WHERE file_name = 'Plan-B-2025-10-02T10:00:00Z.inkling'")
    let result = try runner.run(["export", "--all-versions", "--to", "out"])
    #expect(result.status == 1)
    #expect(
      result.stderr.hasPrefix(
        "out/Plan-B-2025-10-02T10:00:00Z.inkling: not written: \"Plan-B\" version 2 is damaged (the rebuilt file"),
      "\(result.stderr)")
    #expect(result.stdout.contains("3 files written") && result.stdout.contains("1 damaged, not written"))
    #expect(!FileManager.default.fileExists(atPath: folder + "/out/Plan-B-2025-10-02T10:00:00Z.inkling"))
  }

  @Test func revertRenameAndMerge() throws {
    try importSample()
    let reverted = try runner.run(["revert", "Plan-B", "--version", "1"])
    #expect(reverted.status == 0, "\(reverted.stderr)")
    #expect(reverted.stdout.hasPrefix("\"Plan-B\": added version 4 (Plan-B-"), "\(reverted.stdout)")
    #expect(reverted.stdout.hasSuffix("), a copy of version 1.\n"))
    let history = try runner.run(["history", "Plan-B"])
    #expect(history.stdout.split(separator: "\n").last?.hasSuffix("reverts to #1") == true, "\(history.stdout)")
    let restored = try runner.run(["restore", "Plan-B", "-o", "newest.inkling"])
    #expect(restored.status == 0)
    #expect(try bytes("newest.inkling") == bytes("Drafts/Plan-B-2025-10-01T10:00:00Z.inkling"))
    let noVersion = try runner.run(["revert", "Plan-B"])
    #expect(noVersion.status == 2)

    let refused = try runner.run(["rename", "Plan-B", "Scratch"])
    #expect(refused.status == 1)
    #expect(
      refused.stderr
        == "Error: a draft named \"Scratch\" exists already; add --merge to join the two histories into one\n")
    let renamed = try runner.run(["rename", "Plan-B", "Plan/C"])
    #expect(renamed.stdout == "Renamed \"Plan-B\" to \"Plan-C\" (4 versions).\n")
    let merged = try runner.run(["--json", "rename", "Scratch", "Plan-C", "--merge"])
    #expect(merged.status == 0)
    #expect(
      merged.stdout
        == #"{"from":"Scratch","to":"Plan-C","merged":true,"versionsMoved":1,"duplicatesDropped":0,"versions":5}"#
        + "\n")
    let list = try runner.run(["list", "--paths"])
    #expect(list.stdout == "Plan-C\n")
    let out = try runner.run(["restore", "Plan-C", "--all-versions", "--to", "all"])
    #expect(out.status == 0)
    #expect(out.stdout.contains("all/Plan-C-2025-09-01T10:00:00Z.inkling  (version 1, "))
    #expect(out.stdout.contains("renamed from Scratch-2025-09-01T10:00:00Z.inkling: the draft has another name now"))
    let check = try runner.run(["check", "--full"])
    #expect(check.status == 0, "\(check.stdout)")
  }

  /// Each revert is the draft's newest version, also several within one second, and the
  /// message names the version that is.
  @Test func revertAlwaysMakesTheNewestVersion() throws {
    try importSample()
    #expect(try runner.run(["revert", "Plan-B", "--version", "1"]).status == 0)
    // Asked again, or asked for the newest, nothing is added, and the message says which is which.
    let again = try runner.run(["revert", "Plan-B", "--version", "1"])
    #expect(again.stdout == "\"Plan-B\": the newest version, 4, is a copy of version 1 already; nothing added.\n")
    let newest = try runner.run(["revert", "Plan-B", "--version", "4"])
    #expect(newest.stdout == "\"Plan-B\": version 4 is the newest version already; nothing added.\n")
    // Within one second, 2 then 1: each a new newest version, a second after the one before.
    let two = try runner.run(["revert", "Plan-B", "--version", "2"])
    let one = try runner.run(["revert", "Plan-B", "--version", "1"])
    #expect(two.stdout.hasPrefix("\"Plan-B\": added version 5 ") && two.stdout.hasSuffix("a copy of version 2.\n"))
    #expect(one.stdout.hasPrefix("\"Plan-B\": added version 6 ") && one.stdout.hasSuffix("a copy of version 1.\n"))
    try runner.run(["restore", "Plan-B", "-o", "newest-1.inkling"])
    #expect(try bytes("newest-1.inkling") == bytes("Drafts/Plan-B-2025-10-01T10:00:00Z.inkling"))
    let names = try runner.run(["--json", "history", "Plan-B"])
    #expect(names.stdout.components(separatedBy: "\"fileName\":").count == 7)
  }

  /// `undelete A B` run again after it was interrupted, or after it was done: what is still in
  /// the trash comes back, what is back already is said so.
  @Test func undeleteRunAgainSaysWhatIsBackAlready() throws {
    try importSample()
    #expect(try runner.run(["delete", "Plan-B", "Scratch"]).status == 0)
    let back = try runner.run(["undelete", "Plan-B", "Scratch", "Nope"])
    #expect(back.status == 1)
    #expect(
      back.stdout
        == "Brought \"Plan-B\" back from the trash (3 versions).\nBrought \"Scratch\" back from the trash (1 version).\n"
    )
    #expect(back.stderr.hasPrefix("Error: no draft named \"Nope\" in the archive"))
    let again = try runner.run(["undelete", "Plan-B", "Scratch"])
    #expect(again.status == 0)
    #expect(
      again.stdout
        == "\"Plan-B\" is not in the trash; nothing to bring back.\n\"Scratch\" is not in the trash; nothing to bring back.\n"
    )
    let json = try runner.run(["--json", "undelete", "Scratch"])
    #expect(json.stdout.contains(#""deleted":null,"wasOutOfTrash":true"#), "\(json.stdout)")
    #expect(try runner.run(["list", "--trash", "--paths"]).stdout == "")
  }

  @Test func theTrash() throws {
    try importSample()
    let deleted = try runner.run(["delete", "Scratch", "Nope"])
    #expect(deleted.status == 1)
    #expect(deleted.stdout == "Moved \"Scratch\" to the trash (1 version).\n")
    #expect(deleted.stderr.hasPrefix("Error: no draft named \"Nope\" in the archive"))
    #expect(try runner.run(["list", "--paths"]).stdout == "Plan-B\n")
    #expect(try runner.run(["search", "name:scratch", "--paths"]).stdout == "")
    #expect(try runner.run(["search", "name:scratch", "--trash", "--paths"]).stdout == "Scratch\n")
    let trash = try runner.run(["list", "--trash"])
    #expect(
      trash.stdout.hasPrefix("NAME     VERSIONS  LAST SAVED           DELETED\nScratch         1  "), "\(trash.stdout)")
    #expect(trash.stderr == "1 draft in the trash\n")
    let json = try runner.run(["--json", "list", "--trash"])
    #expect(
      json.stdout.hasPrefix(
        #"{"drafts":[{"name":"Scratch","versions":1,"lastSaved":"2025-09-01T10:00:00Z","deleted":""#))
    #expect(try runner.run(["history", "Scratch"]).status == 0)
    let inTrash = try runner.run(["rename", "Scratch", "S"])
    #expect(inTrash.stderr == "Error: \"Scratch\" is in the trash; `inkling-archive undelete` brings it back\n")

    #expect(try runner.run(["undelete", "Scratch"]).stdout == "Brought \"Scratch\" back from the trash (1 version).\n")
    let notInTrash = try runner.run(["purge", "Scratch"])
    #expect(notInTrash.status == 1)
    #expect(
      notInTrash.stderr == "Error: \"Scratch\" is not in the trash; `inkling-archive list --trash` shows what is\n")

    _ = try runner.run(["delete", "Scratch"])
    let twice = try runner.run(["--json", "delete", "Scratch"])
    #expect(twice.status == 0)
    #expect(twice.stdout.hasSuffix(#""wasInTrash":true}]}"# + "\n"), "\(twice.stdout)")
    let dry = try runner.run(["purge", "--older-than", "1d", "--dry-run"])
    #expect(dry.stdout == "Nothing to purge: no draft in the trash matches.\n")
    let wouldPurge = try runner.run(["purge", "--dry-run"])
    #expect(wouldPurge.stdout == "Would purge 1 draft (1 version): \"Scratch\".\n")
    let purged = try runner.run(["--json", "purge"])
    #expect(purged.stdout.hasPrefix(#"{"purged":[{"name":"Scratch","versions":1,"#), "\(purged.stdout)")
    #expect(purged.stdout.hasSuffix(#""versionsRemoved":1,"dryRun":false}"# + "\n"))
    #expect(!purged.stdout.contains("wasInTrash"))
    #expect(try runner.run(["gc"]).status == 0)
    #expect(try runner.run(["check", "--full"]).status == 0)
    let again = try runner.run(["import", folder + "/Drafts"])
    #expect(again.stdout.hasPrefix("Imported 1 version (1 new draft); 3 already archived"), "\(again.stdout)")
  }
}
