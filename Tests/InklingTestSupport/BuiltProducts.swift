// Where the tests find the binaries that `swift build --build-tests` made: beside the test
// bundle, or in `$INKLING_BIN` (to test another build, such as the static release).

import Foundation

/// The folder of the built products and the tool in it.
package enum BuiltProducts {
  /// `$INKLING_BIN`, else the first folder above the test bundle that holds `inkling-archive`.
  package static var folder: String {
    if let folder = ProcessInfo.processInfo.environment["INKLING_BIN"] { return folder }
    var url = Bundle.main.bundleURL
    while !FileManager.default.fileExists(atPath: url.appendingPathComponent("inkling-archive").path),
      url.path != "/"
    {
      url.deleteLastPathComponent()
    }
    return url.path
  }

  /// The built `inkling-archive`.
  package static var inklingArchive: String { folder + "/inkling-archive" }
}
