// What an import tells the caller while it runs.

import FoundationEssentials

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
  /// The files and folders among the paths of `Archive.importPaths` are imported: what they
  /// gave, before any archive among the paths is merged.
  case filesImported(ImportSummary)
  /// One archive among the paths of `Archive.importPaths` is merged: told for each, in the
  /// order given, once the run that merges them all has ended.
  case merged(MergeSummary)
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
