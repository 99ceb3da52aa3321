import CSQLite
import InklingFormats
import InklingTestSupport
import Testing

@testable import InklingStore

/// Migrations 0014 and 0016: folds stored by an earlier fold are made again by this build's,
/// and an archive whose folds are current is not written.
@Suite struct RefoldMigrationTests {
  static let names = ["ᏣᎳᎩ drawings", "Café", "ŁÓDŹ", "Plan-B", "猫", "がっこう", "Ёлка"]
  static let labels = ["Ꮳ iPad", "Anna's iPad", "/home/anna/Drafts"]

  /// An archive at `path` as migrations 1…`version` made it, with one version of each draft of
  /// `names`, each from a source of `labels` in turn, written while `inkling_fold` was `fold`.
  static func makeArchive(
    at path: String, version: Int32 = 13,
    foldedBy fold: (@convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void)?
  ) throws {
    let db = try Database(path: path, mode: .readWrite)
    defer { db.close() }
    try db.registerArchiveFunctions()
    if let fold {
      // The same name and flags as the store's, so that the schema's triggers and generated
      // column call this one.
      let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
      let handle = try db.handle
      #expect(sqlite3_create_function_v2(handle, "inkling_fold", 1, flags, nil, fold, nil, nil, nil) == SQLITE_OK)
    }
    try db.execute("PRAGMA application_id = \(ArchiveDatabase.applicationID)")
    for migration in Migration.all where migration.version <= version { try db.execute(migration.sql) }
    try db.execute("PRAGMA user_version = \(version)")
    try db.transaction {
      let (blobID, envelopeID) = try insertBlobAndEnvelope(in: db)
      let runID = try ImportRunRecords.start(at: 1_700_000_000_000, in: db)
      for (index, name) in names.enumerated() {
        let saved = 1_700_000_000_000 + Int64(index) * 60_000
        let (draftID, _, _) = try VersionRecords.draftID(named: name, createdMilliseconds: saved, in: db)
        let version = NewVersion(
          draftID: draftID, savedMilliseconds: saved, savedSource: .fileName, importedMilliseconds: saved,
          fileName: "\(name).inkling", fileSHA256: [UInt8](repeating: UInt8(index), count: 32), fileSize: 100,
          fileModificationNanoseconds: saved * 1_000_000, blobID: blobID, envelopeID: envelopeID,
          background: RGBA(red: 1, green: 1, blue: 1, alpha: 1))
        let versionID = try #require(try VersionRecords.insert(version, in: db))
        let sourceID = try SourceRecords.id(label: labels[index % labels.count], in: db)
        try SourceRecords.record(
          versionID: versionID, savedMilliseconds: saved, fileSHA256: version.fileSHA256, sourceID: sourceID,
          path: "/x/\(name).inkling", runID: runID, in: db)
      }
    }
  }

  /// The stored folds: (name, name_folded, its grams) of each draft, and (label, label_folded).
  static func stored(in db: Database) throws -> (
    drafts: [String: (folded: String, grams: Set<String>)], labels: [String: String]
  ) {
    var drafts: [String: (folded: String, grams: Set<String>)] = [:]
    let rows = try db.fetchAll("SELECT id, name, name_folded FROM draft") { ($0.int64(0), $0.string(1), $0.string(2)) }
    for (id, name, folded) in rows {
      let grams = try db.fetchAll("SELECT gram FROM name_gram WHERE draft_id = ?", [id]) { $0.string(0) }
      drafts[name] = (folded, Set(grams))
    }
    let labels = try db.fetchAll("SELECT label, label_folded FROM source") { ($0.string(0), $0.string(1)) }
    return (drafts, Dictionary(uniqueKeysWithValues: labels))
  }

  /// The grams migration 0003 keeps for a folded name: every character starts one.
  static func grams(of folded: String) -> Set<String> {
    let padded = Array(folded.unicodeScalars) + ["\u{1}", "\u{1}"]
    return Set((0..<folded.unicodeScalars.count).map { String(String.UnicodeScalarView(padded[$0..<$0 + 3])) })
  }

