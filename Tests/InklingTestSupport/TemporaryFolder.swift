// A fresh folder for one test (or one benchmark run), removed when the value is released.
// Every test target uses this one; a suite that needs a folder keeps one as a property, so
// the folder goes when the suite's instance does.

import Foundation
import Synchronization

/// A fresh folder under the system's temporary folder, removed when the value is released.
///
/// ```swift
/// let folder = try TemporaryFolder("import")
/// let file = try folder.write("Drafts/A-2025-10-01T00:00:00Z.inkling", bytes)
/// let archive = try Archive(path: folder.path("archive.sqlite"))
/// ```
package final class TemporaryFolder: Sendable {
  /// The folder's absolute path.
  package let path: String

  /// Creates `<tmp>/inkling-<label>-<pid>-<random>`; the label names the test in a listing.
  package init(_ label: String = "test") throws {
    let base = FileManager.default.temporaryDirectory.path
    path = base + "/inkling-\(label)-\(getpid())-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// A folder for a fixture a whole suite shares through a static property, which is never
  /// released: removed when the test process exits instead.
  package static func forTheProcess(_ label: String) throws -> TemporaryFolder {
    let folder = try TemporaryFolder(label)
    removeAtExit(folder.path)
    return folder
  }

  /// Removes the folder at `path` when the test process exits: for a fixture kept in a static
  /// property, whose folder no deinit removes.
  package static func removeAtExit(_ path: String) {
    _ = FoldersRemovedAtExit.handler
    FoldersRemovedAtExit.paths.withLock { $0.append(path) }
  }

  /// A path inside the folder.
  package func path(_ relative: String) -> String { path + "/" + relative }

  /// Creates a folder inside this one (and those above it); returns its path.
  @discardableResult
  package func makeFolder(_ relative: String) throws -> String {
    let folder = path(relative)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Writes a file (creating folders) and optionally sets its modification time; returns its path.
  @discardableResult
  package func write(_ relative: String, _ bytes: [UInt8], modified: Date? = nil) throws -> String {
    let file = path(relative)
    try FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    if let modified {
      try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file)
    }
    return file
  }

  /// Writes text as UTF-8; returns the file's path.
  @discardableResult
  package func write(_ relative: String, _ text: String, modified: Date? = nil) throws -> String {
    try write(relative, Array(text.utf8), modified: modified)
  }

  /// The bytes of a file inside the folder.
  package func read(_ relative: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path(relative))))
  }
}

/// The folders `TemporaryFolder.removeAtExit` was given.
private enum FoldersRemovedAtExit {
  static let paths = Mutex<[String]>([])

  /// Registers the exit handler once: a static's initializer runs once, whichever thread asks.
  static let handler: Void = {
    atexit {
      for path in FoldersRemovedAtExit.paths.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
  }()
}
