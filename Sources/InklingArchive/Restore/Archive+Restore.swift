// `restore`: a version's original file, byte for byte, under its original name and
// modification time. The bytes are rebuilt from the envelope and the drawing blob and
// checked against the SHA-256 the file had when it was imported before anything is written.

import FoundationEssentials
import InklingFormats
import InklingStore

/// Where restored files go.
public enum RestoreDestination: Sendable, Equatable {
  /// Into a folder (created when missing), under each version's original file name.
  case folder(String)
  /// To exactly this file.
  case file(String)
}

/// Why a file was written under another name than the one it was imported with.
public enum FileNameChange: String, Sendable, Equatable {
  /// The draft was renamed since: the file carries its new name (the contents do not hold it).
  case draftRenamed
  /// The name cannot be one file's name in a folder (`/`, `..`, control characters, too long).
  case unsafeName
  /// Another file written into the folder has the name, or one that a case-insensitive file
  /// system takes for it (FolderNaming.swift).
  case sharedName
}

/// A file written by `restore`.
public struct RestoredFile: Sendable, Equatable {
  /// Where it was written (`-` when a caller wrote `fileContents` to standard output).
  public var path: String
  public var version: VersionInfo
  /// The version's original file name when it was written under another one.
  public var renamedFrom: String?
  /// Why, when it was.
  public var nameChange: FileNameChange?

  public init(path: String, version: VersionInfo, renamedFrom: String? = nil, nameChange: FileNameChange? = nil) {
    self.path = path
    self.version = version
    self.renamedFrom = renamedFrom
    self.nameChange = nameChange
  }
}

/// What `restoreAllVersions` did: the files written, and the versions that were not.
public struct AllVersionsRestore: Sendable, Equatable {
  /// A version whose stored form no longer rebuilds its file: nothing was written for it.
  public struct DamagedVersion: Sendable, Equatable {
    public var draft: String
    public var version: Int
    /// The version's original file name.
    public var fileName: String
    /// What is wrong, as `ArchiveError.damagedVersion` says it.
    public var detail: String

    public init(draft: String, version: Int, fileName: String, detail: String) {
      self.draft = draft
      self.version = version
      self.fileName = fileName
      self.detail = detail
    }

    /// The version's damage as an error, for a caller that words it as it words that error.
    public var error: ArchiveError {
      .damagedVersion(draft: draft, version: version, fileName: fileName, detail: detail)
    }
  }

  /// Oldest first: the versions written now.
  public var restored: [RestoredFile]
  /// Oldest first: the versions whose file was in the folder already, byte for byte (an
  /// earlier restore into it), left as they were.
  public var alreadyThere: [RestoredFile]
  /// Oldest first; empty when every version was written.
  public var damaged: [DamagedVersion]

