// A version's share image and original file by its permanent id (VersionID), for URLs that
// stay right for as long as the version is archived, so that a browser may cache what they
// return for good (its thumbnail is `lookUpThumbnail(of: .version(id))`, Archive+Thumbnails.swift).
//
// What these return depends only on the version's saved file (drawing, background, name) and
// the renderer, never on its number, which an older save imported later shifts: share images
// carry the draft's name, save time and file name but not the number.

import FoundationEssentials
import InklingFormats
import InklingRendering
import InklingStore

/// What `Archive.versionNow` tells of a version.
public struct VersionNow: Sendable, Equatable {
  public var draftInTrash: Bool
  /// The SHA-256 of the saved file the version's id names now.
  public var fileSHA256: [UInt8]
}

/// What names a version's saved file.
public struct VersionFile: Sendable, Equatable {
  public var draftName: String
  public var fileName: String
  public var size: Int64
  /// Hex SHA-256 of the file's bytes.
  public var sha256: String
  /// Whether the draft is in the trash.
  public var draftInTrash: Bool
}

/// A version's original file as it was imported.
public struct OriginalFile: Sendable {
  public var file: VersionFile
  /// Checked against `file.sha256` when they were rebuilt.
  public var bytes: [UInt8]
}

extension Archive {
  /// Version `id` as the app's share image at `scale` pixels per point (see `render(draft:)`),
  /// with the text chunks Software, Title, Creation Time and Inkling File.
  ///
  /// - Throws: `ArchiveError.invalidArgument(.renderScale)` when `scale` is not in 0 < S ≤ 16,
  ///   `.noVersionWithID` when there is no such version, `.unreadableDrawing` when its drawing
  ///   does not decode.
  /// As `.svg` or `.pdf`, the same page as vectors (`renderPicture(draft:version:scale:format:)`).
  public func render(version id: VersionID, scale: Double, format: PictureFormat = .png) throws(ArchiveError)
    -> [UInt8]
  {
    let spec = PictureSpec.shareImage(scale: scale)
    try spec.check()
    let row = try VersionLookup(self).row(id: id)
    if format != .png {
      return try pictureRenderer.vector(
        of: try decodedDrawing(row), background: row.background, scale: scale, format: format, title: row.draftName,
        savedMilliseconds: row.savedMilliseconds
      ).bytes
    }
    return try pictureRenderer.picture(
      of: try decodedDrawing(row), background: row.background, spec, text: PictureRenderer.text(of: row)
    ).png
  }

  /// Version `row`'s drawing, decoded.
  ///
  /// - Throws: `ArchiveError.unreadableDrawing` when it does not decode (with why).
  func decodedDrawing(_ row: VersionRow) throws(ArchiveError) -> Drawing {
    let bytes = try storeCall {
      try BlobStore(database).bytes(ofBlob: row.blobID, limit: DrawingLimits.default.maxBytes)
    }
    switch PictureRenderer.decode(bytes) {
    case .success(let drawing): return drawing
    case .failure(let undecodable):
      throw .unreadableDrawing(
        draft: row.draftName, version: try VersionLookup(self).number(of: row), reason: undecodable.described)
    }
  }

  /// The exact bytes of version `id`'s original file, verified against its SHA-256.
  ///
  /// - Throws: `ArchiveError.noVersionWithID` when there is no such version,
  ///   `.damagedVersion` when the rebuilt file does not match its hash.
  public func originalFile(of id: VersionID) throws(ArchiveError) -> OriginalFile {
    try inSnapshot { () throws -> OriginalFile in
      let lookup = VersionLookup(self)
      let row = try lookup.row(id: id)
      return OriginalFile(
        file: try file(row), bytes: try verifiedFile(of: row, number: try lookup.number(of: row)).file)
    }
  }