  /// Made by 0014 from an archive of schema 13, and by 0016 from one of schema 15.
  @Test(arguments: [13, 15] as [Int32]) func foldsOfAnEarlierFoldAreMadeAgainAndFound(version: Int32) throws {
    let folder = try TemporaryFolder()
    let path = folder.path("old.sqlite")
    // An earlier fold: Unicode lowercasing alone (Cherokee to its lowercase letters, accents kept).
    try Self.makeArchive(at: path, version: version, foldedBy: lowercasingFold)
    let before = try {
      let db = try Database(path: path, mode: .readOnly)
      defer { db.close() }
      return try Self.stored(in: db)
    }()
    #expect(before.drafts["ᏣᎳᎩ drawings"]?.folded == "ꮳꮃꭹ drawings")
    #expect(before.labels["Ꮳ iPad"] == "ꮳ ipad")

    let db = try ArchiveDatabase.open(path: path, mode: .readWrite)
    defer { db.close() }
    #expect(try db.fetchOne("PRAGMA user_version") { $0.int(0) } == Int(ArchiveDatabase.schemaVersion))
    let after = try Self.stored(in: db)
    for name in Self.names {
      let folded = NameFolding.fold(name)
      #expect(after.drafts[name]?.folded == folded, "\(name)")
      #expect(after.drafts[name]?.grams == Self.grams(of: folded), "\(name)")
    }
    #expect(after.drafts["Café"]?.folded != before.drafts["Café"]?.folded, "the earlier fold differed")
    #expect(after.drafts["Plan-B"]?.grams == before.drafts["Plan-B"]?.grams)
    for label in Self.labels { #expect(after.labels[label] == NameFolding.fold(label), "\(label)") }
    #expect(
      try db.fetchOne("SELECT count(*) FROM name_gram") { $0.int(0) }
        == after.drafts.values.map(\.grams.count).reduce(0, +))

    // `name:` and `source:` find them through the grams and the folded label.
    func found(_ candidates: DraftCandidates, _ predicate: DraftPredicate) throws -> [String] {
      let query = DraftSearchSQL.driven(by: candidates, where: predicate, order: .name, limit: nil)
      return try db.fetchAll(query.sql, query.arguments) { $0.string(0) }
    }
    for (term, name) in [
      ("ꮳꮃꭹ", "ᏣᎳᎩ drawings"), ("CAFE", "Café"), ("łódź", "ŁÓDŹ"), ("Lodz", "ŁÓDŹ"), ("елка", "Ёлка"),
    ] {
      let folded = NameFolding.fold(term)
      let gram = String(String.UnicodeScalarView(folded.unicodeScalars.prefix(3)))
      #expect(try found(.gram(gram), .nameContains(folded: folded)) == [name], "\(term)")
    }
    let fromCherokeeSource = try found(.source(containsFolded: NameFolding.fold("ꮳ ipad")), .all)
    #expect(Set(fromCherokeeSource) == ["ᏣᎳᎩ drawings", "Plan-B", "Ёлка"])
  }

  @Test func currentFoldsAreNotWritten() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("current.sqlite")
    try Self.makeArchive(at: path, foldedBy: nil)
    let db = try Database(path: path, mode: .readWrite)
    defer { db.close() }
    try db.registerArchiveFunctions()
    let before = try Self.stored(in: db)
    let changes = sqlite3_total_changes64(try db.handle)
    for version: Int32 in [14, 16] {
      try db.execute(try #require(Migration.all.first { $0.version == version }).sql)
      #expect(sqlite3_total_changes64(try db.handle) == changes, "\(version)")
    }
    let after = try Self.stored(in: db)
    #expect(after.labels == before.labels)
    #expect(after.drafts.mapValues(\.folded) == before.drafts.mapValues(\.folded))
  }
}

/// `inkling_fold` as an earlier build might have had it: lowercasing, nothing else.
private func lowercasingFold(
  _ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
) {
  guard let argument = arguments?[0], let text = sqlite3_value_text(argument) else {
    sqlite3_result_null(context)
    return
  }
  let folded = String(cString: text).lowercased()
  sqlite3_result_text(context, folded, -1, inkling_sqlite_transient())
}
