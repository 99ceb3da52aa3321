import Foundation
import InklingTestSupport
import Testing

@testable import InklingStore

@Suite struct MigrationTests {
  /// The repository's `migrations/` folder, found from this file's path.
  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("migrations")

  @Test func everyMigrationFileIsEmbeddedInOrder() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
      .filter { $0.hasSuffix(".sql") && $0.first?.isNumber == true }.sorted()
    #expect(!files.isEmpty)
    #expect(Migration.all.map(\.name) == files)
    for (migration, file) in zip(Migration.all, files) {
      let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
      #expect(migration.sql == text, "\(file) differs from its embedded copy")
      let number = Int32(file.prefix(while: \.isNumber))
      #expect(number == migration.version, "\(file) is listed as version \(migration.version)")
    }
    #expect(Migration.all.first?.version == 1)
    let versions = Migration.all.map(\.version)
    #expect(zip(versions, versions.dropFirst()).allSatisfy { $0 < $1 }, "versions must increase: \(versions)")
  }

  @Test func migrationsLeaveAConsistentSchema() throws {
    let folder = try TemporaryFolder()
    let db = try ArchiveDatabase.open(path: folder.path("a.sqlite"), mode: .readWrite)
    #expect(try db.fetchAll("PRAGMA foreign_key_check") { $0.string(0) }.isEmpty)
    #expect(try db.fetchOne("PRAGMA integrity_check") { $0.string(0) } == "ok")
  }
}
