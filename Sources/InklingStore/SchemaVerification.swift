// Telling an archive whose schema or file was changed behind our back from a healthy one,
// cheaply enough to do on every open.
//
// The schema an archive should have is, by definition, what the migrations create: applied
// to an in-memory database, its `sqlite_master` is the reference. Replaying them costs more
// than the rest of a one-file restore (ALTER TABLE re-parses the schema; 0003 fills a table
// of 4096 rows), so SchemaSnapshot.swift keeps that result, generated from the
// migrations and stamped with their digest; a replay happens only when the digest does not
// match (a migration edited without regenerating), and SchemaSnapshotTests fails until the
// snapshot is regenerated.
//
// Every open first compares one stamp: the digest of the archive's `sqlite_master` rows as
// stored (type, name, table, SQL, in name order) with the digest of the rows the migrations
// create, which the snapshot keeps too (`isAsCreated`). An archive made by these migrations
// matches exactly, and that costs one read of a few dozen rows. Any other schema takes the
// full comparison: object by object (type, name, table, SQL with comments and spacing
// normalised, so that editing a comment in a migration file does not turn every existing
// archive into a "tampered" one, only into one checked the long way). Either way the work is
// bounded by the number of schema objects (a few dozen), never by the size of the archive.
//
// What this catches: a dropped or added index, table, view or trigger (a trigger could
// delete versions behind the importer's back), a table whose definition was rewritten
// through `PRAGMA writable_schema`. What it leaves to SQLite: a schema SQLite cannot parse
// at all is reported as SQLITE_CORRUPT ("malformed database schema") by the first query.
//
// Invariants:
//   1. `expectedSchema` and `SchemaSnapshot.schemaStamp` are computed from `Migration.all`
//      only (directly, or through a snapshot whose digest equals theirs); they never read an
//      archive. `isAsCreated` is true only when the snapshot is current.
//   2. Objects SQLite creates on its own when asked (`sqlite_stat1` and `sqlite_stat4`, by
//      ANALYZE or `PRAGMA optimize`) are not differences, and are left out of the stamp, but
//      only in the exact form SQLite writes them (`sqliteOwnObjects`): a trigger or view named
//      `sqlite_stat…` put into `sqlite_master` through `writable_schema` is an object like any
//      other. Nothing else is exempt.
//   3. Objects are compared by type and name together: triggers have a namespace of their own,
//      so a trigger can carry the name of an expected index, and a comparison by name alone
//      would see one of the two.
//   4. An archive is verified before anything is written to it, against the schema of its own
//      version (the migrations up to its `user_version`, `expectedSchema(atVersion:)`), so a
//      trigger hidden in an older archive never runs during its upgrade.
//   5. `truncation` trusts the header's page count only when SQLite does (the change counter
//      equals the version-valid-for number) and only when no write-ahead log could still
//      hold the missing pages (SQLite's file format, "In-header database size").

import FoundationEssentials
import InklingFormats
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One entry of `sqlite_master`.
package struct SchemaObject: Hashable, Sendable {
  package var type: String
  package var name: String
  package var table: String
  /// The CREATE statement, normalised (see `SchemaObject.normalize`); nil for automatic indexes.
  package var sql: String?
}

