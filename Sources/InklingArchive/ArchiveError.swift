// The errors of the operations layer: one enum whose cases carry what went wrong, so that
// the app can match on them (as on GRDB's DatabaseError or Foundation's CocoaError). Nothing
// here names a command-line flag or command, nor an exit status: the command line turns each
// case into its sentence and status in one file (InklingArchiveTool/ErrorMessages.swift).

import FoundationEssentials
import InklingFormats
import InklingRendering
import InklingStore

/// Why an operation could not be done.
public enum ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
  // MARK: - The archive

  /// The archive file cannot be used at all.
  case unusableArchive(path: String, reason: UnusableArchive)
  /// An import stopped part way because the archive could not be written on (`reason`: the
  /// disk is full, an I/O error…). What `committed` counts is in the archive, complete; the
  /// batch being written when it stopped is not, and the same import run again adds it.
  case importStopped(path: String, committed: CommittedImport, reason: UnusableArchive)
  /// A write was asked of an archive opened `.readOnly`.
  case openedReadOnly(path: String)
  /// A version no longer rebuilds the file it was imported from: the archive is damaged.
  case damagedVersion(draft: String, version: Int, fileName: String, detail: String)

  /// The archive to merge in cannot be read: not an archive, a newer schema, changed outside
  /// this program, damaged, locked…; nothing of it was merged.
  case cannotMerge(path: String, reason: UnusableArchive)
  /// Merging stopped at a version (`location`) of the archive merged in that does not verify;
  /// the versions before it are merged.
  case mergeStoppedAtDamage(path: String, location: String, detail: String)
  /// The archive to merge in is this archive.
  case mergeIntoItself(path: String)
  /// A folder cannot be watched.
  case cannotWatch(path: String, reason: WatchProblem)

  // MARK: - Drafts and versions

  /// There is no draft called `name`; `suggestions` are the nearest names, best first.
  case noSuchDraft(name: String, suggestions: [String])
  /// The draft has `versionCount` versions, fewer than `number`.
  case noSuchVersion(draft: String, number: Int, versionCount: Int)
  /// Version 1 of the draft was asked to be compared with the one before it.
  case noEarlierVersion(draft: String)
  /// No version has this id (VersionID): it was never archived, or was removed since.
  case noVersionWithID(VersionID)
  /// No draft has this id (DraftID): it was never archived, or was purged or merged since.
  case noDraftWithID(DraftID)
  /// The draft's first version was saved after `date`.
  case noVersionSavedBy(draft: String, date: Date, firstSaved: Date)
  /// The draft's drawings are not in the drawing index yet (an archive from before it).
  case notIndexed(draft: String)
  /// A version's drawing does not decode, so it cannot be drawn or compared.
  case unreadableDrawing(draft: String, version: Int, reason: String)
  /// No version from `from` to `to` of the draft has a drawing that decodes.
  case noReadableVersions(draft: String, from: Int, to: Int)
  /// Nothing matched, so there is nothing to draw or write.
  case noMatchingDrafts
  /// There is no saved search called `name` (`@NAME`); `saved` are the names there are, sorted.
  case noSuchSavedSearch(name: String, saved: [String])
  /// A draft called `name` exists already (a rename to it needs `merge`).
  case draftExists(name: String)
  /// The draft is in the trash; the operation needs it back first.
  case draftInTrash(name: String)
  /// The draft is not in the trash, so it cannot be taken out of it or purged.
  case draftNotInTrash(name: String)
  /// The draft has no note with this id (a note of another draft is not this draft's).
  case noSuchNote(draft: String, id: Int64)
  /// No version of the draft is labelled `label`; `labels` are the labels it has.
  case noSuchLabel(draft: String, label: String, labels: [String])
  /// Version `version` of the draft is already labelled `label` (as first written), and a
  /// label names one version of a draft.
  case labelTaken(draft: String, label: String, version: Int)
  /// The PNG encoder, or cairo writing a PDF, failed.
  case imageEncoding(detail: String)
  /// The video encoder or muxer failed (libavcodec, libavformat or libwebp's message).
  case videoEncoding(detail: String)
  /// A time-lapse stopped before its last frame because its caller asked (`shouldStop`): a
  /// video's file is not made (nor its temporary file left), while the `framesWritten` PNG
  /// frames of a frame folder stay in it.
  case timelapseStopped(framesWritten: Int)
  /// Text cannot be drawn (captions): no font could be opened, or FreeType failed.
  case textRendering(TextError)
  /// `count` thumbnails of `thumbnailSize` pixels take more than one contact sheet, which
  /// holds `perSheet` (`contactSheets` writes them as several).
  case tooManyDrafts(count: Int, thumbnailSize: Int, perSheet: Int)
  /// The versions of `draft` hold `bytes`, more than one zip file of at most `limit` may.
  case tooLargeToZip(draft: String, bytes: Int64, limit: Int64)
  /// Version `version` of `draft` has a file, or a drawing it is decoded through, of `bytes`,
  /// more than the `limit` one answer is built of in memory (`originalFile(of:part:limit:)`).
  case tooLargeToServe(draft: String, version: Int, bytes: Int64, limit: Int64)

  // MARK: - Files

  /// The file to write exists, and replacing it was not asked for.
  case destinationExists(path: String)
  /// The path to write names a folder (or ends in `/`), not a file.
  case destinationIsFolder(path: String)
  /// A file the program names itself in a folder (a restored version's, a time-lapse frame)
  /// is taken by something that is not a regular file: a symbolic link, a folder, a FIFO or a
  /// device. Never written through nor replaced, since the folder's owner may not be the
  /// person running the command.
  case destinationNotRegularFile(path: String)
  /// A file-system call failed with `errno` `code`.
  case fileSystem(path: String, operation: FileOperation, code: Int32)
  /// The backup destination is the archive itself.
  case backupIsArchive(path: String)
  /// The backup copy did not pass its check, so it was not kept.
  case backupFailedCheck(path: String, problemCount: Int, firstProblem: String?)

  // MARK: - The system

  /// The system would not start a thread the operation needs (`pthread_create` failed with
  /// `errno` `code`, EAGAIN when the limit of processes and threads is reached or memory is
  /// short). Import starts its threads before it records its run, so nothing was imported.
  case cannotStartThread(code: Int32)

  // MARK: - Requests

  /// A date in a filter that is not one of the accepted forms.
  case invalidDate(String)
  /// A name pattern that does not parse.
  case invalidPattern(String, problem: String)
  /// A value outside what the operation accepts.
  case invalidArgument(InvalidArgument)
  /// A query in the search language that does not parse.
  case searchSyntax(SearchSyntaxError)

  /// Why an archive file cannot be used.
  public enum UnusableArchive: Sendable, Equatable {
    /// There is no archive at the path (read-only operations never create one).
    case missing
    /// The path is a folder.
    case folder
    /// Not a SQLite database, or one that is not an inkling archive.
    case notAnArchive(detail: String)
    /// Written by a newer build, with a schema this build does not know.
    case newerSchema(detail: String)
    /// The schema differs from what the migrations create: changed outside this program.
    case changedSchema(detail: String)
    /// SQLite reports damage, or stored bytes do not decode to their hash; `onlyDrawingIndex`
    /// when what is damaged is the drawing index alone, which `reindex(all: true)` builds again
    /// from the drawings.
    case damaged(detail: String, onlyDrawingIndex: Bool = false)
    /// Another process kept the archive locked for longer than the busy timeout.
    case locked(detail: String)
    /// The file or its folder cannot be written.
    case cannotWrite(detail: String)
    /// The disk holding the archive is full.
    case diskFull(detail: String)
    /// The archive's folder cannot be written and its write-ahead log `log` holds changes
    /// that SQLite reads only through an index file it would have to create there.
    case unreadableLog(log: String)
    /// Any other failure of SQLite or of the disk under it.
    case failed(detail: String)
  }

  /// What an import had committed when it stopped (`importStopped`).
  public struct CommittedImport: Sendable, Equatable {
    /// Versions stored, each complete with its sources and its draft's row.
    public var versions = 0
    /// Of the drafts those versions went to, how many the import created.
    public var draftsCreated = 0

    public init(versions: Int = 0, draftsCreated: Int = 0) {
      self.versions = versions
      self.draftsCreated = draftsCreated
    }
  }

  /// Why a folder cannot be watched.
  public enum WatchProblem: Error, Sendable, Equatable {
    /// There is nothing at the path.
    case missing
    /// The path is not a folder.
    case notAFolder
    /// The per-user limit of inotify watches is reached (`limit`, when it could be read).
    case watchLimit(limit: Int?)
    /// The per-user limit of inotify instances is reached.
    case instanceLimit(limit: Int?)
    /// inotify or another system call failed with `errno` `code`.
    case system(call: String, code: Int32)
  }

  /// What a failed file-system call was doing.
  public enum FileOperation: String, Sendable, Equatable {
    case createFolder = "create the folder"
    case create = "create a file in"
    case write = "write"
    case setModificationTime = "set the modification time of"
    case replace = "replace"
    case read = "read"
  }

  /// A value an operation does not accept.
  public enum InvalidArgument: Sendable, Equatable {
    /// Thumbnails are 128, 256, 512 or 1024 pixels (the freedesktop sizes).
    case thumbnailSize(Int)
    /// Contact sheets use 128- or 256-pixel thumbnails.
    case contactSheetSize(Int)
    /// A contact sheet has at least one column.
    case columns(Int)
    /// A portfolio's page has 1 to `PortfolioLayout.maximumColumns` columns.
    case portfolioColumns(Int)
    /// A render scale is above 0 and at most 16.
    case renderScale(Double)
    /// zstd levels for repacking are 1 to 19.
    case compressionLevel(Int)
    /// A page of drafts holds 1 to `Archive.draftPageLimit` drafts.
    case pageSize(Int)
    /// A new name (`rename`) no file could carry.
    case draftName(String, DraftNameProblem)
    /// A time-lapse option out of range.
    case timelapse(TimelapseArgument)
    /// Stars are 1 to 5.
    case stars(Int)
    /// A tag (as given) that cannot be one.
    case tagName(String, TagNameProblem)
    /// Text that cannot be a note.
    case noteText(TagNameProblem)
    /// A version's label (as given) that cannot be one.
    case labelName(String, TagNameProblem)
    /// A label that is a whole number, which `--version` reads as a version's number.
    case labelIsNumber(String)
    /// A saved search's name (as given) that cannot be one; the same rules as a tag's.
    case savedSearchName(String, TagNameProblem)
  }

  /// Why text cannot be a tag, a note, a label or a saved search's name
  /// (`ArchiveError.InvalidArgument.tagName`, `.noteText`, `.labelName`, `.savedSearchName`).
  public enum TagNameProblem: Sendable, Equatable {
    /// Nothing but spaces.
    case empty
    /// Longer than `limit` characters.
    case tooLong(characters: Int, limit: Int)
    /// It holds a control character (a line break, a tab), which no list could show.
    case controlCharacter
  }

  /// Why a name cannot be given to a draft (`ArchiveError.InvalidArgument.draftName`).
  public enum DraftNameProblem: Sendable, Equatable {
    /// Its file (`NAME.inkling`) would be longer than 255 bytes, so no file could carry it.
    case fileNameTooLong(bytes: Int)
  }

  /// A time-lapse option out of range (`ArchiveError.InvalidArgument.timelapse`).
  public enum TimelapseArgument: Sendable, Equatable {
    /// A time-lapse's frames per second are in `TimelapseOptions.fpsRange`.
    case fps(Int)
    /// A time-lapse holds its last frame 0 … `TimelapseOptions.maximumHold` seconds.
    case hold(Double)
    /// A time-lapse's duration is longer than its hold and at most `maximumSeconds`.
    case duration(Double, hold: Double)
    /// A time-lapse's speed factor is above 0.
    case speed(Double)
    /// A time-lapse's frames are 2 … `RenderGeometry.maxDimension` pixels a side.
    case size(width: Int, height: Int)
    /// An animated WebP's frames are at most `TimelapseOptions.maximumWebPSide` pixels a
    /// side; these would be `width` × `height` (after fitting or scaling).
    case webpSize(width: Int, height: Int)
    /// An MP4's frames hold at most `TimelapseOptions.maximumMP4Macroblocks` blocks of 16 × 16
    /// pixels (H.264's largest level); these would be `width` × `height`, `macroblocks` blocks.
    case mp4Size(width: Int, height: Int, macroblocks: Int)
    /// The first version replayed comes after the last.
    case range(from: Int, to: Int)
    /// At this pace the drawing would last longer than `TimelapseOptions.maximumSeconds`.
    case length(seconds: Double)
  }

  /// A description for logs and developers; the command line words its own sentences.
  public var description: String {
    switch self {
    case .unusableArchive(let path, let reason): "the archive \(Quoted.text(path)) cannot be used: \(reason)"
    case .importStopped(let path, let committed, let reason):
      "the import into \(Quoted.text(path)) stopped after committing \(committed.versions) versions: \(reason)"
    case .openedReadOnly(let path): "the archive \(Quoted.text(path)) was opened read-only"
    case .damagedVersion(let draft, let version, let fileName, let detail):
      "\(Quoted.name(draft)) version \(version) (\(Quoted.display(fileName))) is damaged: \(detail)"
    case .cannotMerge(let path, let reason): "the archive \(Quoted.text(path)) cannot be merged: \(reason)"
    case .mergeStoppedAtDamage(let path, let location, let detail):
      "\(Quoted.text(path)) is damaged at \(location): \(detail)"
    case .mergeIntoItself(let path): "\(Quoted.text(path)) is the archive itself"
    case .cannotWatch(let path, let reason): "\(Quoted.text(path)) cannot be watched: \(reason)"
    case .noSuchDraft(let name, let suggestions):
      "no draft named \(Quoted.name(name))"
        + (suggestions.isEmpty ? "" : "; nearest: " + suggestions.joined(separator: ", "))
    case .noSuchVersion(let draft, let number, let count): "\(Quoted.name(draft)) has \(count) versions, not \(number)"
    case .noEarlierVersion(let draft): "version 1 of \(Quoted.name(draft)) has no version before it"
    case .noVersionWithID(let id): "no version with id \(id)"
    case .noDraftWithID(let id): "no draft with id \(id)"
    case .noVersionSavedBy(let draft, let date, _): "\(Quoted.name(draft)) has no version saved by \(date)"
    case .notIndexed(let draft): "the drawings of \(Quoted.name(draft)) are not indexed"
    case .unreadableDrawing(let draft, let version, let reason):
      "the drawing of \(Quoted.name(draft)) version \(version) cannot be read: \(reason)"
    case .noReadableVersions(let draft, let from, let to):
      "no drawing of \(Quoted.name(draft)) versions \(from) to \(to) can be read"
    case .noMatchingDrafts: "no drafts match"
    case .noSuchSavedSearch(let name, let saved):
      "no saved search named \(Quoted.name(name))"
        + (saved.isEmpty ? "" : "; saved: " + saved.map(Quoted.name).joined(separator: ", "))
    case .draftExists(let name): "a draft named \(Quoted.name(name)) exists"
    case .draftInTrash(let name): "\(Quoted.name(name)) is in the trash"
    case .draftNotInTrash(let name): "\(Quoted.name(name)) is not in the trash"
    case .noSuchNote(let draft, let id): "\(Quoted.name(draft)) has no note \(id)"
    case .noSuchLabel(let draft, let label, _): "no version of \(Quoted.name(draft)) is labelled \(Quoted.name(label))"
    case .labelTaken(let draft, let label, let version):
      "version \(version) of \(Quoted.name(draft)) is labelled \(Quoted.name(label))"
    case .imageEncoding(let detail): "the image encoder failed: \(detail)"
    case .videoEncoding(let detail): "the video encoder failed: \(detail)"
    case .timelapseStopped(let written): "the time-lapse was stopped after \(written) frames written"
    case .textRendering(let error): "text cannot be drawn: \(error)"
    case .tooManyDrafts(let count, let size, let perSheet):
      "\(count) thumbnails of \(size) px take more than one sheet of \(perSheet)"
    case .tooLargeToZip(let draft, let bytes, let limit):
      "the versions of \(Quoted.name(draft)) hold \(bytes) bytes, past \(limit)"
    case .tooLargeToServe(let draft, let version, let bytes, let limit):
      "version \(version) of \(Quoted.name(draft)) holds \(bytes) bytes, past \(limit)"
    case .destinationExists(let path): "\(Quoted.text(path)) already exists"
    case .destinationIsFolder(let path): "\(Quoted.text(path)) is a folder, not a file"
    case .destinationNotRegularFile(let path): "\(Quoted.text(path)) is not a regular file"
    case .fileSystem(let path, let operation, let code):
      "cannot \(operation.rawValue) \(Quoted.text(path)): errno \(code)"
    case .backupIsArchive(let path): "\(Quoted.text(path)) is the archive itself"
    case .backupFailedCheck(let path, let count, _): "the backup copy for \(Quoted.text(path)) has \(count) problems"
    case .cannotStartThread(let code): "a thread cannot be started: errno \(code)"
    case .invalidDate(let text): "\(Quoted.name(text)) is not a date"
    case .invalidPattern(let pattern, let problem): "\(problem) in the pattern \(Quoted.name(pattern))"
    case .invalidArgument(let argument): "invalid argument: \(argument)"
    case .searchSyntax(let error): error.description
    }
  }
}