  public init(restored: [RestoredFile] = [], alreadyThere: [RestoredFile] = [], damaged: [DamagedVersion] = []) {
    self.restored = restored
    self.alreadyThere = alreadyThere
    self.damaged = damaged
  }
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
    let (row, info, bytes) = try versionAndFile(draft: name, selector)
    return try write(bytes, of: row, info: info, to: destination, overwrite: overwrite)
  }

  /// The exact bytes of one version's original file, verified as `restore` verifies them,
  /// for a caller that writes them itself (`restore -o -` to standard output).
  ///
  /// - Throws: as `restore`, less the destination's errors.
  public func fileContents(draft name: String, version selector: VersionSelector = .latest) throws(ArchiveError)
    -> (bytes: [UInt8], version: VersionInfo)
  {
    let (_, info, bytes) = try versionAndFile(draft: name, selector)
    return (bytes, info)
  }

  /// The version and its verified file, from one snapshot: a purge and gc between the two
  /// reads would otherwise leave a found version without its blob.
  private func versionAndFile(draft name: String, _ selector: VersionSelector) throws(ArchiveError) -> (
    VersionRow, VersionInfo, [UInt8]
  ) {
    try inSnapshot { () throws -> (VersionRow, VersionInfo, [UInt8]) in
      let (row, info) = try VersionLookup(self).version(draft: name, selector)
      return (row, info, try verifiedFile(of: row, number: info.number).file)
    }
  }

  /// Restores every version of a draft into `folder`, oldest first. Versions that share a
  /// file name each get a distinct one (the rule of FolderNaming.swift), so every version
  /// ends up on disk. As `export` salvages, a version that no longer rebuilds its file is not
  /// written and is named in `damaged`, and the rest go on: the versions that verify are
  /// what a damaged archive still holds of the draft. A file already in the folder with the
  /// version's exact bytes is left as it is and listed in `alreadyThere`, so that a restore
  /// stopped halfway is finished by running it again, as an export is.
  ///
  /// - Throws: `ArchiveError` when the draft does not exist, a file cannot be written
  ///   (the versions written before the error stay) or the archive cannot be read at all;
  ///   not for damaged versions.
  public func restoreAllVersions(draft name: String, to folder: String, overwrite: Bool = false) throws(ArchiveError)
    -> AllVersionsRestore
  {
    try inSnapshot { () throws -> AllVersionsRestore in
      let versions = try versions(of: name)
      let names = try Self.folderNames(of: versions.map(\.row))
      try FileOutput.makeFolder(folder)
      Leftovers.remove(.file, in: folder)
      var result = AllVersionsRestore()
      for (row, info) in versions {
        let (fileName, change) = names[row.id]!
        let path = OutputPath.joining(folder, fileName)
        let bytes: [UInt8]
        do {
          bytes = try verifiedFile(of: row, number: info.number).file
        } catch {
          guard let detail = Self.damage(error) else { throw error }
          result.damaged.append(
            .init(draft: row.draftName, version: info.number, fileName: row.fileName, detail: detail))
          continue
        }
        let file = RestoredFile(
          path: path, version: info, renamedFrom: change == nil ? nil : row.fileName, nameChange: change)
        if !overwrite,
          ExistingFile.at(path, expectedSize: row.fileSize).holds(size: row.fileSize, sha256: row.fileSHA256)
        {
          result.alreadyThere.append(file)
          continue
        }
        try FileOutput.write(
          bytes, to: path, modificationNanoseconds: row.fileModificationNanoseconds, overwrite: overwrite,
          naming: .chosenInFolder)
        result.restored.append(file)
      }
      return result
    }
  }

  /// The distinct names the files of `rows` get in one folder, by row id, and why each differs
  /// from its original name: given out in the order the versions were archived, so that a
  /// version keeps its name however many are archived after it.
  static func folderNames(of rows: [VersionRow]) throws(ArchiveError) -> [Int64: (
    name: String, change: FileNameChange?
  )] {
    let naming = FolderNaming()
    var names: [Int64: (name: String, change: FileNameChange?)] = [:]
    for row in rows.sorted(by: { $0.id < $1.id }) {
      names[row.id] = try fileName(of: row, in: naming)
    }
    return names
  }

  /// The name a version's file carries when it is written out now: its original name while
  /// the draft is still called what that name says (so an NFD file name stays NFD), else the
  /// draft's current name followed by the original's stamp and suffix
  /// (`DraftFileName.renamed(to:)`): a renamed draft's files carry the new name. A stored
  /// name that is not a plain file name (`check` reports those) was put there by hand, not by
  /// a rename: it is only made safe.
  static func currentFileName(_ row: VersionRow) -> String {
    guard FolderNaming.safeName(row.fileName, fallback: "") == row.fileName, let parsed = DraftFileName(row.fileName),
      parsed.draftName != row.draftName
    else { return row.fileName }
    return parsed.renamed(to: row.draftName)
  }

  /// The name a version's file gets in a folder that `naming` hands names out for (or alone
  /// in its folder when nil), and why it differs from the original, if it does.
  static func fileName(of row: VersionRow, in naming: FolderNaming?) throws(ArchiveError) -> (
    name: String, change: FileNameChange?
  ) {
    let wanted = currentFileName(row)
    let safe = FolderNaming.safeName(wanted, fallback: fallbackFileName(row))
    let name = try naming?.distinct(safe) ?? safe
    let change: FileNameChange? =
      name == row.fileName
      ? nil : name != safe ? .sharedName : safe != wanted ? .unsafeName : .draftRenamed
    return (name, change)
  }

  /// The exact bytes of the original file of `row`, version `number` of its draft, verified
  /// against its SHA-256, and the drawing bytes they were rebuilt from (verified against
  /// theirs), for a caller that draws the version too and should not decode its blob again.
  ///
  /// - Throws: `ArchiveError.damagedVersion` when the stored form no longer rebuilds them.
  func verifiedFile(of row: VersionRow, number: Int) throws(ArchiveError) -> (file: [UInt8], drawing: [UInt8]) {
    let (file, drawing) = try inSnapshot {
      let template = try EnvelopeRecords.template(row.envelopeID, in: database)
      let blobs = BlobStore(database)
      // The file's SHA-256 covers every byte of the drawing through its base64, so the
      // drawing's own hash would prove nothing more; unless the file keeps its base64
      // verbatim, apart from the drawing.
      let drawing =
        template.spelling == .verbatim
        ? try blobs.bytes(ofBlob: row.blobID) : try blobs.unhashedBytes(ofBlob: row.blobID)
      return (template.rebuild(drawing: drawing), drawing)
    }
    guard SHA256.hash(file) == row.fileSHA256 else {
      // A damaged drawing is named as such, as a hashed read names it.
      _ = try inSnapshot { try BlobStore(database).bytes(ofBlob: row.blobID) }
      throw .damagedVersion(
        draft: row.draftName, version: number, fileName: row.fileName,
        detail: "the rebuilt file does not match its SHA-256 \(hexString(row.fileSHA256).prefix(12))")
    }
    return (file, drawing)
  }

  /// The name a version's file gets when its own is not a safe one: `<draft>.inkling`.
  static func fallbackFileName(_ row: VersionRow) -> String {
    FolderNaming.safeName(row.draftName, fallback: "Untitled") + ".inkling"
  }

  private func write(
    _ bytes: [UInt8], of row: VersionRow, info: VersionInfo, to destination: RestoreDestination, overwrite: Bool
  ) throws(ArchiveError) -> RestoredFile {
    let path: String
    var renamedFrom: String?
    var change: FileNameChange?
    var naming = FileOutput.Naming.given
    switch destination {
    case .file(let file):
      path = file
    case .folder(let folder):
      naming = .chosenInFolder
      try FileOutput.makeFolder(folder)
      let (name, why) = try Self.fileName(of: row, in: nil)
      if why != nil { (renamedFrom, change) = (row.fileName, why) }
      path = OutputPath.joining(folder, name)
    }
    if let parts = OutputPath(path) {
      Leftovers.remove(.file, in: parts.folder, name: parts.name)
    }
    try FileOutput.write(
      bytes, to: path, modificationNanoseconds: row.fileModificationNanoseconds, overwrite: overwrite, naming: naming)
    return RestoredFile(path: path, version: info, renamedFrom: renamedFrom, nameChange: change)
  }
}
