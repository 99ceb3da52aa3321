// The schema's migrations, embedded at build time from ../../migrations (the single
// source of truth) so that the tool works from any directory. Add a new file there and
// one line here; MigrationTests checks that the two lists agree.

/// One numbered SQL file of `migrations/`.
package struct Migration: Sendable {
  package let version: Int32
  package let name: String
  package let sql: String
}

extension Migration {
  /// Every migration, in the order they are applied.
  package static let all: [Migration] = [
    Migration(version: 1, name: "0001_archive.sql", sql: text(PackageResources._001_archive_sql)),
    Migration(version: 2, name: "0002_drawing_index.sql", sql: text(PackageResources._002_drawing_index_sql)),
    Migration(version: 3, name: "0003_search.sql", sql: text(PackageResources._003_search_sql)),
    Migration(version: 4, name: "0004_thumbnails.sql", sql: text(PackageResources._004_thumbnails_sql)),
    Migration(version: 5, name: "0005_lean_drawing_index.sql", sql: text(PackageResources._005_lean_drawing_index_sql)),
    Migration(version: 6, name: "0006_search_walks.sql", sql: text(PackageResources._006_search_walks_sql)),
    Migration(version: 7, name: "0007_point_columns.sql", sql: text(PackageResources._007_point_columns_sql)),
    Migration(
      version: 8, name: "0008_newest_drawing_on_draft.sql", sql: text(PackageResources._008_newest_drawing_on_draft_sql)
    ),
    Migration(
      version: 9, name: "0009_newest_drawing_once.sql", sql: text(PackageResources._009_newest_drawing_once_sql)),
    Migration(version: 10, name: "0010_no_content_index.sql", sql: text(PackageResources._010_no_content_index_sql)),
  ]

  private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
