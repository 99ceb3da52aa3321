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
//   2. Objects SQLite creates on its own when asked (`sqlite_stat1`…`sqlite_stat4` by
//      ANALYZE or `PRAGMA optimize`) are not differences, and are left out of the stamp.
//   3. `truncation` trusts the header's page count only when SQLite does (the change counter
//      equals the version-valid-for number) and only when no write-ahead log could still
//      hold the missing pages (https://www.sqlite.org/fileformat.html#in_header_database_size).

import FoundationEssentials
import InklingFormats

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
  /// tells schemas apart, it does not resist an adversary, who could as well edit the program.
  package static func schemaStamp(in db: Database) throws -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32 * 1024)
    let statement = try db.makeStatement(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT GLOB 'sqlite_stat*' ORDER BY name, type")
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
  static func replayed<T>(_ read: (Database) throws -> T) throws -> T {
    let db = try Database(path: ":memory:", mode: .readWrite)
    // Migrations may call the functions every archive connection has (inkling_fold, …).
    try db.registerArchiveFunctions()
    defer { db.close() }
    for migration in Migration.all { try db.execute(migration.sql) }
    return try read(db)
  }

  /// Every schema object of `db` except SQLite's statistics tables (invariant 2), by name.
  package static func objects(in db: Database) throws -> [String: SchemaObject] {
    let rows = try db.fetchAll("SELECT type, name, tbl_name, sql FROM sqlite_master") { row in
      SchemaObject(
        type: row.string(0), name: row.string(1), table: row.string(2),
        sql: row.isNull(3) ? nil : normalize(row.string(3)))
    }
    var result: [String: SchemaObject] = [:]
    for object in rows where !object.name.hasPrefix("sqlite_stat") { result[object.name] = object }
    return result
  }

  /// How the schema of `db` differs from what the migrations create, one sentence each,
  /// in a stable order; empty when it is the same.
  ///
  /// - Throws: `StoreError` when `sqlite_master` cannot be read.
  package static func differences(in db: Database) throws -> [String] {
    let expected = try expectedSchema.get()
    let actual = try objects(in: db)
    var differences: [String] = []
    for name in expected.keys.sorted() {
      let want = expected[name]!
      guard let have = actual[name] else {
        differences.append("\(want.type) \(name) is missing")
        continue
      }
      if have.type != want.type {
        differences.append("\(name) is a \(have.type), not a \(want.type)")
      } else if have.table != want.table {
        differences.append("\(want.type) \(name) belongs to table \(have.table), not \(want.table)")
      } else if have.sql != want.sql {
        differences.append("\(want.type) \(name) has a different definition: \(abbreviate(have.sql ?? "none"))")
      }
    }
    for name in actual.keys.sorted() where expected[name] == nil {
      let have = actual[name]!
      differences.append("\(have.type) \(name) is not part of the archive's schema")
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
  /// not (or when that cannot be known; invariant 3).
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
