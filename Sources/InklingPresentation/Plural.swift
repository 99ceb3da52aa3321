// Counted nouns in output: "1 draft", "2 drafts", "1,024 versions".

/// A count and its noun, the noun in the plural unless the count is one.
package enum Plural {
  /// `count(1, "draft")` → `1 draft`; `count(1024, "version")` → `1,024 versions`.
  /// `plural` is for nouns that do not take an s: `count(2, "entry", "entries")`.
  package static func count(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
    Format.count(count) + " " + (count == 1 ? noun : plural ?? noun + "s")
  }
}
