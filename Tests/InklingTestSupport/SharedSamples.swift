// Where the tests find the package and the read-only reference folder (`../shared`), whose
// device samples are the format's ground truth.

import Foundation

/// The package's folder and the shared reference folder beside it.
package enum SharedSamples {
  /// The package root, from this file's path (`<package>/Tests/InklingTestSupport/…`).
  package static var packageFolder: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path
  }

  /// The shared folder: `$INKLING_SHARED`, else `shared` beside the package.
  package static var sharedFolder: String {
    if let shared = ProcessInfo.processInfo.environment["INKLING_SHARED"], !shared.isEmpty { return shared }
    return URL(fileURLWithPath: packageFolder).deletingLastPathComponent().appendingPathComponent("shared").path
  }

  /// The folder of real PencilKit drawings (`samples/pkdrawing`).
  package static var drawingsFolder: String { sharedFolder + "/samples/pkdrawing" }

  /// The names of the device samples the tests rely on.
  package static let drawingNames = [
    "empty", "pen-marker-hidden", "three-pen-strokes", "handwritten-half-notes",
  ]

  /// The bytes of the sample `name` (`<name>.pkdrawing`).
  ///
  /// - Throws: when the file cannot be read (the shared folder is missing).
  package static func drawing(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: drawingsFolder + "/\(name).pkdrawing")))
  }
}
