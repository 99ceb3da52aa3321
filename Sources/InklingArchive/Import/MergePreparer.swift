// The CPU half of merging another archive, run on worker threads: read one draft's versions
// from the other archive, verify each as the import verifies a file, and hand it to the
// writer as it is stored there.
//
// Nothing is compressed or parsed again where the other archive's rows can be used:
//   - a drawing the archive lacks is its stored row (data, encoding, layout, delta base),
//     decoded over its chain and checked against its SHA-256 (BlobStore.verifiedCopy); a delta
//     whose base the archive lacks too brings its base along (`PreparedVersion.baseBlobs`), so
//     the chain is whole whatever order the versions come in (`gc --repack` leaves older
//     versions as deltas of newer ones);
//   - the drawing index is carried from the other archive's rows (DrawingIndexReader), with
//     every stroke's fingerprint, so the writer shares stroke rows as an import does; only a
//     drawing the other archive never indexed is decoded (DrawingIndexer).
// Verify before commit, as an import does: each version's file is rebuilt from its envelope
// and drawing and must have the SHA-256 and size the other archive recorded; BlobStore.insert
// then reads back what it wrote.
//
// A version that does not verify ends the merge (`WorkResult.failure`), unless salvaging:
// then it is left out and reported, and the rest goes on.

import FoundationEssentials
import InklingFormats
import InklingStore

/// Another archive's drafts as the pipeline's work.
struct ArchiveMerge: ImportSource {
  enum Job: Sendable {
    case draft(id: Int64, name: String)
    /// The drafts after this one could not be listed (a damaged archive).
    case unlisted(after: String, reason: String)
  }

  /// The file read: the other archive, or an upgraded copy of it.
  let readPath: String
  /// The other archive as given, for messages and the default source.
  let displayPath: String
  let archivePath: String
  /// The source recorded for versions the other archive has none for.
  let fallbackSource: SourceMark
  let salvage: Bool

  static let draftsPerPage = 512

  func produce(_ progress: ProgressCounter, isStopped: @escaping @Sendable () -> Bool, _ emit: (Job) -> Bool) {
    let other: Database
    do {
      other = try ArchiveDatabase.open(path: readPath, mode: .readOnly)
    } catch {
      _ = emit(.unlisted(after: "", reason: "\(error)"))
      return
    }
    defer { other.close() }
    var last: (id: Int64, name: String) = (0, "")
    while !isStopped() {
      let page: [(id: Int64, name: String, versions: Int, bytes: Int64)]
      do {
        page = try VersionRecords.drafts(after: last.id, limit: Self.draftsPerPage, in: other)
      } catch {
        _ = emit(.unlisted(after: last.name, reason: "\(error)"))
        return
      }
      guard !page.isEmpty else { return }
      for draft in page {
        progress.found(files: draft.versions, bytes: draft.bytes)
        guard emit(.draft(id: draft.id, name: draft.name)) else { return }
      }
      last = (page[page.count - 1].id, page[page.count - 1].name)
    }
  }

  func makeWorker() throws -> MergePreparer {
    try MergePreparer(self)
  }

  func prepare(_ job: Job, with preparer: MergePreparer, _ push: (WorkResult) -> Void) {
    switch job {
    case .draft(let id, let name):
      preparer.prepare(draftID: id, name: name, push)
    case .unlisted(let after, let reason):
      let location = after.isEmpty ? displayPath : "\(displayPath): the drafts after \"\(after)\""
      if salvage {
        push(.problem(path: location, problem: .leftOut("they cannot be read (\(reason))")))
      } else {
        push(.failure(.mergeStoppedAtDamage(path: displayPath, location: location, detail: reason)))
      }
    }
  }
}

/// One worker's connections and state for merging.
final class MergePreparer {
  private let merge: ArchiveMerge
  private let other: Database
  private let ours: Database
  private let otherIndex: DrawingIndexReader
  private let indexer = DrawingIndexer()
  /// Hashes of the blobs the versions prepared for the current job store before theirs.
  private var queued = Set<[UInt8]>()

  init(_ merge: ArchiveMerge) throws {
    self.merge = merge
    other = try ArchiveDatabase.open(path: merge.readPath, mode: .readOnly)
    do {
      ours = try ArchiveDatabase.open(path: merge.archivePath, mode: .readOnly)
    } catch {
      other.close()
      throw error
    }
    otherIndex = DrawingIndexReader(other)
  }

  deinit {
    other.close()
    ours.close()
  }

  /// A version that cannot be merged, and why.
  private struct Unmergeable: Error {
    let reason: String
  }

  /// Prepares every version of the other archive's draft `draftID`, oldest first, in chunks.
  func prepare(draftID: Int64, name: String, _ push: (WorkResult) -> Void) {
    // One read transaction on each connection for the draft's many small reads: each
    // statement alone would take and release SQLite's WAL read lock (a few fcntl calls).
    var started = false
    do {
      try other.readTransaction {
        try ours.readTransaction {
          started = true
          prepareInSnapshots(draftID: draftID, name: name, push)
        }
      }
    } catch {
      if !started { prepareInSnapshots(draftID: draftID, name: name, push) }
    }
  }

