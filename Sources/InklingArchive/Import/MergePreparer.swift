// The CPU half of merging other archives, run on worker threads: read one draft's versions
// from every archive merged that holds a draft of that name, prove each as an import proves a
// file, and hand it to the writer as it will be stored here.
//
// The archives merged by one `import` are one run: the lister walks them together in name
// order, so a job is a name and the writer meets each draft once, whatever number of archives
// hold versions of it (its stroke rows loaded once, its row updated once). A job's versions go
// archive by archive, in the order the archives were given: what merging them one after the
// other would store, and count against each. Within an archive they go in the order their
// drawings decode, each delta after its base (BlobStore.decodingOrder): the newest first when
// older saves are deltas of newer ones, as an import stores a new draft. Oldest first, each
// version's drawing would be decoded from the newest down, and its bases again with it.
//
// Another archive is input, not trust (what Fossil does on clone: every artifact verified
// before it is kept). For each version:
//   - its numbers lie in the ranges an import could have recorded (MergedValues), and its
//     file and every blob of its drawing's chain are within the import's size limit, checked
//     on each row before anything is decompressed;
//   - its drawing is decoded as it will be stored here: a drawing the archive lacks is the
//     other archive's row (data, encoding, layout, delta base; not compressed again) decoded
//     over its chain and checked against its SHA-256 (BlobStore.verifiedCopy), and where that
//     chain reaches a base this archive holds, the delta above it is decoded again over this
//     archive's base, which is what it will rest on (another archive's row claiming one of
//     our hashes proves nothing); a delta whose base neither holds comes along with its base
//     (`PreparedVersion.baseBlobs`);
//   - its file is rebuilt from its envelope and that drawing, must have the SHA-256 and size
//     recorded, and is parsed as an import parses a file: the drawing and colour it holds must
//     be the drawing and colour stored (a template that keeps its base64 text verbatim would
//     otherwise restore one drawing and show another);
//   - the drawing index is derived here from the verified drawing (DrawingIndexer), as an
//     import derives it, never copied: the other archive's index rows and counts are not read.
// BlobStore.insert then reads back what it wrote.
//
// A version already here is counted and left as it is: the other archive's sources are not
// attached to it. A version that cannot be proven ends the run (`WorkResult.failure`, the
// batches before it committed), unless salvaging: then it is left out and reported, and the
// rest goes on. Either way nothing from another archive's rows traps.

import FoundationEssentials
import InklingFormats
import InklingStore

/// Other archives' drafts as the pipeline's work; each archive's results are counted apart
/// (`WorkResult` origins are indexes into `others`).
struct ArchiveMerge: ImportSource {
  /// One archive merged.
  struct Other: Sendable {
    /// The file read: the archive, or an upgraded copy of it.
    let readPath: String
    /// The archive as given, for messages and the default source.
    let displayPath: String
    /// The source recorded for versions it has none for.
    let fallbackSource: SourceMark
  }

  /// The draft of one name in the archives that hold it.
  struct Part: Sendable {
    let archive: Int
    let draftID: Int64
  }

  enum Job: Sendable {
    case draft(name: String, parts: [Part])
    /// The drafts of archive `archive` after this name could not be listed (a damaged archive).
    case unlisted(archive: Int, after: String, reason: String)
  }

  let others: [Other]
  let archivePath: String
  let salvage: Bool
  /// The import's limit on a file (`ImportOptions.maximumFileSize`): a merged version's file
  /// and each drawing of its chain are held to it.
  let maximumFileSize: Int64

  static let draftsPerPage = 512

  /// One archive's walk through its drafts by name, a page at a time.
  private struct Walk {
    let archive: Int
    let db: Database
    var page: [(id: Int64, name: String, versions: Int, bytes: Int64)] = []
    var next = 0
    /// The name the next page starts after; nil before the first.
    var last: String?
    var finished = false
    /// The UTF-8 bytes of the current name, SQLite's order of names.
    var key: [UInt8]? { next < page.count ? Array(page[next].name.utf8) : nil }
  }

