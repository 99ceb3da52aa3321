// Shared helpers for the drawing-format tests: the real device samples, a deterministic
// random number generator and a generator of random drawings the writer accepts.

import Foundation
@testable import InklingFormats

/// The real PencilKit drawings in `shared/samples/pkdrawing` (read-only fixtures).
///
/// The folder is found next to the package (`<package>/../shared`), or where the environment
/// variable `INKLING_SHARED` points (the `shared` folder itself).
enum DrawingSamples {
  static let names = [
    "empty", "pen-marker-hidden", "three-pen-strokes", "handwritten-half-notes",
  ]

  static var directory: URL {
    if let shared = ProcessInfo.processInfo.environment["INKLING_SHARED"], !shared.isEmpty {
      return URL(fileURLWithPath: shared).appendingPathComponent("samples/pkdrawing")
    }
    // #filePath is <package>/Tests/InklingFormatsTests/DrawingTestSupport.swift.
    let package = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return package.deletingLastPathComponent().appendingPathComponent("shared/samples/pkdrawing")
  }

  static func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: directory.appendingPathComponent("\(name).pkdrawing")))
  }

  static func drawing(_ name: String) throws -> Drawing {
    try Drawing(bytes: bytes(name))
  }
}

/// SplitMix64: a small, fast, deterministic generator, so random tests repeat exactly.
struct DrawingTestRandom: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension UUIDBytes {
  /// A UUID whose bytes are all `byte` except the last, which is `index`.
  static func test(_ byte: UInt8, _ index: UInt8 = 0) -> UUIDBytes {
    UUIDBytes([UInt8](repeating: byte, count: 15) + [index])
  }
}
