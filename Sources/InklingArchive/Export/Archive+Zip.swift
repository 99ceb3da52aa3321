// All of a draft's versions as one zip file, for a download: each version's original bytes,
// verified against their SHA-256, under the name `restore --all-versions` gives it (so the
// zip unpacks to the folder that command writes) and with its original modification time.

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
      let names = try Self.folderNames(of: versions.map(\.row))
      var zip = ZipWriter()
      do {
        for (row, info) in versions {
          try zip.add(
            name: names[row.id]!.name, contents: try verifiedFile(of: row, number: info.number).file,
            modified: row.fileModificationNanoseconds / 1_000_000_000)
        }
        return try zip.finished()
      } catch let error as ArchiveError {
        throw error
      } catch {
        throw ArchiveError.tooLargeToZip(draft: name, bytes: total, limit: limit)
      }
    }
  }
}
