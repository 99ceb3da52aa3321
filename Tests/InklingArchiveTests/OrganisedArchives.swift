import Foundation
import InklingCorpus
import InklingStore
import InklingTestSupport
import Testing

/// Two archives of the same two drafts (three saves each), `ours.sqlite` and `anna.sqlite`,
/// made by the built binary's `import`; the organising rows the note and label commands
/// would write are written through the store.
struct OrganisedArchives {
  let folder: TemporaryFolder
  let draft: String
  let other: String

  init(_ label: String) throws {
    folder = try TemporaryFolder(label)
    try writeCorpus(CorpusSpec(drafts: 2, versionsPerDraft: 3...3, seed: 5), to: URL(fileURLWithPath: folder.path("d")))
    for archive in ["ours.sqlite", "anna.sqlite"] {
      let imported = try Self.run(archive, ["import", folder.path("d")], in: folder)
      #expect(imported.status == 0, "\(imported.stderr)")
    }
    let names = try Self.sql(folder.path("anna.sqlite")) { db in
      try db.fetchAll("SELECT name FROM draft ORDER BY name") { $0.string(0) }
    }
    draft = names[0]
    other = names[1]
  }

  static func run(_ archive: String, _ arguments: [String], in folder: TemporaryFolder) throws -> ChildProcess.Result {
    try ChildProcess.run(
      [BuiltProducts.inklingArchive, "--archive", folder.path(archive)] + arguments,
      environment: ["INKLING_ARCHIVE": nil], workingDirectory: folder.path)
  }

  /// Runs the binary on `archive` and expects it to succeed.
  @discardableResult
  func run(_ archive: String, _ arguments: [String]) throws -> ChildProcess.Result {
    let result = try Self.run(archive, arguments, in: folder)
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    return result
  }

  /// Runs the binary on `archive`, whatever its exit status (a search that finds nothing).
  func result(_ archive: String, _ arguments: [String]) throws -> ChildProcess.Result {
    try Self.run(archive, arguments, in: folder)
  }

  /// Runs `body` on the archive's database, as the store opens it (its fold function too).
  static func sql<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
    let db = try ArchiveDatabase.open(path: path, mode: .readWrite)
    defer { db.close() }
    return try body(db)
  }

  /// The row ids of the draft's versions in the archive, oldest first.
  func versions(of name: String, in archive: String) throws -> [Int64] {
    try Self.sql(folder.path(archive)) { db in
      try db.fetchAll(
        "SELECT v.id FROM version AS v JOIN draft AS d ON d.id = v.draft_id WHERE d.name = ? ORDER BY v.saved_ms",
        [name]
      ) { $0.int64(0) }
    }
  }

  /// Writes a note row, on version `version` when given.
  func note(
    _ text: String, on name: String, version: Int64? = nil, written: Int64 = 1_750_000_000_000, in archive: String
  )
    throws
  {
    try Self.sql(folder.path(archive)) { db in
      try db.execute(
        "INSERT INTO note(draft_id, version_id, text, written_ms) SELECT id, ?, ?, ? FROM draft WHERE name = ?",
        [version, text, written, name])
    }
  }

  func label(_ name: String, version: Int64, in archive: String) throws {
    try Self.sql(folder.path(archive)) { db in
      try db.execute(
        "INSERT INTO version_label(version_id, draft_id, name) SELECT id, draft_id, ? FROM version WHERE id = ?",
        [name, version])
    }
  }

  /// The notes of the archive as (draft, version number or 0, text), sorted.
  func notes(in archive: String) throws -> [String] {
    try Self.sql(folder.path(archive)) { db in
      try db.fetchAll(
        """
        SELECT d.name, coalesce((SELECT count(*) FROM version AS w WHERE w.draft_id = n.draft_id
          AND w.saved_ms <= v.saved_ms), 0), n.text
        FROM note AS n JOIN draft AS d ON d.id = n.draft_id LEFT JOIN version AS v ON v.id = n.version_id
        ORDER BY 1, 2, 3
        """
      ) { "\($0.string(0)) \($0.int(1)) \($0.string(2))" }
    }
  }

  /// The labels of the archive as "draft version-number name", sorted.
  func labels(in archive: String) throws -> [String] {
    try Self.sql(folder.path(archive)) { db in
      try db.fetchAll(
        """
        SELECT d.name, (SELECT count(*) FROM version AS w WHERE w.draft_id = l.draft_id AND w.saved_ms <= v.saved_ms),
          l.name
        FROM version_label AS l JOIN draft AS d ON d.id = l.draft_id JOIN version AS v ON v.id = l.version_id
        ORDER BY 1, 2, 3
        """
      ) { "\($0.string(0)) \($0.int(1)) \($0.string(2))" }
    }
  }
}
