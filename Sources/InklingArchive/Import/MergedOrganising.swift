// What a merge carries besides the versions: what people said about the other archive's
// drafts (migration 0019). Tags are united (one tag per fold, the spelling here kept), the
// notes of both archives kept (a note already here, same text, place and time, is not added
// twice, so merging one archive again adds nothing), labels united; stars and labels that
// disagree keep this archive's value, and the disagreement is said (`conflicts`).
//
// The other archive is input, not trust, as its versions are (MergePreparer.swift): each row
// is checked as one of our own commands would have checked it before writing it (text in NFC
// without spaces around it or control characters, within the lengths of 0019, stars 1 to 5,
// a label that is not a whole number, a save time within the years 0000 to 9999), its folds
// are computed here (theirs are never read), and a row about a version is kept only when that
// version is one of its draft's versions there and was merged here. A row that fails is
// counted in `rowsRefused` and nothing of it is written.
//
// It runs after the versions are merged, one transaction per archive: a draft of theirs is
// the draft here that its newest merged version went to (a draft renamed here keeps its new
// name), and its rows go with it, or with the version they name.

import FoundationEssentials
import InklingFormats
import InklingStore

/// What merging carried of the stars, tags, notes and labels of another archive's drafts.
public struct MergedOrganising: Sendable, Equatable {
  /// (draft, tag) pairs added.
  public var tagsAdded = 0
  /// Drafts that had no stars here and took the other archive's.
  public var starsSet = 0
  public var notesAdded = 0
  public var labelsAdded = 0
  /// Rows no command of ours could have written (a value out of range, text that is not a
  /// tag, note or label, a label on another draft's version): not merged.
  public var rowsRefused = 0
  /// Rows about a version (or a draft) none of whose versions were merged: left with them.
  public var rowsWithoutMergedVersion = 0
  /// Where the two archives disagree, this archive's value kept; the first
  /// `OrganisingConflict.listed` of them.
  public var conflicts: [OrganisingConflict] = []
  /// How many disagreements there were in all.
  public var conflictCount = 0

  public init() {}
}

/// A value both archives hold differently; the merge kept this archive's.
public enum OrganisingConflict: Sendable, Equatable {
  /// The draft has `ours` stars here and `theirs` in the other archive.
  case stars(draft: String, ours: Int, theirs: Int)
  /// The label names version `ours` here and version `theirs` (numbered as here) there.
  case label(draft: String, name: String, ours: Int, theirs: Int)

  /// The most conflicts a summary lists.
  public static let listed = 100
}

extension Archive {
  /// The drafts of the other archive read at a time.
  static let markedDraftsPerPage = 256

  /// Carries the stars, tags, notes and labels of the other archive at `readPath` (merged as
  /// `path`) to the drafts and versions merged from it, in one transaction.
  ///
  /// - Throws: `.mergeStoppedAtDamage` when the other archive's rows cannot be read (nothing
  ///   of them is kept), or `ArchiveError` about this archive.
  func mergeOrganising(fromArchiveAt readPath: String, path: String) throws(ArchiveError) -> MergedOrganising {
    let other: Database
    do {
      other = try ArchiveDatabase.open(path: readPath, mode: .readOnly)
    } catch {
      throw .cannotMerge(path: path, reason: .failed(detail: "\(error)"))
    }
    defer { other.close() }
    var merged = MergedOrganising()
    do {
      try database.transaction {
        try other.readTransaction {
          var after: Int64 = 0
          while true {
            let page = try readingOtherArchive {
              try OrganisingRows.markedDrafts(afterID: after, limit: Self.markedDraftsPerPage, in: other)
            }
            guard let last = page.last else { break }
            after = last.draftID
            for draft in page { try carry(draft, from: other, into: &merged) }
          }
        }
      }
    } catch let error as UnreadableRows {
      throw .mergeStoppedAtDamage(
        path: path, location: Quoted.text(path),
        detail: "its tags, stars, notes or labels cannot be read (\(error.error))")
    } catch {
      throw ArchiveError(error, path: self.path)
    }
    return merged
  }

  /// One draft of the other archive: its versions found here, then its rows checked and kept.
  private func carry(_ draft: ForeignDraftMarks, from other: Database, into merged: inout MergedOrganising) throws {
    // Their version id → (our version id, our draft id), for the versions merged here.
    var found: [Int64: (version: Int64, draft: Int64)] = [:]
    var theirIDs = Set<Int64>()
    var newest: (saved: Int64, draft: Int64)?
    for row in try readingOtherArchive({ try VersionRecords.versions(ofDraft: draft.draftID, in: other) }) {
      theirIDs.insert(row.id)
      guard MergedValues.problem(row, maximumFileSize: .max) == nil,
        let here = try VersionRecords.archivedFile(
          draftNamed: row.draftName, savedMilliseconds: row.savedMilliseconds, fileSHA256: row.fileSHA256,
          fileName: row.fileName, in: database),
        let draftID = try OrganisingRows.draftID(ofVersion: here.versionID, in: database)
      else { continue }
      found[row.id] = (here.versionID, draftID)
      if newest.map({ row.savedMilliseconds >= $0.saved }) ?? true { newest = (row.savedMilliseconds, draftID) }
    }
    try keep(draft, as: newest?.draft, versions: theirIDs, found: found, into: &merged)
  }

