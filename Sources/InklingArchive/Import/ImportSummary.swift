// What an import did.

import FoundationEssentials

/// What `Archive.importFiles(at:options:)` did, or one merge of `Archive.merge(archiveAt:)`.
public struct ImportSummary: Sendable, Equatable {
  /// New versions stored.
  public var versionsImported = 0
  /// Drafts that did not exist before this import.
  public var draftsCreated = 0
  /// Drafts that were in the trash and came back because this import stored a save newer
  /// than any they held (the newest work is never hidden in the trash), in import order.
  public var draftsBroughtBack: [String] = []
  /// Versions stored into drafts that stay in the trash: each older than the draft's newest.
  public var versionsInTrash = 0
  /// Files whose draft, save time and content were already in the archive.
  public var alreadyArchived = 0
  /// Versions found damaged by `check --full` that this import rebuilt from their files
  /// (each file hashed to the version's, its drawing re-stored and verified before commit).
  public var versionsRepaired = 0
  /// Files of versions found damaged that could not repair them: the version stays damaged.
  public var versionsNotRepaired = 0
  /// Files that are not draft files (other endings, macOS `._` files).
  public var ignored = 0
  /// iCloud Drive placeholders of saves not downloaded yet, by draft: none of them is in
  /// the archive, and the import says so rather than counting them as ignored.
  public var savesNotDownloaded: [String: Int] = [:]
  /// Draft files that could not be imported; each was reported with its reason.
  public var rejected = 0
  /// Drawings stored without their drawing index rows, which SQLite refused: search by
  /// strokes and inks misses them until `reindex` writes the rows.
  public var drawingsNotIndexed = 0
  /// Bytes of draft files read.
  public var bytesRead: Int64 = 0
  /// Wall-clock seconds.
  public var seconds = 0.0

  public init() {}

  /// The counts of `other` added to these (an import's files and the archives it merged).
  public mutating func add(_ other: ImportSummary) {
    versionsImported += other.versionsImported
    draftsCreated += other.draftsCreated
    draftsBroughtBack += other.draftsBroughtBack
    versionsInTrash += other.versionsInTrash
    alreadyArchived += other.alreadyArchived
    versionsRepaired += other.versionsRepaired
    versionsNotRepaired += other.versionsNotRepaired
    ignored += other.ignored
    savesNotDownloaded.merge(other.savesNotDownloaded, uniquingKeysWith: +)
    rejected += other.rejected
    drawingsNotIndexed += other.drawingsNotIndexed
    bytesRead += other.bytesRead
    seconds += other.seconds
  }
}
