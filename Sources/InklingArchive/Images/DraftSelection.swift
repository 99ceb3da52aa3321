// Which drafts a contact sheet or a portfolio shows. A query is answered by the library, as
// `list` answers it, and its drafts go into a temporary table as they are found
// (SelectedDrafts), never into a list: the sheets and pages then read a sheet's or a page's
// worth at a time, so that a selection of every draft of a large archive costs what one sheet
// costs.

import InklingFormats
import InklingStore

/// Which drafts a contact sheet or a portfolio shows, in order.
///
/// ```swift
/// try archive.contactSheets(drafts: .matching(DraftQuery(since: "2025-09")), to: "term.png")
/// try archive.contactSheet(drafts: .named(["Plan-B", "Cat"]))
/// ```
public enum DraftSelection: Sendable, Equatable {
  /// These drafts in this order, each by its exact name (NFC), in the trash or not; a name
  /// that is no draft is refused (`ArchiveError.noSuchDraft`).
  case named([String])
  /// The drafts `query` finds, in `list`'s order (newest save first).
  case matching(DraftQuery)
}

extension Archive {
  /// The drafts of `selection`, in order, in a temporary table named after `label`.
  ///
  /// - Throws: `ArchiveError.noMatchingDrafts` when there are none; `.noSuchDraft` for a name
  ///   that is no draft (or a draft without versions); `.searchSyntax` for an unknown ink.
  func selectedDrafts(_ selection: DraftSelection, label: String) throws(ArchiveError) -> SelectedDrafts {
    let selected = try storeCall { try SelectedDrafts(database, label: label) }
    switch selection {
    case .named(let names):
      // Each through the name's index, so a few drafts of a large archive cost what they
      // would alone.
      for name in names {
        guard try storeCall({ try selected.add(draftNamed: DraftFileName.canonicalName(name)) }) else {
          throw noSuchDraft(name)
        }
      }
    case .matching(let query):
      var failure: (any Error)?
      try forEachDraft(matching: query) { draft in
        guard failure == nil else { return }
        do {
          try selected.add(draftID: draft.id.rawValue)
        } catch {
          failure = error
        }
      }
      if let failure { throw ArchiveError(failure, path: path) }
      try storeCall { try selected.readThroughPageCache() }
    }
    guard try storeCall({ try selected.count() }) > 0 else { throw .noMatchingDrafts }
    return selected
  }
}
