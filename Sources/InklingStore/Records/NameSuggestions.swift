// The nearest draft names to one that is not a draft, for "did you mean …" after a typo.
//
// Candidates come from indexes only, so that a miss costs milliseconds at a million drafts:
// the names that fold to the same text (`cafe sketch` for `Café sketch`), then the names that
// share the most of its trigrams (migration 0003's name_gram), at most `scanLimit` gram rows
// read. They are ranked by edit distance between the folded names, and only those close
// enough to be a plausible slip are kept.

package enum NameSuggestions {
  /// How many name_gram rows a suggestion reads at most.
  static let scanLimit = 50_000
  /// How many of the names sharing the most grams are ranked by edit distance.
  static let candidates = 40

  /// Up to `limit` draft names near `name`, nearest first.
  package static func nearest(to name: String, limit: Int = 3, in db: Database) throws -> [String] {
    let folded = NameFolding.fold(name)
    guard !folded.isEmpty else { return [] }
    var found: [String] = try db.fetchAll(
      "SELECT name FROM draft WHERE name_folded = ? ORDER BY name LIMIT ?", [folded, limit]
    ) { $0.string(0) }
    guard found.count < limit else { return found }

    let scalars = Array(folded.unicodeScalars) + ["\u{1}", "\u{1}"]
    var grams = Set<String>()
    for start in 0..<(scalars.count - 2) {
      grams.insert(String(String.UnicodeScalarView(scalars[start..<start + 3])))
    }
    let placeholders = Array(repeating: "?", count: grams.count).joined(separator: ", ")
    var arguments: [(any DatabaseValueConvertible)?] = Array(grams)
    arguments.append(scanLimit)
    arguments.append(candidates)
    let sharing: [(name: String, folded: String)] = try db.fetchAll(
      """
      SELECT draft.name, draft.name_folded FROM draft JOIN (
        SELECT draft_id, count(*) AS shared FROM (
          SELECT draft_id FROM name_gram WHERE gram IN (\(placeholders)) LIMIT ?
        ) GROUP BY draft_id ORDER BY shared DESC LIMIT ?
      ) AS best ON best.draft_id = draft.id
      """, arguments
    ) { ($0.string(0), $0.string(1)) }

    let target = Array(folded.unicodeScalars)
    // A slip is about one edit in three characters; a name that holds the whole text typed
    // (three characters or more) is near too: `plan` for `Plan-B`.
    let allowed = target.count / 3 + 1
    let ranked =
      sharing
      .filter { !found.contains($0.name) }
      .map { (name: $0.name, distance: editDistance(target, Array($0.folded.unicodeScalars)), folded: $0.folded) }
      .filter { $0.distance <= allowed || target.count >= 3 && $0.folded.contains(folded) }
      .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
    for candidate in ranked where found.count < limit { found.append(candidate.name) }
    return found
  }

  /// Levenshtein distance between two sequences of scalars.
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = Array(repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
