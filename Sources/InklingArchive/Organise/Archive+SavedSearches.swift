// Saved searches: a query kept under a name ("weekly", "client anna, best") and run again by
// that name, as calibre's saved searches and Lightroom's smart collections are. Wherever a
// query in the search language is accepted (search, list, export, contact-sheet, tag, star,
// the web grid), `@NAME` stands for the saved search of that name: `query(_:)` here is the one
// place that reads it. The text is kept as it was given and parsed again each time (migration
// 0019, invariant 6), so a saved search with `saved:<7d` always means the last seven days.

import FoundationEssentials
import InklingFormats
import InklingStore

/// A search kept under a name.
public struct SavedSearch: Sendable, Equatable {
  /// As written when it was last saved.
  public var name: String
  /// The query's text, in the search language, as given.
  public var query: String
  /// When it was last saved.
  public var saved: Date
}

/// What `saveSearch` did.
public struct SavedSearchChange: Sendable, Equatable {
  /// The search as it is kept now.
  public var search: SavedSearch
  /// The search of that name (any case and accents) it replaced, if there was one.
  public var replaced: SavedSearch?
}

extension Archive {
  /// The character that names a saved search where a query is expected: `@weekly`.
  public static let savedSearchMark: Character = "@"

  /// The drafts `text` asks for: a query in the search language, or `@NAME`, the saved search
  /// of that name (any case and accents), whose text is parsed now.
  ///
  /// ```swift
  /// try archive.saveSearch(named: "weekly", query: "saved:<7d stars:>=4")
  /// let found = try archive.drafts(matching: try archive.query("@weekly"))
  /// ```
  /// - Throws: `ArchiveError.noSuchSavedSearch` with the names there are;
  ///   `.searchSyntax` for a query that does not parse.
  public func query(_ text: String, now: Date = Date(), timeZone: TimeZone? = nil) throws(ArchiveError) -> DraftQuery {
    let queryText: String
    if let name = Self.savedSearchName(in: text) {
      guard let saved = try storeCall({ try SavedSearchRecords.search(named: name, in: database) }) else {
        throw .noSuchSavedSearch(name: name, saved: try savedSearches().map(\.name))
      }
      queryText = saved.query
    } else {
      queryText = text
    }
    do {
      return try DraftQuery(search: queryText, now: now, timeZone: timeZone)
    } catch {
      throw .searchSyntax(error)
    }
  }

  /// Reads `text` as a query where no archive is needed to read it: a query that does not
  /// parse is refused before any archive is opened (as a typing mistake should be); `@NAME`
  /// passes, since only an archive knows its saved searches.
  /// - Throws: `ArchiveError.searchSyntax`.
  public static func checkQuery(_ text: String) throws(ArchiveError) {
    guard savedSearchName(in: text) == nil else { return }
    do {
      _ = try DraftQuery(search: text)
    } catch {
      throw .searchSyntax(error)
    }
  }

  /// The name `text` gives a saved search when it is `@NAME` (spaces around it aside).
  public static func savedSearchName(in text: String) -> String? {
    let trimmed = text.trimmingWhitespace()
    guard trimmed.first == savedSearchMark else { return nil }
    return String(trimmed.dropFirst())
  }

  /// Keeps `query` under `name` (a leading `@` aside), replacing the search of that name in
  /// any case and accents. The query must parse and name only inks PencilKit or the archive's
  /// drawings know; `@OTHER` keeps a copy of that search's text.
  ///
  /// - Throws: `ArchiveError.invalidArgument(.savedSearchName)` for a name that is empty, too
  ///   long or holds a control character; `.searchSyntax`; `.noSuchSavedSearch`;
  ///   `.openedReadOnly`.
  @discardableResult
  public func saveSearch(named name: String, query text: String, now: Date = Date()) throws(ArchiveError)
    -> SavedSearchChange
  {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    let name = try Self.savedSearchName(name)
    let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
    return try storeCall {
      try database.transaction { () throws -> SavedSearchChange in
        var kept = text.trimmingWhitespace()
        if let other = Self.savedSearchName(in: kept) {
          guard let saved = try SavedSearchRecords.search(named: other, in: database) else {
            throw ArchiveError.noSuchSavedSearch(
              name: other, saved: try SavedSearchRecords.all(in: database).map(\.name))
          }
          kept = saved.query
        }
        do {
          // A search that could not run is not kept: it must parse, and name only inks there are.
          try checkInks(of: try DraftQuery(search: kept, now: now))
        } catch let error as SearchSyntaxError {
          throw ArchiveError.searchSyntax(error)
        }
        let replaced = try SavedSearchRecords.save(name: name, query: kept, at: milliseconds, in: database)
        return SavedSearchChange(
          search: SavedSearch(name: name, query: kept, saved: Self.date(milliseconds)),
          replaced: replaced.map(Self.savedSearch))
      }
    }
  }

  /// Forgets the saved search called `name` (a leading `@` aside; any case and accents).
  ///
  /// - Returns: the search forgotten.
  /// - Throws: `ArchiveError.noSuchSavedSearch` with the names there are; `.openedReadOnly`.
  @discardableResult
  public func forgetSearch(named name: String) throws(ArchiveError) -> SavedSearch {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    let name = Self.savedSearchName(in: name) ?? name
    return try storeCall {
      try database.transaction { () throws -> SavedSearch in
        guard let removed = try SavedSearchRecords.delete(named: name, in: database) else {
          throw ArchiveError.noSuchSavedSearch(
            name: name.trimmingWhitespace(), saved: try SavedSearchRecords.all(in: database).map(\.name))
        }
        return Self.savedSearch(removed)
      }
    }
  }

  /// Every saved search, sorted by name as names are (any case and accents); with `prefix`,
  /// only those whose name starts with it, at most `limit`.
  ///
  /// - Throws: `ArchiveError` when the archive cannot be read.
  public func savedSearches(prefix: String? = nil, limit: Int? = nil) throws(ArchiveError) -> [SavedSearch] {
    try storeCall {
      try SavedSearchRecords.all(prefix: prefix.map(NameFolding.fold), limit: limit, in: database).map(
        Self.savedSearch)
    }
  }

  /// `text` as a saved search's name is kept (NFC, without spaces around it or a leading `@`),
  /// or why it cannot be one.
  static func savedSearchName(_ text: String) throws(ArchiveError) -> String {
    let trimmed = text.trimmingWhitespace()
    let bare = trimmed.first == savedSearchMark ? String(trimmed.dropFirst()) : trimmed
    let name = DraftFileName.canonicalName(bare.trimmingWhitespace())
    if name.isEmpty { throw .invalidArgument(.savedSearchName(text, .empty)) }
    if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      throw .invalidArgument(.savedSearchName(text, .controlCharacter))
    }
    let length = name.unicodeScalars.count
    if length > SavedSearchRecords.maximumLength {
      throw .invalidArgument(
        .savedSearchName(text, .tooLong(characters: length, limit: SavedSearchRecords.maximumLength)))
    }
    return name
  }

  private static func savedSearch(_ row: SavedSearchRow) -> SavedSearch {
    SavedSearch(name: row.name, query: row.query, saved: date(row.savedMilliseconds))
  }
}
