import Foundation
import InklingCorpus
import InklingTestSupport
import Testing

@testable import InklingArchive
@testable import InklingStore

/// Merging an archive someone else made: each version is proven as an import proves a file,
/// and what is derived is derived here. Each hostile archive is a normal one made by the
/// library, then altered as an attacker would alter its rows.
@Suite struct MergeProofTests {
  /// The reasons of the versions a salvaging merge left out.
  final class LeftOut: @unchecked Sendable {
    private let lock = NSLock()
    private var reasons: [String] = []
    var all: [String] { lock.withLock { reasons } }

    var options: ImportOptions {
      var options = ImportOptions()
      options.onEvent = { event in
        if case .rejected(_, .leftOut(let reason)) = event { self.lock.withLock { self.reasons.append(reason) } }
      }
      return options
    }
  }

  /// An archive at `folder/name.sqlite` of the corpus `spec`, imported with `source`.
  static func archive(_ name: String, _ spec: CorpusSpec, in folder: TemporaryFolder, source: String? = nil) throws
    -> Archive
  {
    try MergeTests.writeFiles(spec, into: folder) { _ in [name + "-files"] }
    var options = ImportOptions()
    options.source = source
    let archive = try Archive(path: folder.path(name + ".sqlite"))
    _ = try archive.importFiles(at: [folder.path(name + "-files")], options: options)
    return archive
  }

  static func count(_ sql: String, in archive: Archive) throws -> Int {
    try archive.database.fetchOne(sql) { $0.int(0) } ?? -1
  }