  func produce(_ progress: ProgressCounter, isStopped: @escaping @Sendable () -> Bool, _ emit: (Job) -> Bool) {
    var walks: [Walk] = []
    defer { walks.forEach { $0.db.close() } }
    for archive in others.indices {
      do {
        walks.append(
          Walk(archive: archive, db: try ArchiveDatabase.open(path: others[archive].readPath, mode: .readOnly)))
      } catch {
        guard emit(.unlisted(archive: archive, after: "", reason: "\(error)")) else { return }
      }
    }
    while !isStopped() {
      // Each walk with a name in hand; a walk that cannot read its next page ends there.
      for index in walks.indices where !walks[index].finished && walks[index].next == walks[index].page.count {
        do {
          walks[index].page = try VersionRecords.drafts(
            afterName: walks[index].last, limit: Self.draftsPerPage, in: walks[index].db)
          walks[index].next = 0
          walks[index].last = walks[index].page.last?.name ?? walks[index].last
          walks[index].finished = walks[index].page.isEmpty
        } catch {
          walks[index].finished = true
          guard emit(.unlisted(archive: walks[index].archive, after: walks[index].last ?? "", reason: "\(error)"))
          else { return }
        }
      }
      let keys = walks.map(\.key)
      guard let first = keys.compactMap({ $0 }).min(by: { $0.lexicographicallyPrecedes($1) }) else { return }
      var parts: [Part] = []
      var name = ""
      for index in walks.indices where keys[index] == first {
        let draft = walks[index].page[walks[index].next]
        walks[index].next += 1
        progress.found(files: draft.versions, bytes: max(0, draft.bytes))
        parts.append(Part(archive: walks[index].archive, draftID: draft.id))
        name = draft.name
      }
      guard emit(.draft(name: name, parts: parts)) else { return }
    }
  }

  func makeWorker() throws -> MergePreparer {
    try MergePreparer(self)
  }

  func prepare(_ job: Job, with preparer: MergePreparer, _ push: (WorkResult) -> Void) {
    switch job {
    case .draft(let name, let parts):
      preparer.prepare(name: name, parts: parts, push)
    case .unlisted(let archive, let after, let reason):
      let path = others[archive].displayPath
      let location = after.isEmpty ? Quoted.text(path) : "\(Quoted.text(path)): the drafts after \(Quoted.name(after))"
      if salvage {
        push(.problem(path: location, problem: .leftOut("they cannot be read (\(reason))"), origin: archive))
      } else {
        push(.failure(.mergeStoppedAtDamage(path: path, location: location, detail: reason)))
      }
    }
  }
}

/// One worker's connections and state for merging.
final class MergePreparer {
  private let merge: ArchiveMerge
  /// A connection to each archive merged, by index.
  private let others: [Database]
  private let ours: Database
  private let indexer = DrawingIndexer()
  private let decompressor = ZstdDecompressor()
  /// Hashes of the blobs the versions prepared for the current job store before theirs.
  private var queued = Set<[UInt8]>()

  init(_ merge: ArchiveMerge) throws {
    self.merge = merge
    var opened: [Database] = []
    do {
      for other in merge.others { opened.append(try ArchiveDatabase.open(path: other.readPath, mode: .readOnly)) }
      ours = try ArchiveDatabase.open(path: merge.archivePath, mode: .readOnly)
    } catch {
      opened.forEach { $0.close() }
      throw error
    }
    others = opened
  }

  deinit {
    others.forEach { $0.close() }
    ours.close()
  }

  /// A version that cannot be merged, and why.
  private struct Unmergeable: Error {
    let reason: String
  }

  /// Prepares every version of the drafts called `name` in `parts`, archive by archive, each
  /// archive's in the order their drawings decode, in chunks.
  func prepare(name: String, parts: [ArchiveMerge.Part], _ push: (WorkResult) -> Void) {
    // One read transaction on each connection for the draft's many small reads: each
    // statement alone would take and release SQLite's WAL read lock (a few fcntl calls).
    var started = false
    do {
      try inReadTransactions(parts.map { others[$0.archive] } + [ours]) {
        started = true
        prepareInSnapshots(name: name, parts: parts, push)
      }
    } catch {
      if !started { prepareInSnapshots(name: name, parts: parts, push) }
    }
  }

  /// Runs `body` in a read transaction on each of `connections`.
  private func inReadTransactions(_ connections: [Database], _ body: () -> Void) throws {
    guard let first = connections.first else { return body() }
    try first.readTransaction { try inReadTransactions(Array(connections.dropFirst()), body) }
  }

