import Foundation
import InklingTestSupport
import Testing

/// Where restore and the image commands write: any file name, `-` for standard output, and
/// every version of a draft on disk even when two share a name.
@Suite struct OutputPathTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "out", making: ["Drafts"])
  }

  func write(_ path: String, _ text: String) throws {
    let url = URL(fileURLWithPath: folder + "/Drafts/" + path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  func bytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path)))
  }

  static func draft(red: Double) -> String {
    #"{"drawingData":"d3Jk8AEACAA=","color":{"r":\#(red),"g":1,"b":1,"a":1}}"#
  }

  @Test func oneCharacterNamesAndStandardOutput() throws {
    try write("Cat-2025-10-05T14:03:12Z.inkling", Self.draft(red: 1))
    #expect(try runner.run(["import", folder + "/Drafts"]).status == 0)
    let original = try bytes("Drafts/Cat-2025-10-05T14:03:12Z.inkling")

    let short = try runner.run(["restore", "Cat", "-o", "a"])
    #expect(short.status == 0, "\(short.stderr)")
    #expect(try bytes("a") == original)

    let piped = try runner.run(["restore", "Cat", "-o", "-"])
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(piped.stdoutBytes == original)
    #expect(piped.stderr.hasPrefix("Cat to standard output  (version 1, saved "))
    let pipedJSON = try runner.run(["--json", "restore", "Cat", "-o", "-"])
    #expect(pipedJSON.stdoutBytes == original)
    #expect(pipedJSON.stderr.hasPrefix(#"{"restored":[{"path":"-","version":1,"#))

    for (command, extra) in [("thumbnail", [String]()), ("render", ["--scale", "1"])] {
      let one = try runner.run([command, "Cat", "-o", "b"] + extra)
      #expect(one.status == 0, "\(command): \(one.stderr)")
      #expect(try bytes("b").starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(command)")
      try FileManager.default.removeItem(atPath: folder + "/b")
      let out = try runner.run([command, "Cat", "-o", "-"] + extra)
      #expect(out.status == 0, "\(command): \(out.stderr)")
      #expect(out.stdoutBytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(command)")
      #expect(
        out.stderr.hasPrefix("-  (\"Cat\", version 1") || out.stderr.hasPrefix("-  (Cat, version 1"), "\(out.stderr)")
    }
    let sheet = try runner.run(["contact-sheet", "-o", "c"])
    #expect(sheet.status == 0, "\(sheet.stderr)")
    #expect(try bytes("c").starts(with: [0x89, 0x50, 0x4E, 0x47]))
    let sheetOut = try runner.run(["contact-sheet", "-o", "-"])
    #expect(sheetOut.stdoutBytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))

    let folderTarget = try runner.run(["restore", "Cat", "--force", "-o", "Drafts/"])
    #expect(folderTarget.status == 1)
    #expect(
      folderTarget.stderr
        == "Error: Drafts/ is a folder; give a file name with -o, or write into the folder with --to\n")
    // Only restore has --to; the others are not told to use it.
    for (command, extra) in [("render", ["--scale", "1"]), ("thumbnail", [])] {
      let folderPicture = try runner.run([command, "Cat", "-o", "Drafts/"] + extra)
      #expect(folderPicture.status == 1, "\(command)")
      #expect(folderPicture.stderr == "Error: Drafts/ is a folder; give a file name with -o\n", "\(command)")
    }
  }

  @Test func everyVersionLandsEvenWhenTwoShareAFileName() throws {
    let name = "Dup-2025-10-10T10:00:00Z.inkling"
    try write("iPad/" + name, Self.draft(red: 1))
    try write("iPhone/" + name, Self.draft(red: 0.5))
    try write("Dup-2025-10-11T10:00:00Z.inkling", Self.draft(red: 0.25))
    let imported = try runner.run(["import", folder + "/Drafts"])
    #expect(imported.stdout.hasPrefix("Imported 3 versions"), "\(imported.stdout)\(imported.stderr)")

    let restored = try runner.run(["restore", "Dup", "--all-versions", "--to", "out"])
    #expect(restored.status == 0, "\(restored.stderr)")
    let written = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted()
    #expect(written == ["Dup-2025-10-10T10:00:00Z (2).inkling", name, "Dup-2025-10-11T10:00:00Z.inkling"])
    // Each restored file is one of the imported ones, byte for byte, and none is lost.
    let sources = Set([try bytes("Drafts/iPad/" + name), try bytes("Drafts/iPhone/" + name)])
    #expect(Set([try bytes("out/" + name), try bytes("out/Dup-2025-10-10T10:00:00Z (2).inkling")]) == sources)
    #expect(restored.stdout.contains("Dup-2025-10-10T10:00:00Z (2).inkling  (version"))
    #expect(restored.stdout.contains("renamed: \(name) is another version's file name"))

    // Again into the same folder: every file is there, byte for byte, under the same names.
    let again = try runner.run(["restore", "Dup", "--all-versions", "--to", "out"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout == "3 versions already in the folder, byte for byte: left as they were.\n")
    let forced = try runner.run(["--json", "restore", "Dup", "--all-versions", "--to", "out", "--force"])
    #expect(forced.status == 0)
    #expect(forced.stdout.contains(#""renamedFrom":"Dup-2025-10-10T10:00:00Z.inkling""#))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/out").count == 3)
    #expect(Set([try bytes("out/" + name), try bytes("out/Dup-2025-10-10T10:00:00Z (2).inkling")]) == sources)

    // Imported again, the renamed copy is the same draft and save time: nothing new.
    let back = try runner.run(["import", folder + "/out"])
    #expect(back.stdout.hasPrefix("Imported 0 versions (0 new drafts); 3 already archived"), "\(back.stdout)")
  }
}
