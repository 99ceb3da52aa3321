// The CPU-heavy half of an import, run on worker threads: read a file, parse its envelope,
// hash it, encode its drawing blob (as a delta when that is smaller: against the draft's
// previous version, or for a draft new to the archive against the next one, `encode`), and
// prove that what will be stored rebuilds the file exactly.
//
// A preparer reads the archive through its own read-only connection (WAL lets it run
// beside the writer) to skip files already archived and to find delta bases. What it
// hands to the writer is final: the writer inserts these exact bytes.
//
// A file whose path, size and modification time are those a source recorded for a version
// (SourceRecords.knownFile) is that version, and is not read: a re-import that finds nothing
// new costs a stat and an index probe per file, not a read and a hash of every byte, as git
// and restic trust an unchanged stat. A file rewritten in place with the same size and time
// is taken for what it was; `verify` reads and hashes every file instead.

import InklingFormats
import InklingStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One version, ready for the writer: a file read from a folder (VersionPreparer) or a
/// version of another archive (MergePreparer).
struct PreparedVersion: Sendable {
  let draftName: String
  /// Where it was read, for messages.
  let path: String
  let fileName: String
  let fileSize: Int64
  let fileModificationNanoseconds: Int64
  let savedMilliseconds: Int64
  /// Where `savedMilliseconds` came from.
  let savedSource: SavedSource
  let fileSHA256: [UInt8]
  /// The drawing's hash; `blob` is nil when a blob with this hash was already stored.
  let blobSHA256: [UInt8]
  let blob: EncodedBlob?
  /// What the drawing index keeps of the drawing: for a new blob, or (merging) for a stored
  /// blob the archive has not indexed; nil otherwise.
  let drawingFacts: DrawingFacts?
  let template: EnvelopeTemplate
  let background: RGBA
  /// The sources to record for it (migration 0013).
  let sources: [SourceMark]
  /// What to tell about it: fallbacks in its name, a drawing that does not decode.
  var notes: [ImportNote] = []
  /// When it entered an archive first; nil for now (a merged version keeps its own).
  var importedMilliseconds: Int64? = nil
  /// Blobs to store before `blob`, bottom first: delta bases it needs that the archive did
  /// not hold when it was prepared (merging copies deltas as they are stored).
  var baseBlobs: [EncodedBlob] = []
}

/// A file or version the archive already holds: its sources are still recorded, on the
/// version the preparer found (`VersionRecords.archivedFile`), which is not always one of the
/// draft the file names: the draft may have been renamed since.
struct ArchivedVersion: Sendable {
  let path: String
  let bytes: Int64
  let versionID: Int64
  /// The draft that holds it, as the preparer found it.
  let draftName: String
  let savedMilliseconds: Int64
  let fileSHA256: [UInt8]
  let sources: [SourceMark]
  /// The file name the version takes from this file (`VersionFileName`), if any.
  var renamedTo: String? = nil
  /// For a version `check --full` found damaged: its drawing from this file, to store again.
  var repair: VersionRepair? = nil
}

/// A damaged version's drawing as its file holds it, encoded whole (a delta could lean on
/// the damage), from a file that rebuilds from it byte for byte.
struct VersionRepair: Sendable {
  let blob: EncodedBlob
}

/// The outcome for one file.
enum PreparedFile: Sendable {
  case version(PreparedVersion)
  case alreadyArchived(ArchivedVersion)
  case rejected(path: String, problem: ImportProblem, bytes: Int64)
}

final class VersionPreparer {
  private let reader: Database
  private let encoder = BlobEncoder()
  private let indexer = DrawingIndexer()
  /// The previous version of the draft being prepared, the natural base for a delta.
  private var previous: (draftName: String, base: BlobBase)?

  private let maximumFileSize: Int64
  /// False when the import leaves the drawing index to a later `reindex` (ImportOptions).
  private let indexDrawings: Bool