  private func prepareInSnapshots(draftID: Int64, name: String, _ push: (WorkResult) -> Void) {
    otherIndex.forget()
    indexer.forget()
    queued.removeAll()
    let rows: [VersionRow]
    let sources: [Int64: [VersionSourceRow]]
    do {
      rows = try VersionRecords.versions(ofDraft: draftID, in: other)
      sources = try SourceRecords.sources(ofDraft: draftID, in: other)
    } catch {
      leaveOut("\(merge.displayPath): draft \"\(name)\"", "its versions cannot be read (\(error))", push)
      return
    }
    var chunk: [PreparedFile] = []
    var chunkBytes: Int64 = 0
    for (index, row) in rows.enumerated() {
      let location = "\(merge.displayPath): \"\(name)\" version \(index + 1) (\(row.fileName))"
      let marks =
        sources[row.id].map { $0.map { SourceMark(label: $0.label, path: $0.path) } } ?? [merge.fallbackSource]
      do {
        chunk.append(try prepare(row, location: location, sources: marks))
      } catch {
        let reason = (error as? Unmergeable)?.reason ?? "\(error)"
        guard merge.salvage else {
          if !chunk.isEmpty { push(.files(chunk)) }
          push(.failure(.mergeStoppedAtDamage(path: merge.displayPath, location: location, detail: reason)))
          return
        }
        chunk.append(.rejected(path: location, problem: .leftOut(reason), bytes: row.fileSize))
      }
      chunkBytes += row.fileSize
      if chunk.count >= 64 || chunkBytes >= 4 << 20 {
        push(.files(chunk))
        chunk = []
        chunkBytes = 0
      }
    }
    if !chunk.isEmpty { push(.files(chunk)) }
  }

  private func leaveOut(_ location: String, _ reason: String, _ push: (WorkResult) -> Void) {
    if merge.salvage {
      push(.problem(path: location, problem: .leftOut(reason)))
    } else {
      push(.failure(.mergeStoppedAtDamage(path: merge.displayPath, location: location, detail: reason)))
    }
  }

  private func prepare(_ row: VersionRow, location: String, sources: [SourceMark]) throws -> PreparedFile {
    // Found as an import finds a file: a draft renamed here since keeps the version, and the
    // old name does not come back.
    if let archived = try VersionRecords.archivedFile(
      draftNamed: row.draftName, savedMilliseconds: row.savedMilliseconds, fileSHA256: row.fileSHA256,
      fileName: row.fileName, in: ours)
    {
      return .alreadyArchived(
        ArchivedVersion(
          path: location, bytes: row.fileSize, versionID: archived.versionID, draftName: archived.draftName,
          savedMilliseconds: row.savedMilliseconds, fileSHA256: row.fileSHA256, sources: sources))
    }
    let template = try EnvelopeRecords.template(row.envelopeID, in: other)
    let otherBlobs = BlobStore(other)
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
      // Stored before this version by an earlier one of the job (as a delta base).
      drawing = try otherBlobs.bytes(ofBlob: row.blobID)
    } else {
      let copy = try otherBlobs.verifiedCopy(ofBlob: row.blobID)
      blob = copy.blob
      drawing = copy.decoded.bytes
      bases = try missingBases(below: copy.blob)
    }
    // Verify before commit: what will be stored rebuilds the file the other archive recorded.
    // Hashed as it is rebuilt, piece by piece: the file itself is never needed.
    var hasher = SHA256Hasher()
    var size: Int64 = 0
    template.rebuild(drawing: drawing) { piece in
      hasher.update(piece)
      size += Int64(piece.count)
    }
    guard size == row.fileSize, hasher.finalize() == row.fileSHA256 else {
      throw Unmergeable(reason: "it does not rebuild the file it was imported from (SHA-256 mismatch)")
    }
    var facts: DrawingFacts?
    if stored?.indexed != true {
      facts = try otherIndex.facts(ofBlob: row.blobID) ?? indexer.facts(of: drawing)
    }
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
  /// hold, bottom first, each a verified copy of the other archive's row.
  private func missingBases(below blob: EncodedBlob) throws -> [EncodedBlob] {
    var missing: [EncodedBlob] = []
    var next = blob.baseSHA256
    let otherBlobs = BlobStore(other)
    while let sha256 = next, !queued.contains(sha256), try BlobStore(ours).id(ofSHA256: sha256) == nil {
      guard missing.count <= BlobStore.maxChainDepth, let id = try otherBlobs.id(ofSHA256: sha256) else {
        throw Unmergeable(reason: "the delta chain of its drawing is broken")
      }
      let base = try otherBlobs.verifiedCopy(ofBlob: id).blob
      missing.append(base)
      next = base.baseSHA256
    }
    return missing.reversed()
  }
}
