// Labels: names people give versions ("final", "sent to printer"), as git tags a commit and
// Lightroom names a snapshot. A label names one version of its draft (migration 0019,
// invariant 5: unique per draft, compared as names are searched), and every `--version`
// option takes one where it takes a number (VersionLookup), so a label is never a whole
// number. `history`, `show`, `diff` and the time-lapse marks show them; `label:NAME` finds
// the drafts with a version so named.

import InklingFormats
import InklingStore

/// A label and the version it names.
public struct VersionLabel: Sendable, Equatable {
  /// As first written.
  public var name: String
  /// The version's number, as `history` numbers them.
  public var version: Int
}

extension Archive {
  /// Names version `selector` of the draft called `name` `label`; labelling the version
  /// that has the label already changes nothing.
  ///
  /// ```swift
  /// try archive.label(draft: "Plan-B", version: .number(3), as: "sent to printer")
  /// ```
  /// - Throws: `ArchiveError.invalidArgument(.labelName)` for a label that is empty, too long
  ///   or holds a control character, `.labelIsNumber` for a whole number; `.labelTaken` when
  ///   another version of the draft has it; `.noSuchDraft`, `.draftInTrash`,
  ///   `.noSuchVersion`, `.noSuchLabel`; `.openedReadOnly`.
  @discardableResult
  public func label(draft name: String, version selector: VersionSelector, as label: String) throws(ArchiveError)
    -> VersionLabel
  {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    let label = try Self.labelName(label)
    return try storeCall {
      try database.transaction { () throws -> VersionLabel in
        let draft = try liveDraft(named: name)
        guard let (row, info) = try VersionLookup(self).version(ofDraft: draft.id, selector) else {
          throw ArchiveError.noSuchVersion(draft: draft.name, number: 1, versionCount: 0)
        }
        if let taken = try VersionLabelRecords.label(label, ofDraft: draft.id, in: database) {
          guard taken.versionID == row.id else {
            let number = try VersionLookupRecords.number(ofVersion: taken.versionID, inDraft: draft.id, in: database)
            throw ArchiveError.labelTaken(draft: draft.name, label: taken.name, version: number ?? 0)
          }
          return VersionLabel(name: taken.name, version: info.number)
        }
        try VersionLabelRecords.add(label, version: row.id, draft: draft.id, in: database)
        return VersionLabel(name: label, version: info.number)
      }
    }
  }

  /// Takes the label `label` (any case and accents) from the version of the draft called
  /// `name` that has it; returns it as it was.
  ///
  /// - Throws: `ArchiveError.noSuchLabel`; `.noSuchDraft`, `.draftInTrash`; `.openedReadOnly`.
  @discardableResult
  public func removeLabel(_ label: String, fromDraft name: String) throws(ArchiveError) -> VersionLabel {
    guard mode == .readWrite else { throw .openedReadOnly(path: path) }
    return try storeCall {
      try database.transaction { () throws -> VersionLabel in
        let draft = try liveDraft(named: name)
        guard let found = try VersionLabelRecords.label(label, ofDraft: draft.id, in: database) else {
          throw try noSuchLabel(label, ofDraft: draft.id, named: draft.name)
        }
        let number = try VersionLookupRecords.number(ofVersion: found.versionID, inDraft: draft.id, in: database)
        _ = try VersionLabelRecords.remove(label, ofDraft: draft.id, in: database)
        return VersionLabel(name: found.name, version: number ?? 0)
      }
    }
  }

  /// The error for a label no version of draft `draftID` has, with the labels it has.
  func noSuchLabel(_ label: String, ofDraft draftID: Int64, named name: String) throws -> ArchiveError {
    .noSuchLabel(
      draft: name, label: label, labels: try VersionLabelRecords.labels(ofDraft: draftID, in: database).map(\.name))
  }

  /// `text` as a label is stored (NFC, without spaces around it), or why it cannot be one.
  static func labelName(_ text: String) throws(ArchiveError) -> String {
    let name = DraftFileName.canonicalName(text.trimmingWhitespace())
    if name.isEmpty { throw .invalidArgument(.labelName(text, .empty)) }
    // What `--version` would read as a number (VersionSelector(argument:)) names no label.
    if Int(name) != nil || name.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
      throw .invalidArgument(.labelIsNumber(name))
    }
    if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      throw .invalidArgument(.labelName(text, .controlCharacter))
    }
    let length = name.unicodeScalars.count
    if length > VersionLabelRecords.maximumLength {
      throw .invalidArgument(.labelName(text, .tooLong(characters: length, limit: VersionLabelRecords.maximumLength)))
    }
    return name
  }
}

extension Archive {
  /// The labels of the draft called `name` (live or in the trash), sorted as names are.
  ///
  /// - Throws: `ArchiveError.noSuchDraft`; or when the archive cannot be read.
  public func labels(ofDraft name: String) throws(ArchiveError) -> [VersionLabel] {
    try inSnapshot { () throws -> [VersionLabel] in
      let draftID = try draftID(named: name)
      return try VersionLabelRecords.labels(ofDraft: draftID, in: database).map {
        VersionLabel(
          name: $0.name,
          version: try VersionLookupRecords.number(ofVersion: $0.versionID, inDraft: draftID, in: database) ?? 0)
      }
    }
  }
}
