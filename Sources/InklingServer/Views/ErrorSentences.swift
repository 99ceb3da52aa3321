// The one place where the library's errors become what a person reads in the browser, and
// their HTTP status: what the request named does not exist (404), the request itself is
// malformed (400), or the archive cannot be used (500). The command line words the same cases
// for a terminal (InklingArchiveTool/ErrorMessages.swift); these sentences name no flag or command.
// Each name in them is isolated (Escape.isolated), as in every view: a sentence is shown as text;
// the API's JSON has the sentence without the isolates.

import InklingArchive
import InklingPresentation

extension RequestError {
  /// Why the archive cannot be used, in a page's words (no path: a visitor beyond this
  /// machine is not told its folders).
  static func why(_ reason: ArchiveError.UnusableArchive) -> String {
    switch reason {
    case .missing: "there is no archive file at its path"
    case .folder: "its path names a folder"
    case .notAnArchive: "the file at its path is not an inkling archive"
    case .newerSchema: "it was written by a newer inkling-archive"
    case .changedSchema: "it was changed outside inkling-archive (its schema differs)"
    case .damaged(_, onlyDrawingIndex: true): "its drawing index is damaged"
    case .damaged: "it is damaged"
    case .locked: "another program has kept it locked"
    case .cannotWrite, .unreadableLog: "it cannot be read or written here"
    case .diskFull: "the disk holding it is full"
    case .failed(let detail): detail
    }
  }

  /// The sentence for a page, each name isolated, and for the API (`jsonMessage`) the
  /// same sentence without the isolates: JSON strings are exact, and a script comparing or
  /// showing one would meet characters nobody sees.
  init(_ error: ArchiveError) {
    self.init(error, isolating: Escape.isolated)
    jsonMessage = RequestError(error, isolating: { $0 }).message
  }

  private init(_ error: ArchiveError, isolating isolated: (String) -> String) {
    switch error {
    case .noSuchDraft(let name, let suggestions):
      self.init(
        404, "There is no draft named \u{201C}\(isolated(name))\u{201D} in the archive.",
        suggestions: suggestions)
    case .noSuchVersion(let draft, let number, let count):
      self.init(
        404,
        "\u{201C}\(isolated(draft))\u{201D} has \(Plural.count(count, "version")); there is no version \(number)."
      )
    case .noEarlierVersion(let draft):
      self.init(404, "Version 1 of \u{201C}\(isolated(draft))\u{201D} has no version before it to compare it with.")
    case .noVersionWithID(let id):
      self.init(404, "There is no version \(id) in the archive (it may have been removed).")
    case .noDraftWithID(let id):
      self.init(404, "There is no draft \(id) in the archive (it may have been purged, or merged into another).")
    case .noVersionSavedBy(let draft, _, let firstSaved):
      self.init(
        404,
        "\u{201C}\(isolated(draft))\u{201D} has no version saved by then; its first was saved \(Format.minute(firstSaved))."
      )
    case .noMatchingDrafts: self.init(404, "No drafts match.")
    case .noSuchLabel(let draft, let label, _):
      self.init(404, "No version of \u{201C}\(isolated(draft))\u{201D} is labelled \u{201C}\(isolated(label))\u{201D}.")
    case .noSuchSavedSearch(let name, let saved):
      // A search the box was given, as a date the filters cannot read: the request's.
      let there =
        saved.isEmpty
        ? "there are none"
        : "the saved searches are " + saved.map { "@" + isolated($0) }.joined(separator: ", ")
      self.init(400, "There is no saved search named \u{201C}\(isolated(name))\u{201D}; \(there).")
    case .notIndexed(let draft):
      self.init(
        404,
        "The drawings of \u{201C}\(isolated(draft))\u{201D} are not indexed yet, so they cannot be compared.")
    case .unreadableDrawing(let draft, let version, let reason):
      self.init(404, "Version \(version) of \u{201C}\(isolated(draft))\u{201D} cannot be drawn: \(reason).")
    case .invalidDate(let text):
      let quoted = "\u{201C}\(isolated(text))\u{201D}"
      if let (minutes, months) = DateExpression.ambiguousAge(text) {
        self.init(400, "\(quoted) could be minutes or months: write \(minutes) or \(months).")
      } else {
        self.init(400, "\(quoted) is not a date: use \(DateExpression.forms).")
      }
    case .invalidPattern(let pattern, let problem):
      self.init(400, "\(problem) in the pattern \u{201C}\(isolated(pattern))\u{201D}.")
    case .invalidArgument(let argument): self.init(400, Self.sentence(argument))
    case .searchSyntax(let syntax): self.init(400, syntax.description)
    case .unusableArchive(_, let reason): self.init(500, "The archive cannot be used: \(Self.why(reason)).")
    case .damagedVersion(let draft, let version, let fileName, let detail):
      self.init(
        500,
        "Version \(version) of \u{201C}\(isolated(draft))\u{201D} (\(isolated(fileName))) is damaged: \(detail)."
      )
    case .imageEncoding(let detail): self.init(500, "The image could not be encoded: \(detail).")
    case .noReadableVersions(let draft, _, _):
      self.init(
        404, "There is no time-lapse of \u{201C}\(isolated(draft))\u{201D}: none of its drawings can be read.")
    case .videoEncoding(let detail): self.init(500, "The time-lapse could not be encoded: \(detail).")
    case .tooLargeToZip(let draft, let bytes, let limit):
      self.init(
        403,
        "The versions of \u{201C}\(isolated(draft))\u{201D} hold \(Format.bytes(bytes)), more than this server puts in one zip file (\(Format.bytes(limit))): download them one by one, or restore them all with the command line."
      )
    case .tooLargeToServe(let draft, let version, let bytes, let limit):
      self.init(
        403,
        "Version \(version) of \u{201C}\(isolated(draft))\u{201D} holds \(Format.bytes(bytes)), more than this server builds in memory for one answer (\(Format.bytes(limit))): restore it with the command line."
      )
    case .openedReadOnly, .importStopped, .textRendering, .tooManyDrafts, .destinationExists, .destinationIsFolder,
      .destinationNotRegularFile,
      .fileSystem,
      .backupIsArchive, .backupFailedCheck, .draftExists, .draftInTrash, .draftNotInTrash, .noSuchNote, .labelTaken,
      .cannotMerge,
      .mergeStoppedAtDamage, .mergeIntoItself, .cannotWatch, .cannotStartThread, .timelapseStopped:
      // Errors of operations that write files or the archive (or start threads, or are
      // stopped by a signal), which no page calls.
      self.init(500, "\(error)")
    }
  }

  private static func sentence(_ argument: ArchiveError.InvalidArgument) -> String {
    switch argument {
    case .thumbnailSize(let size): "A thumbnail is 128, 256, 512 or 1024 pixels, not \(size)."
    case .renderScale(let scale): "The scale is above 0 and at most 16, not \(scale)."
    case .pageSize(let size): "A page holds 1 to \(Archive.draftPageLimit) drafts, not \(size)."
    case .contactSheetSize, .columns, .portfolioColumns, .compressionLevel, .draftName, .timelapse, .tagName,
      .savedSearchName, .stars, .noteText, .labelName, .labelIsNumber:
      "\(argument)"
    }
  }
}
