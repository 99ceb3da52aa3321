// `list` and `history`: the drafts, newest first as in the app (`drafts(matching:sort:limit:)`
// in Archive+Search.swift), and one draft's versions.

import Foundation
import InklingFormats
import InklingStore

/// A draft as `list` shows it.
public struct DraftSummary: Sendable, Equatable {
  public var name: String
  public var versionCount: Int
  /// The save time of the newest version.
  public var lastSaved: Date
}

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
    return try storeCall {
      let blobs = try database.fetchAll(
        """
        SELECT blob.id, blob.sha256, blob.size, drawing.status, drawing.stroke_count - drawing.hidden_count,
          drawing.content_hash
        FROM blob LEFT JOIN drawing ON drawing.blob_id = blob.id
        WHERE blob.id IN (SELECT blob_id FROM version WHERE draft_id = ?)
        """, [draftID]
      ) { row in
        (
          row.int64(0),
          (
            sha: hexString(row.bytes(1)), size: row.int64(2),
            strokes: !row.isNull(3) && row.int(3) == 0 ? row.int(4) : nil,
            content: row.isNull(5) ? nil : row.bytes(5)
          )
        )
      }
      let blobInfo = Dictionary(uniqueKeysWithValues: blobs)
      var firstWithContent: [[UInt8]: Int] = [:]
      return try VersionRecords.versions(ofDraft: draftID, in: database).enumerated().map { index, row in
        let blob = blobInfo[row.blobID]
        var same: Int?
        if let content = blob?.content {
          same = firstWithContent[content]
          if same == nil { firstWithContent[content] = index + 1 }
        }
        let info = VersionInfo(
          draftName: row.draftName, number: index + 1, saved: Self.date(row.savedMilliseconds),
          savedFromFileName: row.savedSource == "stamp", imported: Self.date(row.importedMilliseconds),
          fileName: row.fileName, fileSize: row.fileSize, fileSHA256: hexString(row.fileSHA256),
          background: row.background, drawingSHA256: blob?.sha ?? "", drawingSize: blob?.size ?? 0,
          strokeCount: blob?.strokes, sameDrawingAs: same)
        return (row, info)
      }
    }
  }

  /// The id of the draft called `name` (compared in NFC, as names are stored).
  func draftID(named name: String) throws(ArchiveError) -> Int64 {
    let normalized = DraftFileName.canonicalName(name)
    let id = try storeCall {
      try database.fetchOne("SELECT id FROM draft WHERE name = ?", [normalized]) { $0.int64(0) }
    }
    guard let id else { throw noSuchDraft(name) }
    return id
  }

  /// The error for a name that is no draft's, with the nearest names as suggestions.
  func noSuchDraft(_ name: String) -> ArchiveError {
    let suggestions = (try? NameSuggestions.nearest(to: name, in: database)) ?? []
    return .noSuchDraft(name: name, suggestions: suggestions)
  }

  static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
