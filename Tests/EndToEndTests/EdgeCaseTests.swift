import Foundation
import InklingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What a new user meets at the edges, each through the real binary.
@Suite struct EdgeCaseTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "edges", making: ["Drafts"])
  }

  func write(_ name: String, _ text: String = #"{"drawingData":"d3Jk8AEACAA=","color":{"r":1,"g":1,"b":1,"a":1}}"#)
    throws
  {
    try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/Drafts/" + name))
  }

  /// A PNG is not written under another format's name, and `rename` refuses names the app could
  /// not have saved, saying why.
  @Test func picturesArePNGAndNewNamesAreNamesTheAppCouldSave() throws {
    try write("Plain-2025-10-07T14:03:12Z.inkling")
    #expect(try runner.run(["import", folder + "/Drafts"]).status == 0)
    for (command, file) in [("thumbnail", "t.jpg"), ("render", "r.WEBP"), ("contact-sheet", "sheet.gif")] {
      let arguments = command == "contact-sheet" ? [command, "-o", file] : [command, "Plain", "-o", file]
      let refused = try runner.run(arguments)
      #expect(refused.status == 2, "\(command)")
      #expect(refused.stderr.contains("writes PNG: name it .png"), "\(refused.stderr)")
      #expect(!FileManager.default.fileExists(atPath: folder + "/" + file))
    }
    #expect(try runner.run(["thumbnail", "Plain", "-o", "t.png"]).status == 0)

    // Import takes any name a file has, so rename does: only one no file name could hold
    // is refused.
    let sentences = [
      String(repeating: "x", count: 2000): "is too long: a file named with it would have 2008 bytes"
    ]
    for (name, sentence) in sentences {
      let refused = try runner.run(["rename", "Plain", name])
      #expect(refused.status == 2, "\(name)")
      #expect(refused.stderr.contains(sentence), "\(refused.stderr)")
    }
    #expect(try runner.run(["list"]).stdout.contains("Plain"))
  }

  /// `backup` into a folder that is not there names the folder (exit 1); `check` of an archive
  /// it cannot read past the first page does not advise running itself.
  @Test func messagesSayWhatIsWrongAndNeverSendYouInACircle() throws {
    try write("Plain-2025-10-07T14:03:12Z.inkling")
    #expect(try runner.run(["import", folder + "/Drafts"]).status == 0)
    let backup = try runner.run(["backup", folder + "/nope/copy.sqlite"])
    #expect(backup.status == 1)
    #expect(backup.stderr == "Error: cannot create a file in \(folder)/nope: No such file or directory\n")

    // An empty file is no archive to read, and an old one is not begun anew: it may be what a
    // failed copy left of one. A file just made (mktemp) is.
    let empty = folder + "/empty.sqlite"
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    let listed = try runner.run(["--archive", empty, "list"])
    #expect(listed.status == 3 && listed.stderr.contains("is not an inkling archive (it is an empty file)"))
    #expect(try runner.run(["--archive", empty, "--quiet", "import", folder + "/Drafts"]).status == 0)
    let old = folder + "/old.sqlite"
    #expect(
      FileManager.default.createFile(
        atPath: old, contents: Data(), attributes: [.modificationDate: Date(timeIntervalSinceNow: -7200)]))
    let refused = try runner.run(["--archive", old, "import", folder + "/Drafts"])
    #expect(refused.status == 3)
    #expect(refused.stderr.contains("it is an empty file, unchanged for 2 h; remove it to start a new archive there"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: old)).isEmpty)

    var bytes = try Data(contentsOf: URL(fileURLWithPath: runner.archive))
    // The b-tree header of page 1, where sqlite_schema begins: a page type SQLite rejects.
    bytes.replaceSubrange(100..<108, with: [0x07, 0, 0, 0xFF, 0xFF, 0, 0, 0])
    try bytes.write(to: URL(fileURLWithPath: folder + "/damaged.sqlite"))
    let check = try runner.run(["--archive", folder + "/damaged.sqlite", "check", "--full"])
    #expect(check.status == 3)
    #expect(check.stderr.contains("is too damaged to be checked further"), "\(check.stderr)")
    #expect(!check.stderr.contains("check --full"))
  }

  /// What a killed backup or export left is removed by the next run into the same folder; the
  /// files of a run still going (this test's own process id), and names that are not ours,
  /// stay.
  @Test func laterRunsRemoveWhatKilledRunsLeft() throws {
    try write("Plain-2025-10-07T14:03:12Z.inkling")
    #expect(try runner.run(["import", folder + "/Drafts"]).status == 0)
    let ended = try ChildProcess.run(["/bin/sh", "-c", "echo $$"])
    let gone = ended.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let live = String(getpid())
    let out = folder + "/out"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let planted = [
      ".copy.sqlite.backup-\(gone)-12345.tmp", ".copy.sqlite.backup-\(gone)-12345.tmp-journal",
      ".copy.sqlite.backup-\(live)-1.tmp", ".other.sqlite.backup-\(gone)-7.tmp",
      ".Plain-2025-10-07T14:03:12Z.inkling.\(gone).99.tmp", ".inkling-export.json.\(gone).5.tmp",
      ".Plain-2025-10-07T14:03:12Z.inkling.\(live).98.tmp", ".notes.tmp", "mine.\(gone).1.tmp",
    ]
    for name in planted { try Data("left".utf8).write(to: URL(fileURLWithPath: out + "/" + name)) }

    #expect(try runner.run(["backup", out + "/copy.sqlite"]).status == 0)
    var left = Set(try FileManager.default.contentsOfDirectory(atPath: out))
    #expect(!left.contains(".copy.sqlite.backup-\(gone)-12345.tmp"))
    #expect(!left.contains(".copy.sqlite.backup-\(gone)-12345.tmp-journal"))
    #expect(left.contains(".copy.sqlite.backup-\(live)-1.tmp") && left.contains(".other.sqlite.backup-\(gone)-7.tmp"))

    #expect(try runner.run(["export", "--to", out]).status == 0)
    left = Set(try FileManager.default.contentsOfDirectory(atPath: out))
    #expect(!left.contains(".Plain-2025-10-07T14:03:12Z.inkling.\(gone).99.tmp"))
    #expect(!left.contains(".inkling-export.json.\(gone).5.tmp"))
    for kept in [".Plain-2025-10-07T14:03:12Z.inkling.\(live).98.tmp", ".notes.tmp", "mine.\(gone).1.tmp"] {
      #expect(left.contains(kept), "\(kept)")
    }
  }

  /// Stamps that do not exist, leap seconds and dates in the future are named.
  @Test func oddStampsGetANote() throws {
    try write("Bad-2025-02-30T10:00:00Z.inkling")
    try write("Leap-2016-12-31T23:59:60Z.inkling")
    try write("Later-2099-01-01T10:00:00Z.inkling")
    let imported = try runner.run(["import", folder + "/Drafts"])
    #expect(imported.status == 0)
    #expect(
      imported.stderr.contains(
        "Bad-2025-02-30T10:00:00Z.inkling: note: the date in the file name, 2025-02-30T10:00:00Z, does not exist"))
    #expect(
      imported.stderr.contains("Leap-2016-12-31T23:59:60Z.inkling: note: the date in the file name has a leap second"))
    #expect(
      imported.stderr.contains("Later-2099-01-01T10:00:00Z.inkling: note: the date in the file name is in the future"))
    #expect(try runner.run(["list", "--paths"]).stdout.split(separator: "\n").sorted() == ["Bad", "Later", "Leap"])
  }

  /// Times past what the archive's nanoseconds hold (2262-04-11) stopped the program (exit
  /// 132): a file modified in 2300 lost its whole batch, and a revert of a draft saved in 2500
  /// trapped. The file's time is kept as the latest the archive holds.
  @Test func timesBeyond2262AreKept() throws {
    try write("Far-2025-10-05T14:03:12Z.inkling")
    try write("Near-2025-10-06T14:03:12Z.inkling")
    let far = folder + "/Drafts/Far-2025-10-05T14:03:12Z.inkling"
    var times = [timespec(tv_sec: 10_413_792_000, tv_nsec: 0), timespec(tv_sec: 10_413_792_000, tv_nsec: 0)]  // 2300
    #expect(utimensat(AT_FDCWD, far, &times, 0) == 0)
    let imported = try runner.run(["import", folder + "/Drafts"])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stdout.hasPrefix("Imported 2 versions"), "\(imported.stdout)")
    #expect(try runner.run(["restore", "Far", "--to", folder + "/Out"]).status == 0)
    var info = stat()
    #expect(stat(folder + "/Out/Far-2025-10-05T14:03:12Z.inkling", &info) == 0)
    #expect(info.st_mtim.tv_sec == Int(Int64.max / 1_000_000_000))

    try write("Late-2025-01-01T00:00:00Z.inkling", #"{"drawingData":"","color":{"r":1,"g":1,"b":1,"a":1}}"#)
    try write("Late-2500-06-01T00:00:00Z.inkling")
    #expect(try runner.run(["import", folder + "/Drafts"]).status == 0)
    let reverted = try runner.run(["revert", "Late", "--version", "1"])
    #expect(reverted.status == 0, "\(reverted.stderr)")
    #expect(try runner.run(["history", "Late"]).stdout.contains("2500-06-01"))
    #expect(try runner.run(["check", "--full"]).status == 0)
  }

  /// Item 3: a name that holds control characters is quoted for people, NUL-separated for
  /// scripts that ask, and exact in JSON.
  @Test func namesAreShownSafely() throws {
    try write("Esc\u{1B}[31mRED-2025-10-05T14:03:12Z.inkling")
    try write("New\nline-2025-10-06T14:03:12Z.inkling")
    try write("Plain-2025-10-07T14:03:12Z.inkling")
    #expect(try runner.run(["import", folder + "/Drafts"]).status == 0)

    let list = try runner.run(["list"])
    #expect(!list.stdout.contains("\u{1B}"))
    #expect(list.stdout.contains(#""Esc\033[31mRED""#))
    #expect(list.stdout.contains(#""New\nline""#))
    #expect(list.stdout.split(separator: "\n").count == 4, "\(list.stdout)")

    let paths = try runner.run(["list", "--paths"])
    #expect(paths.stdout == "Plain\n\"New\\nline\"\n\"Esc\\033[31mRED\"\n")
    let nulls = try runner.run(["list", "--paths", "-0"])
    #expect(nulls.stdout == "Plain\0New\nline\0Esc\u{1B}[31mRED\0")
    #expect(try runner.run(["list", "--paths", "--null"]).stdout == nulls.stdout)
    #expect(try runner.run(["list", "--null"]).status == 2)

    let json = try runner.run(["list", "--json"])
    #expect(json.stdout.contains(#""name":"Esc\u001b[31mRED""#))
    #expect(json.stdout.contains(#""name":"New\nline""#))

    let history = try runner.run(["history", "New\nline"])
    #expect(history.status == 0)
    #expect(history.stdout.contains(#""New\nline-2025-10-06T14:03:12Z.inkling""#))
    let missing = try runner.run(["history", "Esc"])
    #expect(missing.stderr.hasPrefix(#"Error: no draft named "Esc" in the archive; did you mean "Esc\033[31mRED"?"#))
  }

  /// A name written with quotes and a backslash is quoted and escaped too, as git does: shown
  /// raw, `"New\nline"` would read as the quoted form of the name on two lines.
  @Test func namesWithQuotesOrBackslashesAreQuoted() throws {
    try write("New\nline-2025-10-06T14:03:12Z.inkling")
    try write(#""New\nline"-2025-10-07T14:03:12Z.inkling"#)
    try write(#"Back\slash-2025-10-08T14:03:12Z.inkling"#)
    #expect(try runner.run(["import", folder + "/Drafts"]).status == 0)
    let paths = try runner.run(["list", "--paths"])
    #expect(
      paths.stdout.split(separator: "\n") == [#""Back\\slash""#, #""\"New\\nline\"""#, #""New\nline""#],
      "\(paths.stdout)")
    let missing = try runner.run(["history", "New"])
    #expect(missing.stderr.contains(#""\"New\\nline\"""#), "\(missing.stderr)")
  }

  /// What someone typed is echoed in an error with its control characters made visible: an
  /// escape sequence there would retitle or recolour the terminal.
  @Test func typedEscapesInErrorsAreShownNotRun() throws {
    let typed = "\u{1B}]0;PWN\u{07}\u{1B}[31mX\u{202E}"
    let commands: [[String]] = [
      [typed], ["list", "--" + typed], ["list", "--sort", typed], ["list", "--limit", typed],
      ["search", "name:" + typed + " ("], ["search", "saved:" + typed], ["search", typed + ":x"],
    ]
    for command in commands {
      let result = try runner.run(command)
      #expect(result.status == 2, "\(command): \(result.stderr)")
      #expect(
        !result.stderr.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0 == "\u{202E}" },
        "\(command): \(result.stderr.debugDescription)")
    }
    #expect(try runner.run([typed]).stderr.contains(#"\033]0;PWN\007\033[31mX\u{202E}"#))
    #expect(try runner.run(["search", "saved:" + typed]).stderr.contains("␛]0;PWN␇␛[31mX�"))
  }

  /// Item 6: one rule for a draft's name, and the nearest names on a miss.
  @Test func draftNamesAreExactWithSuggestions() throws {
    try write("Café sketch-2025-10-05T14:03:12Z.inkling")
    try write("café-2025-10-06T14:03:12Z.inkling")
    try write("Café-2025-10-07T14:03:12Z.inkling")
    #expect(try runner.run(["import", folder + "/Drafts"]).status == 0)
    let near = try runner.run(["history", "cafe sketch"])
    #expect(near.status == 1)
    #expect(near.stderr == "Error: no draft named \"cafe sketch\" in the archive; did you mean \"Café sketch\"?\n")
    #expect(try runner.run(["list", "--exact", "CAFE SKETCH", "--paths"]).stdout == "")
    #expect(try runner.run(["list", "--exact", "café", "--paths"]).stdout == "café\n")
    // NFD typed is the same name as NFC stored.
    #expect(try runner.run(["history", "Cafe\u{301}"]).status == 0)
    let typo = try runner.run(["show", "Cafr"])
    #expect(typo.stderr.contains("did you mean"), "\(typo.stderr)")
  }

  /// Items 12, 13, 15: quiet means quiet; read-write maintenance never makes an archive out
  /// of a typo; small usage mistakes are usage errors.
  @Test func smallOnes() throws {
    try write("Good-2025-10-05T14:03:12Z.inkling")
    try write("Other-2025-10-06T14:03:12Z.inkling")
    try write("Bad-2025-10-05T14:03:12Z.inkling", "{")
    let quiet = try runner.run(["-q", "import", folder + "/Drafts"])
    #expect(quiet.status == 1)
    #expect(quiet.stdout == "")
    #expect(
      quiet.stderr.hasSuffix(
        "Bad-2025-10-05T14:03:12Z.inkling: the file is incomplete (its JSON stops in the middle, after 1 byte), as a download or copy still in progress leaves it; let it finish, then import it again\n"
      ))

    for command in [["gc"], ["reindex"]] {
      let typo = try runner.run(["--archive", folder + "/typo.sqlite"] + command)
      #expect(typo.status == 3, "\(command)")
      #expect(typo.stderr.hasPrefix("Error: no archive at \(folder)/typo.sqlite"), "\(typo.stderr)")
      #expect(!FileManager.default.fileExists(atPath: folder + "/typo.sqlite"))
    }

    let helpHelp = try runner.run(["help", "help"])
    #expect(helpHelp.status == 0)
    #expect(helpHelp.stdout.hasPrefix("OVERVIEW: "))
    let age = try runner.run(["list", "--since", "-1d"])
    #expect(age.status == 2)
    #expect(age.stderr.hasPrefix(#"Error: "-1d" is not a date"#), "\(age.stderr)")
    // `m` could be minutes or months: asked, not guessed, in an option and in a search term.
    for arguments in [["list", "--since", "30m"], ["search", "saved:<30m"], ["purge", "--older-than", "30m"]] {
      let ambiguous = try runner.run(arguments)
      #expect(ambiguous.status == 2, "\(arguments)")
      #expect(
        ambiguous.stderr.contains("30m\" could be minutes or months: write 30min or 30mo")
          || ambiguous.stderr.contains("30m' could be minutes or months: write 30min or 30mo"), "\(ambiguous.stderr)")
    }
    let minutes = try runner.run(["list", "--since", "30min", "--json"])
    #expect(minutes.status == 0, "\(minutes.stderr)")
    let empty = try runner.run(["restore", "Good", "-o", ""])
    #expect(empty.status == 2)
    #expect(empty.stderr.hasPrefix("Error: Invalid value '' for '--output FILE': expected a file name."))
    let limited = try runner.run(["list", "--limit", "1"])
    #expect(limited.stderr == "1 of 2 drafts\n")
    #expect(try runner.run(["list"]).stderr == "2 drafts\n")
  }
}

