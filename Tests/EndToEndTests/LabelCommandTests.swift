import Foundation
import InklingTestSupport
import Testing

/// `label` and `search 'label:…'` through the built binary: a version named, the name taken
/// by every `--version` option (and diff's versions), shown by history, show and diff, listed,
/// removed, and refused when it cannot be one.
@Suite struct LabelCommandTests: TinyDraftsSuite {
  let runner: BinaryRunner

  init() throws {
    runner = try BinaryRunner(fresh: "labels", making: ["Drafts"])
  }

  func importSample() throws {
    try write("Plan-B-2025-10-01T10:00:00Z.inkling", red: 1)
    try write("Plan-B-2025-10-02T10:00:00Z.inkling", red: 0.5)
    try write("Plan-B-2025-10-03T10:00:00Z.inkling", red: 0.25)
    try write("Scratch-2025-09-01T10:00:00Z.inkling", red: 0.75)
    let imported = try runner.run(["import", folder + "/Drafts"])
    #expect(imported.status == 0, "\(imported.stderr)")
  }

  @Test func aLabelNamesAVersionForEveryVersionOption() throws {
    try importSample()
    let printer = try run(["label", "Plan-B", "--version", "1", "sent to printer"])
    #expect(printer.status == 0, "\(printer.stderr)")
    #expect(printer.stdout == "Labelled \"Plan-B\" version 1 \"sent to printer\".\n")
    // Without --version, the newest, as git tags HEAD.
    #expect(try run(["label", "Plan-B", "Final"]).stdout == "Labelled \"Plan-B\" version 3 \"Final\".\n")
    #expect(
      try run(["label", "Plan-B", "--version", "3", "FINAL"]).stdout == "Labelled \"Plan-B\" version 3 \"Final\".\n")

    let show = try run(["show", "Plan-B", "--version", "final"])
    #expect(show.stdout.contains("\nVersion:     3, saved 2025-10-03"), "\(show.stdout)")
    #expect(show.stdout.contains("\nLabels:      Final\n"), "\(show.stdout)")
    #expect(try run(["show", "Plan-B", "--version", "Sent To Printer"]).stdout.contains("\nVersion:     1, "))