  /// The source label of each path the import was given (`DraftFileEntry.origin`).
  private let labels: [String]
  private let workingDirectory: String
  /// The versions `check --full` found damaged (migration 0018), read once: a file of one of
  /// them is read and encoded again to repair it, every other file found archived is not.
  private let damaged: Set<Int64>
  /// Whether every file is read and hashed, even one whose stat the archive knows.
  private let verify: Bool

  init(
    archivePath: String, maximumFileSize: Int64, indexDrawings: Bool = true, verify: Bool = false, labels: [String]
  ) throws {
    reader = try ArchiveDatabase.open(path: archivePath, mode: .readOnly)
    self.maximumFileSize = maximumFileSize
    self.indexDrawings = indexDrawings
    self.verify = verify
    self.labels = labels
    workingDirectory = FileWalker.workingDirectory()
    damaged = try DamageRecords.versionIDs(in: reader)
  }

  deinit { reader.close() }

  /// Prepares the versions of one draft found in one folder, oldest first.
  func prepare(_ entries: [DraftFileEntry]) -> [PreparedFile] {
    previous = nil
    indexer.forget()
    let ordered = entries.map { ($0, Self.savedTime($0)) }.sorted { $0.1.milliseconds < $1.1.milliseconds }
    var files: [PreparedFile?] = []  // nil for a version whose drawing is encoded below
    var read: [ReadVersion] = []
    for (entry, saved) in ordered {
      do {
        switch try readVersion(entry, saved: saved) {
        case .done(let file): files.append(file)
        case .toEncode(let version):
          read.append(version)
          files.append(nil)
        }
      } catch {
        files.append(.rejected(path: entry.path, problem: Self.problem(error), bytes: entry.size))
      }
    }
    var encoded = encode(read).makeIterator()
    return files.map { $0 ?? encoded.next()! }
  }

  private static func problem(_ error: any Error) -> ImportProblem {
    error as? ImportProblem ?? .notStored("\(error)")
  }

  /// A file read, parsed and proven to rebuild from its template and drawing, whose drawing
  /// is yet to be encoded.
  private struct ReadVersion {
    let entry: DraftFileEntry
    let saved: (milliseconds: Int64, source: SavedSource)
    let fileSHA256: [UInt8]
    let drawing: HashedBytes
    /// The depth of the drawing's blob when the archive holds it already (then it is not
    /// encoded again).
    let storedDepth: Int?
    let facts: DrawingFacts?
    let template: EnvelopeTemplate
    let background: RGBA
    let sources: [SourceMark]
    let notes: [ImportNote]
  }

  private enum ReadFile {
    case done(PreparedFile)
    case toEncode(ReadVersion)
  }

