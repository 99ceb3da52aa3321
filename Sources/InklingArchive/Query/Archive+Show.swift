// `show`: one version of a draft with what the drawing index says of its drawing.

import FoundationEssentials
import InklingFormats
import InklingStore

extension Archive {
  /// One version of a draft with what its drawing holds.
  public func show(draft name: String, version selector: VersionSelector = .latest) throws(ArchiveError) -> (
    version: VersionInfo, drawing: DrawingSummary
  ) {
    try inSnapshot { () throws -> (version: VersionInfo, drawing: DrawingSummary) in
      let (row, info) = try VersionLookup(self).version(draft: name, selector)
      let facts = try DrawingIndexRecords.read(blobID: row.blobID, in: database)
      return (info, summary(of: facts, blobID: row.blobID))
    }
  }
}