  /// Checks the rows of one draft of another archive or an export's manifest and keeps those
  /// that pass: on draft `ours` (nil: none of its versions is here, and nothing is kept), and
  /// a row about a version on the version `found` says (`versions`: the ids its rows may name).
  func keep(
    _ draft: ForeignDraftMarks, as ours: Int64?, versions theirIDs: Set<Int64>,
    found: [Int64: (version: Int64, draft: Int64)], into merged: inout MergedOrganising
  ) throws {
    guard let ours else {
      merged.rowsWithoutMergedVersion += draft.tags.count + draft.notes.count + draft.labels.count
      if draft.stars != .null { merged.rowsWithoutMergedVersion += 1 }
      return
    }
    let draftName = try DraftRecords.draft(id: ours, in: database)?.name ?? ""

    /// The version here of their version id `value`; nil (counted) when it is not one.
    func version(_ value: DatabaseValue) -> (version: Int64, draft: Int64)? {
      guard case .integer(let id) = value, theirIDs.contains(id) else {
        merged.rowsRefused += 1
        return nil
      }
      guard let here = found[id] else {
        merged.rowsWithoutMergedVersion += 1
        return nil
      }
      return here
    }

    for value in draft.tags {
      guard case .text(let text) = value, let name = try? Self.tagName(text), Self.isStored(text, as: name) else {
        merged.rowsRefused += 1
        continue
      }
      merged.tagsAdded += try TagRecords.add(try TagRecords.id(creating: name, in: database), to: [ours], in: database)
    }

    switch draft.stars {
    case .null: break
    case .integer(let stars) where StarRecords.range.contains(Int(stars)):
      if let current = try OrganisingRows.stars(ofDraft: ours, in: database) {
        if current != Int(stars) {
          merged.conflict(.stars(draft: draftName, ours: current, theirs: Int(stars)))
        }
      } else {
        merged.starsSet += try StarRecords.set(Int(stars), on: [ours], in: database)
      }
    default: merged.rowsRefused += 1
    }

    for note in draft.notes {
      guard case .text(let text) = note.text, Self.isNoteText(text),
        case .integer(let written) = note.writtenMilliseconds, Self.millisecondsRange.contains(written)
      else {
        merged.rowsRefused += 1
        continue
      }
      var place: (version: Int64?, draft: Int64) = (nil, ours)
      if note.versionID != .null {
        guard let here = version(note.versionID) else { continue }
        place = (here.version, here.draft)
      }
      guard
        try !OrganisingRows.hasNote(
          draftID: place.draft, versionID: place.version, text: text, writtenMilliseconds: written, in: database)
      else { continue }
      try OrganisingRows.insertNote(
        draftID: place.draft, versionID: place.version, text: text, writtenMilliseconds: written, in: database)
      merged.notesAdded += 1
    }

    for label in draft.labels {
      guard case .text(let name) = label.name, Self.isLabelName(name) else {
        merged.rowsRefused += 1
        continue
      }
      guard let here = version(label.versionID) else { continue }
      guard let labelled = try OrganisingRows.labelledVersion(draftID: here.draft, name: name, in: database) else {
        try OrganisingRows.insertLabel(name, versionID: here.version, draftID: here.draft, in: database)
        merged.labelsAdded += 1
        continue
      }
      guard labelled != here.version else { continue }
      merged.conflict(
        .label(
          draft: try DraftRecords.draft(id: here.draft, in: database)?.name ?? draftName, name: name,
          ours: try VersionLookupRecords.number(ofVersion: labelled, inDraft: here.draft, in: database) ?? 0,
          theirs: try VersionLookupRecords.number(ofVersion: here.version, inDraft: here.draft, in: database) ?? 0))
    }
  }

  /// Whether `text` is `stored`, scalar for scalar: Swift's `==` holds text equal when it is
  /// only canonically equivalent, and a row not in NFC must not pass for one that is.
  static func isStored(_ text: String, as stored: String) -> Bool {
    text.unicodeScalars.elementsEqual(stored.unicodeScalars)
  }

  /// Whether `text` is a note as one is kept: NFC, 1 to 65,536 characters, no control
  /// characters but line breaks and tabs.
  static func isNoteText(_ text: String) -> Bool {
    let scalars = text.unicodeScalars
    return (1...OrganisingRows.maximumNoteLength).contains(scalars.count)
      && isStored(text, as: DraftFileName.canonicalName(text))
      && !scalars.contains { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" }
  }

  /// Whether `text` is a version label as one is kept: a tag's rules, and not a whole number
  /// (that is a version's number).
  static func isLabelName(_ text: String) -> Bool {
    guard let name = try? tagName(text), isStored(text, as: name) else { return false }
    return name.unicodeScalars.contains { !("0"..."9").contains($0) }
  }
}

/// A read of the other archive that failed (as opposed to one of this archive).
private struct UnreadableRows: Error {
  let error: any Error
}

/// Runs `body`, a read of the other archive, marking what it throws as the other archive's.
private func readingOtherArchive<T>(_ body: () throws -> T) throws -> T {
  do { return try body() } catch { throw UnreadableRows(error: error) }
}

extension MergedOrganising {
  /// Both counts added together, the conflicts of both listed (up to `listed`).
  func adding(_ other: MergedOrganising) -> MergedOrganising {
    var sum = self
    sum.tagsAdded += other.tagsAdded
    sum.starsSet += other.starsSet
    sum.notesAdded += other.notesAdded
    sum.labelsAdded += other.labelsAdded
    sum.rowsRefused += other.rowsRefused
    sum.rowsWithoutMergedVersion += other.rowsWithoutMergedVersion
    sum.conflictCount += other.conflictCount
    sum.conflicts = Array((conflicts + other.conflicts).prefix(OrganisingConflict.listed))
    return sum
  }

  /// Counts a disagreement, listing the first `OrganisingConflict.listed`.
  mutating func conflict(_ conflict: OrganisingConflict) {
    conflictCount += 1
    if conflicts.count < OrganisingConflict.listed { conflicts.append(conflict) }
  }
}