  private func readVersion(_ entry: DraftFileEntry, saved: (milliseconds: Int64, source: SavedSource)) throws
    -> ReadFile
  {
    let absolutePath = SourceLabel.absolute(entry.path, in: workingDirectory)
    if !verify, let known = try knownVersion(entry, at: absolutePath) { return .done(known) }
    let file = try Self.readFile(entry, maximumSize: maximumFileSize)
    let fileSHA256 = SHA256.hash(file)
    var entry = entry
    var saved = saved
    if let exported = entry.exported {
      if exported.sha256 == fileSHA256 {
        entry.fileName = exported.importedName
        entry.name = DraftFileName(exported.importedName) ?? entry.name
        entry.name.draftName = exported.draft
        entry.name.fallbacks = []
      } else {
        entry.exported = nil  // changed since the export: the file is what its own name says
      }
      saved = Self.savedTime(entry)
    }
    let sources = [SourceMark(label: labels[entry.origin], path: absolutePath)]
    if let archived = try VersionRecords.archivedFile(
      draftNamed: entry.name.draftName, savedMilliseconds: saved.milliseconds, fileSHA256: fileSHA256,
      fileName: entry.fileName, in: reader)
    {
      return .done(
        .alreadyArchived(
          ArchivedVersion(
            path: entry.path, bytes: entry.size, versionID: archived.versionID, draftName: archived.draftName,
            savedMilliseconds: saved.milliseconds, fileSHA256: fileSHA256, sources: sources,
            renamedTo: archived.fileName == entry.fileName
              ? nil : VersionFileName.replacement(for: archived.fileName, by: entry.fileName),
            repair: damaged.contains(archived.versionID) ? repair(from: file) : nil)))
    }
    let envelope: DraftEnvelope
    do {
      envelope = try DraftEnvelope.parse(file)
    } catch {
      throw ImportProblem.notADraft(error.reason)
    }
    let drawing = HashedBytes(envelope.drawing)
    let storedDepth = try BlobStore(reader).depth(ofSHA256: drawing.sha256)
    // A stored drawing can lack index rows: an import killed after it stored a draft's
    // reverse chain (`encode`) but before the versions whose drawings they are. The writer
    // indexes it when its version comes, from these facts.
    var needsFacts = indexDrawings
    if needsFacts, storedDepth != nil {
      needsFacts = try DrawingIndexRecords.storedBlob(sha256: drawing.sha256, in: reader)?.indexed != true
    }
    // In save order: the indexer reads only the strokes a save added to the one before.
    let facts = needsFacts ? indexer.facts(of: drawing.bytes) : nil
    // Verify before commit: the template and the drawing bytes that will be stored must
    // give back the file exactly. (The blob encoder checks that its stored form decodes to
    // these drawing bytes.) Compared with the file read, byte for byte: equal bytes have its
    // `fileSHA256`, without a second hash of every file.
    guard Self.rebuilds(file, from: envelope.template, drawing: drawing.bytes) else {
      throw ImportProblem.failedVerification
    }
    var notes = entry.name.fallbacks.map(ImportNote.fileName)
    // A day of grace: a device whose clock runs ahead, or a zone written as UTC.
    if let stamp = entry.name.savedMilliseconds, stamp > VersionWriter.now() + 86_400_000 {
      notes.append(.futureStamp)
    }
    if let facts, facts.status != .decoded {
      notes.append(.undecodableDrawing(facts.problem ?? "not a PencilKit drawing this build reads"))
    }
    return .toEncode(
      ReadVersion(
        entry: entry, saved: saved, fileSHA256: fileSHA256, drawing: drawing, storedDepth: storedDepth, facts: facts,
        template: envelope.template, background: envelope.background, sources: sources, notes: notes))
  }

  /// The version the archive recorded for the file at `path` with this size and modification
  /// time, already archived, when it is not one to repair (a damaged version's file is read).
  private func knownVersion(_ entry: DraftFileEntry, at path: String) throws -> PreparedFile? {
    guard
      let known = try SourceRecords.knownFile(
        path: path, size: entry.size, modificationNanoseconds: entry.modificationNanoseconds, in: reader),
      !damaged.contains(known.versionID)
    else { return nil }
    // The name the file stands for: an export's manifest names the version it holds.
    var fileName = entry.fileName
    if let exported = entry.exported, exported.sha256 == known.fileSHA256 { fileName = exported.importedName }
    return .alreadyArchived(
      ArchivedVersion(
        path: entry.path, bytes: entry.size, versionID: known.versionID, draftName: known.draftName,
        savedMilliseconds: known.savedMilliseconds, fileSHA256: known.fileSHA256,
        sources: [SourceMark(label: labels[entry.origin], path: path)],
        renamedTo: VersionFileName.replacement(for: known.fileName, by: fileName)))
  }

  /// The drawing of `file`, encoded whole, when the file parses and rebuilds from it.
  private func repair(from file: [UInt8]) -> VersionRepair? {
    guard let envelope = try? DraftEnvelope.parse(file),
      Self.rebuilds(file, from: envelope.template, drawing: envelope.drawing),
      let encoded = try? encoder.encodeKeepingForm(HashedBytes(envelope.drawing), base: nil)
    else { return nil }
    return VersionRepair(blob: encoded.blob)
  }

  // MARK: - Encoding