// MARK: - From the store

extension ArchiveError.UnusableArchive {
  /// What a store error says about the archive.
  init(_ error: StoreError) {
    self =
      switch error.kind {
      case .noArchive: .missing
      case .folder: .folder
      case .notAnArchive: .notAnArchive(detail: error.message)
      case .newerSchema: .newerSchema(detail: error.message)
      case .changedSchema: .changedSchema(detail: error.message)
      case .corrupt, .notFound, .verification: .damaged(detail: error.message)
      case .damagedIndex: .damaged(detail: error.message, onlyDrawingIndex: true)
      case .busy: .locked(detail: error.message)
      case .readOnly: .cannotWrite(detail: error.message)
      case .full: .diskFull(detail: error.message)
      case .unreadableLog: .unreadableLog(log: error.message)
      case .sqlite: .failed(detail: error.description)
      }
  }
}

extension Archive {
  /// Runs a body that talks to the store, turning store errors into archive errors about
  /// this archive.
  func storeCall<T>(_ body: () throws -> T) throws(ArchiveError) -> T {
    try InklingArchive.storeCall(path: path, body)
  }
}

/// Runs a body that talks to the store of the archive at `path`, turning store errors into
/// archive errors; an archive error thrown inside passes through unchanged.
func storeCall<T>(path: String, _ body: () throws -> T) throws(ArchiveError) -> T {
  do {
    return try body()
  } catch {
    throw ArchiveError(error, path: path)
  }
}

extension ArchiveError {
  /// `error` as an archive error about the archive at `path`: archive errors as they are,
  /// store errors and anything else as the archive being unusable.
  init(_ error: any Error, path: String) {
    switch error {
    case let error as ArchiveError: self = error
    case let error as StoreError: self = .unusableArchive(path: path, reason: .init(error))
    default: self = .unusableArchive(path: path, reason: .failed(detail: "\(error)"))
    }
  }
}
