// The conditions a search tests on one draft, as SQL over `draft AS d` with every value a
// bound parameter. InklingArchive's SearchCompiler maps each term of a query to one of these
// and joins them with and/or/not; the text of the SQL is written here only.
//
// Each condition is exact and cheap for one draft: a column compare on draft_by_latest (which
// holds latest and first save, id, version count, folded name, the newest drawing's strokes
// and inks, first and newest import: migrations 0006 and 0008), or an index probe keyed by d.id
// or d.latest_version_id. SQLite defers reading a table row until a column outside the index
// is needed (OP_DeferredSeek), so the walk of DraftSearchSQL rejects most drafts from the index.

/// A condition on `draft AS d`: SQL and its arguments, in order.
package struct DraftPredicate {
  package let sql: String
  package let arguments: [(any DatabaseValueConvertible)?]

  init(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?] = []) {
    self.sql = sql
    self.arguments = arguments
  }

  // MARK: - Joining

  /// Every draft.
  package static var all: DraftPredicate { DraftPredicate("1") }
  /// No draft (an empty period). Not the constant 0: with a constant false term SQLite finds no
  /// plan for a query `INDEXED BY` a partial index (migration 0012), whose condition it can no
  /// longer see implied. A count is never negative, and the test reads the index only.
  package static var none: DraftPredicate { DraftPredicate("d.version_count < 0") }
  /// Drafts with versions: "imported at any time".
  package static var hasVersions: DraftPredicate { DraftPredicate("d.version_count > 0") }

  /// All of `parts`, tested in this order (SQLite evaluates a WHERE clause's terms in order).
  package static func and(_ parts: [DraftPredicate]) -> DraftPredicate {
    DraftPredicate("(" + parts.map(\.sql).joined(separator: " AND ") + ")", parts.flatMap(\.arguments))
  }

  package static func or(_ parts: [DraftPredicate]) -> DraftPredicate {
    DraftPredicate("(" + parts.map(\.sql).joined(separator: " OR ") + ")", parts.flatMap(\.arguments))
  }

  package static func not(_ part: DraftPredicate) -> DraftPredicate {
    DraftPredicate("NOT " + part.sql, part.arguments)
  }

  // MARK: - Names (folded by NameFolding.fold, but for an exact name)

  package static func nameContains(folded text: String) -> DraftPredicate {
    DraftPredicate("instr(d.name_folded, ?) > 0", [text])
  }

  /// The draft called exactly `name` (NFC, as names are stored).
  package static func name(is name: String) -> DraftPredicate {
    DraftPredicate("d.name = ?", [name])
  }

  package static func nameMatches(foldedGlob pattern: String) -> DraftPredicate {
    DraftPredicate("d.name_folded GLOB ?", [pattern])
  }

  // MARK: - Sources

  /// One of the draft's versions came from a source whose label contains `text` (folded, as
  /// migration 0013 folds `source.label_folded`). Sources are few, so the set of matching ones
  /// is built once per statement; the draft's versions are then probed in version_by_draft and
  /// the primary key of version_source.
  package static func source(containsFolded text: String) -> DraftPredicate {
    DraftPredicate(
      """
      EXISTS (SELECT 1 FROM version AS sv JOIN version_source AS svs ON svs.version_id = sv.id \
      WHERE sv.draft_id = d.id AND svs.source_id IN (SELECT id FROM source WHERE instr(label_folded, ?) > 0))
      """, [text])
  }

  // MARK: - Tags

  /// The draft has the tag whose fold is `text` (migration 0019): one entry of tag_by_folded,
  /// then the primary key of draft_tag.
  package static func tag(folded text: String) -> DraftPredicate {
    DraftPredicate(
      "EXISTS (SELECT 1 FROM draft_tag AS dt WHERE dt.draft_id = d.id AND dt.tag_id = (SELECT id FROM tag WHERE name_folded = ?))",
      [text])
  }

  /// The draft has a tag whose fold starts with `prefix` (a group: `client:`): the matching
  /// tags are a range of tag_by_folded, built once per statement.
  package static func tag(foldedPrefix prefix: String) -> DraftPredicate {
    DraftPredicate(
      """
      EXISTS (SELECT 1 FROM draft_tag AS dt WHERE dt.draft_id = d.id AND dt.tag_id IN \
      (SELECT id FROM tag WHERE name_folded >= ? AND name_folded < ?))
      """, [prefix, prefix + "\u{10FFFF}"])
  }

  // MARK: - Notes and labels

  /// A note on the draft or on one of its versions contains `text` (folded, as migration 0019
  /// folds `note.text_folded`): the draft's notes are one range of note_by_draft.
  package static func note(containsFolded text: String) -> DraftPredicate {
    DraftPredicate(
      "EXISTS (SELECT 1 FROM note AS n INDEXED BY note_by_draft WHERE n.draft_id = d.id AND instr(n.text_folded, ?) > 0)",
      [text])
  }

  /// One of the draft's versions has the label whose fold is `name`: one entry of
  /// version_label_by_draft.
  package static func label(folded name: String) -> DraftPredicate {
    DraftPredicate(
      "EXISTS (SELECT 1 FROM version_label AS vl WHERE vl.draft_id = d.id AND vl.name_folded = ?)", [name])
  }

  // MARK: - Stars

  /// The draft's stars (0 for none: migration 0019) compared with `count`.
  package static func stars(_ comparison: DraftComparison, _ count: Int) -> DraftPredicate {
    DraftPredicate("coalesce(d.stars, 0) \(comparison.rawValue) ?", [count])
  }

  // MARK: - Times

  /// The newest save or import is at or after `lower` (milliseconds since 1970).
  package static func time(_ time: DraftTime, atOrAfter lower: Int64) -> DraftPredicate {
    DraftPredicate("\(time.latest) >= ?", [lower])
  }

  /// The first save or import is before `upper`.
  package static func time(_ time: DraftTime, before upper: Int64) -> DraftPredicate {
    DraftPredicate("\(time.first) < ?", [upper])
  }

  /// A version saved (imported) in [lower, upper) is possible: the draft's first time is before
  /// `upper` and its newest at or after `lower`. Both are in draft_by_latest.
  package static func time(_ time: DraftTime, spans lower: Int64, _ upper: Int64) -> DraftPredicate {
    DraftPredicate("\(time.latest) >= ? AND \(time.first) < ?", [lower, upper])
  }

  /// With `spans`: a version saved (imported) in [lower, upper). The first or newest time
  /// inside the period settles it; otherwise the draft's versions are read.
  package static func time(_ time: DraftTime, within lower: Int64, _ upper: Int64) -> DraftPredicate {
    DraftPredicate(
      """
      (\(time.first) >= ? OR \(time.latest) < ? OR EXISTS (SELECT 1 FROM version AS v WHERE v.draft_id = d.id \
      AND v.\(time.versionColumn) >= ? AND v.\(time.versionColumn) < ?))
      """, [lower, upper, lower, upper])
  }

  // MARK: - Counts, inks, colours

  package static func versions(_ comparison: DraftComparison, _ count: Int) -> DraftPredicate {
    DraftPredicate("d.version_count \(comparison.rawValue) ?", [count])
  }

  /// The newest drawing's visible strokes (migration 0008). A draft whose newest drawing is not
  /// indexed (yet) has none (NULL): no match, and `not` of this matches it.
  package static func strokes(_ comparison: DraftComparison, _ count: Int) -> DraftPredicate {
    DraftPredicate("coalesce(d.latest_strokes \(comparison.rawValue) ?, 0)", [count])
  }

  /// The newest drawing uses the ink called `name` (migrations 0008, 0009): a bit test of
  /// draft.latest_inks (none while the drawing is not indexed); for a name without a bit of
  /// its own, the bit of "another ink", and then the drawing_ink row settles it.
  package static func ink(named name: String) -> DraftPredicate {
    let bit = InkBits.bit(ofInkNamed: name)
    guard bit == InkBits.other else { return DraftPredicate("(d.latest_inks & ?) <> 0", [bit]) }
    return DraftPredicate(
      """
      ((d.latest_inks & ?) <> 0 AND EXISTS (SELECT 1 FROM version AS v JOIN drawing_ink AS di \
      ON di.blob_id = v.blob_id WHERE v.id = d.latest_version_id AND di.ink = ?))
      """, [InkBits.other, name])
  }

  /// The newest version's background is within `tolerance` of the colour on each component.
  package static func background(red: Double, green: Double, blue: Double, tolerance: Double) -> DraftPredicate {
    DraftPredicate(
      """
      EXISTS (SELECT 1 FROM version AS v WHERE v.id = d.latest_version_id \
      AND v.background_r BETWEEN ? AND ? AND v.background_g BETWEEN ? AND ? AND v.background_b BETWEEN ? AND ?)
      """,
      [red - tolerance, red + tolerance, green - tolerance, green + tolerance, blue - tolerance, blue + tolerance])
  }
}

/// Which of a version's times a condition tests.
package enum DraftTime: Sendable {
  /// The save time (`version.saved_ms`; draft.first_saved_ms and latest_saved_ms).
  case saved
  /// The import time (`version.imported_ms`; draft.first_imported_ms and latest_imported_ms).
  case imported

  var first: String { self == .saved ? "d.first_saved_ms" : "d.first_imported_ms" }
  var latest: String { self == .saved ? "d.latest_saved_ms" : "d.latest_imported_ms" }
  var versionColumn: String { self == .saved ? "saved_ms" : "imported_ms" }
}

/// How a count is compared.
package enum DraftComparison: String, Sendable {
  case equal = "="
  case greater = ">"
  case greaterOrEqual = ">="
  case less = "<"
  case lessOrEqual = "<="
}
