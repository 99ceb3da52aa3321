// `import`: files and folders into the archive, through the import's threads
// (ImportPipeline.swift): the folder walk lists each folder's versions of a draft, workers
// prepare them (VersionPreparer), the writer stores them (VersionWriter).

import FoundationEssentials
import InklingFormats
import InklingStore

extension Archive {
  /// Imports every `.inkling` file at or under `paths`.
  ///
  /// Importing is idempotent: a file whose draft, save time and content are already in the
  /// archive counts as already archived (and the source it came from this time is recorded
  /// beside it). A file whose path, size and modification time the archive recorded is
  /// known without being read, unless `options.verify`. A file that cannot be imported is reported through `options.onEvent` and
  /// counted as rejected; the rest is imported all the same.
  ///
  /// - Throws: `ArchiveError` when the archive itself cannot be used (then the files of
  ///   the batch being written are not imported; importing again completes the work).
  public func importFiles(at paths: [String], options: ImportOptions = ImportOptions()) throws(ArchiveError)
    -> ImportSummary
  {
    let workingDirectory = FileManager.default.currentDirectoryPath
    let labels = paths.map { options.source ?? SourceLabel.of($0, in: workingDirectory) }
    let source = FileImport(
      paths: paths, labels: labels, archivePath: path, maximumFileSize: options.maximumFileSize,
      indexDrawings: options.indexDrawings, verify: options.verify)
    return try runImport(source, options: options).total
  }

  /// Splits one draft's files so that no job holds much more than a few megabytes.
  static func chunks(_ entries: [DraftFileEntry]) -> [[DraftFileEntry]] {
    var chunks: [[DraftFileEntry]] = []
    var current: [DraftFileEntry] = []
    var bytes: Int64 = 0
    for entry in entries {
      if !current.isEmpty && (bytes + entry.size > 4 << 20 || current.count >= 64) {
        chunks.append(current)
        current = []
        bytes = 0
      }
      current.append(entry)
      bytes += entry.size
    }
    if !current.isEmpty { chunks.append(current) }
    return chunks
  }
}

/// Files and folders as the pipeline's work: the walk's findings are the jobs.
struct FileImport: ImportSource {
  let paths: [String]
  /// The source label of each path.
  let labels: [String]
  let archivePath: String
  let maximumFileSize: Int64
  let indexDrawings: Bool
  let verify: Bool

  /// Thrown from the walk's callback to end the walk when the import stops.
  private struct Stopped: Error {}

  func produce(_ progress: ProgressCounter, isStopped: @escaping @Sendable () -> Bool, _ emit: (WalkEvent) -> Bool) {
    let walker = FileWalker(maximumFileSize: maximumFileSize, isStopped: isStopped)
    try? walker.walk(paths) { event in
      if case .drafts(let entries) = event {
        progress.found(files: entries.count, bytes: entries.reduce(0) { $0 + $1.size })
      }
      guard emit(event) else { throw Stopped() }
    }
  }

  func makeWorker() throws -> VersionPreparer {
    try VersionPreparer(
      archivePath: archivePath, maximumFileSize: maximumFileSize, indexDrawings: indexDrawings, verify: verify,
      labels: labels)
  }

  func prepare(_ job: WalkEvent, with preparer: VersionPreparer, _ push: (WorkResult) -> Void) {
    switch job {
    case .drafts(let entries): for chunk in Archive.chunks(entries) { push(.files(preparer.prepare(chunk))) }
    case .ignored(let path, let reason, let named): push(.ignored(path: path, reason: reason, named: named))
    case .problem(let path, let problem): push(.problem(path: path, problem: problem))
    }
  }
}
