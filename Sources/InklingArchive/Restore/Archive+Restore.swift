// `restore`: a version's original file, byte for byte, under its original name and
// modification time. The bytes are rebuilt from the envelope and the drawing blob and
// checked against the SHA-256 the file had when it was imported before anything is written.

import Foundation
import InklingFormats
import InklingStore

/// Which version of a draft.
public enum VersionSelector: Sendable, Equatable {
  /// The newest version.
  case latest
  /// Version N, 1 being the oldest (as `history` numbers them).
  case number(Int)
  /// The version current at the end of a date range: the newest saved before `range.end`.
  case at(DateRange)
}

/// Where restored files go.
public enum RestoreDestination: Sendable, Equatable {
  /// Into a folder (created when missing), under each version's original file name.
  case folder(String)
  /// To exactly this file.
  case file(String)
}

/// A file written by `restore`.
public struct RestoredFile: Sendable, Equatable {
  public var path: String
  public var version: VersionInfo
}

extension Archive {
  /// Restores one version of a draft.
  ///
  /// - Throws: `ArchiveError` when the draft or version does not exist, the target exists
  ///   and `overwrite` is false, or the archive's copy fails its hash check.
  public func restore(
    draft name: String, version selector: VersionSelector = .latest, to destination: RestoreDestination,
    overwrite: Bool = false
  ) throws(ArchiveError) -> RestoredFile {
    let (row, info) = try versionRow(draft: name, selector)
    return try write(row, info: info, to: destination, overwrite: overwrite)
  }

  /// Restores every version of a draft into `folder`.
  public func restoreAllVersions(draft name: String, to folder: String, overwrite: Bool = false) throws(ArchiveError)
    -> [RestoredFile]
  {
    var restored: [RestoredFile] = []
    for (row, info) in try versions(of: name) {
      restored.append(try write(row, info: info, to: .folder(folder), overwrite: overwrite))
    }
    return restored
  }

  /// The exact bytes of a version's original file, verified against its SHA-256.
  func fileBytes(of row: VersionRow) throws(ArchiveError) -> [UInt8] {
    try storeCall {
      let drawing = try BlobStore(database).bytes(ofBlob: row.blobID)
      let template = try EnvelopeRecords.template(row.envelopeID, in: database)
      let file = template.rebuild(drawing: drawing)
      guard SHA256.hash(file) == row.fileSHA256 else {
        throw ArchiveError(
          .unusableArchive,
          "draft '\(row.draftName)' version \(row.fileName): the rebuilt file does not match its SHA-256 \(hexString(row.fileSHA256).prefix(12)); the archive is damaged — run `inkling-archive check --full`"
        )
      }
      return file
    }
  }

  private func write(_ row: VersionRow, info: VersionInfo, to destination: RestoreDestination, overwrite: Bool)
    throws(ArchiveError) -> RestoredFile
  {
    let bytes = try fileBytes(of: row)
    let path: String
    switch destination {
    case .file(let file):
      path = file
    case .folder(let folder):
      try FileOutput.makeFolder(folder)
      let fallback = FileOutput.safeFileName(row.draftName, fallback: "Untitled") + ".inkling"
      path = (folder as NSString).appendingPathComponent(FileOutput.safeFileName(row.fileName, fallback: fallback))
    }
    try FileOutput.write(
      bytes, to: path, modificationNanoseconds: row.fileModificationNanoseconds, overwrite: overwrite)
    return RestoredFile(path: path, version: info)
  }
}