  /// The versions read, oldest first, with their drawings encoded.
  ///
  /// A draft the archive holds no version of gets reverse deltas, as `gc --repack` writes
  /// them: its newest drawing here whole, each older one a delta of the one saved after it.
  /// All of its strokes are then compressed together in one frame, and each older save costs
  /// a few copies of the newer one, where forward deltas would compress each save's new
  /// strokes alone, in frames of a few kilobytes (which also fill the archive's pages less
  /// well). Every other draft continues its stored history with forward deltas (each drawing
  /// a delta of the one saved before it), which never rewrite a stored row. Either way a
  /// chain is at most `BlobStore.maxChainDepth` long (the encoder starts a whole drawing
  /// past it).
  ///
  /// Reverse deltas are stored before the older versions that need them: the oldest version
  /// of the draft carries every other blob encoded for it, bases first
  /// (`PreparedVersion.baseBlobs`), so that each version's base is stored when it is.
  private func encode(_ versions: [ReadVersion]) -> [PreparedFile] {
    var files = [PreparedFile?](repeating: nil, count: versions.count)
    var reverse: [String: Bool] = [:]
    for version in versions where reverse[version.entry.name.draftName] == nil {
      let draft = version.entry.name.draftName
      do {
        reverse[draft] = try VersionRecords.nearestBlob(ofDraftNamed: draft, before: .max, in: reader) == nil
      } catch {
        reverse[draft] = false  // forward: each version's own look-up of its base meets the error
      }
    }
    // Forward: oldest first, each against the one before (or the archive's nearest).
    for (index, version) in versions.enumerated() where reverse[version.entry.name.draftName] == false {
      files[index] = prepared(version) {
        try base(for: version.entry.name.draftName, before: version.saved.milliseconds)
      }
    }
    // Reverse: newest first, each against the one after it.
    var newer: [String: BlobBase] = [:]
    var encodedHere: [[UInt8]: BlobBase] = [:]
    for (index, version) in versions.enumerated().reversed() where reverse[version.entry.name.draftName] == true {
      let draft = version.entry.name.draftName
      if let same = encodedHere[version.drawing.sha256] {
        // The drawing of a newer version here: stored with it.
        files[index] = prepared(version, blob: nil)
        newer[draft] = same
        continue
      }
      files[index] = prepared(version) { newer[draft] }
      if case .version(let prepared) = files[index] {
        newer[draft] = previous?.base
        if prepared.blob != nil, let base = previous?.base { encodedHere[version.drawing.sha256] = base }
      } else {
        newer[draft] = nil  // not stored: no older version may use it as its base
      }
    }
    return Self.carryingReverseChains(files.map { $0! }, reverse: reverse)
  }

  /// `version` with its drawing encoded over the base `base` gives (or found stored), or
  /// rejected; `previous` is then its drawing.
  private func prepared(_ version: ReadVersion, base: () throws -> BlobBase?) -> PreparedFile {
    do {
      var blob: EncodedBlob?
      var depth = version.storedDepth ?? 0
      var form: BlobForm?
      if version.storedDepth == nil {
        (blob, form) = try encoder.encodeKeepingForm(version.drawing, base: try base())
        depth = blob?.depth ?? 0
      }
      previous = (
        version.entry.name.draftName,
        BlobBase(sha256: version.drawing.sha256, bytes: version.drawing.bytes, depth: depth, form: form)
      )
      return prepared(version, blob: blob)
    } catch {
      return .rejected(path: version.entry.path, problem: Self.problem(error), bytes: version.entry.size)
    }
  }

  private func prepared(_ version: ReadVersion, blob: EncodedBlob?) -> PreparedFile {
    let entry = version.entry
    return .version(
      PreparedVersion(
        draftName: entry.name.draftName, path: entry.path, fileName: entry.fileName, fileSize: entry.size,
        fileModificationNanoseconds: entry.modificationNanoseconds, savedMilliseconds: version.saved.milliseconds,
        savedSource: version.saved.source, fileSHA256: version.fileSHA256, blobSHA256: version.drawing.sha256,
        blob: blob, drawingFacts: version.facts, template: version.template, background: version.background,
        sources: version.sources, notes: version.notes))
  }

