// The one place where the library's errors become what a person reads: a sentence that
// names the file or the draft and what to do, and the exit status the README and the man
// page promise (1 what was asked does not exist or does not fit, 2 a usage error, 3 the
// archive cannot be used). The library's cases carry the facts; the words and the flags are ours.

import FoundationEssentials
import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation
import InklingRendering

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension ArchiveError {
  /// Whether this is a mistake on the command line, printed with the usage line (exit 2).
  var isUsageError: Bool {
    switch self {
    case .invalidDate, .invalidPattern, .invalidArgument, .searchSyntax: true
    default: false
    }
  }

  var exitStatus: Int32 {
    switch self {
    case .unusableArchive, .importStopped, .openedReadOnly, .damagedVersion, .cannotMerge, .mergeStoppedAtDamage:
      ExitStatus.archiveUnusable
    // The command that stops a time-lapse says 143 for SIGTERM itself (StopSignals).
    case .timelapseStopped: ExitStatus.interrupted
    case .invalidDate, .invalidPattern, .invalidArgument, .searchSyntax: ExitStatus.usage
    default: ExitStatus.someInputsRejected
    }
  }

  /// The sentence printed after `Error: `, when no command says more.
  var sentence: String { sentence(folderAdvice: "give a file name") }

  /// The sentence printed after `Error: ` by a command whose advice for a destination that
  /// is a folder is `folderAdvice` (`Command.folderAdvice`): each command has its own options.
  func sentence(folderAdvice: String) -> String {
    switch self {
    case .unusableArchive(let path, let reason): Self.sentence(path, reason)
    case .importStopped(let path, let committed, let reason): Self.stoppedSentence(path, committed, reason)
    case .openedReadOnly(let path):
      "the archive \(Quoted.text(path)) was opened read-only; this command cannot write to it"
    case .damagedVersion(let draft, let version, let fileName, let detail):
      "\(Quoted.name(draft)) version \(version) (\(Quoted.text(fileName))): \(Quoted.text(detail)); the archive is damaged. "
        + Self.damageAdvice
    case .cannotMerge(let path, let reason): Self.mergeSentence(path, reason)
    case .mergeStoppedAtDamage(let path, let location, let detail):
      "\(Quoted.text(path)) is damaged: \(Quoted.text(location)): \(Quoted.text(detail)). The versions before it are merged; "
        + "`import --salvage` merges every version that verifies and names the rest."
    case .mergeIntoItself(let path):
      "\(Quoted.text(path)) is the archive itself; give another archive to merge, or --archive for this one"
    case .cannotWatch(let path, let reason): Self.watchSentence(path, reason)
    case .noSuchDraft(let name, let suggestions):
      suggestions.isEmpty
        ? "no draft named \(Quoted.name(name)) in the archive; `inkling-archive list` shows the names"
        : "no draft named \(Quoted.name(name)) in the archive; did you mean "
          + Self.alternatives(suggestions.map { Self.suggested($0, typed: name) }) + "?"
    case .noSuchVersion(let draft, let number, let count):
      "\(Quoted.name(draft)) has \(Plural.count(count, "version")); there is no version \(number)"
    case .noEarlierVersion(let draft):
      "\(Quoted.name(draft)) has no version before version 1 to compare it with; `history` shows its versions"
    case .noVersionWithID(let id): "there is no version with id \(id) in the archive"
    case .noDraftWithID(let id): "there is no draft with id \(id) in the archive"
    case .noVersionSavedBy(let draft, _, let firstSaved):
      "\(Quoted.name(draft)) has no version saved by then; its first was saved \(Format.date(firstSaved))"
    case .notIndexed(let draft):
      "the drawings of \(Quoted.name(draft)) are not indexed yet; run `inkling-archive reindex` first"
    case .unreadableDrawing(let draft, let version, let reason):
      "version \(version) of \(Quoted.name(draft)) could not be read: \(Quoted.text(reason))"
    case .noMatchingDrafts: "no drafts match; nothing written"
    case .noSuchSavedSearch(let name, let saved): Self.sentence(savedSearch: name, saved)
    case .draftExists(let name):
      "a draft named \(Quoted.name(name)) exists already; add --merge to join the two histories into one"
    case .draftInTrash(let name):
      "\(Quoted.name(name)) is in the trash; `inkling-archive undelete` brings it back"
    case .draftNotInTrash(let name):
      "\(Quoted.name(name)) is not in the trash; `inkling-archive list --trash` shows what is"
    case .noSuchNote(let draft, let id):
      "\(Quoted.name(draft)) has no note \(id); `inkling-archive note \(Quoted.name(draft)) --list` shows its notes"
    case .noSuchLabel(let draft, let label, let labels):
      "no version of \(Quoted.name(draft)) is labelled \(Quoted.name(label))"
        + (labels.isEmpty
          ? "; it has no labels, and a version is named by its number"
          : "; its labels are " + labels.map { Quoted.name($0) }.joined(separator: ", "))
    case .labelTaken(let draft, let label, let version):
      "version \(version) of \(Quoted.name(draft)) is labelled \(Quoted.name(label)) already; "
        + "`label \(Quoted.name(draft)) --remove \(Quoted.name(label))` frees the name"
    case .imageEncoding(let detail): "the image could not be encoded: \(Quoted.text(detail))"
    case .videoEncoding(let detail): "the video could not be encoded: \(Quoted.text(detail))"
    case .timelapseStopped(let written):
      written == 0
        ? "the time-lapse was stopped; nothing was written"
        : "the time-lapse was stopped after \(Plural.count(written, "frame")); the rest were not written"
    case .noReadableVersions(let draft, let from, let to):
      from == to
        ? "the drawing of \(Quoted.name(draft)) version \(from) does not decode, so there is nothing to replay"
        : "no drawing of \(Quoted.name(draft)) versions \(from) to \(to) decodes, so there is nothing to replay"
    case .textRendering(let error): "the captions cannot be drawn: \(error)"
    case .tooManyDrafts(let count, let size, let perSheet):
      "\(Plural.count(count, "draft")) take more than one sheet (\(Format.count(perSheet)) at \(size) px) and standard output "
        + "holds one: name a file, and FILE-1.png, FILE-2.png, … are written, or choose fewer drafts (--name, --since, …)"
    case .tooLargeToZip(let draft, let bytes, let limit):
      "the versions of \(Quoted.name(draft)) hold \(Format.bytes(bytes)), more than one zip file holds "
        + "(\(Format.bytes(limit))); `inkling-archive restore --all-versions` writes them into a folder"
    case .tooLargeToServe(let draft, let version, let bytes, let limit):
      "\(Quoted.name(draft)) version \(version) holds \(Format.bytes(bytes)), more than one answer is built "
        + "of (\(Format.bytes(limit))); `inkling-archive restore` writes it"
    case .destinationExists(let path): "\(Quoted.text(path)) already exists; use --force to replace it"
    case .destinationIsFolder(let path): "\(Quoted.text(path)) is a folder; \(folderAdvice)"
    case .destinationNotRegularFile(let path):
      "\(Quoted.text(path)) is a symbolic link, a folder or a device, and is left as it is; remove it, or "
        + "write into another folder"
    case .fileSystem(let path, let operation, let code):
      "cannot \(operation.rawValue) \(Quoted.text(path)): \(String(cString: strerror(code)))"
    case .backupIsArchive(let path): "\(Quoted.text(path)) is the archive itself; choose another file for the backup"
    case .backupFailedCheck(let path, let count, let first):
      "the backup copy has \(Plural.count(count, "problem"))\(first.map { "; the first: \(Quoted.text($0))" } ?? ""). "
        + "\(Quoted.text(path)) was not written. Run `inkling-archive check --full` on the archive: "
        + "the damage is probably there."
    case .cannotStartThread(let code):
      "the system would not start another thread (\(String(cString: strerror(code)))): the limit of processes "
        + "and threads for this user (`ulimit -u`) is reached, or memory is short. Nothing was imported; "
        + "close other programs or raise the limit, then try again."
    case .invalidDate(let text):
      if let (minutes, months) = DateExpression.ambiguousAge(text) {
        "\(Quoted.name(text)) could be minutes or months: write \(minutes) or \(months)"
      } else {
        "\(Quoted.name(text)) is not a date; use \(DateExpression.forms)"
      }
    case .invalidPattern(let pattern, let problem): "\(problem) in the pattern \(Quoted.text(pattern))"
    case .invalidArgument(let argument): Self.sentence(argument)
    case .searchSyntax(let error): error.description
    }
  }

  /// What to do about a damaged archive.
  static let damageAdvice =
    "Run `inkling-archive check --full` to see what is affected, or restore the archive from a backup."

  private static func sentence(_ path: String, _ reason: UnusableArchive) -> String {
    let file = Quoted.text(path)
    switch reason {
    case .missing:
      return "no archive at \(file); import drafts first, or choose another file with --archive."
    case .folder:
      return "\(file) is a folder, not an inkling archive. Choose a file with --archive."
    case .notAnArchive(let detail):
      return "\(file) is not an inkling archive (\(Quoted.text(detail))). Choose another file with --archive."
    case .newerSchema(let detail):
      return
        "\(file) was written by a newer inkling-archive (\(Quoted.text(detail))). Upgrade inkling-archive to use it."
    case .changedSchema(let detail):
      return "the archive \(file) was changed outside inkling-archive: its schema differs from the one this "
        + "build creates (\(Quoted.text(detail))). Run `inkling-archive check` to see every problem, or restore it from a backup."
    case .damaged(let detail, onlyDrawingIndex: false):
      return "the archive \(file) is damaged (\(Quoted.text(detail))). " + damageAdvice
    case .damaged(let detail, onlyDrawingIndex: true):
      return "the drawing index of the archive \(file) is damaged (\(Quoted.text(detail))); the drawings are not. "
        + "Run `inkling-archive reindex --all` to build it again."
    case .locked(let detail):
      return "the archive \(file) is locked by another process (\(Quoted.text(detail))). "
        + "Try again when the other inkling-archive command has finished."
    case .cannotWrite(let detail):
      return
        "the archive \(file) cannot be written: \(Quoted.text(detail)). Check the permissions of the file and its folder."
    case .diskFull(let detail):
      return
        "the disk holding the archive \(file) is full (\(Quoted.text(detail))). Free some space, then run the command again."
    case .unreadableLog(let log):
      return "the archive \(file) cannot be read here: its folder cannot be written, and its write-ahead log "
        + "\(Quoted.text(log)) holds changes SQLite reads only through an index file it would create beside it. "
        + "Copy the archive with its -wal file to a folder you can write, or open it where it was written."
    case .failed(let detail):
      return "the archive \(file) could not be used: \(Quoted.text(detail))"
    }
  }

  /// An import that stopped part way: why, what is safely in the archive, and how to finish.
  private static func stoppedSentence(_ path: String, _ committed: CommittedImport, _ reason: UnusableArchive)
    -> String
  {
    let what =
      committed.versions == 0
      ? "nothing of this import was committed"
      : "the \(Plural.count(committed.versions, "version")) it committed before "
        + "(\(Plural.count(committed.draftsCreated, "new draft"))) are complete in the archive"
    guard case .diskFull(let detail) = reason else {
      return sentence(path, reason) + " The import stopped there: \(what); run the same import again to add the rest."
    }
    return
      "the disk holding the archive \(Quoted.text(path)) is full (\(Quoted.text(detail))); the import stopped there: \(what). "
      + "Free some space, then run the same import again to add the rest."
  }

  /// Why an archive given to `import` cannot be merged; the advice is about that file, not
  /// about --archive.
  private static func mergeSentence(_ path: String, _ reason: UnusableArchive) -> String {
    let file = Quoted.text(path)
    switch reason {
    case .missing, .folder:
      return "\(file) is not an inkling archive; nothing was merged."
    case .notAnArchive(let detail):
      return "\(file) is not an inkling archive (\(Quoted.text(detail))); nothing was merged."
    case .newerSchema(let detail):
      return
        "\(file) was written by a newer inkling-archive (\(Quoted.text(detail))); upgrade inkling-archive to merge it."
    case .changedSchema(let detail):
      return "\(file) was changed outside inkling-archive (\(Quoted.text(detail))); nothing was merged. "
        + "`inkling-archive --archive \(file) check` shows every problem."
    case .damaged(let detail, _):
      return "\(file) is damaged (\(Quoted.text(detail))); nothing was merged. "
        + "`inkling-archive --archive \(file) check --full` shows what is affected; "
        + "`import --salvage` merges every version that verifies."
    case .locked(let detail):
      return "\(file) is locked by another process (\(Quoted.text(detail))); try again when it has finished."
    case .cannotWrite(let detail), .failed(let detail), .diskFull(let detail):
      return "\(file) could not be read: \(Quoted.text(detail))"
    case .unreadableLog(let log):
      return "\(file) could not be read: its folder cannot be written, and its write-ahead log \(Quoted.text(log)) "
        + "needs an index file SQLite would create beside it; copy both to a folder you can write."
    }
  }

  private static func watchSentence(_ path: String, _ reason: WatchProblem) -> String {
    let folder = Quoted.text(path)
    switch reason {
    case .missing: return "cannot watch \(folder): there is no such folder"
    case .notAFolder: return "cannot watch \(folder): it is not a folder"
    case .watchLimit(let limit):
      return "cannot watch \(folder): the limit of inotify watches"
        + (limit.map { " (\(Format.count($0)))" } ?? "")
        + " is reached, one per folder. Raise it with `sudo sysctl fs.inotify.max_user_watches=524288` "
        + "(and in /etc/sysctl.d/ to keep it)."
    case .instanceLimit(let limit):
      return "cannot watch \(folder): the limit of inotify instances"
        + (limit.map { " (\(Format.count($0)))" } ?? "")
        + " is reached. Raise it with `sudo sysctl fs.inotify.max_user_instances=1024`."
    case .system(let call, let code):
      return "cannot watch \(folder): \(call) failed: \(String(cString: strerror(code)))"
    }
  }

  private static func sentence(_ argument: InvalidArgument) -> String {
    switch argument {
    case .thumbnailSize(let size): "--size must be 128, 256, 512 or 1024 (the freedesktop thumbnail sizes), not \(size)"
    case .contactSheetSize(let size): "--size must be 128 or 256, not \(size)"
    case .columns(let columns): "--columns must be 1 or more, not \(columns)"
    case .portfolioColumns(let columns):
      "--columns must be 1 to \(PortfolioLayout.maximumColumns) on a page, not \(columns)"
    case .renderScale(let scale): "--scale must be above 0 and at most 16, not \(scale)"
    case .compressionLevel(let level): "--level must be 1 to 19, not \(level)"
    case .pageSize(let size): "a page holds 1 to \(Archive.draftPageLimit) drafts, not \(size)"
    case .timelapse(let problem): Self.sentence(problem)
    case .draftName(let name, let problem): Self.sentence(name, problem)
    case .tagName(let name, let problem): Self.sentence(tag: name, problem)
    case .noteText(let problem): Self.sentence(note: problem)
    case .labelName(let name, let problem): Self.sentence(tag: name, problem, kind: "label")
    case .labelIsNumber(let name):
      "a label is not a whole number (\(Quoted.name(name)) is how --version names version \(name)); add a word"
    case .savedSearchName(let name, let problem): Self.sentence(savedSearchName: name, problem)
    case .stars(let stars): "--stars must be 1 to 5, not \(stars)"
    }
  }

  private static func sentence(tag: String, _ problem: ArchiveError.TagNameProblem, kind: String = "tag") -> String {
    switch problem {
    case .empty: "a \(kind) needs a letter; \(Quoted.name(tag)) is empty"
    case .controlCharacter: "a \(kind) is one line of text; \(Quoted.name(tag)) holds a control character"
    case .tooLong(let characters, let limit):
      "a \(kind) is at most \(limit) characters; \(Quoted.name(String(tag.prefix(40)) + "…")) has \(Format.count(characters))"
    }
  }

  private static func sentence(note problem: ArchiveError.TagNameProblem) -> String {
    switch problem {
    case .empty: "a note needs some text; the one given is empty"
    case .controlCharacter: "a note is text with line breaks and tabs; the one given holds another control character"
    case .tooLong(let characters, let limit):
      "a note is at most \(Format.count(limit)) characters; the one given has \(Format.count(characters))"
    }
  }

  private static func sentence(savedSearchName name: String, _ problem: ArchiveError.TagNameProblem) -> String {
    switch problem {
    case .empty: "a saved search's name needs a letter; \(Quoted.name(name)) is empty"
    case .controlCharacter:
      "a saved search's name is one line of text; \(Quoted.name(name)) holds a control character"
    case .tooLong(let characters, let limit):
      "a saved search's name is at most \(limit) characters; \(Quoted.name(String(name.prefix(40)) + "…")) has "
        + Format.count(characters)
    }
  }

  /// The most saved searches an unknown `@NAME` lists by name.
  static let savedSearchesNamed = 10

  /// An unknown `@NAME`: the saved searches there are (the first few), or that there are none;
  /// and, since a word alone searches names, how to look for a name that starts with `@`.
  private static func sentence(savedSearch name: String, _ saved: [String]) -> String {
    let there: String
    if saved.isEmpty {
      there = "there are none yet (`inkling-archive search --save NAME QUERY` saves one)"
    } else {
      let shown = saved.prefix(savedSearchesNamed).map { "@" + Quoted.display($0) }
      let more = saved.count - shown.count
      there =
        (saved.count == 1 ? "the saved search is " : "the saved searches are ")
        + (more > 0
          ? shown.joined(separator: ", ") + " and \(more) more (`search --saved` lists them)" : alternatives(shown))
    }
    return "no saved search named \(Quoted.name(name)); \(there). (`name:@TEXT` searches names for @TEXT.)"
  }

  private static func sentence(_ name: String, _ problem: ArchiveError.DraftNameProblem) -> String {
    switch problem {
    case .fileNameTooLong(let bytes):
      "\(Quoted.name(String(name.prefix(40)) + "…")) is too long: a file named with it would have \(bytes) bytes, "
        + "and file systems allow 255"
    }
  }

  private static func sentence(_ problem: TimelapseArgument) -> String {
    switch problem {
    case .fps(let fps):
      "--fps must be \(TimelapseOptions.fpsRange.lowerBound) to \(TimelapseOptions.fpsRange.upperBound), not \(fps)"
    case .hold(let hold):
      "--hold must be 0 to \(Format.number(TimelapseOptions.maximumHold)) seconds, not \(Format.number(hold))"
    case .duration(let seconds, let hold):
      "--duration must be longer than the hold (\(Format.number(hold)) s) and at most "
        + "\(Format.number(TimelapseOptions.maximumSeconds)) seconds, not \(Format.number(seconds))"
    case .speed(let factor): "--speed must be above 0, not \(Format.number(factor))"
    case .size(let width, let height):
      "--size must be 2 to \(RenderGeometry.maxDimension) pixels a side, not \(width)x\(height)"
    case .webpSize(let width, let height):
      "an animated WebP is at most \(TimelapseOptions.maximumWebPSide) pixels a side, and these frames would be "
        + "\(width) × \(height); give a smaller --size or --scale, or write an MP4"
    case .mp4Size(let width, let height, let blocks):
      "an H.264 MP4's frames hold at most \(Format.count(TimelapseOptions.maximumMP4Macroblocks)) blocks of "
        + "16 × 16 pixels (level 6.2, the largest: 8192 × 4352, or 16384 × 2176), and these frames would be "
        + "\(width) × \(height) (\(Format.count(blocks)) blocks); give a smaller "
        + "--size or --scale, or write an animated WebP or PNG frames"
    case .range(let from, let to): "--from (\(from)) must not come after --to (\(to))"
    case .length(let seconds):
      // A factor like 1e-300x gives a length hundreds of digits long, which says no more.
      "at this pace the video would last "
        + (seconds < 1e9 ? "\(Format.number(seconds)) seconds, more than " : "more than a billion seconds; at most ")
        + "\(Format.number(TimelapseOptions.maximumSeconds)); use --duration or a higher --speed"
    }
  }

  /// `"a"`, `"a" or "b"`, `"a", "b" or "c"`.
  /// A suggested name, and what differs from the typed one when that cannot be seen.
  private static func suggested(_ suggestion: String, typed: String) -> String {
    Quoted.name(suggestion) + (InvisibleDifference.between(typed, suggestion).map { " (which \($0))" } ?? "")
  }

  private static func alternatives(_ items: [String]) -> String {
    items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
  }
}