package enum SchemaVerification {
  /// The schema the migrations create, by name (invariant 1).
  package static let expectedSchema: Result<[String: SchemaObject], StoreError> = {
    guard snapshotIsCurrent else { return replayedSchema() }
    return .success(Dictionary(uniqueKeysWithValues: SchemaSnapshot.objects.map { ($0.name, $0) }))
  }()

  /// `digest(of:)` of every migration, as SchemaSnapshot.swift records it.
  package static var migrationsDigest: String { digest(of: Migration.all) }

  /// Whether SchemaSnapshot.swift was made from these migrations. A stale snapshot is a
  /// fault of the source tree, not of an archive, and SchemaSnapshotTests fails on it; so a
  /// debug build checks (and replays the migrations when it is stale) while a release build,
  /// made from a tree whose tests pass, does not hash every migration at every start.
  #if DEBUG
    static let snapshotIsCurrent = SchemaSnapshot.migrationsDigest == migrationsDigest
  #else
    static let snapshotIsCurrent = true
  #endif

  /// A stamp of `migrations` (number, name and text of each, in order) that changes with any
  /// byte of them. It detects a stale snapshot, not an adversary, so it is four seeded XXH64
  /// lanes (as wide as a SHA-256) rather than SHA-256, which through EVP would first set up
  /// OpenSSL's providers: a debug build computes it at every start (`snapshotIsCurrent`).
  package static func digest(of migrations: [Migration]) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(migrations.reduce(0) { $0 + $1.bytes.count + $1.name.utf8.count + 16 })
    for migration in migrations {
      bytes += String(migration.version).utf8
      bytes.append(0)
      bytes += migration.name.utf8
      bytes.append(0)
      bytes += migration.bytes
      bytes.append(0)
    }
    return stamp(of: bytes)
  }

  /// Four seeded XXH64 lanes of `bytes`, as 64 hex digits.
  private static func stamp(of bytes: [UInt8]) -> String {
    var text = ""
    text.reserveCapacity(64)
    for seed: UInt64 in 0..<4 {
      let lane = String(XXHash64.hash(bytes, seed: seed), radix: 16)
      text += String(repeating: "0", count: 16 - lane.count) + lane
    }
    return text
  }

  // MARK: - The stamp of a schema

  /// Whether the schema of `db` is, row for row and byte for byte, the one the migrations
  /// create: its `schemaStamp` equals the snapshot's. False says only that the full
  /// comparison (`differences`) must decide, for instance for an archive whose migrations
  /// were applied before a comment in one of them was edited.
  ///
  /// - Throws: `StoreError` when `sqlite_master` cannot be read.
  package static func isAsCreated(_ db: Database) throws -> Bool {
    guard snapshotIsCurrent else { return false }
    return try schemaStamp(in: db) == SchemaSnapshot.schemaStamp
  }

  /// A stamp of the rows of `sqlite_master` as stored (type, name, table, SQL or a NULL mark),
  /// in name order, SQLite's statistics tables left out (invariant 2). Like `digest(of:)` it
  /// tells schemas apart; it is no secret, and an archive that matches it is exactly, row for
  /// row, what the migrations create.
  package static func schemaStamp(in db: Database) throws -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32 * 1024)
    let statement = try db.makeStatement(stampSQL)
    try statement.forEach { row in
      for column: Int32 in 0..<4 {
        if row.isNull(column) {
          bytes.append(1)
        } else {
          row.withUnsafeBytes(column) { bytes += $0 }
        }
        bytes.append(0)
      }
    }
    return stamp(of: bytes)
  }

  /// The query `schemaStamp` reads, written once. Concatenated in a loop rather than with
  /// `joined(separator:)`: that generic call looks up its witnesses in the runtime's
  /// conformance tables on its first use, which every command pays at its start.
  private static let stampSQL: String = {
    var own = ""
    for object in sqliteOwnObjects {
      own += (own.isEmpty ? "" : ", ") + "('" + object.name + "', '" + (object.sql ?? "") + "')"
    }
    return "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE NOT (type = 'table' AND name = tbl_name "
      + "AND (name, sql) IN (VALUES " + own + ")) ORDER BY name, type"
  }()

  /// The tables SQLite creates on its own (ANALYZE, `PRAGMA optimize`), exactly as it writes
  /// them: the only objects an archive may hold beside the migrations' (invariant 2).
  package static let sqliteOwnObjects: [SchemaObject] = [
    SchemaObject(
      type: "table", name: "sqlite_stat1", table: "sqlite_stat1", sql: "CREATE TABLE sqlite_stat1(tbl,idx,stat)"),
    SchemaObject(
      type: "table", name: "sqlite_stat4", table: "sqlite_stat4",
      sql: "CREATE TABLE sqlite_stat4(tbl,idx,neq,nlt,ndlt,sample)"),
  ]

  /// The schema of an archive at `version`: what the migrations up to it create (invariant 4).
  ///
  /// - Throws: `StoreError` when a migration fails to replay.
  package static func expectedSchema(atVersion version: Int32) throws -> [String: SchemaObject] {
    guard version < Migration.all.last?.version ?? 0 else { return try expectedSchema.get() }
    return try olderSchemas.withLock { cache in
      if let known = cache[version] { return known }
      let schema = try replayed(upTo: version) { try objects(in: $0) }
      cache[version] = schema
      return schema
    }
  }

  /// Schemas of older versions replayed so far: an upgrade opens its archive a few times.
  private static let olderSchemas = Mutex<[Int32: [String: SchemaObject]]>([:])

  /// The schema the migrations create, by applying them to an in-memory database.
  package static func replayedSchema() -> Result<[String: SchemaObject], StoreError> {
    do {
      return .success(try replayed { try objects(in: $0) })
    } catch let error as StoreError {
      return .failure(error)
    } catch {
      return .failure(StoreError(kind: .sqlite, message: "\(error)"))
    }
  }

  /// `read` of an in-memory database the migrations were applied to.
  static func replayed<T>(upTo version: Int32 = .max, _ read: (Database) throws -> T) throws -> T {
    let db = try Database(path: ":memory:", mode: .readWrite)
    // Migrations may call the functions every archive connection has (inkling_fold, …).
    try db.registerArchiveFunctions()
    defer { db.close() }
    for migration in Migration.all where migration.version <= version { try db.execute(migration.sql) }
    return try read(db)
  }

  /// Every row of `sqlite_master` with its SQL normalised, except SQLite's own statistics
  /// tables in their own form (invariant 2), in name and type order.
  static func rows(in db: Database) throws -> [SchemaObject] {
    try db.fetchAll("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name, type") { row in
      SchemaObject(
        type: row.string(0), name: row.string(1), table: row.string(2),
        sql: row.isNull(3) ? nil : normalize(row.string(3)))
    }.filter { !sqliteOwnObjects.contains($0) }
  }

  /// Every schema object of `db` except SQLite's statistics tables (invariant 2), by name; of
  /// two objects with one name (a trigger named like an index), the first in type order.
  package static func objects(in db: Database) throws -> [String: SchemaObject] {
    Dictionary(try rows(in: db).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// How the schema of `db` differs from what the migrations up to `version` create (the
  /// current schema unless given), one sentence each, in a stable order; empty when it is
  /// the same. Every row counts, by type and name together (invariant 3).
  ///
  /// - Throws: `StoreError` when `sqlite_master` cannot be read.
  package static func differences(in db: Database, atVersion version: Int32 = .max) throws -> [String] {
    let expected = try expectedSchema(atVersion: version)
    var unmatched = try rows(in: db)
    var differences: [String] = []
    for name in expected.keys.sorted() {
      let want = expected[name]!
      let sameName = unmatched.indices.filter { unmatched[$0].name == name }
      guard let index = sameName.first(where: { unmatched[$0].type == want.type }) ?? sameName.first else {
        differences.append("\(want.type) \(name) is missing")
        continue
      }
      let have = unmatched.remove(at: index)
      if have.type != want.type {
        differences.append("\(name) is a \(have.type), not a \(want.type)")
      } else if have.table != want.table {
        differences.append("\(want.type) \(name) belongs to table \(have.table), not \(want.table)")
      } else if have.sql != want.sql {
        differences.append("\(want.type) \(name) has a different definition: \(abbreviate(have.sql ?? "none"))")
      }
    }
    for have in unmatched {
      differences.append("\(have.type) \(have.name) is not part of the archive's schema")
    }
    return differences
  }

  /// The error for an archive whose schema differs, naming the first differences.
  package static func tamperedError(path: String, differences: [String]) -> StoreError {
    let shown = differences.prefix(3).joined(separator: "; ")
    let more = differences.count > 3 ? "; and \(differences.count - 3) more" : ""
    return StoreError(
      kind: .changedSchema, message: shown + more,
      path: path)
  }

  // MARK: - Normalising SQL

  /// `sql` without comments, with every run of spaces made one space and no space next to
  /// parentheses and commas; quoted text ('…', "…", `…`, […]) is kept as it is.
  package static func normalize(_ sql: String) -> String {
    let bytes = Array(sql.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var pendingSpace = false
    var i = 0
    func isTight(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: ",")
    }
    func emit(_ byte: UInt8) {
      if pendingSpace, let last = out.last, !isTight(last), !isTight(byte) { out.append(0x20) }
      pendingSpace = false
      out.append(byte)
    }
    while i < bytes.count {
      let byte = bytes[i]
      switch byte {
      case UInt8(ascii: "-") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "-"):
        while i < bytes.count && bytes[i] != 0x0A { i += 1 }
        pendingSpace = true
      case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
        i += 2
        while i + 1 < bytes.count && !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
        i += 2
        pendingSpace = true
      case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
        pendingSpace = true
        i += 1
      case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["):
        let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
        emit(byte)
        i += 1
        while i < bytes.count {
          out.append(bytes[i])
          i += 1
          if out.last == close {
            // A doubled quote is an escaped quote inside the text.
            if close != UInt8(ascii: "]"), i < bytes.count, bytes[i] == close {
              out.append(close)
              i += 1
              continue
            }
            break
          }
        }
      default:
        emit(byte)
        i += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  private static func abbreviate(_ text: String) -> String {
    text.count <= 80 ? text : String(text.prefix(77)) + "…"
  }

  // MARK: - Truncated files

  /// Why the database file at `path` is shorter than its header says, or nil when it is
  /// not (or when that cannot be known; invariant 5).
  ///
  /// - Parameter header: the file's first 100 bytes.
  package static func truncation(path: String, header: [UInt8]) -> String? {
    guard header.count >= 100 else { return nil }
    func uint32(_ offset: Int) -> UInt32 {
      header[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
    let rawPageSize = Int(header[16]) << 8 | Int(header[17])
    let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
    let pageCount = Int(uint32(28))
    guard pageSize >= 512, pageCount > 0, uint32(24) == uint32(92) else { return nil }
    guard fileSize(path + "-wal") ?? 0 == 0, let fileSize = fileSize(path) else { return nil }
    let expected = pageSize * pageCount
    guard fileSize < expected else { return nil }
    return "the file is truncated: its header says \(pageCount) pages of \(pageSize) bytes (\(expected) bytes), "
      + "but it holds \(fileSize) bytes"
  }

  /// The size of the file at `path`, or nil when there is none. (`stat` rather than
  /// FileManager: this runs on every open, and a restore is a few milliseconds in all.)
  private static func fileSize(_ path: String) -> Int? {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : nil
  }
}
