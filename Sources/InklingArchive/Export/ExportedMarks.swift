// What people said about the drafts of an export (stars, tags, notes, version labels), kept
// in its manifest (ExportManifest.swift) after the files, so that importing the folder into
// another archive gives them back:
//
//   "drafts":[
//   {"draft":"Plan-B","stars":5,"tags":["client:anna","Portfolio"],
//    "notes":[{"text":"for the spring issue","written":"2025-10-06T09:00:00Z"}],
//    "versions":[{"version":2,"saved":"2025-10-05T14:03:12Z","sha256":"…","labels":["final"],"notes":[]}]},
//   …]
//
// Only drafts with something said are listed, and only the versions the export wrote that
// have a label or a note; a version is known by its save time and its file's SHA-256, as the
// manifest's files are. Nothing in it changes between two exports of the same archive
// (ExportManifest invariant 2): a note's time is when it was written.
//
// Read back by import, a manifest is input like any file: each entry is decoded alone (one
// that does not decode is counted, not fatal) and then checked row by row as a merge checks
// another archive's rows (MergedOrganising.swift), on the draft of that name here and the
// versions of it with that save time and file.

import FoundationEssentials
import InklingFormats
import InklingStore

/// Writing the `drafts` part of a manifest.
enum ExportedMarks {
  /// One exported version: its number, save time and file's SHA-256.
  struct Version {
    let number: Int
    let savedMilliseconds: Int64
    let fileSHA256: [UInt8]
  }

  /// The manifest entry of the draft `draftID` called `name`, whose exported versions are
  /// `versions` (by row id); nil when nobody said anything about it.
  static func entry(draftID: Int64, name: String, versions: [Int64: Version], in db: Database) throws -> JSONValue? {
    let stars = try OrganisingRows.stars(ofDraft: draftID, in: db)
    let tags = try TagRecords.tags(ofDraft: draftID, in: db)
    let notes = try OrganisingRows.notes(ofDraft: draftID, in: db)
    let labels = try OrganisingRows.labels(ofDraft: draftID, in: db)
    guard stars != nil || !tags.isEmpty || !notes.isEmpty || !labels.isEmpty else { return nil }
    func note(_ note: (versionID: Int64?, text: String, writtenMilliseconds: Int64)) -> JSONValue {
      ["text": .string(note.text), "written": .string(ExportManifest.date(note.writtenMilliseconds))]
    }
    var versionEntries: [(number: Int, value: JSONValue)] = []
    let versionIDs = Set(notes.compactMap(\.versionID)).union(labels.map(\.versionID))
    for id in versionIDs {
      guard let version = versions[id] else { continue }
      versionEntries.append(
        (
          version.number,
          [
            "version": .int(version.number), "saved": .string(ExportManifest.date(version.savedMilliseconds)),
            "sha256": .string(hexString(version.fileSHA256)),
            "labels": .array(labels.filter { $0.versionID == id }.map { .string($0.name) }),
            "notes": .array(notes.filter { $0.versionID == id }.map(note)),
          ]
        ))
    }
    return [
      "draft": .string(name), "stars": .optional(stars.map { .int($0) }), "tags": .array(tags.map { .string($0) }),
      "notes": .array(notes.filter { $0.versionID == nil }.map(note)),
      "versions": .array(versionEntries.sorted { $0.number < $1.number }.map(\.value)),
    ]
  }
}

/// The `drafts` part of a manifest as read back, each part decoded alone.
struct ManifestMarks: Decodable {
  struct Note: Decodable {
    let text: String
    let written: String
  }
  struct Version: Decodable {
    let saved: String
    let sha256: String
    let labels: [Lenient<String>]?
    let notes: [Lenient<Note>]?
  }
  struct Draft: Decodable {
    let draft: String
    let stars: Lenient<Int>?
    let tags: [Lenient<String>]?
    let notes: [Lenient<Note>]?
    let versions: [Lenient<Version>]?
  }
  let manifest: String
  let version: Int
  let drafts: [Lenient<Draft>]?

