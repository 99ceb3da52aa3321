// Drafts a page at a time, for a grid that loads more as one scrolls: the first page through
// the search compiler (which picks a plan for the query: a name's grams, a period, a walk),
// every later one continuing after the last draft shown (keyset pagination in the compiler's
// own order, PageRecords.swift), so that a page deep in 100,000s of drafts costs what the first
// does and a draft imported meanwhile neither repeats nor hides one already shown.
//
// A later page walks the sort's index with the query's predicate. For a query with few matches
// (which the first page found through an index of its own) that walk may read far: but such a
// query rarely has a second page, and a query with many pages has matches dense enough that
// the walk meets a page of them soon.

import FoundationEssentials
import InklingStore

/// A version's permanent identity in an archive: unlike its number, which an older save
/// imported later shifts, it names the same saved file for as long as the version is archived.
public struct VersionID: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
  public let rawValue: Int64
  public init(rawValue: Int64) { self.rawValue = rawValue }
  public var description: String { String(rawValue) }
}

/// A draft's permanent identity in an archive: it names the draft through renames and in the
/// trash, and unlike a name it is safe in any URL (a name may hold a tab or a newline).
public struct DraftID: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
  public let rawValue: Int64
  public init(rawValue: Int64) { self.rawValue = rawValue }
  public var description: String { String(rawValue) }
}

/// Where a page of drafts ended, to ask for the page after it.
///
/// Its `token` is text for a URL; `DraftPageCursor(token:sort:)` reads it back and refuses a
/// token of another sort order.
public struct DraftPageCursor: Hashable, Sendable {
  let after: DraftPageAfter

  init(after: DraftPageAfter) { self.after = after }

  /// The cursor as text safe in a URL query (letters, digits, `.`, `-` and `_`).
  public var token: String {
    switch after {
    case .newest(let latest, let first, let id): "n.\(latest).\(first).\(id)"
    case .oldest(let latest, let first, let id): "o.\(latest).\(first).\(id)"
    case .name(let name): "a." + Self.base64URL(name)
    case .versions(let count, let latest, let name): "v.\(count).\(latest)." + Self.base64URL(name)
    case .stars(let stars, let latest, let first, let id): "s.\(stars).\(latest).\(first).\(id)"
    }
  }

  /// Reads a token made by `token` for `sort`; nil for anything else.
  public init?(token: String, sort: DraftSort) {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    func number(_ index: Int) -> Int64? { index < parts.count ? Int64(parts[index]) : nil }
    switch (sort, parts.first) {
    case (.newest, "n"), (.oldest, "o"):
      guard parts.count == 4, let latest = number(1), let first = number(2), let id = number(3) else { return nil }
      after =
        sort == .newest ? .newest(latest: latest, first: first, id: id) : .oldest(latest: latest, first: first, id: id)
    case (.name, "a"):
      guard parts.count == 2, let name = Self.text(base64URL: parts[1]) else { return nil }
      after = .name(name)
    case (.versions, "v"):
      guard parts.count == 4, let count = number(1), let latest = number(2), let name = Self.text(base64URL: parts[3]),
        let versions = Int(exactly: count)
      else { return nil }
      after = .versions(count: versions, latest: latest, name: name)
    case (.stars, "s"):
      guard parts.count == 5, let stars = number(1).flatMap({ Int(exactly: $0) }), let latest = number(2),
        let first = number(3), let id = number(4)
      else { return nil }
      after = .stars(stars: stars, latest: latest, first: first, id: id)
    default:
      return nil
    }
  }

  /// A key before every draft in `sort`'s order (no draft has a save time or version count
  /// at the ends of Int64, and names are never empty).
  static func start(_ sort: DraftSort) -> DraftPageAfter {
    switch sort {
    case .newest: .newest(latest: .max, first: .max, id: .max)
    case .oldest: .oldest(latest: .min, first: .min, id: .min)
    case .name: .name("")
    case .versions: .versions(count: .max, latest: .max, name: "")
    case .stars: .stars(stars: .max, latest: .max, first: .max, id: .max)
    }
  }

