// The draft names a shell offers when a name is half typed: asked of the archive with the
// part typed, answered from the folded-name index, and bounded, so that a Tab costs the same
// at a hundred drafts and at a million.

import InklingStore

extension Archive {
  /// The most names `draftNames(startingWith:inTrash:limit:)` gives by default: more than a
  /// shell shows without asking, few enough to print at once.
  public static let completionLimit = 200

  /// Up to `limit` names of live drafts (or, with `inTrash`, of drafts in the trash) that
  /// start with `prefix` as names are searched (case and accents aside), in that folded order.
  ///
  /// ```swift
  /// let names = try archive.draftNames(startingWith: "caf")  // ["Café sketch", "cafe-2", …]
  /// ```
  ///
  /// - Throws: `ArchiveError` when the archive cannot be read.
  public func draftNames(startingWith prefix: String, inTrash: Bool = false, limit: Int = completionLimit)
    throws(ArchiveError) -> [String]
  {
    try storeCall {
      try NameCompletion.names(startingWith: prefix, inTrash: inTrash, limit: max(0, limit), in: database)
    }
  }
}