    let restored = try run(["restore", "Plan-B", "--version", "sent to printer", "-o", folder + "/out.inkling"])
    #expect(restored.status == 0, "\(restored.stderr)")
    let original = try Data(contentsOf: URL(fileURLWithPath: folder + "/Drafts/Plan-B-2025-10-01T10:00:00Z.inkling"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/out.inkling")) == original)
    #expect(try run(["thumbnail", "Plan-B", "--version", "final", "-o", folder + "/t.png"]).status == 0)
    #expect(try run(["render", "Plan-B", "--version", "final", "-o", folder + "/r.svg"]).status == 0)

    let diff = try run(["diff", "Plan-B", "sent to printer", "final"])
    #expect(diff.stdout.hasPrefix("Plan-B: version 1 (sent to printer) → 3 (Final): "), "\(diff.stdout)\(diff.stderr)")
    #expect(try run(["diff", "Plan-B", "final"]).stdout.hasPrefix("Plan-B: version 2 → 3 (Final): "))

    let history = try run(["history", "Plan-B"])
    let lines = history.stdout.split(separator: "\n")
    #expect(lines.first?.hasPrefix("#  LABELS           SAVED") == true, "\(history.stdout)")
    #expect(lines[1].hasPrefix("1  sent to printer  2025-10-01"), "\(history.stdout)")
    #expect(lines[2].hasPrefix("2  -                2025-10-02"), "\(history.stdout)")
    #expect(lines[3].hasPrefix("3  Final            2025-10-03"), "\(history.stdout)")
    #expect(try run(["--json", "history", "Plan-B"]).stdout.contains(#""sources":[{"#))
    #expect(try run(["--json", "history", "Plan-B"]).stdout.contains(#""labels":["Final"]"#))
    // A draft without labels prints as before: no LABELS column.
    #expect(try run(["history", "Scratch"]).stdout.hasPrefix("#  SAVED"))

    #expect(
      try run(["label", "Plan-B"]).stdout
        == "LABEL            VERSION\nFinal                  3\nsent to printer        1\n")
    #expect(
      try run(["--json", "label", "Plan-B"]).stdout
        == #"{"draft":"Plan-B","labels":[{"name":"Final","version":3},{"name":"sent to printer","version":1}]}"# + "\n")

    #expect(try run(["search", "--paths", "label:final"]).stdout == "Plan-B\n")
    #expect(try run(["search", "--paths", "label:\"SENT TO PRINTER\""]).stdout == "Plan-B\n")
    #expect(try run(["search", "--paths", "not label:final"]).stdout == "Scratch\n")
    #expect(try run(["search", "--paths", "label:sent"]).status == 1)

    let reverted = try run(["revert", "Plan-B", "--version", "sent to printer"])
    #expect(
      reverted.status == 0 && reverted.stdout.contains("a copy of version 1"), "\(reverted.stdout)\(reverted.stderr)")
    // A note takes a label for its version too.
    #expect(
      try run(["note", "Plan-B", "--version", "final", "approved"]).stdout == "Added note 1 to \"Plan-B\" version 3.\n")
  }

  @Test func labelsAreRemovedAndRefused() throws {
    try importSample()
    #expect(try run(["label", "Plan-B", "--version", "2", "final"]).status == 0)
    let taken = try run(["label", "Plan-B", "--version", "3", "Final"])
    #expect(taken.status == 1)
    #expect(
      taken.stderr
        == "Error: version 2 of \"Plan-B\" is labelled \"final\" already; `label \"Plan-B\" --remove \"final\"` frees the name\n",
      "\(taken.stderr)")
    let number = try run(["label", "Plan-B", "--version", "3", "42"])
    #expect(number.status == 2 && number.stderr.contains("a label is not a whole number"), "\(number.stderr)")
    let empty = try run(["label", "Plan-B", " "])
    #expect(empty.status == 2 && empty.stderr.contains("a label needs a letter"), "\(empty.stderr)")
    let missing = try run(["show", "Plan-B", "--version", "draft one"])
    #expect(missing.status == 1)
    #expect(
      missing.stderr == "Error: no version of \"Plan-B\" is labelled \"draft one\"; its labels are \"final\"\n",
      "\(missing.stderr)")
    let none = try run(["restore", "Scratch", "--version", "final", "-o", folder + "/x.inkling"])
    #expect(none.status == 1 && none.stderr.contains("it has no labels"), "\(none.stderr)")
    #expect(try run(["show", "Plan-B", "--version", "0"]).status == 2)

    let removed = try run(["label", "Plan-B", "--remove", "FINAL"])
    #expect(removed.stdout == "Removed the label \"final\" from \"Plan-B\" version 2.\n", "\(removed.stderr)")
    #expect(try run(["label", "Plan-B", "--remove", "final"]).status == 1)
    #expect(try run(["show", "Plan-B", "--version", "final"]).status == 1)
    #expect(try run(["label", "Plan-B"]).stdout.isEmpty)
    // The name is free again, for another version.
    #expect(try run(["label", "Plan-B", "--version", "3", "final"]).status == 0)
  }

  /// rename --merge joins two drafts: the notes of both, on the drafts and on their versions,
  /// and the labels of both, but for a name both have, which stays the target's.
  @Test func aMergeKeepsNotesAndLabels() throws {
    try importSample()
    try write("Plan-C-2025-10-05T10:00:00Z.inkling", red: 0.1)
    #expect(try run(["import", folder + "/Drafts"]).status == 0)
    #expect(try run(["note", "Plan-C", "about C"]).status == 0)
    #expect(try run(["note", "Plan-C", "--version", "1", "on C's save"]).status == 0)
    #expect(try run(["label", "Plan-C", "--version", "1", "sent"]).status == 0)
    #expect(try run(["label", "Plan-C", "--version", "1", "final"]).status == 0)
    #expect(try run(["label", "Plan-B", "--version", "2", "final"]).status == 0)
    let merged = try run(["rename", "Plan-C", "Plan-B", "--merge"])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(try run(["label", "Plan-B"]).stdout == "LABEL  VERSION\nfinal        2\nsent         4\n")
    let notes = try run(["note", "Plan-B", "--list"]).stdout
    #expect(notes.contains("  about C\n") && notes.contains("4  ") && notes.contains("  on C's save\n"), "\(notes)")
    #expect(try run(["search", "--paths", "note:\"C's save\" label:sent"]).stdout == "Plan-B\n")
    let check = try run(["check"])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
  }
}