  /// A save time and a file size no import could record: left out with the reason when
  /// salvaging, the end of the run without salvaging, never a trap.
  @Test func numbersOutOfRangeAreLeftOutNotTrappedOn() throws {
    let folder = try TemporaryFolder("merge-values")
    let other = try Self.archive("other", CorpusSpec(drafts: 3, versionsPerDraft: 2...2, seed: 31), in: folder)
    try other.database.execute("UPDATE version SET saved_ms = 9223372036854775807 WHERE id = 1")
    try other.database.execute("UPDATE version SET file_size = 9223372036854775807 WHERE id = 3")
    try other.database.execute("UPDATE version SET imported_ms = -9223372036854775808 WHERE id = 5")
    let path = folder.path("other.sqlite")

    let merged = try Archive(path: folder.path("merged.sqlite"))
    #expect {
      try merged.merge(archiveAt: path)
    } throws: { error in
      guard case .mergeStoppedAtDamage(_, _, let detail) = error as? ArchiveError else { return false }
      return detail.contains("outside")
    }
    let leftOut = LeftOut()
    let summary = try merged.merge(archiveAt: path, salvage: true, options: leftOut.options)
    #expect(summary.versions.rejected == 3)
    #expect(try Self.count("SELECT count(*) FROM version", in: merged) == 3)
    let reasons = leftOut.all.sorted()
    #expect(reasons.contains { $0.hasPrefix("its save time 9223372036854775807 ms is outside") }, "\(reasons)")
    #expect(reasons.contains { $0.hasPrefix("its file size 9223372036854775807 bytes is outside") }, "\(reasons)")
    #expect(reasons.contains { $0.hasPrefix("its import time -9223372036854775808 ms is outside") }, "\(reasons)")
    #expect(try Archive(checking: folder.path("merged.sqlite")).check(full: true).isHealthy)
  }

  /// Another archive's blob row with the hash of one of our drawings (an orphan, holding other
  /// bytes) under its deltas: they decode over its row there, not over our drawing here.
  @Test func aDeltaOverAnOrphanClaimingOneOfOurHashesIsLeftOut() throws {
    let folder = try TemporaryFolder("merge-orphan")
    let ours = try Self.archive("ours", CorpusSpec(drafts: 1, versionsPerDraft: 1...1, seed: 41), in: folder)
    let other = try Self.archive("other", CorpusSpec(drafts: 1, versionsPerDraft: 4...4, seed: 42), in: folder)
    let ourHash = try #require(try ours.database.fetchOne("SELECT sha256 FROM blob") { $0.bytes(0) })
    // A new draft's drawings are reverse deltas: the newest whole, each older one a delta of
    // the next. The newest's row now claims our drawing's hash.
    let newest = try #require(
      try other.database.fetchOne("SELECT blob_id FROM version ORDER BY saved_ms DESC LIMIT 1") { $0.int64(0) })
    #expect(try Self.count("SELECT count(*) FROM blob WHERE base_id = \(newest)", in: other) == 1)
    try other.database.execute("UPDATE blob SET sha256 = ? WHERE id = ?", [ourHash, newest])

    let leftOut = LeftOut()
    let summary = try ours.merge(archiveAt: folder.path("other.sqlite"), salvage: true, options: leftOut.options)
    // The newest does not rebuild its file over our drawing; the deltas above it do not decode
    // over our drawing (each older one a delta of the next, when a delta was smaller).
    #expect(summary.versions.rejected >= 2, "\(leftOut.all)")
    #expect(
      leftOut.all.contains("its drawing does not decode over this archive's drawing of its base's hash"),
      "\(leftOut.all)")
    let check = try Archive(checking: folder.path("ours.sqlite")).check(full: true)
    #expect(check.isHealthy, "\(check.problems)")
    #expect(try Self.count("SELECT count(*) FROM version", in: ours) == 1 + 4 - summary.versions.rejected)
  }

  /// What the merge above once committed: a delta stored over a drawing of this archive with
  /// the hash its base claimed, whose bytes are others. `check --full` names every version
  /// that needs it.
  @Test func checkFullFindsADeltaOverTheWrongBase() throws {
    let folder = try TemporaryFolder("check-wrong-base")
    let archive = try Self.archive("a", CorpusSpec(drafts: 2, versionsPerDraft: 3...3, seed: 43), in: folder)
    let (delta, base) = try #require(
      try archive.database.fetchOne("SELECT id, base_id FROM blob WHERE base_id IS NOT NULL LIMIT 1") {
        ($0.int64(0), $0.int64(1))
      })
    let other = try #require(
      try archive.database.fetchOne(
        "SELECT id FROM blob WHERE id <> ? AND depth = (SELECT depth FROM blob WHERE id = ?) LIMIT 1", [base, base]
      ) { $0.int64(0) })
    try archive.database.execute("UPDATE blob SET base_id = ? WHERE id = ?", [other, delta])
    let check = try Archive(checking: folder.path("a.sqlite")).check(full: true)
    #expect(!check.isHealthy)
    #expect(check.problems.contains { $0.message.contains("does not decode") || $0.message.contains("SHA-256") })
  }

  /// `file` with the first character of its drawing's base64 written as a JSON escape: the
  /// archive keeps that text verbatim (`EnvelopeTemplate.Base64Spelling.verbatim`).
  static func verbatimSpelling(_ file: [UInt8]) throws -> [UInt8] {
    let key = Array(#""drawingData":""#.utf8)
    let start =
      try #require(
        (0...(file.count - key.count)).first { Array(file[$0..<($0 + key.count)]) == key }) + key.count
    return Array(file[..<start]) + Array(String(format: "\\u%04X", Int(file[start])).utf8) + Array(file[(start + 1)...])
  }

  /// An archive whose version keeps its base64 verbatim, with its blob swapped for another
  /// draft's: its file still rebuilds byte for byte, and shows the other drawing.
  static func swappedVerbatimArchive(in folder: TemporaryFolder) throws -> (archive: Archive, draft: String) {
    var corpus: [CorpusFile] = []
    generateCorpus(CorpusSpec(drafts: 2, versionsPerDraft: 1...1, seed: 51)) { corpus.append($0) }
    // The larger drawing's file keeps its text, and gets the smaller drawing.
    corpus.sort { $0.drawingBytes.count > $1.drawingBytes.count }
    let files = corpus.map { ($0.fileName, $0.contents) }
    let draft = corpus[0].name.draftName
    try folder.write("swap-files/" + files[0].0, try verbatimSpelling(files[0].1))
    try folder.write("swap-files/" + files[1].0, files[1].1)
    let archive = try Archive(path: folder.path("swap.sqlite"))
    _ = try archive.importFiles(at: [folder.path("swap-files")])
    #expect(try Self.count("SELECT count(*) FROM envelope WHERE base64_style = 2", in: archive) == 1)
    try archive.database.execute(
      """
      UPDATE version SET blob_id = (SELECT blob_id FROM version WHERE envelope_id NOT IN
        (SELECT id FROM envelope WHERE base64_style = 2))
      WHERE envelope_id IN (SELECT id FROM envelope WHERE base64_style = 2)
      """)
    return (archive, draft)
  }

  @Test func aVerbatimEnvelopeOverAnotherDraftsDrawingIsLeftOutAndFoundByCheck() throws {
    let folder = try TemporaryFolder("merge-verbatim")
    let (_, draft) = try Self.swappedVerbatimArchive(in: folder)
    let check = try Archive(checking: folder.path("swap.sqlite")).check(full: true)
    #expect(
      check.problems.contains { $0.message.hasPrefix("its rebuilt file does not hold the drawing stored for it") },
      "\(check.problems)")

    let merged = try Archive(path: folder.path("merged.sqlite"))
    #expect {
      try merged.merge(archiveAt: folder.path("swap.sqlite"))
    } throws: { error in
      guard case .mergeStoppedAtDamage(_, let location, let detail) = error as? ArchiveError else { return false }
      return location.contains(draft) && detail == "the drawing it shows is not the drawing its file holds"
    }
    let summary = try merged.merge(archiveAt: folder.path("swap.sqlite"), salvage: true)
    #expect(summary.versions.rejected == 1 && summary.versions.versionsImported == 1)
    #expect(try Archive(checking: folder.path("merged.sqlite")).check(full: true).isHealthy)
  }

  /// A drawing whose row declares far more bytes than the import's limit, as a tiny zstd
  /// frame: refused by its declared size, before it is inflated.
  @Test func aDrawingOverTheSizeLimitIsRefusedBeforeItIsDecoded() throws {
    let folder = try TemporaryFolder("merge-bomb")
    let other = try Self.archive("other", CorpusSpec(drafts: 1, versionsPerDraft: 1...1, seed: 61), in: folder)
    let size = 64 << 20
    let frame = try [UInt8](repeating: 0, count: size).withUnsafeBytes {
      try ZstdCompressor(level: 1).compress($0, prefix: nil, blocksEndingAt: [])
    }
    #expect(frame.count < 8 << 10)
    try other.database.execute(
      "UPDATE blob SET size = ?, encoding = 1, layout = 0, streams = 0, data = ? WHERE id = 1", [size, frame])

    var options = ImportOptions()
    options.maximumFileSize = 1 << 20
    let merged = try Archive(path: folder.path("merged.sqlite"))
    #expect {
      try merged.merge(archiveAt: folder.path("other.sqlite"), options: options)
    } throws: { error in
      guard case .mergeStoppedAtDamage(_, _, let detail) = error as? ArchiveError else { return false }
      return detail.contains("its size \(size) is outside the 0…\(1 << 20) bytes a drawing may have")
    }
  }

  /// Derived data is derived: the other archive's thumbnails and drawing index are not
  /// copied, and the versions this archive had get none of its sources.
  @Test func nothingDerivedIsCopiedAndWhatWasHereStaysAsItWas() throws {
    let folder = try TemporaryFolder("merge-derived")
    let spec = CorpusSpec(drafts: 3, versionsPerDraft: 2...3, seed: 71)
    let ours = try Self.archive("ours", spec, in: folder, source: "mine")
    let other = try Self.archive("other", spec, in: folder, source: "anna")
    try MergeTests.writeFiles(CorpusSpec(drafts: 2, versionsPerDraft: 2...2, seed: 72), into: folder) { _ in
      ["more"]
    }
    var options = ImportOptions()
    options.source = "anna"
    _ = try other.importFiles(at: [folder.path("more")], options: options)
    let draft = try ours.drafts()[0].name
    try other.renderThumbnails([other.lookUpThumbnail(of: .draft(draft, .latest), size: 128)])
    try other.database.execute("UPDATE thumbnail SET png = zeroblob(100)")
    try other.database.execute("UPDATE drawing SET stroke_count = 10000000, point_count = 10000000")
    let before = try ours.database.fetchAll("SELECT blob_id, stroke_count, point_count FROM drawing ORDER BY 1") {
      "\($0.int64(0)) \($0.int(1)) \($0.int(2))"
    }

    let summary = try ours.merge(archiveAt: folder.path("other.sqlite"))
    #expect(summary.versions.versionsImported == 4 && summary.versions.rejected == 0)
    #expect(summary.versions.alreadyArchived > 0)
    #expect(try Self.count("SELECT count(*) FROM thumbnail", in: ours) == 0)
    #expect(try Self.count("SELECT count(*) FROM drawing WHERE stroke_count >= 10000000", in: ours) == 0)
    let after = try ours.database.fetchAll(
      "SELECT blob_id, stroke_count, point_count FROM drawing WHERE blob_id IN (\(before.map { $0.split(separator: " ")[0] }.joined(separator: ","))) ORDER BY 1"
    ) { "\($0.int64(0)) \($0.int(1)) \($0.int(2))" }
    #expect(after == before)
    // The versions that were here keep their one source; the merged ones have Anna's.
    #expect(
      try Self.count(
        """
        SELECT count(*) FROM version_source AS vs JOIN source AS s ON s.id = vs.source_id
        WHERE s.label = 'anna' AND vs.version_id IN (SELECT version_id FROM version_source AS m
          JOIN source AS ms ON ms.id = m.source_id WHERE ms.label = 'mine')
        """, in: ours) == 0)
    #expect(
      try Self.count(
        "SELECT count(*) FROM version_source AS vs JOIN source AS s ON s.id = vs.source_id WHERE s.label = 'anna'",
        in: ours) == 4)
    #expect(try Archive(checking: folder.path("ours.sqlite")).check(full: true).isHealthy)
  }

  /// A SQLite file named as a draft is a draft: refused as one, never merged.
  @Test func aSQLiteFileNamedAsADraftIsNotMerged() throws {
    let folder = try TemporaryFolder("merge-named")
    _ = try Self.archive("other", CorpusSpec(drafts: 2, versionsPerDraft: 1...2, seed: 81), in: folder)
    let disguised = folder.path("Sunset-2025-06-01T18:00:00Z.inkling")
    try FileManager.default.copyItem(atPath: folder.path("other.sqlite"), toPath: disguised)
    #expect(Archive.isSQLiteFile(atPath: disguised))

    let archive = try Archive(path: folder.path("a.sqlite"))
    let report = try archive.importPaths([disguised])
    #expect(report.merges.isEmpty)
    #expect(report.files?.rejected == 1)
    #expect(try Self.count("SELECT count(*) FROM version", in: archive) == 0)
    // Named as an archive, it is merged.
    let named = try archive.importPaths([folder.path("other.sqlite")])
    #expect(named.merges.count == 1 && named.merges[0].versions.versionsImported > 0)
  }
}
