// Why a file was not imported, or was passed over: values the app can match on. Their
// descriptions are plain facts; the command line adds its own advice (ErrorMessages.swift).

import InklingFormats

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a draft file could not be imported.
public enum ImportProblem: Error, Sendable, Equatable, CustomStringConvertible {
  /// A system call on the file failed with `errno` `code`.
  case cannotRead(code: Int32)
  /// A symbolic link whose target does not exist.
  case brokenLink
  /// A symbolic link that leads back to itself.
  case linkLoop
  /// A device, FIFO or socket.
  case notRegularFile
  /// Larger than `ImportOptions.maximumFileSize`.
  case tooLarge(size: Int64, limit: Int64)
  /// The file changed size while it was read.
  case shrank(from: Int64, to: Int64)
  /// Not a file the app writes: what is wrong with its contents.
  case notADraft(String)
  /// The name's bytes are not UTF-8, so no draft name can be read from it.
  case invalidFileName
  /// A folder whose name ends in `.inkling` (its contents are searched all the same).
  case folderNamedLikeADraft
  /// A file named by the caller (not found in a folder) whose name is not a draft file's.
  case namedNotADraftFile
  /// The stored form did not rebuild the file exactly; nothing was stored (our bug).
  case failedVerification
  /// The archive refused to store it.
  case notStored(String)
  /// A version of an archive being merged that does not verify, left out (salvaging).
  case leftOut(String)

  public var description: String {
    switch self {
    case .cannotRead(let code): "cannot read it: \(String(cString: strerror(code)))"
    case .brokenLink: "a broken symbolic link"
    case .linkLoop: "a symbolic link loop"
    case .notRegularFile: "not a regular file (a device, FIFO or socket)"
    case .tooLarge(let size, let limit): "\(size) bytes is over the \(limit)-byte limit for a draft file"
    case .shrank(let from, let to): "the file shrank from \(from) to \(to) bytes while being imported"
    case .notADraft(let reason): reason
    case .invalidFileName: "the file name is not valid UTF-8; rename it to import it"
    case .folderNamedLikeADraft: "a folder, not a draft file (its contents are searched all the same)"
    case .namedNotADraftFile: "not a draft file: its name does not end in .inkling"
    case .failedVerification:
      "internal check failed: the archived form does not rebuild this file exactly; it was not imported "
        + "(please report this)"
    case .notStored(let detail): "could not be stored: \(detail)"
    case .leftOut(let detail): "left out: \(detail)"
    }
  }
}

/// Why a path was passed over without being imported or rejected.
public enum IgnoredReason: Sendable, Equatable, CustomStringConvertible {
  /// Its name does not end in `.inkling`.
  case notADraftFile
  /// A macOS metadata file (`._Cat.inkling`) left on a foreign disk.
  case appleDouble
  /// A folder searched already in this import: named twice, or reached again through a
  /// symbolic link.
  case alreadySearched
  /// An iCloud Drive placeholder (`.Cat-2025-10-01T14:03:12Z.inkling.icloud`): a save of the
  /// draft `draft` that this device has not downloaded, so there is nothing to import yet.
  case notDownloaded(draft: String)

  /// Whether this is an iCloud placeholder's save, which the import names apart.
  public var isNotDownloaded: Bool {
    if case .notDownloaded = self { true } else { false }
  }

  public var description: String {
    switch self {
    case .notADraftFile: "not a draft file (its name does not end in .inkling)"
    case .appleDouble: "macOS metadata (a ._ file), not a draft"
    case .alreadySearched: "a folder already searched in this import"
    case .notDownloaded(let draft):
      "a save of \"\(draft)\" that iCloud Drive has not downloaded yet (an .icloud placeholder)"
    }
  }
}

/// What happened to one draft file.
public enum ImportOutcome: String, Sendable, Equatable {
  /// A new version was stored.
  case imported
  /// Its draft, save time and content were in the archive already.
  case alreadyArchived
}

/// Something to know about a file that was imported all the same.
public enum ImportNote: Sendable, Equatable, CustomStringConvertible {
  /// The file name bent the app's rule, and what was done instead.
  case fileName(DraftFileName.Fallback)
  /// The drawing does not decode: it is archived byte for byte, but cannot be drawn or
  /// searched by strokes (`show` tells why).
  case undecodableDrawing(String)
  /// The date in the file name is more than a day after the import: kept as written, so the
  /// version sorts newest until the clock catches up.
  case futureStamp

  public var description: String {
    switch self {
    case .fileName(let fallback): fallback.description
    case .futureStamp:
      "the date in the file name is in the future (more than a day after now); it is kept as written, so this "
        + "version sorts as the newest"
    case .undecodableDrawing(let reason): "the drawing does not decode (\(reason)); it is archived as it is"
    }
  }
}