  /// The manifest in `folder` when it is one this build wrote.
  static func inFolder(_ folder: String) -> ManifestMarks? {
    guard let bytes = EarlierExport.readManifest(OutputPath.joining(folder, ExportManifest.fileName)),
      let marks = try? JSONDecoder().decode(ManifestMarks.self, from: Data(bytes)),
      marks.manifest == "inkling-archive export", marks.version == 1
    else { return nil }
    return marks
  }
}

/// A value that may not decode: nil then, and the rest of the manifest is read.
struct Lenient<Value: Decodable>: Decodable {
  let value: Value?

  init(from decoder: any Decoder) throws {
    value = try? Value(from: decoder)
  }
}

extension Archive {
  /// Gives the drafts and versions imported from the export in `folder` what its manifest
  /// says of them, in one transaction; nil when the folder has no manifest of ours.
  ///
  /// - Throws: `ArchiveError` when this archive cannot be read or written.
  func restoreMarks(fromExportIn folder: String) throws(ArchiveError) -> MergedOrganising? {
    guard let marks = ManifestMarks.inFolder(folder), let drafts = marks.drafts, !drafts.isEmpty else { return nil }
    var restored = MergedOrganising()
    try storeCall {
      try database.transaction {
        for entry in drafts {
          guard let draft = entry.value else {
            restored.rowsRefused += 1
            continue
          }
          try restore(draft, into: &restored)
        }
      }
    }
    return restored
  }

  /// One draft's entry: the draft of that name here, its versions by save time and file.
  private func restore(_ entry: ManifestMarks.Draft, into restored: inout MergedOrganising) throws {
    func milliseconds(_ text: String) -> DatabaseValue {
      (ISO8601DateTime(text)?.millisecondsSince1970).map { .integer($0) } ?? .null
    }
    func note(_ note: Lenient<ManifestMarks.Note>, on version: DatabaseValue) -> ForeignNote {
      ForeignNote(
        versionID: version, text: note.value.map { .text($0.text) } ?? .null,
        writtenMilliseconds: note.value.map { milliseconds($0.written) } ?? .null)
    }
    let ours =
      Self.isStored(entry.draft, as: DraftFileName.canonicalName(entry.draft))
      ? try DraftRecords.draft(named: entry.draft, in: database)?.id : nil
    var marks = ForeignDraftMarks(
      draftID: 0, stars: entry.stars.map { $0.value.map { .integer(Int64($0)) } ?? .null } ?? .null,
      tags: (entry.tags ?? []).map { $0.value.map { .text($0) } ?? .null },
      notes: (entry.notes ?? []).map { note($0, on: .null) })
    if entry.stars != nil && entry.stars?.value == nil { restored.rowsRefused += 1 }
    var known = Set<Int64>()
    var found: [Int64: (version: Int64, draft: Int64)] = [:]
    for (index, version) in (entry.versions ?? []).enumerated() {
      let id = Int64(index + 1)
      guard let version = version.value else {
        restored.rowsRefused += 1
        continue
      }
      // A version the manifest cannot name is not one: its rows are refused.
      if case .integer(let saved) = milliseconds(version.saved), let sha256 = hexBytes(version.sha256),
        sha256.count == 32
      {
        known.insert(id)
        if let ours,
          let here = try VersionRecords.id(draftID: ours, savedMilliseconds: saved, fileSHA256: sha256, in: database)
        {
          found[id] = (here, ours)
        }
      }
      marks.labels += (version.labels ?? []).map {
        ForeignLabel(versionID: .integer(id), name: $0.value.map { .text($0) } ?? .null)
      }
      marks.notes += (version.notes ?? []).map { note($0, on: .integer(id)) }
    }
    try keep(marks, as: ours, versions: known, found: found, into: &restored)
  }
}
