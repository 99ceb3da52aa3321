// All of a draft's versions as one zip file, for a download: each version's original bytes,
// verified against their SHA-256, with its original modification time, under the name
// `restore --all-versions` gives it made portable (PortableName.swift: every common unzip, on
// any system, writes it as it is), and an export's manifest, `inkling-export.json`, that keeps
// each file's original name, so `import` of the unpacked folder is an exact round trip.

import InklingFormats
import InklingStore

extension Archive {
  /// The most bytes of files `versionsZip` puts in one zip: past it, the 32-bit fields of a
  /// zip without Zip64 would wrap.
  public static let zipLimit: Int64 = 0xFFFF_0000

  /// Every version of draft `name`, oldest first, as one zip file in memory. `limit` caps the
  /// sum of their file sizes, which is about the memory the zip needs at most.
  ///
  /// - Throws: `ArchiveError.noSuchDraft`; `.tooLargeToZip` when the files hold more than
  ///   `limit` bytes; `.damagedVersion` when a file no longer rebuilds.
  public func versionsZip(draft name: String, limit: Int64 = zipLimit) throws(ArchiveError) -> [UInt8] {
    try inSnapshot { () throws -> [UInt8] in
      let versions = try versions(of: name)
      let limit = min(limit, Self.zipLimit)
      let total = versions.reduce(Int64(0)) { $0 + $1.row.fileSize }
      guard total <= limit else { throw ArchiveError.tooLargeToZip(draft: name, bytes: total, limit: limit) }
      // The sizes of the files are the rows' word, and so are those of the drawings they are
      // rebuilt from (another archive's rows may claim anything): none larger than the whole
      // zip may be is decoded.
      for (row, _) in versions {
        let declared = Int64(try BlobStore(database).largestSize(inChainOf: row.blobID))
        guard declared <= limit else { throw ArchiveError.tooLargeToZip(draft: name, bytes: declared, limit: limit) }
      }
      let names = try Self.portableNames(of: versions.map(\.row))
      var zip = ZipWriter()
      var text = ExportManifest.Text()
      var manifest = text.opening()
      do {
        for (row, info) in versions {
          let name = names[row.id]!
          try zip.add(
            name: name, contents: try verifiedFile(of: row, number: info.number).file,
            modified: row.fileModificationNanoseconds / 1_000_000_000)
          manifest += text.file(
            draft: row.draftName, version: info.number, savedMilliseconds: row.savedMilliseconds, file: name,
            kind: ExportWriter.File.Kind.inkling.rawValue, size: row.fileSize, sha256: row.fileSHA256,
            renamedFrom: name == row.fileName ? nil : row.fileName)
        }
        manifest += text.closing(drafts: [])
        // Dated as the newest file, so the same versions make the same zip.
        let newest = versions.map(\.row.fileModificationNanoseconds).max() ?? 0
        try zip.add(name: ExportManifest.fileName, contents: Array(manifest.utf8), modified: newest / 1_000_000_000)
        return try zip.finished()
      } catch let error as ArchiveError {
        throw error
      } catch {
        throw ArchiveError.tooLargeToZip(draft: name, bytes: total, limit: limit)
      }
    }
  }

  /// The names of `rows`' files in a zip: restore's (`folderNames`), made portable, and still
  /// distinct from each other and from the manifest's once made so, given in the order the
  /// versions were archived as restore gives them.
  static func portableNames(of rows: [VersionRow]) throws(ArchiveError) -> [Int64: String] {
    let naming = FolderNaming()
    _ = try naming.distinct(ExportManifest.fileName)
    var names: [Int64: String] = [:]
    for row in rows.sorted(by: { $0.id < $1.id }) {
      names[row.id] = try naming.distinct(PortableName.of(try fileName(of: row, in: nil).name))
    }
    return names
  }
}