/// Items 10 and 11: what import says about the files it passes over.
@Suite struct ImportReportTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  init() throws {
    runner = try BinaryRunner(fresh: "report", making: ["Real"])
    let good = #"{"drawingData":"d3Jk8AEACAA=","color":{"r":1,"g":1,"b":1,"a":1}}"#
    // Not a drawing this build reads: it is archived all the same, with a note.
    let opaque = #"{"drawingData":"AAECAw==","color":{"r":1,"g":1,"b":1,"a":1}}"#
    for (name, text) in [
      ("Good-2025-10-05T14:03:12Z.inkling", good), ("Opaque-2025-10-05T14:03:12Z.inkling", opaque),
      ("notes.txt", "hello"),
    ] {
      try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/Real/" + name))
    }
  }

  @Test func aFolderNamedTwiceIsSearchedOnce() throws {
    let twice = try runner.run(["import", "Real", "Real"])
    #expect(twice.status == 0, "\(twice.stderr)")
    #expect(twice.stderr.contains("Real: ignored: a folder already searched in this import\n"), "\(twice.stderr)")
    #expect(!twice.stderr.contains("loop"))
    #expect(twice.stdout.hasPrefix("Imported 2 versions (2 new drafts); 0 already archived, 2 ignored, 0 rejected."))
  }

  @Test func ignoredFilesAreNamedWhenAskedOrNamedExplicitly() throws {
    let plain = try runner.run(["import", "Real"])
    #expect(!plain.stderr.contains("notes.txt"))
    #expect(
      plain.stderr.contains(
        "Real/Opaque-2025-10-05T14:03:12Z.inkling: note: the drawing does not decode"), "\(plain.stderr)")
    // A file named on the command line was meant as a draft: it is rejected, and the exit says so.
    let explicit = try runner.run(["import", "Real/notes.txt"])
    #expect(explicit.stderr == "Real/notes.txt: not a draft file: its name does not end in .inkling\n")
    #expect(explicit.status == 1)
    #expect(explicit.stdout.contains("0 ignored, 1 rejected"))
    // `-` is not standard input for import: a usage error that says what to do instead.
    let dash = try runner.run(["import", "-"])
    #expect(dash.status == 2)
    #expect(dash.stderr.contains("not standard input") && dash.stderr.contains("xargs -0"))
    let verbose = try runner.run(["import", "-v", "Real"])
    #expect(verbose.stderr.contains("Real/notes.txt: ignored: not a draft file"))
    #expect(verbose.stderr.contains("Real/Good-2025-10-05T14:03:12Z.inkling: already archived"))
    let ndjson = try runner.run(["import", "--ndjson", "Real"])
    let lines = ndjson.stdout.split(separator: "\n")
    #expect(
      lines.contains(
        #"{"path":"Real/notes.txt","status":"ignored","reason":"not a draft file (its name does not end in .inkling)"}"#
      ))
    #expect(
      lines.contains(#"{"path":"Real/Good-2025-10-05T14:03:12Z.inkling","status":"alreadyArchived","draft":"Good"}"#))
    #expect(lines.last?.hasPrefix(#"{"summary":{"versionsImported":0,"#) == true)
    #expect(ndjson.stderr == "")
  }
}