  private func prepareInSnapshots(name: String, parts: [ArchiveMerge.Part], _ push: (WorkResult) -> Void) {
    indexer.forget()
    queued.removeAll()
    for part in parts {
      guard prepare(part, name: name, push) else { return }
    }
  }

  /// Prepares the versions of one archive's draft; false when the run must end (a version that
  /// does not verify, not salvaging).
  private func prepare(_ part: ArchiveMerge.Part, name: String, _ push: (WorkResult) -> Void) -> Bool {
    let other = merge.others[part.archive]
    let rows: [VersionRow]
    let order: [Int]
    let sources: [Int64: [VersionSourceRow]]
    do {
      rows = try VersionRecords.versions(ofDraft: part.draftID, in: others[part.archive])
      order = try BlobStore(others[part.archive]).decodingOrder(ofBlobs: rows.map(\.blobID))
      sources = try SourceRecords.sources(ofDraft: part.draftID, in: others[part.archive])
    } catch {
      let location = "\(Quoted.text(other.displayPath)): draft \(Quoted.name(name))"
      let reason = "its versions cannot be read (\(error))"
      guard merge.salvage else {
        push(.failure(.mergeStoppedAtDamage(path: other.displayPath, location: location, detail: reason)))
        return false
      }
      push(.problem(path: location, problem: .leftOut(reason), origin: part.archive))
      return true
    }
    var chunk: [PreparedFile] = []
    var chunkBytes: Int64 = 0
    for index in order {
      let row = rows[index]
      let location =
        "\(Quoted.text(other.displayPath)): \(Quoted.name(name)) version \(index + 1) (\(Quoted.display(row.fileName)))"
      let marks =
        sources[row.id].map { $0.map { SourceMark(label: $0.label, path: $0.path) } } ?? [other.fallbackSource]
      // A size out of range counts as nothing read: it must not reach the run's sums.
      let bytes = (0...merge.maximumFileSize).contains(row.fileSize) ? row.fileSize : 0
      do {
        chunk.append(try prepare(row, from: part.archive, location: location, sources: marks))
      } catch {
        let reason = (error as? Unmergeable)?.reason ?? "\(error)"
        guard merge.salvage else {
          if !chunk.isEmpty { push(.files(chunk, origin: part.archive)) }
          push(.failure(.mergeStoppedAtDamage(path: other.displayPath, location: location, detail: reason)))
          return false
        }
        chunk.append(.rejected(path: location, problem: .leftOut(reason), bytes: bytes))
      }
      chunkBytes += bytes
      if chunk.count >= 64 || chunkBytes >= 4 << 20 {
        push(.files(chunk, origin: part.archive))
        chunk = []
        chunkBytes = 0
      }
    }
    if !chunk.isEmpty { push(.files(chunk, origin: part.archive)) }
    return true
  }

