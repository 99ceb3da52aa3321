// What an import did, and what it tells the caller while it runs.

import FoundationEssentials

/// The outcome of `Archive.importFiles(at:options:)`.
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
  /// Files that are not draft files (other endings, macOS `._` files).
  public var ignored = 0
  /// Draft files that could not be imported; each was reported with its reason.
  public var rejected = 0
  /// Bytes of draft files read.
  public var bytesRead: Int64 = 0
  /// Wall-clock seconds.
  public var seconds = 0.0

  public init() {}
}

/// One version an import stored, reported once its batch committed.
public struct ImportedVersion: Sendable, Equatable {
  public var draft: String
  /// Its number in the draft when it was stored (1 = oldest), as `history` numbers versions;
  /// an older version imported later moves it up.
  public var number: Int
  public var saved: Date
  /// Whether `saved` came from the file name (else from the file's modification time).
  public var savedFromFileName: Bool
  /// The file it was read from.
  public var path: String
  public var fileSize: Int64
  /// The source it was recorded with (migration 0013).
  public var source: String?
  /// Whether the draft was new.
  public var newDraft: Bool
  /// Whether this save brought its draft back from the trash (`ImportSummary.draftsBroughtBack`).
  public var broughtBackFromTrash = false
}

/// Something an import reports while it runs, in the order it happens.
public enum ImportEvent: Sendable {
  /// A draft file was not imported, and why.
  case rejected(path: String, problem: ImportProblem)
  /// A path was passed over; `named` when it is one of the paths given to the import.
  case ignored(path: String, reason: IgnoredReason, named: Bool)
  /// A draft file was stored, or found in the archive already; `draft` is the draft that
  /// holds it (for a file found, the draft's name now: a renamed draft's file names another).
  case archived(path: String, draft: String, outcome: ImportOutcome)
  /// Something to know about a file that was imported all the same (a fallback in its
  /// name, a drawing that does not decode).
  case note(path: String, note: ImportNote)
  /// Counts so far, for a progress line.
  case progress(ImportProgress)
  /// A version was stored and its batch committed (only with `ImportOptions.reportsVersions`).
  case imported(ImportedVersion)
}

/// How far an import has got.
public struct ImportProgress: Sendable {
  public var filesDone: Int
  public var bytesDone: Int64
  /// Files and bytes found so far; final once `walkFinished` is true.
  public var filesFound: Int
  public var bytesFound: Int64
  public var walkFinished: Bool
  public var seconds: Double

  /// Bytes per second so far.
  public var bytesPerSecond: Double { seconds > 0 ? Double(bytesDone) / seconds : 0 }

  /// Seconds left at the current rate, once the walk knows the total.
  public var secondsLeft: Double? {
    guard walkFinished, bytesPerSecond > 0 else { return nil }
    return Double(bytesFound - bytesDone) / bytesPerSecond
  }
}

/// How to import.
public struct ImportOptions: Sendable {
  /// Files larger than this are refused (`defaultMaximumFileSize` by default).
  public var maximumFileSize: Int64 = Self.defaultMaximumFileSize
  /// 256 MiB. A constant rather than `ImportOptions().maximumFileSize`, which would also ask
  /// the system how many cores there are (for `workers`).
  public static let defaultMaximumFileSize: Int64 = 256 << 20
  /// Threads that read, parse, hash and compress; one more thread writes.
  public var workers = Self.defaultWorkers
  /// One for each core, up to 8. Asking for the cores reads the cgroup's files, so it is
  /// asked once and only by a command that imports.
  public static let defaultWorkers = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
  /// Whether to decode each new drawing and add it to the drawing index (the default).
  /// Without it the drawings are archived all the same and show as "not indexed" until
  /// `Archive.reindex()`; the benchmark uses this to measure what indexing costs an import.
  public var indexDrawings = true
  /// The source recorded with every version imported (migration 0013; `source:` searches
  /// it): nil for the folder each path given is, or is in, as an absolute path.
  public var source: String?
  /// Whether to report each version stored (`ImportEvent.imported`), once its batch commits.
  public var reportsVersions = false
  /// Asked after each batch commits; true ends the import there: the files it had not
  /// reached are not counted in its summary, and importing again completes the work.
  public var shouldStop: (@Sendable () -> Bool)?
  /// Called on the importing thread for each event; keep it quick.
  public var onEvent: (@Sendable (ImportEvent) -> Void)?

  public init() {}
}
