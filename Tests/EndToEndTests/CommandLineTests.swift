import Foundation
import InklingTestSupport
import Testing

/// The real binary, run as a person would: exit statuses, stdout and stderr.
@Suite struct CommandLineTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "cli", making: ["Drafts"])
  }

  func write(_ name: String, _ text: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/Drafts/" + name))
  }

  static let good = #"{"drawingData":"d3Jk8AEACAA=","color":{"r":1,"g":1,"b":1,"a":1}}"#

  @Test func importListHistoryRestore() throws {
    try write("Plan-B-2025-10-05T14:03:12Z.inkling", Self.good)
    try write("Plan-B-2025-10-06T09:00:00Z.inkling", Self.good.replacingOccurrences(of: #""r":1"#, with: #""r":0.5"#))
    try write("broken-2025-10-05T14:03:12Z.inkling", "{")
    try write("readme.txt", "hello")

    let imported = try runner.run(["import", folder + "/Drafts"])
    #expect(imported.status == 1)
    #expect(
      imported.stderr
        == "\(folder)/Drafts/broken-2025-10-05T14:03:12Z.inkling: the file is incomplete (its JSON stops in the middle, after 1 byte), as a download or copy still in progress leaves it; let it finish, then import it again\n"
    )
    #expect(imported.stdout.hasPrefix("Imported 2 versions (1 new draft); 0 already archived, 1 ignored, 1 rejected."))

    let again = try runner.run(["import", "--json", folder + "/Drafts/Plan-B-2025-10-05T14:03:12Z.inkling"])
    #expect(again.status == 0)
    #expect(
      again.stdout.contains(
        #""versionsImported":0,"draftsCreated":0,"broughtBackFromTrash":[],"versionsInTrash":0,"alreadyArchived":1"#))

    let list = try runner.run(["list", "--json"])
    #expect(list.status == 0)
    #expect(list.stdout == #"{"drafts":[{"name":"Plan-B","versions":2,"lastSaved":"2025-10-06T09:00:00Z"}]}"# + "\n")

    let history = try runner.run(["history", "Plan-B"])
    #expect(history.status == 0)
    #expect(history.stdout.contains("Plan-B-2025-10-05T14:03:12Z.inkling"))
    #expect(history.stdout.contains("#80ffff"))

    let restored = try runner.run(["restore", "Plan-B", "--version", "1", "-o", folder + "/v1.inkling"])
    #expect(restored.status == 0)
    #expect(try String(contentsOfFile: folder + "/v1.inkling", encoding: .utf8) == Self.good)

    let refused = try runner.run(["restore", "Plan-B", "--version", "1", "-o", folder + "/v1.inkling"])
    #expect(refused.status == 1)
    #expect(refused.stderr == "Error: \(folder)/v1.inkling already exists; use --force to replace it\n")

    let missing = try runner.run(["restore", "Nope"])
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("Error: no draft named \"Nope\""))
  }

  /// `restore --all-versions` into a folder it wrote before, stopped halfway: the files there
  /// byte for byte are left and counted, the missing ones written, exit 0, as export resumes.
  @Test func restoreAllVersionsResumes() throws {
    var corpus = TestCorpus(root: folder + "/Drafts", seed: 12)
    for _ in 0..<4 { try corpus.save("Owl") }
    #expect(try runner.run(["import", folder + "/Drafts"]).status == 0)
    #expect(try runner.run(["restore", "Owl", "--all-versions", "--to", "owls"]).status == 0)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/owls").sorted()
    #expect(names.count == 4)
    try FileManager.default.removeItem(atPath: folder + "/owls/" + names[2])

    let again = try runner.run(["restore", "Owl", "--all-versions", "--to", "owls"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.hasPrefix("owls/\(names[2])  (version 3, saved "), "\(again.stdout)")
    #expect(again.stdout.hasSuffix("3 versions already in the folder, byte for byte: left as they were.\n"))
    for (name, bytes) in corpus.versions(of: "Owl") {
      #expect(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/owls/" + name))) == bytes, "\(name)")
    }
    // A file of the same name with other bytes is still refused without --force.
    try Data("other".utf8).write(to: URL(fileURLWithPath: folder + "/owls/" + names[0]))
    let refused = try runner.run(["restore", "Owl", "--all-versions", "--to", "owls"])
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("already exists"), "\(refused.stderr)")
  }

  /// `restore --all-versions` salvages as export does: the versions that verify are written
  /// and listed, each damaged one is named on stderr and in the JSON, and the status is 1.
  @Test func restoreAllVersionsWritesEveryVersionThatVerifies() throws {
    var corpus = TestCorpus(root: folder + "/Drafts", seed: 11)
    for _ in 0..<4 { try corpus.save("Cat") }
    #expect(try runner.run(["import", folder + "/Drafts"]).status == 0)
    // Version 1: a delta of version 2, so no other version is built on it.
    #expect(
      try sqlite3(
        folder + "/archive.sqlite",
        """
        UPDATE blob SET data = zeroblob(length(data)) WHERE id = (SELECT v.blob_id FROM version v JOIN draft d
          ON d.id = v.draft_id WHERE d.name = 'Cat' ORDER BY v.saved_ms LIMIT 1); SELECT changes()
        """) == "1")
    let damagedName = "Cat-2025-01-01T00:01:00Z.inkling"
    let good = corpus.versions(of: "Cat").filter { $0.key != damagedName }

    let restored = try runner.run(["restore", "Cat", "--all-versions", "--to", "out"])
    #expect(restored.status == 1)
    #expect(restored.stderr.hasPrefix(#"Error: "Cat" version 1 (\#(damagedName)): "#), "\(restored.stderr)")
    #expect(
      restored.stderr.hasSuffix(
        "; the archive is damaged. Run `inkling-archive check --full` to see what is affected, or restore the "
          + "archive from a backup.\n"))
    #expect(restored.stderr.split(separator: "\n").count == 1)
    let lines = restored.stdout.split(separator: "\n")
    #expect(lines.count == 3, "\(restored.stdout)")
    for (line, number) in zip(lines, 2...4) {
      #expect(line.hasPrefix("out/Cat-2025-01-01T00:0\(number):00Z.inkling  (version \(number), saved "), "\(line)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted() == good.keys.sorted())
    for (name, bytes) in good {
      #expect(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/out/" + name))) == bytes, "\(name)")
    }

    let json = try runner.run(["--json", "restore", "Cat", "--all-versions", "--to", "out", "--force"])
    #expect(json.status == 1)
    #expect(json.stderr.hasPrefix(#"Error: "Cat" version 1 ("#))
    #expect(json.stdout.hasPrefix(#"{"restored":[{"path":"out/Cat-2025-01-01T00:02:00Z.inkling","version":2,"#))
    #expect(
      json.stdout.contains(#"],"damaged":[{"draft":"Cat","version":1,"fileName":"\#(damagedName)","detail":""#),
      "\(json.stdout)")

    // One damaged version alone is still an error.
    let one = try runner.run(["restore", "Cat", "--version", "1", "--to", "one"])
    #expect(one.status == 3)
    #expect(one.stderr.hasPrefix("Error: the archive \(folder)/archive.sqlite is damaged (blob "), "\(one.stderr)")
  }

  @Test func refusesFilesThatAreNotArchives() throws {
    try Data("SQLite format 3\0 but not really".utf8).write(to: URL(fileURLWithPath: folder + "/archive.sqlite"))
    let result = try runner.run(["list"])
    #expect(result.status == 3)
    #expect(result.stderr.hasPrefix("Error: "))
    #expect(result.stderr.contains(folder + "/archive.sqlite"))
  }

  @Test func refusesAnArchiveFromANewerBuild() throws {
    try write("A-2025-10-05T14:03:12Z.inkling", Self.good)
    #expect(try runner.run(["import", folder + "/Drafts"]).status == 0)
    _ = try sqlite3(folder + "/archive.sqlite", "PRAGMA user_version = 999")
    let result = try runner.run(["list"])
    #expect(result.status == 3)
    #expect(result.stderr.contains("newer"))
  }

  @Test func usageErrorsAndHelp() throws {
    let help = try runner.run(["--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("import"))
    let usage = try runner.run(["restore"])
    #expect(usage.status == 2)
    #expect(usage.stderr.hasPrefix("Error: "))
    let date = try runner.run(["restore", "X", "--at", "someday"])
    #expect(date.status == 2)
    #expect(date.stderr.contains("\"someday\" is not a date"))
    let version = try runner.run(["--version"])
    #expect(version.stdout == "inkling-archive 0.1.0\n")
  }
}
