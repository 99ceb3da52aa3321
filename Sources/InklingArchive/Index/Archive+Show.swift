// `show`: one version of a draft with what the drawing index says of its drawing; and how a
// version is picked by number or date, for every operation on one version.

import FoundationEssentials
import InklingFormats
import InklingStore

extension Archive {
  /// One version of a draft with what its drawing holds.
  public func show(draft name: String, version selector: VersionSelector = .latest) throws(ArchiveError) -> (
    version: VersionInfo, drawing: DrawingSummary
  ) {
    let (row, info) = try versionRow(draft: name, selector)
    let facts = try storeCall { try DrawingIndexRecords.read(blobID: row.blobID, in: database) }
    return (info, facts.map { DrawingSummary($0.facts) } ?? .notIndexed)
  }

  /// A version's row and its history entry.
  func versionRow(draft name: String, _ selector: VersionSelector) throws(ArchiveError) -> (VersionRow, VersionInfo) {
    let versions = try versions(of: name)
    let index: Int
    switch selector {
    case .latest:
      index = versions.count - 1
    case .number(let number):
      guard (1...versions.count).contains(number) else {
        throw .noSuchVersion(draft: versions[0].info.draftName, number: number, versionCount: versions.count)
      }
      index = number - 1
    case .at(let range):
      guard let last = versions.lastIndex(where: { $0.row.savedMilliseconds < range.end }) else {
        throw .noVersionSavedBy(
          draft: versions[0].info.draftName, date: Self.date(range.end), firstSaved: versions[0].info.saved)
      }
      index = last
    }
    return versions[index]
  }
}
