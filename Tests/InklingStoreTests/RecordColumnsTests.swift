import InklingFormats
import InklingTestSupport
import Testing

@testable import InklingStore

/// Each record's `columns` string and its `row` decoder read by position, so they must list the
/// same columns in the same order: a row of distinct values comes back as it was written, and
/// a decoder reading past its columns stops the test (Row's debug check) instead of reading 0.
@Suite struct RecordColumnsTests {
  let folder: TemporaryFolder
  let db: Database
  let version: NewVersion
  let versionID: Int64

  init() throws {
    folder = try TemporaryFolder("columns")
    db = try ArchiveDatabase.open(path: folder.path("archive.sqlite"), mode: .readWrite)
    let (blobID, envelopeID) = try insertBlobAndEnvelope(in: db)
    let (draftID, _, _) = try VersionRecords.draftID(named: "Cat", createdMilliseconds: 11, in: db)
    version = NewVersion(
      draftID: draftID, savedMilliseconds: 1_700_000_000_123, savedSource: .fileName,
      importedMilliseconds: 1_700_000_999_000,
      fileName: "Cat-2023-11-14T22:13:20Z.inkling", fileSHA256: [UInt8](repeating: 3, count: 32), fileSize: 4567,
      fileModificationNanoseconds: 1_700_000_000_123_456_789, blobID: blobID, envelopeID: envelopeID,
      background: RGBA(red: 0.25, green: 0.5, blue: 0.75, alpha: 0.875))
    versionID = try #require(try VersionRecords.insert(version, in: db))
  }

  @Test func aVersionRowComesBackAsWritten() throws {
    let expected = VersionRow(version, id: versionID, draftName: "Cat")
    let read = [
      try VersionRecords.versions(ofDraft: version.draftID, in: db).first,
      try VersionRecords.history(ofDraft: version.draftID, in: db).first?.version,
      try VersionRecords.version(id: versionID, in: db),
      try VersionLookupRecords.version(ofDraft: version.draftID, .newest, in: db),
    ]
    for row in read {
      let row = try #require(row)
      #expect(
        [row.id, row.draftID, row.savedMilliseconds, row.importedMilliseconds, row.fileSize]
          == [
            expected.id, expected.draftID, expected.savedMilliseconds, expected.importedMilliseconds, expected.fileSize,
          ])
      #expect(row.draftName == expected.draftName && row.fileName == expected.fileName)
      #expect(row.savedSource == expected.savedSource && row.fileSHA256 == expected.fileSHA256)
      #expect(row.fileModificationNanoseconds == expected.fileModificationNanoseconds)
      #expect([row.blobID, row.envelopeID] == [expected.blobID, expected.envelopeID])
      #expect(row.background == expected.background && row.revertsVersionID == nil)
    }
    let summary = try #require(try VersionLookupRecords.blobSummary(version.blobID, in: db))
    #expect(summary.sha256 == [UInt8](repeating: 1, count: 32) && summary.size == 1 && summary.status == nil)
  }

  @Test func aDraftRowComesBackAsWritten() throws {
    let draft = try #require(try DraftRecords.draft(id: version.draftID, in: db))
    #expect(draft.id == version.draftID && draft.name == "Cat" && draft.versionCount == 1)
    #expect(draft.latestSavedMilliseconds == version.savedMilliseconds && draft.deletedMilliseconds == nil)
    #expect(draft.createdMilliseconds == 11)
    let page = try #require(try DraftPageRecords.drafts(named: ["Cat"], in: db).first)
    #expect(
      page
        == DraftPageRow(
          id: version.draftID, name: "Cat", versionCount: 1, latestSavedMilliseconds: version.savedMilliseconds,
          firstSavedMilliseconds: version.savedMilliseconds, latestVersionID: versionID))
  }
}