  /// Bytes `part` of version `id`'s original file (all of it when nil), verified against its
  /// SHA-256 as `originalFile(of:)` verifies the whole, for an answer built in memory: refused
  /// before anything is decoded when the file, or any drawing its drawing is decoded through,
  /// is larger than `limit`; and a part is cut from the file as it is rebuilt piece by piece,
  /// so only the drawing and the part are held, never the whole file.
  ///
  /// - Throws: `ArchiveError.tooLargeToServe` past `limit`, `.noVersionWithID` when there is
  ///   no such version, `.damagedVersion` when the rebuilt file does not match its hash or is
  ///   not the size its row says (`part` was read against that size).
  public func originalFile(of id: VersionID, part: ClosedRange<Int>?, limit: Int64) throws(ArchiveError)
    -> OriginalFile
  {
    try inSnapshot { () throws -> OriginalFile in
      let lookup = VersionLookup(self)
      let row = try lookup.row(id: id)
      let chain = try storeCall { try BlobStore(database).largestSize(inChainOf: row.blobID) }
      let largest = max(row.fileSize, Int64(chain))
      guard largest <= limit else {
        throw ArchiveError.tooLargeToServe(
          draft: row.draftName, version: try lookup.number(of: row), bytes: largest, limit: limit)
      }
      guard let part else {
        return OriginalFile(
          file: try file(row), bytes: try verifiedFile(of: row, number: try lookup.number(of: row)).file)
      }
      return OriginalFile(file: try file(row), bytes: try verifiedPart(part, of: row, lookup: lookup))
    }
  }

  /// Bytes `part` of `row`'s file, rebuilt piece by piece and verified as `verifiedFile` does.
  private func verifiedPart(_ part: ClosedRange<Int>, of row: VersionRow, lookup: VersionLookup) throws(ArchiveError)
    -> [UInt8]
  {
    let (template, drawing) = try storeCall { () throws -> (EnvelopeTemplate, [UInt8]) in
      let template = try EnvelopeRecords.template(row.envelopeID, in: database)
      let blobs = BlobStore(database)
      // As in verifiedFile: the file's hash covers the drawing, unless its base64 is verbatim.
      return (
        template,
        template.spelling == .verbatim
          ? try blobs.bytes(ofBlob: row.blobID) : try blobs.unhashedBytes(ofBlob: row.blobID)
      )
    }
    var hasher = SHA256Hasher()
    var kept: [UInt8] = []
    kept.reserveCapacity(part.count)
    var offset = 0
    template.rebuild(drawing: drawing) { piece in
      hasher.update(piece)
      let start = max(part.lowerBound, offset)
      let end = min(part.upperBound + 1, offset + piece.count)
      if start < end { kept += piece[(start - offset)..<(end - offset)] }
      offset += piece.count
    }
    guard hasher.finalize() == row.fileSHA256, Int64(offset) == row.fileSize else {
      // A damaged drawing is named as such, as a hashed read names it.
      _ = try storeCall { try BlobStore(database).bytes(ofBlob: row.blobID) }
      throw .damagedVersion(
        draft: row.draftName, version: try lookup.number(of: row), fileName: row.fileName,
        detail: "the rebuilt file does not match its SHA-256 \(hexString(row.fileSHA256).prefix(12))")
    }
    return kept
  }

  /// The name, size and hash of version `id`'s file, without rebuilding it.
  ///
  /// - Throws: `ArchiveError.noVersionWithID` when there is no such version.
  public func versionFile(_ id: VersionID) throws(ArchiveError) -> VersionFile {
    try file(try VersionLookup(self).row(id: id))
  }

  private func file(_ row: VersionRow) throws(ArchiveError) -> VersionFile {
    VersionFile(
      draftName: row.draftName, fileName: row.fileName, size: row.fileSize, sha256: hexString(row.fileSHA256),
      draftInTrash: try isInTrash(row))
  }

  private func isInTrash(_ row: VersionRow) throws(ArchiveError) -> Bool {
    try storeCall { try DraftRecords.isInTrash(row.draftID, in: database) }
  }

  /// What may have changed of version `id` since a caller last looked: whether its draft is
  /// in the trash (it can go there and come back), and which file the id names. A purged
  /// version's id is given to the next version imported, so what a caller remembers of an id
  /// (a thumbnail it looked up) holds only while the file is the same.
  ///
  /// - Throws: `ArchiveError.noVersionWithID` when there is no such version.
  public func versionNow(_ id: VersionID) throws(ArchiveError) -> VersionNow {
    let found = try storeCall { try DraftRecords.trashAndFile(version: id.rawValue, in: database) }
    guard let found else { throw .noVersionWithID(id) }
    return VersionNow(draftInTrash: found.inTrash, fileSHA256: found.fileSHA256)
  }

  /// What version `id`'s drawing holds, from the drawing index (as `show` tells it).
  ///
  /// - Throws: `ArchiveError.noVersionWithID` when there is no such version.
  public func drawing(of id: VersionID) throws(ArchiveError) -> DrawingSummary {
    try inSnapshot {
      let row = try VersionLookup(self).row(id: id)
      let facts = try DrawingIndexRecords.read(blobID: row.blobID, in: database)
      return summary(of: facts, blobID: row.blobID)
    }
  }
}
