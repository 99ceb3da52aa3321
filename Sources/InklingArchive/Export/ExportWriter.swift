// The writing half of an export: files go through a FileBatch (one sync for many files, each
// name appearing only once its bytes are on disk), and the report and the manifest follow
// what each file became, in the order the export met them.
//
// A file is decided when it is met — already there with its bytes, in the way of something
// else, or to be written — but a file to be written is only known to be written when its
// batch commits (the name may have been taken meanwhile). So every file met waits in
// `pending` until the commit, and the manifest, the counts and the problems are written then,
// in order: the manifest lists exactly what is in the folder (ExportManifest, invariant 1).
//
// A batch commits on a thread of its own while the next one is rebuilt and staged: the sync
// waits for the disk, the rebuild for the processor, and the two overlap. At most one batch
// is in flight; its outcomes are taken in before the next one leaves, so the manifest keeps
// the export's order.

import Dispatch
import InklingFormats

final class ExportWriter {
  /// One file of the export, as the manifest lists it.
  struct File: Sendable {
    /// A draft's file, or a picture of it in one of the `PictureFormat`s (the same names).
    enum Kind: String, Sendable {
      case inkling, png, svg, pdf

      init(_ format: PictureFormat) {
        switch format {
        case .png: self = .png
        case .svg: self = .svg
        case .pdf: self = .pdf
        }
      }
    }
    var draft: String
    var version: Int
    var savedMilliseconds: Int64
    /// Its name in the folder.
    var name: String
    var kind: Kind
    var size: Int64
    var sha256: [UInt8]
    var renamedFrom: String?
  }

  private enum State {
    case unchanged
    case staged(replacing: Bool)
  }

  /// A batch being committed on the commit thread, and what it will say.
  private final class Commit: @unchecked Sendable {
    let batch: FileBatch
    let pending: [(file: File, state: State)]
    let done = DispatchSemaphore(value: 0)
    /// Set by the commit thread before `done` is signalled; read after waiting on it.
    var outcomes: Result<[FileBatch.Outcome], ArchiveError> = .success([])

    init(_ batch: FileBatch, _ pending: [(file: File, state: State)]) {
      self.batch = batch
      self.pending = pending
    }
  }

  let folder: String
  let overwrite: Bool
  private let earlier: EarlierFilesInFolder
  private let manifest: ExportManifest
  private var batch = FileBatch()
  private var pending: [(file: File, state: State)] = []
  private var inFlight: Commit?
  private let committer = DispatchQueue(label: "inkling-archive.export.commit")
  private var report: ExportReport

  init(folder: String, overwrite: Bool, earlier: EarlierFilesInFolder, report: ExportReport) throws(ArchiveError) {
    self.folder = folder
    self.overwrite = overwrite
    self.earlier = earlier
    self.report = report
    manifest = try ExportManifest(folder: folder)
  }

  /// An export that stops on an error still waits for the batch in flight, so that no
  /// thread writes into the folder after it returned.
  deinit { inFlight?.done.wait() }

  func path(of file: File) -> String { OutputPath.joining(folder, file.name) }

  /// Whether `file` is to be written over what is at its path: false when that is the file
  /// already (it is counted and listed) or something else that stays (reported).
  func mayWrite(_ file: File, over existing: ExistingFile) -> Bool {
    if existing.holds(size: file.size, sha256: file.sha256) {
      pending.append((file, .unchanged))
      return false
    }
    switch existing {
    case .none: return true
    case .file where overwrite: return true
    case .file:
      problem(.exists, file, Self.inTheWay(existing))
      return false
    case .other:
      problem(.notAFile, file, Self.inTheWay(existing))
      return false
    }
  }

  /// Stages `bytes` for `file` (whose size and hash they are).
  func write(_ bytes: [UInt8], _ file: File, modificationNanoseconds: Int64, over existing: ExistingFile)
    throws(ArchiveError)
  {
    try batch.add(
      bytes, to: path(of: file), modificationNanoseconds: modificationNanoseconds, overwrite: existing != .none)
    pending.append((file, .staged(replacing: existing != .none)))
  }

  /// A file that is not in the folder as the export would have it.
  func problem(_ kind: ExportReport.Problem.Kind, _ file: File, _ detail: String) {
    report.problems.append(
      .init(kind: kind, draft: file.draft, version: file.version, path: path(of: file), detail: detail))
  }

  /// Sends the batch to be committed when it is full (after taking in the one before).
  func commitIfDue() throws(ArchiveError) {
    guard batch.isFull || pending.count >= FileBatch.files else { return }
    try takeInFlight()
    let commit = Commit(batch, pending)
    committer.async {
      commit.outcomes = Result { () throws(ArchiveError) in try commit.batch.commit() }
      commit.done.signal()
    }
    inFlight = commit
    batch = FileBatch()
    pending = []
  }

  /// Commits the last batch and puts the manifest in place.
  /// `drafts` are the manifest's entries of what was said about the drafts (ExportedMarks).
  func finish(drafts: [JSONValue] = []) throws(ArchiveError) -> ExportReport {
    try takeInFlight()
    try apply(try batch.commit(), to: pending)
    pending = []
    try listEarlierFiles()
    report.manifestWritten = try manifest.finish(drafts: drafts)
    return report
  }

  /// Waits for the batch in flight and takes in its outcomes.
  private func takeInFlight() throws(ArchiveError) {
    guard let commit = inFlight else { return }
    commit.done.wait()
    inFlight = nil
    try apply(try commit.outcomes.get(), to: commit.pending)
  }

  /// The counts, problems and manifest entries of committed files, in the order met.
  private func apply(_ outcomes: [FileBatch.Outcome], to pending: [(file: File, state: State)]) throws(ArchiveError) {
    var outcomes = outcomes.makeIterator()
    for (file, state) in pending {
      switch state {
      case .unchanged:
        if file.kind == .inkling { report.filesUnchanged += 1 } else { report.picturesUnchanged += 1 }
      case .staged(let replacing):
        guard outcomes.next() == .written else {
          let existing = ExistingFile.at(path(of: file), expectedSize: -1)
          problem(existing == .other ? .notAFile : .exists, file, Self.inTheWay(existing))
          continue
        }
        if file.kind == .inkling { report.filesWritten += 1 } else { report.picturesWritten += 1 }
        if replacing { report.filesReplaced += 1 }
        report.bytesWritten += file.size
      }
      try list(file)
    }
  }

  /// The earlier export's files this one did not meet, while they hold the bytes listed: the
  /// manifest describes the whole folder (ExportManifest, invariant 1).
  private func listEarlierFiles() throws(ArchiveError) {
    for file in earlier.notListedAgain {
      guard ExistingFile.at(path(of: file), expectedSize: file.size).holds(size: file.size, sha256: file.sha256)
      else { continue }
      try list(file)
      report.earlierFilesListed += 1
    }
  }

  private func list(_ file: File) throws(ArchiveError) {
    earlier.listed(file.name)
    try manifest.add(
      draft: file.draft, version: file.version, savedMilliseconds: file.savedMilliseconds, file: file.name,
      kind: file.kind.rawValue, size: file.size, sha256: file.sha256, renamedFrom: file.renamedFrom)
  }

  /// What is in the way of a file, for the report.
  static func inTheWay(_ existing: ExistingFile) -> String {
    switch existing {
    case .file: "a file with other contents has this name"
    case .none, .other: "something that is not a plain file has this name"
    }
  }
}
