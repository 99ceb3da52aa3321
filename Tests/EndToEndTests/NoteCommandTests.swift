import Foundation
import InklingTestSupport
import Testing

/// `note` and `search 'note:…'` through the built binary: notes on a draft and on a version,
/// listed and removed by id, shown by `show` and `history` (tables and JSON), refused when
/// they cannot be one, and found by search.
@Suite struct NoteCommandTests: TinyDraftsSuite {
  let runner: BinaryRunner

  init() throws {
    runner = try BinaryRunner(fresh: "notes", making: ["Drafts"])
  }

  func importSample() throws {
    try write("Plan-B-2025-10-01T10:00:00Z.inkling", red: 1)
    try write("Plan-B-2025-10-02T10:00:00Z.inkling", red: 0.5)
    try write("Scratch-2025-09-01T10:00:00Z.inkling", red: 0.75)
    let imported = try runner.run(["import", folder + "/Drafts"])
    #expect(imported.status == 0, "\(imported.stderr)")
  }

  @Test func notesOnTheDraftAndAVersionAreShownByShowAndHistory() throws {
    try importSample()
    let added = try run(["note", "Plan-B", "Anna", "wants", "the", "roof", "in", "blue"])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout == "Added note 1 to \"Plan-B\".\n")
    let onVersion = try run(["note", "Plan-B", "--version", "1", "sent to the printer"])
    #expect(onVersion.stdout == "Added note 2 to \"Plan-B\" version 1.\n", "\(onVersion.stderr)")
    let json = try run(["--json", "note", "Scratch", "  two\nlines  "])
    #expect(json.stdout.hasPrefix(#"{"draft":"Scratch","added":{"id":3,"version":null,"text":"two\nlines","written":"#))

    // `show` of the newest version: the draft's note, not version 1's.
    let show = try run(["show", "Plan-B"])
    #expect(show.stdout.contains("\nNotes:       Anna wants the roof in blue (note 1, "), "\(show.stdout)")
    #expect(!show.stdout.contains("printer"), "\(show.stdout)")
    let first = try run(["show", "Plan-B", "--version", "1"])
    #expect(first.stdout.contains("\n             sent to the printer (note 2, version 1, "), "\(first.stdout)")
    let showJSON = try run(["--json", "show", "Plan-B", "--version", "1"])
    #expect(showJSON.stdout.contains(#""notes":[{"id":1,"version":null,"text":"Anna wants the roof in blue""#))
    #expect(showJSON.stdout.contains(#""notes":[{"id":2,"version":1,"text":"sent to the printer""#))
    // A note with a line break is printed as one line, quoted and escaped.
    #expect(try run(["show", "Scratch"]).stdout.contains("Notes:       \"two\\nlines\" (note 3, "))

