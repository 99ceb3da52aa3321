// Tags: words a person gives drafts to say what they are for ("portfolio", "client:anna").
// A tag is compared as names are searched (NFC, any case and accents: migration 0019), and
// shown as it was first written; `client:anna` style tags form a group that `tag:client:`
// finds. `tag` and `untag` change one draft, or every draft a query finds, in one
// transaction: a kill leaves all of them tagged or none.

import FoundationEssentials
import InklingFormats
import InklingStore

/// Which drafts a change to tags, stars or notes applies to.
public enum DraftChoice: Sendable, Equatable {
  /// The draft called exactly this (NFC), which must be live.
  case named(String)
  /// The live drafts a query finds, as `export --query` chooses them.
  case matching(DraftQuery)
  /// The live drafts a query in the search language, or `@NAME` (a saved search), finds;
  /// read when the change is made (`Archive.query(_:)`).
  case search(String)
}

/// What `tag` or `untag` did.
public struct TagChange: Sendable, Equatable {
  /// The drafts chosen.
  public var drafts: Int
  /// The tags, as the archive spells them (the first spelling of each), in the order given.
  public var tags: [String]
  /// The (draft, tag) pairs added or removed; pairs that were already so are not counted.
  public var changed: Int
}

/// A tag and how many live drafts have it.
public struct TagUse: Sendable, Equatable {
  public var name: String
  public var drafts: Int
}

extension Archive {
  /// Gives the drafts of `choice` every tag of `tags`.
  ///
  /// ```swift
  /// try archive.tag(.named("Plan-B"), with: ["portfolio", "client:anna"])
  /// try archive.tag(.matching(DraftQuery(search: "ink:marker")), with: ["markers"])
  /// ```
  /// - Throws: `ArchiveError.invalidArgument(.tagName)` for a tag that is empty, too long or
  ///   holds a control character; `.noSuchDraft`, `.draftInTrash`; `.searchSyntax`;
  ///   `.openedReadOnly`.
  @discardableResult
  public func tag(_ choice: DraftChoice, with tags: [String]) throws(ArchiveError) -> TagChange {
    try changeTags(choice, tags, adding: true)
  }

  /// Takes every tag of `tags` from the drafts of `choice`; a tag no draft has any more is
  /// forgotten.
  ///
  /// - Throws: as `tag(_:with:)`.
  @discardableResult
  public func untag(_ choice: DraftChoice, _ tags: [String]) throws(ArchiveError) -> TagChange {
    try changeTags(choice, tags, adding: false)
  }

  /// Every tag a live draft has, with how many have it, sorted as names are (any case and
  /// accents); with `prefix`, only the tags that start with it (`client:`).
  ///
  /// - Throws: `ArchiveError` when the archive cannot be read.
  public func tags(prefix: String? = nil) throws(ArchiveError) -> [TagUse] {
    try storeCall {
      try TagRecords.counts(prefix: prefix.map(NameFolding.fold), in: database).map {
        TagUse(name: $0.name, drafts: $0.drafts)
      }
    }
  }

  /// Whether any live draft (with `inTrash`, any draft in the trash) has a tag or stars:
  /// lists then show them.
  ///
  /// - Throws: `ArchiveError` when the archive cannot be read.
  public func hasTagsOrStars(inTrash: Bool = false) throws(ArchiveError) -> Bool {
    try storeCall { try inTrash ? DraftMarks.anyMarksInTrash(in: database) : DraftMarks.anyMarks(in: database) }
  }

  /// The tags of the draft with row id `draftID`, as written, sorted as names are.
  func tags(ofDraft draftID: Int64) throws -> [String] {
    try TagRecords.tags(ofDraft: draftID, in: database)
  }

  private func changeTags(_ choice: DraftChoice, _ tags: [String], adding: Bool) throws(ArchiveError) -> TagChange {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    let names = try tags.map { (tag) throws(ArchiveError) -> String in try Self.tagName(tag) }
    return try storeCall {
      try database.transaction { () throws -> TagChange in
        let draftIDs = try chosenDrafts(choice)
        var change = TagChange(drafts: draftIDs.count, tags: [], changed: 0)
        for name in names {
          if adding {
            let id = try TagRecords.id(creating: name, in: database)
            change.changed += try TagRecords.add(id, to: draftIDs, in: database)
            change.tags.append(try TagRecords.name(of: id, in: database) ?? name)
          } else if let id = try TagRecords.id(of: name, in: database) {
            change.tags.append(try TagRecords.name(of: id, in: database) ?? name)
            change.changed += try TagRecords.remove(id, from: draftIDs, in: database)
          } else {
            change.tags.append(name)
          }
        }
        return change
      }
    }
  }

  /// The row ids of the drafts of `choice`, in the caller's transaction.
  func chosenDrafts(_ choice: DraftChoice) throws -> [Int64] {
    switch choice {
    case .named(let name): return [try liveDraft(named: name).id]
    case .matching(var query):
      query.inTrash = false
      var ids: [Int64] = []
      try forEachDraft(matching: query) { ids.append($0.id.rawValue) }
      return ids
    case .search(let text): return try chosenDrafts(.matching(try self.query(text)))
    }
  }

  /// `text` as a tag is stored (NFC, without spaces around it), or why it cannot be one.
  static func tagName(_ text: String) throws(ArchiveError) -> String {
    let name = DraftFileName.canonicalName(text.trimmingWhitespace())
    if name.isEmpty { throw .invalidArgument(.tagName(text, .empty)) }
    if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      throw .invalidArgument(.tagName(text, .controlCharacter))
    }
    let length = name.unicodeScalars.count
    if length > TagRecords.maximumLength {
      throw .invalidArgument(.tagName(text, .tooLong(characters: length, limit: TagRecords.maximumLength)))
    }
    return name
  }
}
