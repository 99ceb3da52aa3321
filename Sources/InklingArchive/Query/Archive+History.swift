// `history`: one draft's versions, oldest first, with what the drawing index says of each
// (`list` is Archive+Search.swift's `drafts(matching:sort:limit:)`).

import FoundationEssentials
import InklingFormats
import InklingStore

/// One version of a draft as `history` shows it.
public struct VersionInfo: Sendable, Equatable {
  public var draftName: String
  /// 1 for the oldest version of the draft, counting by save time.
  public var number: Int
  public var saved: Date
  /// Whether `saved` came from the file name (else from the file's modification time).
  public var savedFromFileName: Bool
  public var imported: Date
  /// The original file name, restored as is.
  public var fileName: String
  public var fileSize: Int64
  /// Hex SHA-256 of the original file.
  public var fileSHA256: String
  public var background: RGBA
  /// Hex SHA-256 of the drawing bytes: versions with equal values have identical drawings.
  public var drawingSHA256: String
  public var drawingSize: Int64
  /// Visible strokes, when the drawing is indexed and decodes.
  public var strokeCount: Int?
  /// The earliest earlier version whose drawing has the same visible content (the same
  /// drawing saved again, even when its bytes differ), if any.
  public var sameDrawingAs: Int?
  /// For a version made by `revert`: the number of the version whose file it repeats.
  public var revertsTo: Int? = nil
  /// Where its file came from, the first source first; empty for versions archived before
  /// sources were kept. The same file from several sources is one version with several.
  public var sources: [VersionSource] = []
  /// The names given to it (`Archive.label`), as written, sorted as names are.
  public var labels: [String] = []
  /// The notes on it, oldest written first.
  public var notes: [DraftNote] = []
}

/// One source a version came from (`ImportOptions.source`, a merged archive's labels).
public struct VersionSource: Sendable, Equatable {
  public var label: String
  /// The file's path there, when it was imported (or as the merged archive recorded it).
  public var path: String
  /// The import run of this archive that recorded it, and when that run started.
  public var importRun: Int64
  public var recorded: Date
}

extension Archive {
  /// Every version of the draft called `name`, oldest first.
  ///
  /// - Throws: `ArchiveError` when there is no such draft.
  public func history(of name: String) throws(ArchiveError) -> [VersionInfo] {
    try versions(of: name).map(\.info)
  }

  /// Every version of the draft called `name`, oldest first: its row and its history entry,
  /// from one read of the versions.
  func versions(of name: String) throws(ArchiveError) -> [(row: VersionRow, info: VersionInfo)] {
    let draftID = try draftID(named: name)
    return try storeCall { try HistoryRead(ofDraft: draftID, in: database).entries() }
  }

  /// The id of the draft called `name` (compared in NFC, as names are stored).
  func draftID(named name: String) throws(ArchiveError) -> Int64 {
    let normalized = DraftFileName.canonicalName(name)
    let id = try storeCall { try VersionRecords.draftID(named: normalized, in: database) }
    guard let id else { throw noSuchDraft(name) }
    return id
  }

  /// The error for a name that is no draft's, with the nearest names as suggestions.
  func noSuchDraft(_ name: String) -> ArchiveError {
    let suggestions = (try? NameSuggestions.nearest(to: name, in: database)) ?? []
    return .noSuchDraft(name: name, suggestions: suggestions)
  }

  /// The date of a stored time, held to the years 0000 to 9999 (`millisecondsRange`): an
  /// archive is input, and a date made of any Int64 would trap where it is turned back into
  /// milliseconds (a picture's text, a page's key).
  static func date(_ milliseconds: Int64) -> Date {
    let held = min(max(milliseconds, millisecondsRange.lowerBound), millisecondsRange.upperBound)
    return Date(timeIntervalSince1970: Double(held) / 1000)
  }

  /// 0000-01-01 to 9999-12-31 UTC, in milliseconds: every save time a file name's four-digit
  /// year can give and every modification time a file system reports, and nothing that
  /// overflows when turned into seconds, nanoseconds or a calendar date.
  static let millisecondsRange: ClosedRange<Int64> = -62_167_219_200_000...253_402_300_799_999
}

/// What `history` reads of one draft: its versions, oldest first, with their blobs' summaries
/// and their sources.
struct HistoryRead {
  private let rows: [VersionRow]
  private let blobs: [Int64: BlobSummary]
  private let sources: [Int64: [VersionSourceRow]]
  private let labels: [Int64: [String]]
  private let notes: [Int64: [NoteRow]]

  /// Reads the history of draft `draftID`.
  ///
  /// - Throws: `StoreError`.
  init(ofDraft draftID: Int64, in database: Database) throws {
    let history = try VersionRecords.history(ofDraft: draftID, in: database)
    rows = history.map(\.version)
    blobs = Dictionary(history.compactMap { entry in entry.blob.map { (entry.version.blobID, $0) } }) { first, _ in
      first
    }
    sources = try SourceRecords.sources(ofDraft: draftID, in: database)
    labels = Dictionary(grouping: try VersionLabelRecords.labels(ofDraft: draftID, in: database), by: \.versionID)
      .mapValues { $0.map(\.name) }
    notes = Dictionary(
      grouping: try NoteRecords.notes(ofDraft: draftID, in: database).filter { $0.versionID != nil },
      by: { $0.versionID ?? 0 })
  }

  /// Each version's row and history entry, numbered from 1.
  func entries() -> [(row: VersionRow, info: VersionInfo)] {
    var firstWithContent: [[UInt8]: Int] = [:]
    let numbers = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1.id, $0 + 1) })
    return rows.enumerated().map { index, row in
      let blob = blobs[row.blobID]
      var same: Int?
      if let content = blob?.contentHash {
        same = firstWithContent[content]
        if same == nil { firstWithContent[content] = index + 1 }
      }
      var info = VersionInfo(
        row, number: index + 1, blob: blob, sameDrawingAs: same,
        revertsTo: row.revertsVersionID.flatMap { numbers[$0] },
        sources: sources[row.id] ?? [])
      info.labels = labels[row.id] ?? []
      info.notes = (notes[row.id] ?? []).map { DraftNote($0, version: index + 1) }
      return (row, info)
    }
  }
}

extension VersionInfo {
  /// The history entry of the version of `row`, numbered `number`, whose blob `blob`
  /// summarises (nil for a missing blob).
  init(
    _ row: VersionRow, number: Int, blob: BlobSummary?, sameDrawingAs: Int?, revertsTo: Int?,
    sources: [VersionSourceRow]
  ) {
    self.init(
      draftName: row.draftName, number: number, saved: Archive.date(row.savedMilliseconds),
      savedFromFileName: row.savedSource == .fileName, imported: Archive.date(row.importedMilliseconds),
      fileName: row.fileName, fileSize: row.fileSize, fileSHA256: hexString(row.fileSHA256),
      background: row.background, drawingSHA256: blob.map { hexString($0.sha256) } ?? "",
      drawingSize: blob?.size ?? 0, strokeCount: blob?.status == .decoded ? blob?.visibleStrokes : nil,
      sameDrawingAs: sameDrawingAs, revertsTo: revertsTo,
      sources: sources.map {
        VersionSource(
          label: $0.label, path: $0.path, importRun: $0.runID, recorded: Archive.date($0.runStartedMilliseconds))
      })
  }
}
