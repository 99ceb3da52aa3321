// Where the tests find the real device drawings, which are the format's
// ground truth. They live inside the repository (`Tests/Fixtures/pkdrawing`, with where each
// came from in its SOURCES.md), so that a plain clone runs its tests with nothing beside it.

import Foundation

/// The real device drawings in the package.
package enum DeviceSamples {
  /// The folder of real PencilKit drawings.
  package static var drawingsFolder: String { PackageFolder.path("Tests/Fixtures/pkdrawing") }

  /// The names of the device samples the tests rely on.
  package static let drawingNames = [
    "empty", "pen-marker-hidden", "three-pen-strokes", "handwritten-half-notes",
  ]

  /// The bytes of the sample `name` (`<name>.pkdrawing`).
  ///
  /// - Throws: when the file cannot be read.
  package static func drawing(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: drawingsFolder + "/\(name).pkdrawing")))
  }
}
