// How notes and labels read on the command line and in JSON, wherever a draft or a version
// shows them (`show`, `history`, `note --list`). A note is text from the archive: it is
// printed through Quoted, so that a line break shows as `\n` inside quotes and nothing in it
// can move the cursor or hide the rest of the line.

import InklingArchive
import InklingFormats

extension DraftNote {
  package var json: JSONValue {
    [
      "id": .int(Int(id)), "version": .optional(version.map { .int($0) }), "text": .string(text),
      "written": .date(written),
    ]
  }

  /// `sent to Anna (note 3, version 2, 2026-12-07 09:00:00)`: the text, then what the note is on.
  package var line: String {
    "\(Quoted.display(text)) (note \(id)\(version.map { ", version \($0)" } ?? ""), \(Format.date(written)))"
  }

  /// A `Notes:` block, as `show` aligns its lines; none for no notes.
  package static func lines(_ notes: [DraftNote]) -> [String] {
    notes.enumerated().map { ($0.offset == 0 ? "Notes:       " : "             ") + $0.element.line }
  }
}

extension VersionInfo {
  /// The labels, each shown safely, joined by commas: `final, sent to printer`.
  package var labelList: String { labels.map(Quoted.display).joined(separator: ", ") }
}