  /// `files` with each reverse-encoded draft's blobs carried by its oldest version, bases first.
  private static func carryingReverseChains(_ files: [PreparedFile], reverse: [String: Bool]) -> [PreparedFile] {
    var files = files
    var carrier: [String: Int] = [:]
    var carried: [String: [EncodedBlob]] = [:]
    for (index, file) in files.enumerated() {
      guard case .version(let version) = file, reverse[version.draftName] == true else { continue }
      if carrier[version.draftName] == nil {
        carrier[version.draftName] = index
      } else if let blob = version.blob {
        carried[version.draftName, default: []].append(blob)
      }
    }
    for (draft, index) in carrier {
      guard case .version(var version) = files[index], let blobs = carried[draft] else { continue }
      version.baseBlobs = blobs.sorted { $0.depth < $1.depth }
      files[index] = .version(version)
    }
    return files
  }

  /// Whether `template` and `drawing` give back exactly `file`, piece by piece as they are
  /// rebuilt: the rebuilt file is never held whole.
  static func rebuilds(_ file: [UInt8], from template: EnvelopeTemplate, drawing: [UInt8]) -> Bool {
    var offset = 0
    var same = true
    file.withUnsafeBytes { file in
      template.rebuild(drawing: drawing) { piece in
        guard same, piece.count <= file.count - offset else {
          same = false
          return
        }
        same = piece.isEmpty || memcmp(file.baseAddress! + offset, piece.baseAddress!, piece.count) == 0
        offset += piece.count
      }
    }
    return same && offset == file.count
  }

  /// The save time from the file name, else the file's modification time; for a file an
  /// export wrote, the one its manifest lists, from where the name it was imported with says.
  static func savedTime(_ entry: DraftFileEntry) -> (milliseconds: Int64, source: SavedSource) {
    if let exported = entry.exported {
      let stamp = DraftFileName(exported.importedName)?.savedMilliseconds
      return (exported.savedMilliseconds, stamp == exported.savedMilliseconds ? .fileName : .modificationTime)
    }
    if let stamp = entry.name.savedMilliseconds { return (stamp, .fileName) }
    return (entry.modificationNanoseconds / 1_000_000, .modificationTime)
  }

  // MARK: - Archive look-ups

  /// The drawing of the draft's version saved just before `saved`: the one in this folder
  /// prepared last, else the archive's.
  private func base(for draft: String, before saved: Int64) throws -> BlobBase? {
    if let previous, previous.draftName == draft { return previous.base }
    guard let blobID = try VersionRecords.nearestBlob(ofDraftNamed: draft, before: saved, in: reader) else {
      return nil
    }
    return try BlobStore(reader).base(ofBlob: blobID)
  }

  // MARK: - Reading

  /// Reads a whole file. O_NONBLOCK so that a FIFO swapped in after the walk cannot hang
  /// the import; the size is checked again on the open descriptor.
  static func readFile(_ entry: DraftFileEntry, maximumSize: Int64) throws -> [UInt8] {
    let descriptor = open(entry.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw ImportProblem.cannotRead(code: errno) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      throw ImportProblem.notRegularFile
    }
    let size = Int(info.st_size)
    guard Int64(size) <= maximumSize else {
      throw ImportProblem.tooLarge(size: Int64(size), limit: maximumSize)
    }
    var done = 0
    var failure: Int32?
    // Not zero-filled first: `read` writes every byte that counts.
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
      while done < size {
        let count = read(descriptor, buffer.baseAddress! + done, size - done)
        if count < 0 {
          if errno == EINTR { continue }
          failure = errno
          break
        }
        if count == 0 { break }
        done += count
      }
      initialized = done
    }
    if let failure { throw ImportProblem.cannotRead(code: failure) }
    guard done == size else {
      throw ImportProblem.shrank(from: Int64(size), to: Int64(done))
    }
    return bytes
  }
}
