import Foundation
import Testing

@testable import InklingStore

/// SchemaSnapshot.swift must be what the migrations create; regenerate it with
/// `INKLING_UPDATE_SCHEMA_SNAPSHOT=1 swift test --filter SchemaSnapshotTests`.
@Suite struct SchemaSnapshotTests {
  static let file = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/InklingStore/SchemaSnapshot.swift")

  @Test func snapshotIsWhatTheMigrationsCreate() throws {
    let replayed = try SchemaVerification.replayedSchema().get()
    let stamp = try SchemaVerification.replayedSchemaStamp()
    let source = SchemaVerification.snapshotSource(
      of: replayed, stamp: stamp, digest: SchemaVerification.migrationsDigest)
    if ProcessInfo.processInfo.environment["INKLING_UPDATE_SCHEMA_SNAPSHOT"] == "1" {
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