    let history = try run(["history", "Plan-B"])
    #expect(history.stdout.contains("\nNotes:       Anna wants the roof in blue (note 1, "), "\(history.stdout)")
    #expect(history.stdout.contains("\n             sent to the printer (note 2, version 1, "), "\(history.stdout)")
    let historyJSON = try run(["--json", "history", "Plan-B"])
    #expect(historyJSON.stdout.contains(#""notes":[{"id":1,"version":null,"#), "\(historyJSON.stdout)")
    #expect(historyJSON.stdout.contains(#""notes":[{"id":2,"version":1,"text":"sent to the printer","#))
    // A draft nobody wrote about prints as before.
    let other = try run(["--json", "history", "Scratch"])
    #expect(!other.stdout.contains(#""version":1,"text""#))
  }

  @Test func notesAreListedAndRemovedByID() throws {
    try importSample()
    #expect(try run(["note", "Plan-B", "first"]).status == 0)
    #expect(try run(["note", "Plan-B", "--version", "2", "second"]).status == 0)
    #expect(try run(["note", "Scratch", "elsewhere"]).status == 0)
    let list = try run(["note", "Plan-B", "--list"])
    let lines = list.stdout.split(separator: "\n")
    #expect(lines.count == 3, "\(list.stdout)")
    #expect(lines.first?.hasPrefix("ID  VERSION  WRITTEN") == true, "\(list.stdout)")
    #expect(lines[1].hasPrefix(" 1        -  ") && lines[1].hasSuffix("  first"), "\(list.stdout)")
    #expect(lines[2].hasPrefix(" 2        2  ") && lines[2].hasSuffix("  second"), "\(list.stdout)")
    let json = try run(["--json", "note", "Plan-B", "--list"])
    #expect(json.stdout.hasPrefix(#"{"draft":"Plan-B","notes":[{"id":1,"version":null,"text":"first","#))

    // Another draft's note is not this draft's to remove.
    let foreign = try run(["note", "Plan-B", "--remove", "3"])
    #expect(foreign.status == 1)
    #expect(
      foreign.stderr == "Error: \"Plan-B\" has no note 3; `inkling-archive note \"Plan-B\" --list` shows its notes\n",
      "\(foreign.stderr)")
    let removed = try run(["note", "Plan-B", "--remove", "2"])
    #expect(removed.stdout == "Removed note 2 from \"Plan-B\" version 2.\n", "\(removed.stderr)")
    #expect(try run(["note", "Plan-B", "--remove", "2"]).status == 1)
    #expect(try run(["note", "Plan-B", "--list"]).stdout.split(separator: "\n").count == 2)
    #expect(try run(["note", "Scratch", "--list"]).stdout.contains("elsewhere"))
  }

  @Test func searchFindsDraftsByTheirNotesWords() throws {
    try importSample()
    #expect(try run(["note", "Plan-B", "--version", "1", "Sent to the PRINTER in Köln"]).status == 0)
    #expect(try run(["note", "Scratch", "just a test"]).status == 0)
    #expect(try run(["search", "--paths", "note:printer"]).stdout == "Plan-B\n")
    #expect(try run(["search", "--paths", "note:koln"]).stdout == "Plan-B\n")
    #expect(try run(["search", "--paths", "note:\"the printer\""]).stdout == "Plan-B\n")
    #expect(try run(["search", "--paths", "note:test or note:printer"]).stdout == "Plan-B\nScratch\n")
    #expect(try run(["search", "--paths", "not note:printer"]).stdout == "Scratch\n")
    #expect(try run(["search", "--paths", "note:printer name:scratch"]).status == 1)
    let none = try run(["search", "--paths", "note:nowhere"])
    #expect(none.status == 1 && none.stdout.isEmpty)
    let compared = try run(["search", "note:>printer"])
    #expect(compared.status == 2 && compared.stderr.contains("does not apply to note"), "\(compared.stderr)")
  }

  @Test func refusedNotes() throws {
    try importSample()
    let empty = try run(["note", "Plan-B", "  "])
    #expect(empty.status == 2 && empty.stderr.hasPrefix("Error: a note needs some text"), "\(empty.stderr)")
    let escape = try run(["note", "Plan-B", "red \u{1B}[31m"])
    #expect(escape.status == 2 && escape.stderr.contains("another control character"), "\(escape.stderr)")
    let long = try run(["note", "Plan-B", String(repeating: "x", count: 65_537)])
    #expect(long.status == 2 && long.stderr.contains("at most 65,536 characters"), "\(long.stderr)")
    let version = try run(["note", "Plan-B", "--version", "9", "x"])
    #expect(version.status == 1 && version.stderr.contains("there is no version 9"), "\(version.stderr)")
    let missing = try run(["note", "Plan-C", "x"])
    #expect(missing.status == 1 && missing.stderr.contains("no draft named \"Plan-C\""), "\(missing.stderr)")
    let nothing = try run(["note", "Plan-B"])
    #expect(nothing.status == 2, "\(nothing.stderr)")
    let both = try run(["note", "Plan-B", "--list", "--remove", "1"])
    #expect(both.status == 2, "\(both.stderr)")
    #expect(try run(["delete", "Scratch"]).status == 0)
    let trashed = try run(["note", "Scratch", "x"])
    #expect(trashed.status == 1 && trashed.stderr.contains("in the trash"), "\(trashed.stderr)")
    #expect(try run(["note", "Plan-B", "--list"]).stdout.isEmpty)
  }

  /// A fake editor: a shell script that writes `text` into the file it is given and exits
  /// with `status`.
  func editor(writing text: String, status: Int = 0) throws -> [String: String] {
    let path = folder + "/editor-\(status)-\(text.count).sh"
    let script = "#!/bin/sh\nprintf '%s' '\(text)' > \"$1\"\nexit \(status)\n"
    try Data(script.utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o755)
    // Run by sh rather than executed: a child another test forks while the script is being
    // written holds it open for writing, and exec then fails with "Text file busy".
    return ["EDITOR": "/bin/sh " + path, "VISUAL": ""]
  }

  @Test func editWritesTheNoteInTheEditor() throws {
    try importSample()
    let added = try run(
      ["note", "Plan-B", "--version", "1", "--edit"], environment: try editor(writing: "from the editor\nline two\n"))
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout == "Added note 1 to \"Plan-B\" version 1.\n")
    #expect(try run(["note", "Plan-B", "--list"]).stdout.contains("  \"from the editor\\nline two\"\n"))
    // An editor that fails, or leaves the file empty, writes no note.
    let failed = try run(["note", "Plan-B", "--edit"], environment: try editor(writing: "half", status: 3))
    #expect(
      failed.status == 1 && failed.stderr.contains("exited with status 3; no note was written"), "\(failed.stderr)")
    let empty = try run(["note", "Plan-B", "--edit"], environment: try editor(writing: "  "))
    #expect(empty.status == 2 && empty.stderr.contains("a note needs some text"), "\(empty.stderr)")
    #expect(try run(["note", "Plan-B", "--list"]).stdout.split(separator: "\n").count == 2)
    // The draft is found before the editor opens.
    let missing = try run(["note", "Plan-C", "--edit"], environment: try editor(writing: "lost"))
    #expect(missing.status == 1 && missing.stderr.contains("no draft named"), "\(missing.stderr)")
    #expect(try run(["note", "Plan-B", "--edit", "text"]).status == 2)
  }
}
