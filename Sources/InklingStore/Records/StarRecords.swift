// Stars on drafts (migration 0019, invariant 3): draft.stars, 1 to 5, NULL when not starred.
// Each function is one step of an operation that InklingArchive runs inside its own
// transaction; none begins or commits one.

package enum StarRecords {
  /// The fewest and most stars a draft can have (the CHECK of 0019).
  package static let range = 1...5

  /// Gives each draft of `draftIDs` `stars` (nil: none); returns how many changed.
  package static func set(_ stars: Int?, on draftIDs: [Int64], in db: Database) throws -> Int {
    let update = try db.makeStatement("UPDATE draft SET stars = ?1 WHERE id = ?2 AND stars IS NOT ?1")
    var changed = 0
    for draftID in draftIDs {
      try update.execute([stars, draftID])
      changed += db.changes
    }
    return changed
  }
}
