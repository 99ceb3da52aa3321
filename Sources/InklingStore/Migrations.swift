// The schema's migrations, embedded at build time from ../../migrations (the single
// source of truth) so that the tool works from any directory. Add a new file there and
// one line here; MigrationTests checks that the two lists agree.

/// One numbered SQL file of `migrations/`.
///
/// The text is kept as the embedded bytes, read only when asked for: every command opens
/// an archive, which needs `Migration.all` for the schema version alone, and touching every
/// file's bytes there (each a global of its own, initialised on first use) would cost page
/// faults and once-calls that no reading command needs. It is made a String only when asked
/// for too: validating 40 KB of UTF-8 costs more than the rest of opening.
package struct Migration: Sendable {
  package let version: Int32
  package let name: String
  private let source: @Sendable () -> [UInt8]

  /// The file's bytes, UTF-8.
  package var bytes: [UInt8] { source() }

  package var sql: String { String(decoding: bytes, as: UTF8.self) }

  package init(version: Int32, name: String, bytes: @escaping @Sendable () -> [UInt8]) {
    self.version = version
    self.name = name
    self.source = bytes
  }

  package init(version: Int32, name: String, sql: String) {
    let bytes = Array(sql.utf8)
    self.init(version: version, name: name, bytes: { bytes })
  }
}

extension Migration {
  /// Every migration, in the order they are applied.
  package static let all: [Migration] = [
    Migration(version: 1, name: "0001_archive.sql", bytes: { PackageResources._001_archive_sql }),
    Migration(version: 2, name: "0002_drawing_index.sql", bytes: { PackageResources._002_drawing_index_sql }),
    Migration(version: 3, name: "0003_search.sql", bytes: { PackageResources._003_search_sql }),
    Migration(version: 4, name: "0004_thumbnails.sql", bytes: { PackageResources._004_thumbnails_sql }),
    Migration(version: 5, name: "0005_lean_drawing_index.sql", bytes: { PackageResources._005_lean_drawing_index_sql }),
    Migration(version: 6, name: "0006_search_walks.sql", bytes: { PackageResources._006_search_walks_sql }),
    Migration(version: 7, name: "0007_point_columns.sql", bytes: { PackageResources._007_point_columns_sql }),
    Migration(
      version: 8, name: "0008_newest_drawing_on_draft.sql", bytes: { PackageResources._008_newest_drawing_on_draft_sql }
    ),
    Migration(
      version: 9, name: "0009_newest_drawing_once.sql", bytes: { PackageResources._009_newest_drawing_once_sql }),
    Migration(version: 10, name: "0010_no_content_index.sql", bytes: { PackageResources._010_no_content_index_sql }),
    Migration(
      version: 11, name: "0011_newest_drawing_rule_once.sql",
      bytes: { PackageResources._011_newest_drawing_rule_once_sql }),
    Migration(version: 12, name: "0012_trash_and_reverts.sql", bytes: { PackageResources._012_trash_and_reverts_sql }),
    Migration(version: 13, name: "0013_sources.sql", bytes: { PackageResources._013_sources_sql }),
    Migration(version: 14, name: "0014_refold_names.sql", bytes: { PackageResources._014_refold_names_sql }),
    Migration(version: 15, name: "0015_draft_row_once.sql", bytes: { PackageResources._015_draft_row_once_sql }),
    // 0016 is a header over 0014's statements, run again for the fold of this build.
    Migration(
      version: 16, name: "0016_refold_stroke_letters.sql",
      bytes: { PackageResources._016_refold_stroke_letters_sql + PackageResources._014_refold_names_sql }),
    Migration(version: 17, name: "0017_point_streams.sql", bytes: { PackageResources._017_point_streams_sql }),
    Migration(version: 18, name: "0018_damaged_versions.sql", bytes: { PackageResources._018_damaged_versions_sql }),
    Migration(version: 19, name: "0019_organising.sql", bytes: { PackageResources._019_organising_sql }),
    Migration(version: 20, name: "0020_known_files.sql", bytes: { PackageResources._020_known_files_sql }),
  ]
}
