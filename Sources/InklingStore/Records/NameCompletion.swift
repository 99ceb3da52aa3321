// Draft names for a shell's completion of a word being typed: the names whose folded name
// starts with the folded word, read from the folded-name index (`draft_by_folded`) as one range
// of it, at most `limit` of them. A Tab at hundreds of thousands of drafts reads a few pages of
// the index, never every name.

/// The draft names a completion offers for a prefix.
package enum NameCompletion {
  /// The query: a range of `draft_by_folded` (from the folded prefix to the prefix followed by
  /// the last code point, whose UTF-8 sorts after every other continuation), live drafts or
  /// those in the trash, in folded order.
  package static func sql(inTrash: Bool) -> String {
    """
    SELECT name FROM draft WHERE name_folded >= ? AND name_folded < ? AND deleted_ms IS \(inTrash ? "NOT " : "")NULL \
    ORDER BY name_folded LIMIT ?
    """
  }

  /// The arguments of `sql` for `prefix` and `limit`.
  package static func arguments(prefix: String, limit: Int) -> [(any DatabaseValueConvertible)?] {
    let folded = NameFolding.fold(prefix)
    return [folded, folded + "\u{10FFFF}", limit]
  }

  /// Up to `limit` names of live drafts (or of drafts in the trash) whose folded name starts
  /// with the folded `prefix`, in folded order.
  package static func names(startingWith prefix: String, inTrash: Bool, limit: Int, in db: Database) throws
    -> [String]
  {
    try db.fetchAll(sql(inTrash: inTrash), arguments(prefix: prefix, limit: limit)) { $0.string(0) }
  }
}
