// How to import: limits, threads, the source label, and how to follow and stop the run.

import FoundationEssentials

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
  /// Whether to read and hash every file. Without it a file whose path, size and modification
  /// time are those the archive recorded for a version is taken for that version unread
  /// (a file rewritten with the same size and time is then missed).
  public var verify = false
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
