// Where the tests find the repository's own files (migrations, fixtures, docs, golden images):
// from this file's path rather than as package resources, so that a test reads the very file a
// developer edits and a plain clone needs nothing beside it.

import Foundation

/// The package's root folder.
package enum PackageFolder {
  /// The package root (`<package>/Tests/InklingTestSupport/PackageFolder.swift`, three up).
  package static var path: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
  }

  /// The path of `relative` (`"migrations"`, `"docs/architecture.md"`) inside the package.
  package static func path(_ relative: String) -> String { path + "/" + relative }
}
