// The schema's migrations, embedded at build time from ../../migrations (the single
// source of truth) so that the tool works from any directory. Add a new file there and
// one line here; MigrationTests checks that the two lists agree.

/// One numbered SQL file of `migrations/`.
///
/// The text is kept as the embedded bytes and made a String only when asked for: every
/// command reads `Migration.all` at open (for the schema version and the snapshot's digest),
/// and validating 40 KB of UTF-8 there would cost more than the rest of opening.
package struct Migration: Sendable {
  package let version: Int32
  package let name: String
  /// The file's bytes, UTF-8.
  package let bytes: [UInt8]

  package var sql: String { String(decoding: bytes, as: UTF8.self) }

  package init(version: Int32, name: String, bytes: [UInt8]) {
    self.version = version
    self.name = name
    self.bytes = bytes
  }

  package init(version: Int32, name: String, sql: String) {
    self.init(version: version, name: name, bytes: Array(sql.utf8))
  }
}

extension Migration {
  /// Every migration, in the order they are applied.
  package static let all: [Migration] = [
    Migration(version: 1, name: "0001_archive.sql", bytes: PackageResources._001_archive_sql),
    Migration(version: 2, name: "0002_drawing_index.sql", bytes: PackageResources._002_drawing_index_sql),
    Migration(version: 3, name: "0003_search.sql", bytes: PackageResources._003_search_sql),
    Migration(version: 4, name: "0004_thumbnails.sql", bytes: PackageResources._004_thumbnails_sql),
    Migration(version: 5, name: "0005_lean_drawing_index.sql", bytes: PackageResources._005_lean_drawing_index_sql),
    Migration(version: 6, name: "0006_search_walks.sql", bytes: PackageResources._006_search_walks_sql),
    Migration(version: 7, name: "0007_point_columns.sql", bytes: PackageResources._007_point_columns_sql),
    Migration(
      version: 8, name: "0008_newest_drawing_on_draft.sql", bytes: PackageResources._008_newest_drawing_on_draft_sql
    ),
    Migration(
      version: 9, name: "0009_newest_drawing_once.sql", bytes: PackageResources._009_newest_drawing_once_sql),
    Migration(version: 10, name: "0010_no_content_index.sql", bytes: PackageResources._010_no_content_index_sql),
    Migration(
      version: 11, name: "0011_newest_drawing_rule_once.sql", bytes: PackageResources._011_newest_drawing_rule_once_sql),
    Migration(version: 12, name: "0012_trash_and_reverts.sql", bytes: PackageResources._012_trash_and_reverts_sql),
    Migration(version: 13, name: "0013_sources.sql", bytes: PackageResources._013_sources_sql),
    Migration(version: 14, name: "0014_refold_names.sql", bytes: PackageResources._014_refold_names_sql),
  ]
}
