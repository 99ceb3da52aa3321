import Foundation
import InklingTestSupport
import Testing

@testable import InklingStore

/// SchemaSnapshot.swift and migrations/schema.sql must be what the migrations create;
/// regenerate both with `INKLING_UPDATE_SCHEMA_SNAPSHOT=1 swift test --filter SchemaSnapshotTests`.
@Suite struct SchemaSnapshotTests {
  static let root = URL(fileURLWithPath: PackageFolder.path)
  static let file = root.appendingPathComponent("Sources/InklingStore/SchemaSnapshot.swift")
  static let listing = root.appendingPathComponent("migrations/schema.sql")
  static let updating = ProcessInfo.processInfo.environment["INKLING_UPDATE_SCHEMA_SNAPSHOT"] == "1"

  @Test func snapshotIsWhatTheMigrationsCreate() throws {
    let replayed = try SchemaVerification.replayedSchema().get()
    let stamp = try SchemaVerification.replayedSchemaStamp()
    let source = SchemaVerification.snapshotSource(
      of: replayed, stamp: stamp, digest: SchemaVerification.migrationsDigest)
    if Self.updating {
      try source.write(to: Self.file, atomically: true, encoding: .utf8)
      return
    }
    let stale =
      "Sources/InklingStore/SchemaSnapshot.swift is stale: run "
      + "`INKLING_UPDATE_SCHEMA_SNAPSHOT=1 swift test --filter SchemaSnapshotTests`"
    #expect(SchemaSnapshot.migrationsDigest == SchemaVerification.migrationsDigest, "\(stale)")
    #expect(SchemaSnapshot.schemaStamp == stamp, "\(stale)")
    #expect(
      Dictionary(uniqueKeysWithValues: SchemaSnapshot.objects.map { ($0.name, $0) }) == replayed, "\(stale)")
    #expect(try String(contentsOf: Self.file, encoding: .utf8) == source, "\(stale)")
  }

  @Test func schemaListingIsWhatTheMigrationsCreate() throws {
    let text = try SchemaListing.text()
    if Self.updating {
      try text.write(to: Self.listing, atomically: true, encoding: .utf8)
      return
    }
    #expect(
      try String(contentsOf: Self.listing, encoding: .utf8) == text,
      "migrations/schema.sql is stale: run `INKLING_UPDATE_SCHEMA_SNAPSHOT=1 swift test --filter SchemaSnapshotTests`")
  }

  /// The listing is SQL that makes the same schema as the migrations, object for object.
  @Test func schemaListingMakesTheSameSchema() throws {
    let db = try Database(path: ":memory:", mode: .readWrite)
    defer { db.close() }
    try db.registerArchiveFunctions()
    try db.execute(try SchemaListing.text())
    let made = try SchemaVerification.objects(in: db)
    let replayed = try SchemaVerification.replayedSchema().get()
    #expect(made.keys.sorted() == replayed.keys.sorted())
    for (name, object) in replayed { #expect(made[name] == object, "\(name)") }
  }

  /// One definition per object: draft_by_latest appears once, as the last migration left it.
  @Test func schemaListingShowsEachObjectOnce() throws {
    let text = try SchemaListing.text()
    for object in try SchemaVerification.replayedSchema().get().values where object.sql != nil {
      let heads = ["CREATE \(object.type.uppercased()) \(object.name)", "CREATE UNIQUE INDEX \(object.name)"]
      let count = heads.flatMap { head in [" ", "("].map { text.components(separatedBy: head + $0).count - 1 } }
        .reduce(0, +)
      #expect(count == 1, "\(object.type) \(object.name) is listed \(count) times")
    }
  }

  @Test func anEditedMigrationHasAnotherDigest() {
    let original = Migration.all
    var edited = original
    let last = edited.removeLast()
    edited.append(Migration(version: last.version, name: last.name, sql: last.sql + " "))
    #expect(SchemaVerification.digest(of: original).count == 64)
    #expect(SchemaVerification.digest(of: edited) != SchemaVerification.digest(of: original))
    #expect(SchemaVerification.digest(of: Array(original.dropLast())) != SchemaVerification.digest(of: original))
  }
}