  /// The cursor after `row` in `sort`'s order.
  init(_ row: DraftPageRow, sort: DraftSort) {
    switch sort {
    case .newest:
      after = .newest(latest: row.latestSavedMilliseconds, first: row.firstSavedMilliseconds, id: row.id)
    case .oldest:
      after = .oldest(latest: row.latestSavedMilliseconds, first: row.firstSavedMilliseconds, id: row.id)
    case .name: after = .name(row.name)
    case .versions: after = .versions(count: row.versionCount, latest: row.latestSavedMilliseconds, name: row.name)
    case .stars:
      after = .stars(
        stars: row.stars, latest: row.latestSavedMilliseconds, first: row.firstSavedMilliseconds, id: row.id)
    }
  }

  private static func base64URL(_ text: String) -> String {
    Data(text.utf8).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
  }

  private static func text(base64URL: String) -> String? {
    guard base64URL.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
      return nil
    }
    var standard = base64URL.replacing("-", with: "+").replacing("_", with: "/")
    standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
    guard let data = Data(base64Encoded: standard) else { return nil }
    return String(bytes: data, encoding: .utf8)
  }
}

/// A draft on a page: what `list` shows of it, and its newest version (for its thumbnail).
public struct DraftPageEntry: Sendable, Equatable {
  public var draft: DraftSummary
  public var latestVersion: VersionID
}

/// One page of drafts, and where the next begins (nil on the last page).
public struct DraftPage: Sendable, Equatable {
  public var drafts: [DraftPageEntry]
  public var next: DraftPageCursor?
}

extension Archive {
  /// The most drafts one page holds.
  public static let draftPageLimit = 500

  /// A page of at most `limit` drafts that `query` matches, in `sort` order, after `cursor`
  /// (from the start when nil).
  ///
  /// ```swift
  /// var page = try archive.draftPage(limit: 60)
  /// while let next = page.next { page = try archive.draftPage(after: next, limit: 60) }
  /// ```
  /// - Throws: `ArchiveError.invalidArgument(.pageSize)` when `limit` is not 1 to
  ///   `draftPageLimit`; `.unusableArchive` when the archive cannot be read.
  public func draftPage(
    matching query: DraftQuery = .all, sort: DraftSort = .newest, after cursor: DraftPageCursor? = nil, limit: Int
  ) throws(ArchiveError) -> DraftPage {
    guard (1...Self.draftPageLimit).contains(limit) else {
      throw .invalidArgument(.pageSize(limit))
    }
    // One read transaction: the page's reads see one state of the archive while an import
    // commits, and take SQLite's file lock once instead of once a statement.
    let read: (rows: [DraftPageRow], marks: [Int64: DraftMarkRow]) = try storeCall {
      try database.readTransaction {
        // Every draft from the start is a walk of the sort's index like any later page.
        var rows: [DraftPageRow]
        if let after = cursor?.after ?? (query.expression == .all ? DraftPageCursor.start(sort) : nil) {
          let expression = SearchCompiler.mergingPeriods(query.expression)
          rows = try DraftPageRecords.page(
            after: after, predicate: SearchCompiler.predicate(expression), limit: limit + 1, in: database)
        } else {
          let names = try drafts(matching: query, sort: sort, limit: limit + 1).map(\.name)
          rows = try DraftPageRecords.drafts(named: names, in: database)
        }
        // Stars and tags, as lists show them: read only where someone gave a draft some.
        var marks: [Int64: DraftMarkRow] = [:]
        if try DraftMarks.anyMarks(in: database) {
          let reader = try DraftMarks(database)
          for row in rows.prefix(limit) { marks[row.id] = try reader.marks(ofDraft: row.id) }
        }
        return (rows, marks)
      }
    }
    var rows = read.rows
    let marks = read.marks
    let more = rows.count > limit
    if more { rows.removeLast(rows.count - limit) }
    return DraftPage(
      drafts: rows.map { row in
        DraftPageEntry(
          draft: DraftSummary(
            id: DraftID(rawValue: row.id), name: row.name, versionCount: row.versionCount,
            lastSaved: Self.date(row.latestSavedMilliseconds), stars: marks[row.id]?.stars,
            tags: marks[row.id]?.tags ?? []),
          latestVersion: VersionID(rawValue: row.latestVersionID))
      },
      next: more ? rows.last.map { DraftPageCursor($0, sort: sort) } : nil)
  }
}
