// The SELECTs that list a search term's candidate drafts from an index (a superset is fine:
// the WHERE clause has the last word), and the probes that size them cheaply. SearchCompiler
// (InklingArchive) chooses among them by size; their SQL is written here only.

/// A SELECT of candidate draft ids (column `id`, each at most once), and how to size it.
package struct DraftCandidates {
  package let sql: String
  package let arguments: [(any DatabaseValueConvertible)?]
  /// A SELECT over the same index whose rows are counted to size the candidates, when
  /// counting the candidates themselves would cost more (DISTINCT sorts; a join reads more).
  let probe: String?

  init(_ sql: String, _ arguments: [(any DatabaseValueConvertible)?], probe: String? = nil) {
    self.sql = sql
    self.arguments = arguments
    self.probe = probe
  }

  /// The number of index entries behind the candidates (the probe's rows), counting at most
  /// `cap`: a size estimate that never reads more than `cap` entries.
  ///
  /// - Throws: `StoreError`.
  package func count(upTo cap: Int, in db: Database) throws -> Int {
    try db.fetchOne("SELECT count(*) FROM (\(probe ?? sql) LIMIT \(cap))", arguments) { $0.int(0) } ?? 0
  }

  // MARK: - Names (folded by NameFolding.fold, but for an exact name)

  /// No draft (an empty period, a gram no name has).
  package static var none: DraftCandidates { DraftCandidates("SELECT NULL AS id WHERE 0", []) }

  /// The draft called exactly `name` (NFC, as names are stored).
  package static func named(_ name: String) -> DraftCandidates {
    DraftCandidates("SELECT id FROM draft WHERE name = ?", [name])
  }

  /// Names that start with `prefix` (a glob's literal start): a range of draft_by_folded.
  package static func nameStarts(folded prefix: String) -> DraftCandidates {
    DraftCandidates(
      "SELECT id FROM draft WHERE name_folded >= ? AND name_folded < ?", [prefix, prefix + "\u{10FFFF}"])
  }

  /// Names holding a term of one or two characters: every character of a padded name starts
  /// a gram (migration 0003), so those are a prefix range of name_gram.
  package static func gramsStarting(with term: String) -> DraftCandidates {
    DraftCandidates(
      "SELECT DISTINCT draft_id AS id FROM name_gram WHERE gram >= ? AND gram < ?", [term, term + "\u{10FFFF}"],
      probe: "SELECT 1 FROM name_gram WHERE gram >= ? AND gram < ?")
  }

  /// Names holding the three characters `gram`.
  package static func gram(_ gram: String) -> DraftCandidates {
    DraftCandidates(
      "SELECT draft_id AS id FROM name_gram WHERE gram = ?", [gram], probe: "SELECT 1 FROM name_gram WHERE gram = ?")
  }

  /// Names holding both grams: both lists are read in draft_id order and merged (MERGE
  /// (INTERSECT), a step along a list per entry), which costs far less than looking up each draft of
  /// the first when it is long.
  package static func grams(_ first: String, _ second: String) -> DraftCandidates {
    DraftCandidates(
      "SELECT draft_id AS id FROM name_gram WHERE gram = ? INTERSECT SELECT draft_id AS id FROM name_gram WHERE gram = ? "
        + "ORDER BY 1", [first, second])
  }

  // MARK: - Times

  /// Drafts with a version saved in [lower, upper); sized by versions, not drafts: counting
  /// distinct drafts would sort them.
  package static func saved(from lower: Int64, before upper: Int64) -> DraftCandidates {
    DraftCandidates(
      "SELECT DISTINCT draft_id AS id FROM version INDEXED BY version_by_saved_draft WHERE saved_ms >= ? AND saved_ms < ?",
      [lower, upper],
      probe: "SELECT 1 FROM version INDEXED BY version_by_saved_draft WHERE saved_ms >= ? AND saved_ms < ?")
  }

  /// Drafts saved at or after `lower`: a range of draft_by_latest, in a newest-first walk's order.
  package static func latestSaved(atOrAfter lower: Int64) -> DraftCandidates {
    DraftCandidates(
      "SELECT id FROM draft INDEXED BY draft_by_latest WHERE latest_saved_ms >= ? AND deleted_ms IS NULL", [lower])
  }

  /// Drafts with a version saved before `upper`.
  package static func firstSaved(before upper: Int64) -> DraftCandidates {
    DraftCandidates("SELECT id FROM draft INDEXED BY draft_by_first WHERE first_saved_ms < ?", [upper])
  }

  /// Drafts with a version imported at or after `lower` and before `upper` (either may be
  /// open, not both).
  package static func imported(from lower: Int64?, before upper: Int64?) -> DraftCandidates {
    precondition(lower != nil || upper != nil, "an open period has no candidates of its own")
    var conditions: [String] = []
    var arguments: [(any DatabaseValueConvertible)?] = []
    if let lower {
      conditions.append("imported_ms >= ?")
      arguments.append(lower)
    }
    if let upper {
      conditions.append("imported_ms < ?")
      arguments.append(upper)
    }
    let condition = conditions.joined(separator: " AND ")
    return DraftCandidates(
      "SELECT DISTINCT draft_id AS id FROM version INDEXED BY version_by_imported_draft WHERE " + condition, arguments,
      probe: "SELECT 1 FROM version INDEXED BY version_by_imported_draft WHERE " + condition)
  }

  // MARK: - Counts and inks

  package static func versions(_ comparison: DraftComparison, _ count: Int) -> DraftCandidates {
    DraftCandidates(
      "SELECT id FROM draft INDEXED BY draft_by_versions WHERE version_count \(comparison.rawValue) ?", [count])
  }

  /// Drafts whose newest drawing has `count` visible strokes as compared; the probe counts
  /// drawings (see `draftsPerDrawing`).
  package static func strokes(_ comparison: DraftComparison, _ count: Int) -> DraftCandidates {
    DraftCandidates(
      """
      SELECT d2.id AS id FROM drawing AS dr INDEXED BY drawing_by_strokes JOIN version AS v ON v.blob_id = dr.blob_id \
      JOIN draft AS d2 ON d2.latest_version_id = v.id WHERE dr.stroke_count - dr.hidden_count \(comparison.rawValue) ?
      """, [count],
      probe:
        "SELECT 1 FROM drawing INDEXED BY drawing_by_strokes WHERE stroke_count - hidden_count \(comparison.rawValue) ?"
    )
  }

  /// Drafts whose newest drawing uses the ink called `name`; the probe counts drawings.
  package static func ink(named name: String) -> DraftCandidates {
    DraftCandidates(
      """
      SELECT d2.id AS id FROM version AS v JOIN draft AS d2 ON d2.latest_version_id = v.id \
      WHERE v.blob_id IN (SELECT blob_id FROM drawing_ink WHERE ink = ?)
      """, [name], probe: "SELECT 1 FROM drawing_ink WHERE ink = ?")
  }

  // MARK: - Sources

  /// Drafts with a version from a source whose label contains `text` (folded): a range of
  /// version_source_by_source per matching source (migration 0013); the probe counts versions.
  package static func source(containsFolded text: String) -> DraftCandidates {
    let matching = "SELECT id FROM source WHERE instr(label_folded, ?) > 0"
    return DraftCandidates(
      """
      SELECT DISTINCT v.draft_id AS id FROM version_source AS vs INDEXED BY version_source_by_source \
      JOIN version AS v ON v.id = vs.version_id WHERE vs.source_id IN (\(matching))
      """, [text],
      probe: "SELECT 1 FROM version_source INDEXED BY version_source_by_source WHERE source_id IN (\(matching))")
  }

  // MARK: - Tags

  /// Drafts with the tag whose fold is `text`: a range of draft_tag_by_tag (migration 0019).
  package static func tag(folded text: String) -> DraftCandidates {
    DraftCandidates(
      "SELECT draft_id AS id FROM draft_tag INDEXED BY draft_tag_by_tag WHERE tag_id = (SELECT id FROM tag WHERE name_folded = ?)",
      [text])
  }

  /// Drafts with a tag whose fold starts with `prefix`: a range of draft_tag_by_tag per tag
  /// of the group; the probe counts (draft, tag) pairs.
  package static func tag(foldedPrefix prefix: String) -> DraftCandidates {
    let matching = "SELECT id FROM tag WHERE name_folded >= ? AND name_folded < ?"
    return DraftCandidates(
      "SELECT DISTINCT draft_id AS id FROM draft_tag INDEXED BY draft_tag_by_tag WHERE tag_id IN (\(matching))",
      [prefix, prefix + "\u{10FFFF}"],
      probe: "SELECT 1 FROM draft_tag INDEXED BY draft_tag_by_tag WHERE tag_id IN (\(matching))")
  }

  // MARK: - Notes and labels

  /// Drafts with a note that contains `text` (folded). Notes have no index of their words, so
  /// every note is read: the probe counts notes, not matches, which is what this costs, and
  /// the compiler uses it only while there are few (a note is written by hand, one at a time);
  /// past that, a search tests each draft it walks through note_by_draft instead.
  package static func note(containsFolded text: String) -> DraftCandidates {
    DraftCandidates(
      "SELECT DISTINCT draft_id AS id FROM note WHERE instr(text_folded, ?) > 0", [text],
      probe: "SELECT 1 FROM note WHERE ?1 IS NOT NULL")
  }

  /// Drafts with a version labelled `name` (folded): a range of version_label_by_name.
  package static func label(folded name: String) -> DraftCandidates {
    DraftCandidates(
      "SELECT DISTINCT draft_id AS id FROM version_label INDEXED BY version_label_by_name WHERE name_folded = ?", [name]
    )
  }

  /// Live drafts with `lowest` to `highest` stars: a range of draft_by_stars (migration 0019).
  package static func stars(from lowest: Int, through highest: Int) -> DraftCandidates {
    DraftCandidates(
      "SELECT id FROM draft INDEXED BY draft_by_stars WHERE stars BETWEEN ? AND ? AND deleted_ms IS NULL",
      [lowest, highest])
  }

  /// The drafts of any of `parts`, each once.
  package static func union(_ parts: [DraftCandidates]) -> DraftCandidates {
    DraftCandidates(
      parts.map { "SELECT id FROM (\($0.sql))" }.joined(separator: " UNION "), parts.flatMap(\.arguments))
  }

  /// The largest draft and blob ids, for scaling a count of drawings to one of drafts: a
  /// drawing is the newest of about drafts / blobs drafts.
  ///
  /// - Throws: `StoreError`.
  package static func idBounds(in db: Database) throws -> (drafts: Int64, blobs: Int64) {
    try db.fetchOne("SELECT (SELECT max(id) FROM draft), (SELECT max(id) FROM blob)") { ($0.int64(0), $0.int64(1)) }
      ?? (0, 0)
  }
}
