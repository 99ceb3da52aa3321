// "Did you mean …?": the nearest known name by edit distance.
//
// Distance is optimal string alignment (Levenshtein plus adjacent transpositions), so the
// common typo "verison" is one edit from "version". A suggestion is only made when it is close
// enough to be plausibly what was meant: short words tolerate one edit, longer ones more,
// and a name that begins with what was typed always qualifies.

package enum Suggestion {
  /// The candidate nearest to `typed`, or nil when none is close; ties go to the earlier one.
  package static func nearest(to typed: String, among candidates: [String]) -> String? {
    let limit = typed.count <= 3 ? 1 : (typed.count <= 6 ? 2 : 3)
    // Rank in half edits: a name that starts with what was typed ("hist" → "history") ranks
    // as half an edit away, ahead of one-edit neighbours ("list").
    var best: (name: String, rank: Int)?
    for candidate in candidates where candidate != typed {
      let d = distance(typed, candidate)
      let isPrefix = typed.count >= 3 && candidate.hasPrefix(typed)
      guard d <= limit || isPrefix else { continue }
      let rank = isPrefix ? 1 : 2 * d
      if rank < (best?.rank ?? Int.max) { best = (candidate, rank) }
    }
    return best?.name
  }

  /// Optimal string alignment distance between two strings, by Character.
  package static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    // d[i][j]: distance between a[..<i] and b[..<j].
    var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
        }
      }
    }
    return d[a.count][b.count]
  }
}