  private func prepare(_ row: VersionRow, from archive: Int, location: String, sources: [SourceMark]) throws
    -> PreparedFile
  {
    if let problem = MergedValues.problem(row, maximumFileSize: merge.maximumFileSize) {
      throw Unmergeable(reason: problem)
    }
    // Found as an import finds a file: a draft renamed here since keeps the version, and the
    // old name does not come back. What is here stays as it is: no source is added to it,
    // and only the app's own file name, when the other archive has it, is taken.
    if let archived = try VersionRecords.archivedFile(
      draftNamed: row.draftName, savedMilliseconds: row.savedMilliseconds, fileSHA256: row.fileSHA256,
      fileName: row.fileName, in: ours)
    {
      return .alreadyArchived(
        ArchivedVersion(
          path: location, bytes: row.fileSize, versionID: archived.versionID, draftName: archived.draftName,
          savedMilliseconds: row.savedMilliseconds, fileSHA256: row.fileSHA256, sources: [],
          renamedTo: archived.fileName == row.fileName
            ? nil : VersionFileName.replacement(for: archived.fileName, by: row.fileName)))
    }
    let other = others[archive]
    let template = try EnvelopeRecords.template(row.envelopeID, in: other)
    // The file is at most its recorded size, which is within the limit: a template larger
    // than that cannot rebuild it, and is not rebuilt.
    guard template.text.count + (template.verbatimBase64?.count ?? 0) <= row.fileSize else {
      throw Unmergeable(reason: "its envelope is larger than its file (\(row.fileSize) bytes)")
    }
    // A drawing is inside its file as base64: never larger than the file.
    let otherBlobs = BlobStore(other, maximumSize: Int(merge.maximumFileSize))
    guard let blobSHA256 = try otherBlobs.sha256(ofBlob: row.blobID) else {
      throw Unmergeable(reason: "its drawing (blob id \(row.blobID)) is missing")
    }
    let stored = try DrawingIndexRecords.storedBlob(sha256: blobSHA256, in: ours)
    var blob: EncodedBlob?
    var bases: [EncodedBlob] = []
    let drawing: [UInt8]
    if let stored {
      drawing = try BlobStore(ours).bytes(ofBlob: stored.id)
    } else if queued.contains(blobSHA256) {
      // Stored before this version by an earlier one of the job (as a delta base, or the same
      // drawing in another archive), proven then; hashed again as it is read.
      drawing = try otherBlobs.bytes(ofBlob: row.blobID)
    } else {
      let copy = try otherBlobs.verifiedCopy(ofBlob: row.blobID)
      blob = copy.blob
      drawing = copy.decoded.bytes
      bases = try missingBases(below: copy.blob, in: otherBlobs)
    }
    guard drawing.count <= row.fileSize else {
      throw Unmergeable(reason: "its drawing is larger than its file (\(row.fileSize) bytes)")
    }
    // Verify before commit, as an import verifies a file: what will be stored rebuilds the
    // file recorded, and that file, parsed, holds the drawing and colour stored.
    let file = template.rebuild(drawing: drawing)
    guard Int64(file.count) == row.fileSize, SHA256.hash(file) == row.fileSHA256 else {
      throw Unmergeable(reason: "it does not rebuild the file it was imported from (SHA-256 mismatch)")
    }
    guard let envelope = FileProof.envelope(of: file, holding: drawing, template: template),
      envelope.background == row.background
    else {
      throw Unmergeable(reason: "the drawing it shows is not the drawing its file holds")
    }
    var facts: DrawingFacts?
    if stored?.indexed != true { facts = indexer.facts(of: drawing) }
    for base in bases { queued.insert(base.sha256) }
    queued.insert(blobSHA256)
    var version = PreparedVersion(
      draftName: row.draftName, path: location, fileName: row.fileName, fileSize: row.fileSize,
      fileModificationNanoseconds: row.fileModificationNanoseconds, savedMilliseconds: row.savedMilliseconds,
      savedSource: row.savedSource, fileSHA256: row.fileSHA256, blobSHA256: blobSHA256, blob: blob,
      drawingFacts: facts, template: template, background: row.background, sources: sources)
    version.importedMilliseconds = row.importedMilliseconds
    version.baseBlobs = bases
    return .version(version)
  }

  /// The delta bases under `blob` that neither this archive nor the job's earlier versions
  /// hold, bottom first, each a verified copy of the other archive's row. Where the chain
  /// reaches a base this archive holds, the delta above it is decoded over ours, which is
  /// what it will be stored over: its hash must come out.
  private func missingBases(below blob: EncodedBlob, in otherBlobs: BlobStore) throws -> [EncodedBlob] {
    var missing: [EncodedBlob] = []
    var above = blob
    let ourBlobs = BlobStore(ours)
    while let sha256 = above.baseSHA256, !queued.contains(sha256) {
      if let ourID = try ourBlobs.id(ofSHA256: sha256) {
        let decoded: [UInt8]
        do {
          decoded = try BlobEncoder.decode(above, base: try ourBlobs.base(ofBlob: ourID), decompressor: decompressor)
        } catch let error as StoreError {
          throw error  // this archive's own blob could not be read
        } catch {
          throw Unmergeable(reason: "its drawing does not decode over this archive's drawing of its base's hash")
        }
        guard decoded.count == above.size, SHA256.hash(decoded) == above.sha256 else {
          throw Unmergeable(reason: "its drawing does not decode over this archive's drawing of its base's hash")
        }
        break
      }
      guard missing.count <= BlobStore.maxChainDepth, let id = try otherBlobs.id(ofSHA256: sha256) else {
        throw Unmergeable(reason: "the delta chain of its drawing is broken")
      }
      let base = try otherBlobs.verifiedCopy(ofBlob: id).blob
      missing.append(base)
      above = base
    }
    return missing.reversed()
  }
}
