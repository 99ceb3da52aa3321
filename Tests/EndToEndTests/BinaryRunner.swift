// The built binaries, run as a person would: found beside the test bundle, started through
// InklingTestSupport's ChildProcess, never with the caller's own archive.

import Foundation
import InklingTestSupport

/// Runs the built binaries in a temporary folder, `inkling-archive` on one archive.
///
/// ```swift
/// let runner = try BinaryRunner(fresh: "cli", making: ["Drafts"])   // <tmp>/inkling-cli-…/archive.sqlite
/// let list = try runner.run(["list", "--json"])
/// ```
struct BinaryRunner {
  /// The folder the commands run in, removed when the last copy of the runner goes.
  let temporary: TemporaryFolder
  let archive: String
  var workingDirectory: String { temporary.path }

  /// A runner in `folder`, on `archive` (`archive.sqlite` there by default).
  init(in folder: TemporaryFolder, archive: String? = nil) {
    temporary = folder
    self.archive = archive ?? folder.path("archive.sqlite")
  }

  /// A runner in a fresh temporary folder named after `label`, with `folders` made inside it.
  init(fresh label: String, making folders: [String] = []) throws {
    let folder = try TemporaryFolder(label)
    for relative in folders { try folder.makeFolder(relative) }
    self.init(in: folder)
  }

  /// The folder of the built products.
  static var binFolder: String { BuiltProducts.folder }

  /// The variables the children see changed: an archive named by the person running the tests
  /// must never be the one a test writes.
  static let environment: [String: String?] = ["INKLING_ARCHIVE": nil]

  /// Runs `binary` to its end; `inkling-archive` gets `--archive` first.
  @discardableResult
  func run(_ arguments: [String], binary: String = "inkling-archive", environment: [String: String] = [:]) throws
    -> ChildProcess.Result
  {
    var variables = Self.environment
    for (key, value) in environment { variables[key] = value }
    return try ChildProcess.run(
      [Self.binFolder + "/" + binary] + (binary == "inkling-archive" ? ["--archive", archive] : []) + arguments,
      environment: variables, workingDirectory: workingDirectory)
  }

  /// Starts the built `inkling-archive` with `arguments` and returns at once, for the tests
  /// that kill it, wait with a deadline or read its peak memory.
  static func start(_ arguments: [String], outputFolder: String) throws -> ChildProcess {
    try ChildProcess([inklingArchiveBinary] + arguments, environment: environment, outputFolder: outputFolder)
  }
}

/// The built binary's path.
var inklingArchiveBinary: String { BuiltProducts.inklingArchive }

/// Runs `sqlite3` on a file and returns its output, or what went wrong.
func sqlite3(_ path: String, _ sql: String) throws -> String {
  // A busy timeout: without one, sqlite3 fails at once while an archive's last connection
  // checkpoints its WAL on close.
  let result = try ChildProcess.run(["/usr/bin/sqlite3", "-cmd", ".timeout 10000", path, sql])
  guard result.status == 0 else { return "sqlite3 failed: " + result.stderr }
  return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Every regular file under `folder`, relative paths.
func filesUnder(_ folder: String) -> [String] {
  guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
  var result: [String] = []
  while let path = enumerator.nextObject() as? String {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
      result.append(path)
    }
  }
  return result.sorted()
}
