// What the commands say, checked where a person or a script meets it: pictures of a drawing
// that does not decode, `diff` of one save, errors under --json, dates with milliseconds,
// names import accepts given to rename, and the time-lapse's frame numbers.

import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

@Suite struct SmallTruthsTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }
  /// The generated draft with three saves (real drawings, strokes added at each).
  let draft: String

  init() throws {
    runner = try BinaryRunner(fresh: "truths")
    let drafts = runner.workingDirectory + "/Drafts"
    _ = try writeCorpus(CorpusSpec(drafts: 1, versionsPerDraft: 3...3, seed: 11), to: URL(fileURLWithPath: drafts))
    let opaque = #"{"drawingData":"AAECAw==","color":{"r":1,"g":1,"b":1,"a":1}}"#
    try Data(opaque.utf8).write(to: URL(fileURLWithPath: drafts + "/Opaque-2025-10-05T14:03:12Z.inkling"))
    let imported = try runner.run(["import", drafts])
    #expect(imported.status == 0, "\(imported.stderr)")
    let list = try runner.run(["list", "--json"])
    let object = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
    let names = (object?["drafts"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    draft = try #require(names.first { $0 != "Opaque" })
  }

  func json(_ text: String) -> [String: Any]? {
    try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
  }

  // MARK: - A drawing that does not decode

  @Test func everyPictureOfAnUndecodableDrawingIsAPlaceholderThatExitsOne() throws {
    for (command, file) in [
      (["render", "Opaque"], "r.png"), (["thumbnail", "Opaque"], "t.png"), (["contact-sheet"], "s.png"),
    ] {
      let made = try runner.run(command + ["-o", file])
      #expect(made.status == 1, "\(command): \(made.stderr)")
      #expect(made.stderr.contains("placeholder"), "\(command): \(made.stderr)")
      #expect(made.stderr.contains(#""Opaque""#), "\(command): \(made.stderr)")
      #expect(FileManager.default.fileExists(atPath: folder + "/" + file), "\(command)")
    }
    let exported = try runner.run(["export", "--png", "--to", "out"])
    #expect(exported.status == 1, "\(exported.stderr)")
    #expect(exported.stderr.contains("placeholder picture"), "\(exported.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder + "/out/Opaque-2025-10-05T14:03:12Z.png"))
    // A drawing that decodes is drawn, and says nothing more.
    let good = try runner.run(["render", draft, "-o", "g.png"])
    #expect(good.status == 0 && good.stderr.isEmpty, "\(good.stderr)")
    // Each command's help says so.
    for command in ["render", "thumbnail", "contact-sheet", "export"] {
      let help = try runner.run([command, "--help"]).stdout.replacingOccurrences(
        of: #"\s+"#, with: " ", options: .regularExpression)
      #expect(help.contains("placeholder"), "\(command)")
      #expect(help.contains("exits 1"), "\(command)")
    }
  }

  // MARK: - diff of one save

  @Test func diffOfADraftOrOneVersionIsThatSaveAgainstTheOneBefore() throws {
    let newest = try runner.run(["diff", draft])
    #expect(newest.status == 0, "\(newest.stderr)")
    #expect(newest.stdout == (try runner.run(["diff", draft, "2", "3"])).stdout)
    #expect(newest.stdout.contains("version 2 → 3"), "\(newest.stdout)")
    let second = try runner.run(["diff", draft, "2"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout == (try runner.run(["diff", draft, "1", "2"])).stdout)
    let first = try runner.run(["diff", draft, "1"])
    #expect(first.status == 1)
    #expect(first.stderr.contains("no version before version 1"), "\(first.stderr)")
    let past = try runner.run(["diff", draft, "9"])
    #expect(past.status == 1)
    #expect(past.stderr.contains("there is no version 9"), "\(past.stderr)")
    let help = try runner.run(["diff", "--help"]).stdout.replacingOccurrences(
      of: #"\s+"#, with: " ", options: .regularExpression)
    #expect(help.contains("diff DRAFT [A] [B]") && help.contains("`diff DRAFT N` what version N changed"), "\(help)")
  }

  // MARK: - Errors under --json

  @Test func errorsUnderJSONAreOneShapeOnStandardOutput() throws {
    let cases: [([String], Int32)] = [
      (["history", "Opaqu"], 1), (["diff", draft, "1"], 1), (["render", "Opaque", "--version", "4", "-o", "x.png"], 1),
      (["restore", "Opaque", "--at", "1999", "-o", "x.inkling"], 1),
      (["render", draft, "--scale", "99", "-o", "y.png"], 2),
      (["search", "strokes:>"], 2), (["list", "--since", "yesterdayish"], 2),
    ]
    for (arguments, status) in cases {
      let failed = try runner.run(["--json"] + arguments)
      #expect(failed.status == status, "\(arguments): \(failed.stderr)")
      let object = try #require(json(failed.stdout), "\(arguments): \(failed.stdout)")
      #expect(object["status"] as? Int == Int(status), "\(arguments)")
      let error = try #require(object["error"] as? String, "\(arguments)")
      #expect(failed.stderr.contains(error), "\(arguments): the sentence on standard error too")
      #expect(failed.stdout.split(separator: "\n").count == 1)
    }
    let missing = json(try runner.run(["--json", "history", "Opaqu"]).stdout)
    #expect(missing?["suggestions"] as? [String] == ["Opaque"])
    let syntax = json(try runner.run(["--json", "search", "strokes:>"]).stdout)
    #expect(syntax?["query"] as? String == "strokes:>" && syntax?["column"] is Int)
  }

  // MARK: - Milliseconds

  @Test func historyAndRestoreAtKeepFractionsOfASecond() throws {
    let source = try #require(
      FileManager.default.contentsOfDirectory(atPath: folder + "/Drafts").first { $0.hasPrefix(draft) })
    try runner.temporary.makeFolder("Fractions")
    for stamp in ["2025-10-01T14:03:12.250Z", "2025-10-01T14:03:12.750Z"] {
      try FileManager.default.copyItem(
        atPath: folder + "/Drafts/" + source, toPath: folder + "/Fractions/Frac-\(stamp).inkling")
    }
    #expect(try runner.run(["import", "Fractions"]).status == 0)
    let utc = ["TZ": "UTC"]
    let history = try runner.run(["history", "Frac"], environment: utc)
    #expect(history.stdout.contains("2025-10-01 14:03:12.250"), "\(history.stdout)")
    #expect(history.stdout.contains("2025-10-01 14:03:12.750"), "\(history.stdout)")
    let historyJSON = try runner.run(["history", "Frac", "--json"]).stdout
    #expect(historyJSON.contains(#""saved":"2025-10-01T14:03:12.250Z""#), "\(historyJSON)")
    let restored = try runner.run(
      ["restore", "Frac", "--at", "2025-10-01T14:03:12.5Z", "-o", "f.inkling"], environment: utc)
    #expect(restored.status == 0, "\(restored.stderr)")
    #expect(restored.stdout.contains("version 1, saved 2025-10-01 14:03:12.250"), "\(restored.stdout)")
    let early = try runner.run(
      ["restore", "Frac", "--at", "2025-10-01T14:03:12.1Z", "-o", "g.inkling"], environment: utc)
    #expect(early.status == 1)
    #expect(early.stderr.contains("its first was saved 2025-10-01 14:03:12.250"), "\(early.stderr)")
  }

  // MARK: - rename and import agree on names

  @Test func renameGivesEveryNameImportTakesFromAFile() throws {
    let source = try #require(
      FileManager.default.contentsOfDirectory(atPath: folder + "/Drafts").first { $0.hasPrefix(draft) })
    try runner.temporary.makeFolder("Odd")
    let names = [" Cat", "Cat ", ".", "..", "a\tb", "   "]
    for (index, name) in names.enumerated() {
      try FileManager.default.copyItem(
        atPath: folder + "/Drafts/" + source, toPath: folder + "/Odd/\(name)-2025-10-0\(index + 1)T10:00:00Z.inkling")
    }
    // A file name of 255 bytes without a date: its draft's name has 247.
    let long = String(repeating: "é", count: 123) + "x"
    try FileManager.default.copyItem(atPath: folder + "/Drafts/" + source, toPath: folder + "/Odd/\(long).inkling")
    #expect(try runner.run(["import", "Odd"]).status == 0)
    // Each name import took, rename gives too: into the imported draft, and out again.
    for name in names + [long] {
      let merged = try runner.run(["rename", "Opaque", name, "--merge"])
      #expect(merged.status == 0, "\(name): \(merged.stderr)")
      let back = try runner.run(["rename", name, "Opaque"])
      #expect(back.status == 0, "\(name): \(back.stderr)")
    }
    // Only a name no file could carry is refused.
    let tooLong = try runner.run(["rename", "Opaque", long + "x"])
    #expect(tooLong.status == 2)
    #expect(tooLong.stderr.contains("is too long"), "\(tooLong.stderr)")
    // A draft renamed to a name that fills a file name keeps its files' dates on restore.
    #expect(try runner.run(["rename", "Opaque", long]).status == 0)
    let restored = try runner.run(["restore", long, "--all-versions", "--to", "Restored"])
    #expect(restored.status == 0, "\(restored.stderr)")
    let written = try FileManager.default.contentsOfDirectory(atPath: folder + "/Restored")
    #expect(written.count == 8, "\(written)")
    for name in written where name != "\(long).inkling" {
      #expect(name.utf8.count <= 255 && name.contains("-2025-10-0") && name.hasSuffix("Z.inkling"), "\(name)")
    }
  }

  // MARK: - The time-lapse's frames

  @Test func timelapseMarksNumberFramesAsTheFrameFiles() throws {
    let made = try runner.run(["--json", "timelapse", draft, "--frames", "frames", "--duration", "4s", "--fps", "10"])
    #expect(made.status == 0, "\(made.stderr)")
    let object = try #require(json(made.stdout))
    let frames = try #require(object["frames"] as? Int)
    let fps = try #require(object["fps"] as? Int)
    let marks = try #require(object["marks"] as? [[String: Any]])
    #expect(marks.count == 3)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").sorted()
    #expect(files.count == frames && files.first == "00001.png")
    for mark in marks {
      let frame = try #require(mark["frame"] as? Int)
      #expect((1...frames).contains(frame), "\(mark)")
      #expect(files.contains(String(format: "%05d.png", frame)), "\(mark)")
      #expect(abs((mark["seconds"] as? Double ?? -1) - Double(frame - 1) / Double(fps)) < 1e-9, "\(mark)")
    }
    // The last save is done by the last frame at the latest.
    #expect((marks.last?["frame"] as? Int ?? 0) <= frames)
  }

  // MARK: - Names with joiners

  /// Drafts named with joiners and a bidi override, each a copy of the generated draft's file,
  /// with the columns a terminal gives each name.
  static let joined: [(name: String, columns: Int)] = [
    ("👩🏽‍🎨 Studio", 9), ("👨‍👩‍👧 Family", 9), ("می\u{200C}خواهم", 7), ("Plain", 5),
  ]

  func importNames(_ names: [String]) throws {
    let source = try #require(
      FileManager.default.contentsOfDirectory(atPath: folder + "/Drafts").first { $0.hasPrefix(draft) })
    try runner.temporary.makeFolder("Names")
    for (index, name) in names.enumerated() {
      try FileManager.default.copyItem(
        atPath: folder + "/Drafts/" + source, toPath: folder + "/Names/\(name)-2025-11-0\(index + 1)T10:00:00Z.inkling")
    }
    let imported = try runner.run(["import", "Names"])
    #expect(imported.status == 0, "\(imported.stderr)")
  }

  @Test func tableColumnsStayInPlaceWithJoinedNames() throws {
    try importNames(Self.joined.map(\.name))
    let listed = try runner.run(["list", "--sort", "name"])
    #expect(listed.status == 0, "\(listed.stderr)")
    var starts: [Int] = []
    for (name, columns) in Self.joined {
      let line = try #require(listed.stdout.split(separator: "\n").first { $0.hasPrefix(name) }, "\(name)")
      let rest = line.dropFirst(name.count)
      #expect(rest.first == " ", "\(name) prints as written: \(line)")
      starts.append(columns + rest.prefix { $0 == " " }.count)
    }
    #expect(Set(starts).count == 1, "the next column starts at \(starts): \(listed.stdout)")
  }

  @Test func aNameShownEscapedCanBeGivenBackAsPrinted() throws {
    try importNames(["x\u{202E}gnp", "a\tb", "say \"hi\""])
    let listed = try runner.run(["list", "--sort", "name"]).stdout
    for printed in [#""x\u{202E}gnp""#, #""a\tb""#, #""say \"hi\"""#] {
      #expect(listed.contains(printed + " "), "\(listed)")
      let history = try runner.run(["history", printed])
      #expect(history.status == 0, "\(printed): \(history.stderr)")
      let shown = try runner.run(["show", printed, "--json"])
      #expect(shown.status == 0, "\(printed): \(shown.stderr)")
    }
    // A name typed as it is still works, quotes in it included.
    #expect(try runner.run(["history", "say \"hi\""]).status == 0)
    // The name as printed, given as a new name, is the name it stands for.
    #expect(try runner.run(["rename", #""a\tb""#, #""c\td""#]).status == 0)
    #expect(try runner.run(["history", "c\td"]).status == 0)
  }

  @Test func aSuggestionThatLooksTheSameSaysWhatDiffers() throws {
    try importNames(["می\u{200C}خواهم"])
    let missed = try runner.run(["history", "میخواهم"])
    #expect(missed.status == 1)
    #expect(missed.stderr.contains("did you mean \"می\u{200C}خواهم\""), "\(missed.stderr)")
    #expect(
      missed.stderr.contains("differs in an invisible character: U+200C ZERO WIDTH NON-JOINER"), "\(missed.stderr)")
    // A suggestion that differs visibly says nothing more.
    let typo = try runner.run(["history", "Opaq"])
    #expect(typo.stderr.contains(#"did you mean "Opaque"?"#), "\(typo.stderr)")
  }
}
